"""Position records shared by every game: a record of a position that no move list records (``Position;<game>;
<turn>;...``), its fields, its turn string and how its messages quote a text. Each game's own record lives beside its
board (``games/<kind>/position_record.py``)."""

from __future__ import annotations

import re

from .game import InvalidPositionError, text_argument

#: The first field of every game's position record (``Position;<game>;<turn>;...``).
POSITION_TAG = "Position"
_TURN = re.compile(r"^(\w+)\[(\d{1,9})\]$")
#: The highest turn number a position record may give.
MAX_TURN = 10_000


def is_position_record(text: str) -> bool:
    """Whether ``text`` is a position record (its first ``;``-separated field is ``Position``, in any case)."""
    return text.lstrip().partition(";")[0].strip().lower() == POSITION_TAG.lower()


def position_fields(text: str, least: int, form: str) -> list[str]:
    """The ``;``-separated fields of the position record ``text``, stripped.

    :raises InvalidPositionError: when its first field is not ``Position``, or it has fewer than ``least`` fields
        (``form`` shows what they are).
    """
    fields = [field.strip() for field in text_argument(text, "a position record", InvalidPositionError).split(";")]
    if fields[0].lower() != POSITION_TAG.lower():
        raise InvalidPositionError(
            f"Invalid position: a position record starts with '{POSITION_TAG}', not {quoted(fields[0])}."
        )
    if len(fields) < least:
        raise InvalidPositionError(f"Invalid position: {quoted(text)} is not written '{POSITION_TAG};{form}'.")
    return fields


def quoted(text: str, limit: int = 100) -> str:
    """A text as a message quotes it: between single quotes, its white space as single spaces, and no more than
    ``limit`` characters of it (then ``…`` and its length)."""
    shown = " ".join(text.split())
    if not shown.isprintable():  # a lone surrogate could not even be printed; a control character would act
        shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in shown)
    if len(shown) > limit:
        return f"'{shown[:limit]}…' ({len(text):,} characters)"
    return f"'{shown}'"


def turn_text(ply: int, sides: tuple[str, str]) -> str:
    """The turn string of ``ply`` (UHP's form): the side to move and its turn number, ``White[7]``, ``North[3]``."""
    return f"{sides[ply & 1]}[{1 + ply // 2}]"


def parse_turn(text: str, sides: tuple[str, str]) -> int:
    """The ply a turn string such as ``White[7]`` names (the side in any case).

    :raises InvalidPositionError: naming the text when it is not a turn of ``sides`` from 1 to :data:`MAX_TURN`.
    """
    match = _TURN.match(text.strip())
    names = [side.lower() for side in sides]
    if match is None or match[1].lower() not in names:
        raise InvalidPositionError(
            f"Invalid position: turn {quoted(text)} is not a turn such as '{sides[0]}[1]' or '{sides[1]}[7]'."
        )
    number = int(match[2])
    if not 1 <= number <= MAX_TURN:
        raise InvalidPositionError(f"Invalid position: turn {quoted(text)}: the turn number must be 1 to {MAX_TURN:,}.")
    return 2 * (number - 1) + names.index(match[1].lower())


__all__ = ["MAX_TURN", "POSITION_TAG", "is_position_record", "parse_turn", "position_fields", "quoted", "turn_text"]
