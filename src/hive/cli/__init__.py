"""The ``hive`` command: every subcommand's options live in this package, one module each.

``hive play`` (browser or terminal), ``hive serve`` and ``hive db`` (a club's server), ``hive match`` (the arena),
``hive uhp`` (the UHP engine), ``hive perft``, ``hive convert``, ``hive replay`` and ``hive scan`` (records).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from .. import BUILD, __version__
from . import match, perft, play, records, serve, uhp


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``hive`` with every subcommand registered."""
    parser = argparse.ArgumentParser(prog="hive", description="Hive, the board game, and the games beside it.")
    parser.add_argument("--version", action="version", version=f"hive {__version__} ({BUILD})")
    sub = parser.add_subparsers(dest="command", required=True)
    play.add_parser(sub)
    serve.add_parsers(sub)
    perft.add_parser(sub)
    uhp.add_parser(sub)
    match.add_parser(sub)
    records.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hive`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    args = build_parser().parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except KeyboardInterrupt:
        return 130


__all__ = ["build_parser", "main"]
