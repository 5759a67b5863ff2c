"""What a request's values may be: one set of rules for the text and the numbers of every field.

Text (:func:`check_text`) is refused when it holds a character that is not plain text to show or store:

- control characters (NUL, the C0 and C1 controls, DEL): a multiline record (a GameString, a PGN or SGF file) may
  hold line breaks and tabs (``\\n``, ``\\r``, ``\\t``), nothing else may;
- format characters (Unicode's category Cf): the bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E,
  U+200F, U+061C), which make a text read in another order than it is stored, and the zero-width characters (U+200B
  -U+200D, U+2060, U+FEFF), which make two texts look alike;
- lone UTF-16 surrogates and private-use characters, and the line and paragraph separators (U+2028, U+2029) but in a
  multiline record;

and when it is longer than its field allows. A number (:func:`check_number`) is a JSON number (not a boolean),
finite, within its field's range (and whole where the field counts). The JSON parser refuses what no field takes
(:func:`~hive.web.shared.endpoints.parse_json`: NaN, the infinities, integers past 2^53, NUL characters); these rules
name
the field.
"""

from __future__ import annotations

import math
import unicodedata

from .errors import BadRequest, shown

#: The white space a multiline record may hold besides spaces.
MULTILINE = frozenset("\n\r\t")
#: The Unicode categories refused in any text: controls, format characters, surrogates, private use.
REFUSED = frozenset(("Cc", "Cf", "Cs", "Co"))
#: The line and paragraph separators (categories Zl and Zp): line breaks, so in a multiline record only.
SEPARATORS = frozenset("\u2028\u2029")
#: The largest integer a JSON number carries exactly (JavaScript's ``Number.MAX_SAFE_INTEGER``).
SAFE_INTEGER = 2**53 - 1
#: The largest row id a request may name: an ``Integer`` column's (PostgreSQL's INTEGER, 32 bits).
MAX_ID = 2**31 - 1


def unsafe(text: str, multiline: bool = False) -> tuple[int, str] | None:
    """The first character of ``text`` that the rules refuse, and where it is (0 first); ``None`` when all pass.
    ``multiline``: line breaks and tabs pass."""
    for at, ch in enumerate(text):
        if multiline and (ch in MULTILINE or ch in SEPARATORS):
            continue
        if ch in SEPARATORS or unicodedata.category(ch) in REFUSED:
            return at, ch
    return None


def character_name(ch: str) -> str:
    """A character as a message names it: ``U+202E RIGHT-TO-LEFT OVERRIDE``, ``U+0000``."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def check_text(value: object, what: str, limit: int, *, multiline: bool = False, empty: bool = False) -> str:
    """``value`` as the text of a field described by ``what`` (``"'name'"``, ``"A message"``), unchanged.

    :param limit: the most characters it may have.
    :param multiline: a record's text, which may hold line breaks and tabs.
    :param empty: whether it may be empty (or only white space).
    :raises BadRequest: when it is not text, is empty, is longer than ``limit``, or holds a refused character (see
        the module's text), naming the field and the rule.
    """
    if not isinstance(value, str):
        raise BadRequest(f"{what} must be a text, not {shown(value)}.")
    if not empty and not value.strip():
        raise BadRequest(f"{what} cannot be empty.")
    if len(value) > limit:
        raise BadRequest(f"{what} has at most {limit:,} characters, not {len(value):,}.")
    found = unsafe(value, multiline)
    if found is not None:
        at, ch = found
        allowed = " (line breaks and tabs are allowed)" if multiline else ""
        raise BadRequest(
            f"{what} cannot hold control or format characters (bidi controls, zero-width characters and the like)"
            f"{allowed}: {character_name(ch)} at character {at + 1}."
        )
    return value


def check_number(value: object, what: str, low: float, high: float, *, whole: bool = False) -> float:
    """``value`` as the number of a field described by ``what``, from ``low`` to ``high`` (an ``int`` when
    ``whole``).

    :raises BadRequest: when it is not a number (a boolean is not), not finite, not whole when it must be, or out of
        the range, naming the field and its range.
    """
    kind = "a whole number" if whole else "a number"
    number = (int,) if whole else (int, float)
    if isinstance(value, bool) or not isinstance(value, number) or not math.isfinite(value) or not low <= value <= high:
        raise BadRequest(f"{what} must be {kind} from {_figure(low)} to {_figure(high)}, not {shown(value)}.")
    return value


def _figure(number: float) -> str:
    return f"{int(number):,}" if float(number).is_integer() else f"{number:,g}"


def parse_id(text: str, limit: int = MAX_ID) -> int | None:
    """A row id as a path gives it: ASCII digits for a number from 0 to ``limit``; ``None`` for anything else (the
    caller answers 404), never converting more digits than ``limit`` has."""
    if not text.isascii() or not text.isdigit() or len(text) > len(str(limit)):
        return None
    number = int(text)
    return number if number <= limit else None


__all__ = [
    "MAX_ID",
    "MULTILINE",
    "REFUSED",
    "SAFE_INTEGER",
    "character_name",
    "check_number",
    "check_text",
    "parse_id",
    "unsafe",
]
