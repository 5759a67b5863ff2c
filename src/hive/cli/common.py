"""What the arena's and the engine's commands share: how they report a failure, and how they run on their own."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence


def reported(command: str, errors: tuple[type[Exception], ...], work: Callable[[], int]) -> int:
    """Run ``work`` and return its exit code; one of ``errors`` is printed as ``hive COMMAND: message`` (exit 2),
    Ctrl-C as ``hive COMMAND: interrupted`` (exit 130), never as a traceback."""
    try:
        return work()
    except errors as err:
        print(f"hive {command}: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"hive {command}: interrupted", file=sys.stderr)
        return 130


def standalone(
    command: str, description: str, add_arguments: Callable[[argparse.ArgumentParser], None], argv: Sequence[str] | None
) -> int:
    """Run ``hive COMMAND`` alone with ``argv`` (default ``sys.argv[1:]``): its parser made by ``add_arguments``,
    whose ``func`` default runs it; returns the exit code."""
    parser = argparse.ArgumentParser(prog=f"hive {command}", description=description)
    add_arguments(parser)
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    return func(args)


__all__ = ["reported", "standalone"]
