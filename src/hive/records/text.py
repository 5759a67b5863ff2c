"""Record text from outside: the bounds the readers hold it to, and how it is quoted in errors and shown on a
terminal."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import NamedTuple, TextIO, cast

#: The longest SGF property value, PGN line or GameString line a reader takes (characters); a longer one is an error
#: on its game, skipped without being held in memory.
MAX_TEXT = 1 << 20
#: The most characters of a record's text an error message quotes.
QUOTED = 200
#: The longest text the readers hand to the rules as one move or game type (no real one comes near).
MAX_WORD = 100

_CHUNK = 1 << 16
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def quote(text: str, length: int | None = None) -> str:
    """``text`` in single quotes, cut to its first :data:`QUOTED` characters with an ellipsis and its length when
    longer: ``'xxxx…' (8,000,000 characters)``.

    :param length: the length of the whole text when ``text`` is only its start.
    """
    length = len(text) if length is None else length
    if length <= QUOTED and length == len(text):
        return f"'{text}'"
    return f"'{text[:QUOTED]}…' ({length:,} characters)"


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: control characters and every other character that does not print
    (escape sequences, bidirectional overrides) written as escapes, ``\\x1b`` or ``\\u202e``."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class LongLine(NamedTuple):
    """A line longer than :data:`MAX_TEXT`: where it starts and how long it is (it is not kept)."""

    head: str
    length: int

    def error(self) -> str:
        """The error naming it."""
        return f"{quote(self.head, self.length)}: longer than the {MAX_TEXT:,} characters a line may have"


def bounded_lines(handle: Iterable[str], limit: int = MAX_TEXT) -> Iterator[str | LongLine]:
    """The lines of ``handle`` (without their ``\\n``), each one longer than ``limit`` as a :class:`LongLine`.

    An open file is read in chunks, so a line of any length costs no more memory than the limit; any other
    iterable of lines is taken as it comes.
    """
    if getattr(handle, "read", None) is None:
        return (_bounded(given.rstrip("\n"), limit) for given in handle)
    return chain.from_iterable(_batches(cast(TextIO, handle), limit))


def _bounded(line: str, limit: int) -> str | LongLine:
    return line if len(line) <= limit else LongLine(line[:QUOTED], len(line))


def _batches(handle: TextIO, limit: int) -> Iterator[Sequence[str | LongLine]]:
    """The lines of each chunk read (lists, which the caller goes through at C speed)."""
    pending = ""
    skipped: LongLine | None = None  # the line over the limit being read past
    while chunk := handle.read(_CHUNK):
        if skipped is not None:
            cut = chunk.find("\n")
            end = len(chunk) if cut < 0 else cut
            skipped = LongLine(skipped.head + chunk[: min(end, QUOTED - len(skipped.head))], skipped.length + end)
            if cut < 0:
                continue
            yield [skipped]
            skipped, chunk = None, chunk[cut + 1 :]
        lines = (pending + chunk).split("\n")
        pending = lines.pop()
        if len(chunk) > limit:
            yield [_bounded(line, limit) for line in lines]
        elif lines and len(lines[0]) > limit:  # only the first line goes on from an earlier chunk
            yield [_bounded(lines[0], limit), *lines[1:]]
        else:
            yield lines
        if len(pending) > limit:
            skipped, pending = LongLine(pending[:QUOTED], len(pending)), ""
    if skipped is not None:
        yield [skipped]
    elif pending:
        yield [_bounded(pending, limit)]
