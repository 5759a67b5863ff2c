"""Whole-game HiveQueen records: headers naming the game, then one turn per line.

A record looks like this (lines starting with ``#`` are comments, blank lines are ignored)::

    [Game "HiveQueen"]
    [South "easy"]
    [North "random"]
    [Result "SouthWins"]
    Wc3-c4;+Sd4
    Dc6-e5

A file may hold many records; each starts with its headers, and a ``[Game ...]`` header after turns starts the
next one. Reading never stops at a bad record: each game carries its own ``errors``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ...game import InvalidRecordError
from .board import GAME_NAME, Board

__all__ = ["GAME_NAME", "RESULTS", "InvalidRecordError", "QueenGame", "read_record", "read_records", "write_record"]

RESULTS = ("InProgress", "Draw", "SouthWins", "NorthWins")
_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')


@dataclass
class QueenGame:
    """One game read from a record: its headers, turn texts, final board and the errors found."""

    headers: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    board: Board = field(default_factory=Board)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every turn replayed and the headers agree with the game."""
        return not self.errors


def write_record(board: Board, headers: dict[str, str] | None = None) -> str:
    """The record of the game played on ``board`` (``Game`` and ``Result`` headers are filled in)."""
    return board.record(headers)


def _finish(game: QueenGame) -> QueenGame:
    name = game.headers.get("Game")
    if name is None:
        game.errors.insert(0, f'no [Game "{GAME_NAME}"] header')
    declared = game.headers.get("Result")
    if declared is not None and not game.errors:
        if declared not in RESULTS:
            game.errors.append(f"Result {declared!r} is not one of {', '.join(RESULTS)}")
        elif declared != game.board.state:
            game.errors.append(f"Result {declared!r} but the turns end with {game.board.state}")
    return game


def read_records(lines: Iterable[str], first: int = 1) -> Iterator[QueenGame]:
    """Read every record in ``lines`` (a file or a list of lines), one :class:`QueenGame` each; messages number the
    lines from ``first``."""
    game: QueenGame | None = None
    stopped = False
    for number, raw in enumerate(lines, start=first):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            m = _HEADER.match(line)
            starts = m is not None and m.group(1) == "Game"
            if game is not None and (game.moves or (starts and "Game" in game.headers)):
                yield _finish(game)
                game = None
            if game is None:
                game = QueenGame()
                stopped = False
            if m is None:
                game.errors.append(f'line {number}: {line!r} is not a header ([Key "value"])')
                continue
            key, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
            if key == "Game" and value != GAME_NAME:
                game.errors.append(f"line {number}: game {value!r} is not {GAME_NAME}")
                stopped = True
            game.headers[key] = value
            continue
        if game is None:
            game = QueenGame()
            stopped = False
        game.moves.append(line)
        if stopped:
            continue
        try:
            game.board.push_text(line)
        except ValueError as err:
            game.errors.append(f"line {number}, turn {len(game.moves)}: {err}")
            stopped = True
    if game is not None:
        yield _finish(game)


def read_record(text: str, first: int = 1) -> Board:
    """The board at the end of the single record ``text`` (its lines numbered from ``first`` in messages).

    :raises InvalidRecordError: naming the first problem.
    """
    games = list(read_records(text.splitlines(), first))
    if len(games) != 1:
        raise InvalidRecordError(f"expected one HiveQueen record, found {len(games)}")
    if games[0].errors:
        raise InvalidRecordError(games[0].errors[0])
    return games[0].board
