"""Reading a record's MoveStrings liberally: the forms other programs write, rewritten to UHP's before the board
checks them (the board's own parser reads UHP strictly).

Rewritten forms:

- a single bug numbered as Boardspace writes it, ``wM1``, ``bL1``, ``wP1`` (or ``wQ1``): read as ``wM``...;
- a move written with a direction that points at a taken cell, ``wB1 bQ-`` where ``wA1`` stands east of ``bQ``
  (hivegame.com's way of climbing): read as ``wB1 wA1``, on top of the stack there, which only a piece that may
  climb can legally do;
- other letter cases and spacing (``wa1  -BQ``): respelled ``wA1 -bQ``.

A bug with several copies written without its number (``wA``) is ambiguous and rejected, as is a number the bug
does not have (``wM2``); whatever the rewritten text does not make legal is rejected with the rule it breaks.
"""

from __future__ import annotations

import re

from ..games.hive import PIECE_NAMES, Board
from ..games.hive.errors import InvalidMoveError
from ..games.hive.geometry import NEIGHBOUR
from ..games.hive.pieces import BUG_COUNT, BUG_LETTERS, BUG_NAMES, PIECE_IDS

NUMBERED = "numbered"
CLIMB = "climb"
SPELLING = "spelling"

_AFTER = {"/": 0, "-": 1, "\\": 2}
_BEFORE = {"/": 3, "-": 4, "\\": 5}
_NAME = re.compile(r"([wb])([qsbgamlp])([0-9]*)", re.IGNORECASE)
_SHOWN = 6  # move numbers listed in a warning before "and N more"


def _canonical() -> frozenset[str]:
    texts = {"pass", *PIECE_NAMES}
    for name in PIECE_NAMES:
        for ref in PIECE_NAMES:
            texts.add(f"{name} {ref}")
            texts.update(f"{name} {ref}{mark}" for mark in _AFTER)
            texts.update(f"{name} {mark}{ref}" for mark in _BEFORE)
    return frozenset(texts)


#: Every MoveString as UHP writes it (``pass``, ``wQ``, ``bA1 -wQ``...).
CANONICAL = _canonical()


def rewrite(text: str, board: Board | None = None) -> tuple[str, list[tuple[str, str]]]:
    """The UHP MoveString ``text`` stands for, and what was rewritten as ``(kind, detail)`` notes.

    :param board: the position the move is played in, to read a direction at a taken cell as a climb
        (without it only names and spelling are rewritten).
    :raises InvalidMoveError: for an unknown or ambiguous piece name.
    """
    words = text.split()
    notes: list[tuple[str, str]] = []
    if " ".join(words) != text:
        notes.append((SPELLING, text))
    if len(words) == 1 and words[0].lower() == "pass":
        if words[0] != "pass":
            notes.append((SPELLING, text))
        return "pass", notes
    if not 1 <= len(words) <= 2:
        return text, []  # not a MoveString: the board says so
    name = _piece(words[0], text, notes)
    if len(words) == 1:
        return name, notes
    ref, before, after = words[1], "", ""
    if ref[-1:] in _AFTER:
        ref, after = ref[:-1], ref[-1]
    elif ref[:1] in _BEFORE:
        ref, before = ref[1:], ref[0]
    ref_name = _piece(ref, text, notes)
    written = f"{name} {before}{ref_name}{after}"
    if board is not None and (before or after):
        top = _taken(board, name, ref_name, _AFTER[after] if after else _BEFORE[before])
        if top is not None:
            canonical = f"{name} {top}"
            where = f"{before}{ref_name}{after}"
            notes.append(
                (CLIMB, f"'{text}' read as '{canonical}': the cell {where} is taken, so the move climbs on it")
            )
            return canonical, notes
    return written, notes


def _piece(word: str, text: str, notes: list[tuple[str, str]]) -> str:
    """The UHP name of the piece ``word`` names, noting a rewrite; raises for a name that names none or several."""
    pid = PIECE_IDS.get(word.lower(), -1)
    if pid >= 0:
        if word != PIECE_NAMES[pid]:
            notes.append((SPELLING, text))
        return PIECE_NAMES[pid]
    match = _NAME.fullmatch(word)
    if match is None:
        raise InvalidMoveError(f"Invalid MoveString {text!r}: unknown piece {word!r}.")
    colour, letter, number = match.groups()
    kind = BUG_LETTERS.index(letter.upper())
    count, bug = BUG_COUNT[kind], BUG_NAMES[kind]
    if count == 1 and number == "1":
        notes.append((NUMBERED, word))
        return colour.lower() + letter.upper()
    if count > 1 and not number:
        names = ", ".join(f"{colour.lower()}{letter.upper()}{n}" for n in range(1, count + 1))
        raise InvalidMoveError(f"Invalid MoveString {text!r}: {word!r} is ambiguous: which {bug} ({names})?")
    copies = f"each player has one {bug}" if count == 1 else f"a player's {bug} pieces are numbered 1 to {count}"
    raise InvalidMoveError(f"Invalid MoveString {text!r}: unknown piece {word!r} ({copies}).")


def _taken(board: Board, name: str, ref_name: str, direction: int) -> str | None:
    """The top piece of the cell a direction names, when a piece in play would move onto it; else ``None``."""
    src, ref_cell = board.pos[PIECE_IDS[name.lower()]], board.pos[PIECE_IDS[ref_name.lower()]]
    if src < 0 or ref_cell < 0:
        return None  # a placement on a taken cell stays as written: the board names the rule
    cell = NEIGHBOUR[ref_cell * 6 + direction]
    return PIECE_NAMES[board.top[cell]] if board.height[cell] and cell != src else None


class Rewrites:
    """The rewrites of one record's MoveStrings, by kind, told as the game's warnings."""

    __slots__ = ("climbs", "moves", "samples")

    def __init__(self) -> None:
        self.moves: dict[str, list[int]] = {}
        self.samples: dict[str, str] = {}
        self.climbs: list[str] = []

    def add(self, number: int, notes: list[tuple[str, str]]) -> None:
        """Note the rewrites of move ``number``."""
        for kind, detail in notes:
            if kind == CLIMB:
                self.climbs.append(f"move {number} {detail}")
                continue
            numbers = self.moves.setdefault(kind, [])
            if not numbers or numbers[-1] != number:
                numbers.append(number)
            self.samples.setdefault(kind, detail)

    def warnings(self) -> list[str]:
        """One warning per kind of rewrite (one per climb), naming the moves."""
        out = []
        if NUMBERED in self.moves:
            sample = self.samples[NUMBERED]
            out.append(
                f"{_moves(self.moves[NUMBERED])}: single bugs numbered as Boardspace writes them ('{sample}') read"
                f" as UHP's ('{sample[:2]}')"
            )
        out.extend(self.climbs)
        if SPELLING in self.moves:
            sample = self.samples[SPELLING]
            out.append(f"{_moves(self.moves[SPELLING])}: respelled as UHP writes MoveStrings (first '{sample}')")
        return out


def _moves(numbers: list[int]) -> str:
    shown = ", ".join(map(str, numbers[:_SHOWN]))
    more = f" and {len(numbers) - _SHOWN} more" if len(numbers) > _SHOWN else ""
    return f"move{'s' if len(numbers) > 1 else ''} {shown}{more}"
