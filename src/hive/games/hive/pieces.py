"""Bugs, pieces and game types.

A piece is an integer id ``0 .. 27``: white pieces are ``0 .. 13`` and black
pieces ``14 .. 27``, in the order ``Q S1 S2 B1 B2 G1 G2 G3 A1 A2 A3 M L P``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...game import text_argument
from .errors import InvalidGameTypeError

WHITE = 0
BLACK = 1
COLOUR_NAMES = ("White", "Black")

QUEEN = 0
SPIDER = 1
BEETLE = 2
GRASSHOPPER = 3
ANT = 4
MOSQUITO = 5
LADYBUG = 6
PILLBUG = 7
KINDS = 8
BUG_LETTERS = "QSBGAMLP"
BUG_NAMES = ("Queen Bee", "Spider", "Beetle", "Grasshopper", "Soldier Ant", "Mosquito", "Ladybug", "Pillbug")

#: Copies of each bug per player.
BUG_COUNT = (1, 2, 2, 3, 3, 1, 1, 1)
#: Index (within a colour) of the first copy of each bug.
BUG_FIRST = (0, 1, 3, 5, 8, 11, 12, 13)

PIECES_PER_COLOUR = 14
PIECES = 2 * PIECES_PER_COLOUR
NO_PIECE = -1

#: ``KIND[pid]``: the bug of a piece.
KIND: list[int] = [k for _ in range(2) for k in range(KINDS) for _ in range(BUG_COUNT[k])]
#: ``NUMBER[pid]``: 1, 2, 3 for bugs with several copies, else 0.
NUMBER: list[int] = [
    (i + 1 if BUG_COUNT[k] > 1 else 0) for _ in range(2) for k in range(KINDS) for i in range(BUG_COUNT[k])
]
#: ``PIECE_NAMES[pid]``: the UHP name, e.g. ``wQ``, ``bA3``.
PIECE_NAMES: list[str] = [
    "wb"[pid // PIECES_PER_COLOUR] + BUG_LETTERS[KIND[pid]] + (str(NUMBER[pid]) if NUMBER[pid] else "")
    for pid in range(PIECES)
]
PIECE_IDS: dict[str, int] = {name.lower(): pid for pid, name in enumerate(PIECE_NAMES)}


@dataclass(frozen=True)
class GameType:
    """Which expansion bugs are in play: the base game plus any of M, L, P."""

    mosquito: bool = False
    ladybug: bool = False
    pillbug: bool = False

    @classmethod
    def parse(cls, text: str) -> GameType:
        """Parse ``Base``, ``Base+M`` ... ``Base+MLP`` (case and order of the letters are not significant).

        :raises InvalidGameTypeError: naming the text when it is not a game type.
        """
        raw = text_argument(text, "a game type such as 'Base+MLP'", InvalidGameTypeError).strip()
        head, plus, tail = raw.partition("+")
        letters = tail.upper()
        if (
            head.lower() != "base"
            or (plus and not letters)
            or any(ch not in "MLP" for ch in letters)
            or len(set(letters)) != len(letters)
        ):
            raise InvalidGameTypeError(f"Unknown game type {text!r}: expected one of " + ", ".join(_NAMES) + ".")
        return cls("M" in letters, "L" in letters, "P" in letters)

    def enabled(self, kind: int) -> bool:
        """Return whether bug ``kind`` is part of this game type."""
        if kind == MOSQUITO:
            return self.mosquito
        if kind == LADYBUG:
            return self.ladybug
        if kind == PILLBUG:
            return self.pillbug
        return True

    def __str__(self) -> str:
        letters = ("M" if self.mosquito else "") + ("L" if self.ladybug else "") + ("P" if self.pillbug else "")
        return "Base+" + letters if letters else "Base"


_NAMES = ("Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP")
GAME_TYPES: tuple[GameType, ...] = tuple(GameType.parse(name) for name in _NAMES)
