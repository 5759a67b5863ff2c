"""``hive perft``: count the leaves of a game's move tree at each depth, from the start, a record or a position
record. A board that counts its own tree (:class:`~hive.game.CountsPerft`: Hive's, in its core) counts it; any
other counts through the game protocol (HiveQueen: whole turns, a movement with its productions)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..game import CountsPerft, Game, InvalidRecordError
from ..games import find_game
from ..plugin import GameSpec
from ..position_records import is_position_record


def cmd_perft(args: argparse.Namespace) -> int:
    """Print ``<depth> <count> <seconds>`` for each depth from 0; returns the exit code."""
    if args.depth < 0:
        print(f"hive perft: depth must be >= 0, not {args.depth}", file=sys.stderr)
        return 2
    try:
        board = start(args.game, original_opening=args.original_opening)
    except ValueError as err:
        print(f"hive perft: {err}", file=sys.stderr)
        return 2
    begun = time.perf_counter()
    for depth in range(args.depth + 1):
        began = time.perf_counter()
        print(f"{depth} {count(board, depth)} {time.perf_counter() - began:.3f}", flush=True)
    if args.verbose:
        print(f"total {time.perf_counter() - begun:.3f} s", file=sys.stderr)
    return 0


def count(board: Game[Any], depth: int) -> int:
    """The number of move sequences ``depth`` moves long from ``board``: the board's own count where it offers one
    (:class:`~hive.game.CountsPerft`), else :func:`perft`'s."""
    return board.perft(depth) if isinstance(board, CountsPerft) else perft(board, depth)


def start(text: str, *, original_opening: bool = False) -> Game[Any]:
    """The board ``text`` names: a game's name (``Base+MLP``, ``HiveQueen``), a game's record where the game
    writes them on one line (a Hive GameString), or any game's position record.

    :raises ValueError: (the game's own error) naming what ``text`` is not.
    """
    fields = [field.strip() for field in text.strip().split(";")]
    record = is_position_record(text)
    name = fields[1] if record and len(fields) > 1 else fields[0]
    spec = find_game(name)
    if original_opening and "tournament_opening" not in spec.options:
        raise ValueError(f"{name} has no opening rule to choose: leave out --original-opening.")
    options = {"tournament_opening": False} if original_opening else {}
    if len(fields) > 1 and _one_line_records(spec):
        try:
            return spec.from_record(text, **options)
        except InvalidRecordError:
            if not record:
                raise
    if record:
        return spec.from_position(text, **options)
    if len(fields) > 1:
        raise ValueError(
            f"{name} is counted from its start ('{name}') or from a position record ('Position;{name};...')."
        )
    return spec(**options)


def _one_line_records(spec: GameSpec) -> bool:
    """Whether ``spec``'s game writes a record on one line, its name first (a Hive GameString), so that one can be
    given on the command line."""
    written = spec().record().strip()
    return "\n" not in written and written.split(";")[0] == spec.name


def perft(board: Game[Any], depth: int) -> int:
    """The number of move sequences ``depth`` moves long from ``board``, through the game protocol (a finished game
    has none); the board is left as it was."""
    if depth == 0:
        return 1
    if board.is_game_over():
        return 0
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``perft`` subcommand."""
    perft_parser = subparsers.add_parser("perft", help="count move-tree leaves at each depth")
    perft_parser.add_argument(
        "game",
        help="a game's name (Base+MLP, HiveQueen), a UHP GameString, or a position record (Position;...)",
    )
    perft_parser.add_argument("depth", type=int)
    perft_parser.add_argument("--original-opening", action="store_true", help="Hive: allow the Queen on the first turn")
    perft_parser.add_argument("-v", "--verbose", action="store_true", help="print the total time on stderr")
    perft_parser.set_defaults(func=cmd_perft)


__all__ = ["add_parser", "cmd_perft", "count", "perft", "start"]
