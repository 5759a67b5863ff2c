"""``hive uhp``: serve the Universal Hive Protocol on stdin and stdout (see :mod:`hive.uhp`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..uhp import run

DESCRIPTION = "Serve the Universal Hive Protocol on stdin/stdout (for MzingaViewer and other UHP clients)."


def cmd_uhp(args: argparse.Namespace) -> int:
    """Serve UHP until end of input or ``exit``."""
    return run(sys.stdin, sys.stdout)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``uhp`` subcommand."""
    parser = subparsers.add_parser(
        "uhp", help="run as a Universal Hive Protocol engine on stdin/stdout", description=DESCRIPTION
    )
    parser.set_defaults(func=cmd_uhp)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hive.uhp``: serve UHP on stdin and stdout; returns the exit code."""
    parser = argparse.ArgumentParser(prog="hive uhp", description=DESCRIPTION)
    args = parser.parse_args(argv)
    try:
        return cmd_uhp(args)
    except KeyboardInterrupt:
        return 130
