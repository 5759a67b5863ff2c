"""HiveQueen's moves as values: a turn is one movement and the productions that follow it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .geometry import CELLS, NAMES
from .rules import LETTERS
from .state import (
    END,
    PRODUCE,
    is_promotion,
    movement_step,
    production_step,
    step_destination,
    step_origin,
)

if TYPE_CHECKING:
    from .board import Board


@dataclass(frozen=True)
class Production:
    """A piece introduced in the production phase: ``kind`` (a rules kind code) on ``cell``."""

    kind: int
    cell: int

    @property
    def step(self) -> int:
        """The core step int."""
        return production_step(self.kind, self.cell)

    def __str__(self) -> str:
        return f"+{LETTERS[self.kind]}{NAMES[self.cell]}"


@dataclass(frozen=True)
class Turn:
    """One turn: a movement from ``origin`` to ``destination`` (equal for a promotion in place),
    ``promote`` when a Highborn becomes Queen, then the productions in order."""

    origin: int
    destination: int
    promote: bool = False
    productions: tuple[Production, ...] = ()

    @property
    def movement_step(self) -> int:
        """The core step int of the movement."""
        return movement_step(self.origin, self.destination, self.promote)

    def steps(self) -> list[int]:
        """The core steps of the turn, without the final ``END``."""
        return [self.movement_step] + [p.step for p in self.productions]

    @classmethod
    def from_steps(cls, steps: list[int]) -> Turn:
        """The turn made of core steps: the first, a movement, and the productions that follow it, up to the first
        step that is not one (``END``, or a step of the next turn)."""
        first = steps[0]
        end = 1
        while end < len(steps) and steps[end] < END and steps[end] & PRODUCE:
            end += 1
        prods = tuple(_PRODUCTIONS[s] for s in steps[1:end])
        return cls(step_origin(first), step_destination(first), is_promotion(first), prods)

    def with_production(self, production: Production) -> Turn:
        """This turn with one more production."""
        return Turn(self.origin, self.destination, self.promote, (*self.productions, production))

    @property
    def movement(self) -> Turn:
        """The movement alone."""
        return Turn(self.origin, self.destination, self.promote)


class LegalTurns:
    """The legal whole turns of a board, generated when iterated (each set of productions once)."""

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        self.board = board

    def __iter__(self) -> Iterator[Turn]:
        return self.board.legal_turns()

    def __len__(self) -> int:
        return len(self.board._turn_list())

    def __bool__(self) -> bool:
        return bool(self.board.legal_movements)

    def __contains__(self, turn: object) -> bool:
        return isinstance(turn, Turn) and self.board.is_legal(turn)


def production_of(step: int) -> Production:
    """The production of core step ``step`` (one shared value per step).

    :raises KeyError: when ``step`` is not a production step.
    """
    return _PRODUCTIONS[step]


# every production as a value, by its step (productions are values: one of each is enough)
_PRODUCTIONS = {production_step(kind, cell): Production(kind, cell) for kind in range(8) for cell in range(CELLS)}
