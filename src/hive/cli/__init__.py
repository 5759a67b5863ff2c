"""The ``hive`` command: every subcommand's options live in this package, one module each.

``hive play`` (browser or terminal), ``hive serve`` and ``hive db`` (a club's server), ``hive match`` and
``hive tournament`` (the arena), ``hive tune`` (the AI's parameters tuned), ``hive uhp`` (the UHP engine), ``hive bot``
(an engine on a server), ``hive perft``, ``hive convert``, ``hive replay`` and ``hive scan`` (records).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .. import BUILD, __version__
from . import bot, match, perft, play, push, records, serve, tournament, tune, uhp

#: The options of ``hive`` itself, before its command.
_OWN_OPTIONS = ("-h", "--help", "--version")


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``hive`` with every subcommand registered."""
    parser = argparse.ArgumentParser(prog="hive", description="Hive, the board game, and the games beside it.")
    parser.add_argument("--version", action="version", version=f"hive {__version__} ({BUILD})")
    sub = parser.add_subparsers(dest="command", required=True)
    play.add_parser(sub)
    serve.add_parsers(sub)
    push.add_parser(sub)
    perft.add_parser(sub)
    uhp.add_parser(sub)
    match.add_parser(sub)
    tournament.add_parser(sub)
    tune.add_parser(sub)
    bot.add_parser(sub)
    records.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hive`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    parser = build_parser()
    given = list(sys.argv[1:] if argv is None else argv)
    for word in given:
        if not word.startswith("-"):
            break  # the command: what follows is its own
        if word not in _OWN_OPTIONS:
            parser.error(f"unrecognized option {word!r}: hive takes only --help and --version before its command")
    args = parser.parse_args(given)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except KeyboardInterrupt:
        return 130


__all__ = ["build_parser", "main"]
