"""Hexline, a third game for the tests: a game package written only against the shared infrastructure, to prove
that a new game runs through every app without editing one.

Two players, X and O, place stones in turn on the 19 cells of a hex field of radius 2 (axial coordinates, as Hive's
grid); three stones of one colour in a row along any of the grid's three axes win, and a full field is a draw. A
move is written as its cell, ``q,r`` (``0,0`` is the middle); a game's record is ``Hexline`` then its moves, ``;``
between them; a position record is ``Position;Hexline;<turn>;<19 cells of . x o>``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from hive.game import (
    DRAW,
    FIRST_WINS,
    IN_PROGRESS,
    Ending,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    Outcome,
    Termination,
    text_argument,
)
from hive.gameboard import GameBoard
from hive.plugin import GameAI, GamePlugin, GameSpec
from hive.position_records import parse_turn, position_fields, quoted, turn_text
from hive.search import Limits, SearchResult

NAME = "Hexline"
RADIUS = 2
CELLS = [(q, r) for q in range(-RADIUS, RADIUS + 1) for r in range(-RADIUS, RADIUS + 1) if abs(q + r) <= RADIUS]
INDEX = {cell: i for i, cell in enumerate(CELLS)}
NAMES = [f"{q},{r}" for q, r in CELLS]
#: Every run of three cells in a row along an axis.
LINES = [
    (INDEX[q, r], INDEX[q + dq, r + dr], INDEX[q + 2 * dq, r + 2 * dr])
    for (q, r) in CELLS
    for dq, dr in ((1, 0), (0, 1), (1, -1))
    if (q + 2 * dq, r + 2 * dr) in INDEX
]
STONES = ".xo"

LINE = Ending("three in a row", "{winner} has three in a row")
FULL = Ending("full field", "the field is full")


@dataclass(frozen=True)
class Place:
    """A move: a stone on the cell ``cell`` (an index of :data:`CELLS`)."""

    cell: int

    def __str__(self) -> str:
        return NAMES[self.cell]


class Moves:
    """The empty cells' moves of a position."""

    def __init__(self, board: Board) -> None:
        self._moves = [Place(c) for c, stone in enumerate(board.cells) if not stone] if not board.is_game_over() else []

    def __iter__(self) -> Iterator[Place]:
        return iter(self._moves)

    def __len__(self) -> int:
        return len(self._moves)

    def __contains__(self, move: object) -> bool:
        return move in self._moves


class Board(GameBoard[Place]):
    """A game of Hexline through the game protocol (:class:`hive.game.Game`)."""

    sides: ClassVar[tuple[str, str]] = ("X", "O")
    state_names: ClassVar[tuple[str, ...]] = ("NotStarted", "InProgress", "Draw", "XWins", "OWins")
    game_name = NAME

    def __init__(self) -> None:
        self.cells = [0] * len(CELLS)
        self.ply = 0
        self.status = IN_PROGRESS
        self.start = 0
        self.first = [0] * len(CELLS)  # the position the game was set up from
        self.history: list[Place] = []
        self._init_texts()

    @property
    def legal_moves(self) -> Moves:
        return Moves(self)

    @property
    def move_stack(self) -> list[Place]:
        return list(self.history)

    def parse_move(self, text: str) -> Place:
        move = self._read(text)
        if not self.is_legal(move):
            raise IllegalMoveError(self._refusal(move))
        return move

    @staticmethod
    def _read(text: str) -> Place:
        text = text_argument(text, "a cell such as '0,0'", InvalidMoveError).strip()
        cell = NAMES.index(text) if text in NAMES else -1
        if cell < 0:
            raise InvalidMoveError(f"Invalid move {quoted(text)}: a move is a cell of the field, 'q,r', such as '0,0'.")
        return Place(cell)

    def _refusal(self, move: Place) -> str:
        if self.is_game_over():
            return f"Illegal move {move}: the game is over."
        return f"Illegal move {move}: the cell is taken; a stone goes on an empty cell."

    def move_text(self, move: Place) -> str:
        return str(move)

    def is_legal(self, move: object) -> bool:
        return isinstance(move, Place) and not self.is_game_over() and not self.cells[move.cell]

    def push(self, move: Place, text: str | None = None) -> None:
        if not self.is_legal(move):
            raise IllegalMoveError(self._refusal(move))
        self._repush(move)
        self._pushed(len(self.history) - 1, move, text)

    def _repush(self, move: Place) -> None:
        self.cells[move.cell] = 1 + (self.ply & 1)
        self.history.append(move)
        self.ply += 1
        self.status = self._status()

    def pop(self) -> Place:
        if not self.history:
            raise IndexError("pop from an empty move stack")
        move = self.history.pop()
        self.cells[move.cell] = 0
        self.ply -= 1
        self.status = IN_PROGRESS
        self._popped(len(self.history))
        return move

    def push_text(self, text: str) -> Place:
        move = self.parse_move(text)
        self.push(move, str(move))
        return move

    def push_stored(self, text: str) -> Place:
        move = self._read(text)  # trusted: a stone on a taken cell is played as it reads
        self._repush(move)
        self._pushed(len(self.history) - 1, move, str(move))
        return move

    def _status(self) -> int:
        for a, b, c in LINES:
            if self.cells[a] and self.cells[a] == self.cells[b] == self.cells[c]:
                return FIRST_WINS + self.cells[a] - 1
        return DRAW if all(self.cells) else IN_PROGRESS

    def outcome(self) -> Outcome | None:
        if self.status == IN_PROGRESS:
            return None
        if self.status == DRAW:
            return FULL(None, self.sides)
        return LINE(self.status - FIRST_WINS, self.sides)

    def adjudicate(self) -> Outcome:
        return self.outcome() or Outcome(Termination.ADJUDICATION, None, self.sides)

    def copy(self) -> Board:
        board = Board()
        board.cells, board.ply, board.status, board.start = list(self.cells), self.ply, self.status, self.start
        board.first = self.first
        board.history = list(self.history)
        board._init_texts(list(zip(self.history, self.move_texts(), strict=True)))
        return board

    def record(self, headers: Mapping[str, str] | None = None) -> str:
        start = [self._position(self.start, self.first)] if self.start or any(self.first) else []
        return ";".join([NAME, *start, *self.move_texts()])

    @classmethod
    def from_record(cls, text: str) -> Board:
        fields = text_argument(text, "a Hexline record", InvalidRecordError).strip().split(";")
        if fields[0] != NAME:
            raise InvalidRecordError(f"Not a Hexline record: it starts with {quoted(fields[0])}, not '{NAME}'.")
        moves = fields[1:]
        board = cls()
        if moves and moves[0].startswith("Position"):
            board = cls.from_position(";".join(moves[0:4]))
            moves = moves[4:]
        for move in moves:
            board.push_text(move)
        return board

    def position_text(self) -> str:
        return self._position(self.ply, self.cells)

    def _position(self, ply: int, cells: list[int]) -> str:
        return f"Position;{NAME};{turn_text(ply, self.sides)};{''.join(STONES[s] for s in cells)}"

    @classmethod
    def from_position(cls, text: str) -> Board:
        fields = position_fields(text, 4, f"{NAME};<turn>;<19 cells of . x o>")
        if fields[1] != NAME:
            raise InvalidPositionError(f"Invalid position: {quoted(text)} is not a position of {NAME}.")
        if len(fields[3]) != len(CELLS) or set(fields[3]) - set(STONES):
            raise InvalidPositionError(f"Invalid position: {quoted(fields[3])} is not 19 cells of . x o.")
        board = cls()
        board.cells = [STONES.index(s) for s in fields[3]]
        board.ply = board.start = parse_turn(fields[2], cls.sides)
        board.first = list(board.cells)
        board.status = board._status()
        return board


class Searcher:
    """A plain negamax to the limits' depth: enough to play the toy, and the shape every game's searcher has."""

    def __init__(self, seed: int | None = None, opening_noise: int = 0) -> None:
        self.rng = random.Random(seed) if seed is not None else None
        self.nodes = 0

    def search(self, board: Board, limits: Limits) -> SearchResult[Place]:
        began = time.perf_counter()
        self.nodes = 0
        depth = min(limits.depth or 3, 4)
        moves = list(board.legal_moves)
        if not moves:
            raise ValueError("The game is over: there is no move to choose.")
        if self.rng is not None:
            self.rng.shuffle(moves)
        work = board.copy()
        best, score = moves[0], -(10**9)
        for move in moves:
            work.push(move)
            value = -self._negamax(work, depth - 1)
            work.pop()
            if value > score:
                best, score = move, value
        return SearchResult(best, score, depth, self.nodes, time.perf_counter() - began)

    def _negamax(self, board: Board, depth: int) -> int:
        self.nodes += 1
        if board.status != IN_PROGRESS:
            return 0 if board.status == DRAW else -1_000_000  # the side to move lost
        if depth == 0:
            return 0
        best = -(10**9)
        for move in list(board.legal_moves):
            board.push(move)
            best = max(best, -self._negamax(board, depth - 1))
            board.pop()
        return best


def random_move(board: Any, rng: random.Random) -> Place:
    """A random legal move."""
    moves: list[Place] = list(board.legal_moves)
    if not moves:
        raise ValueError("The game is over: there is no move to choose.")
    return rng.choice(moves)


SPEC = GameSpec(
    name=NAME,
    kind="toygame",
    title="Hexline",
    sides=Board.sides,
    new=Board,
    ai=GameAI(
        levels={"easy": Limits(depth=1), "medium": Limits(depth=2), "hard": Limits(depth=3), "max": Limits(depth=4)},
        searcher=Searcher,
        random_move=random_move,
    ),
    move_noun="move",
    record_noun="Hexline record",
)

PLUGIN = GamePlugin(
    kind="toygame",
    games={NAME: SPEC},
    find=lambda name: SPEC if name.strip().lower() == NAME.lower() else None,
    endings=(LINE, FULL),
    package=__name__,
    view="tests.toygame.view:VIEW",
    static=Path(__file__).parent / "page",
    encoding="tests.toygame.encoding:ENCODING",
    settings={
        "arena": {"max_moves": 19},
        "cli": {"help": "Type a cell, 'q,r', such as '0,0'."},
        "web": {"hint_level": "easy"},
    },
)
