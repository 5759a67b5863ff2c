"""HiveQueen's move notation: a turn written (``Wc3-c4;+Sd4``) and read back."""

from __future__ import annotations

import re

from ...game import IllegalMoveError, InvalidMoveError, text_argument
from .geometry import NAMES, parse_cell
from .move import Production, Turn
from .position import Position
from .rules import KIND_NAMES, LETTERS, NURSE

_MOVE_RE = re.compile(r"^([QHDNWS])([a-i][1-9])(?:([-x])([a-i][1-9]))?(=Q)?$", re.IGNORECASE)
_PROD_RE = re.compile(r"^\+([QHDNWS])([a-i][1-9])$", re.IGNORECASE)


def named_cell(text: str, whole: str) -> int:
    """The cell ``text`` names, a part of ``whole`` (quoted in the error).

    :raises ~hive.game.InvalidMoveError: for a name outside the field.
    """
    cell = parse_cell(text)
    if cell < 0:
        raise InvalidMoveError(f"{whole!r}: {text!r} is not a cell of the 61-cell field")
    return cell


def turn_text(position: Position, turn: Turn) -> str:
    """The notation of ``turn`` in ``position``, e.g. ``Ha1xa5``, ``Hb1=Q`` or ``Wc3-c4;+Sd4``."""
    code = position.board[turn.origin]
    letter = LETTERS[code & 7] if code else "?"
    text = f"{letter}{NAMES[turn.origin]}"
    if turn.destination != turn.origin:
        target = position.board[turn.destination]
        capture = target and target >> 3 != code >> 3
        text += f"{'x' if capture else '-'}{NAMES[turn.destination]}"
    if turn.promote:
        text += "=Q"
    return ";".join([text, *(str(p) for p in turn.productions)])


def read_turn(position: Position, text: str) -> Turn:
    """Read a turn written in ``position``'s notation, checking its form and what it says of the pieces (the
    piece's letter, ``x`` for a capture); :meth:`~hive.games.hivequeen.Board.parse_move` checks it against the rules.

    :raises ~hive.game.InvalidMoveError: for malformed text (naming it).
    :raises ~hive.game.IllegalMoveError: for a piece other than the one named (naming it).
    """
    parts = [p.strip() for p in text_argument(text, "a HiveQueen move", InvalidMoveError).strip().split(";")]
    m = _MOVE_RE.match(parts[0])
    if m is None:
        raise InvalidMoveError(
            f"{text!r} is not a HiveQueen move: expected <piece><from>-<to> or x for a capture, =Q for a "
            f"promotion, then ;+<piece><cell> per production (e.g. 'Wc3-c4;+Sd4')"
        )
    letter, src_name, sep, dst_name, promo = m.groups()
    src = named_cell(src_name, text)
    dst = named_cell(dst_name, text) if dst_name else src
    if dst_name is None and not promo:
        raise InvalidMoveError(f"{text!r}: a movement needs a destination ('-' or 'x' and a cell) or '=Q'")
    if dst_name is not None and dst == src:
        raise InvalidMoveError(f"{text!r}: the destination is the origin")
    code = position.board[src]
    colour = position.ply & 1
    if code and letter.upper() != LETTERS[code & 7]:
        raise IllegalMoveError(f"{text!r}: the piece on {NAMES[src]} is a {KIND_NAMES[code & 7]}, not {letter}")
    target = position.board[dst]
    if code and target and code >> 3 == colour and target >> 3 == colour and target & 7 == NURSE == code & 7:
        src, dst = min(src, dst), max(src, dst)  # a Nurse-Nurse swap is one movement, written either way
    if dst_name is not None and code and code >> 3 == colour:
        capture = bool(target) and target >> 3 != colour
        if capture and sep == "-":
            raise InvalidMoveError(f"{text!r}: that movement captures on {dst_name}; write 'x'")
        if not capture and sep.lower() == "x":
            raise InvalidMoveError(f"{text!r}: there is no enemy piece to capture on {dst_name}; write '-'")
    prods = []
    for part in parts[1:]:
        pm = _PROD_RE.match(part)
        if pm is None:
            raise InvalidMoveError(f"{text!r}: {part!r} is not a production (expected +<piece><cell>, e.g. +Sd4)")
        prods.append(Production(LETTERS.index(pm.group(1).upper()), named_cell(pm.group(2), text)))
    return Turn(src, dst, bool(promo), tuple(prods))
