"""``hive perft``: count the leaves of Hive's move tree at each depth, from the start, a GameString or a position
record."""

from __future__ import annotations

import argparse
import sys
import time

from ..games.hive import Board


def cmd_perft(args: argparse.Namespace) -> int:
    """Print ``<depth> <count> <seconds>`` for each depth from 0; returns the exit code."""
    text: str = args.game
    try:
        board = Board.from_record(text, tournament_opening=not args.original_opening)
    except ValueError as err:
        print(f"hive perft: {err}", file=sys.stderr)
        return 2
    if args.depth < 0:
        print(f"hive perft: depth must be >= 0, not {args.depth}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    for depth in range(args.depth + 1):
        began = time.perf_counter()
        count = board.perft(depth)
        print(f"{depth} {count} {time.perf_counter() - began:.3f}", flush=True)
    if args.verbose:
        print(f"total {time.perf_counter() - start:.3f} s", file=sys.stderr)
    return 0


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``perft`` subcommand."""
    perft = subparsers.add_parser("perft", help="count move-tree leaves at each depth")
    perft.add_argument("game", help="a game type (e.g. Base+MLP), a UHP GameString or a position record (Position;...)")
    perft.add_argument("depth", type=int)
    perft.add_argument("--original-opening", action="store_true", help="allow the Queen on the first turn")
    perft.add_argument("-v", "--verbose", action="store_true", help="print the total time on stderr")
    perft.set_defaults(func=cmd_perft)


__all__ = ["add_parser", "cmd_perft"]
