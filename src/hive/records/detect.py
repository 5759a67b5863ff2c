"""Record files: the formats, their readers and writers, and how a file's format is told."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TextIO

from .gamestring import read_game_string_headers, read_game_strings
from .pgn import read_pgn, read_pgn_headers
from .recorded import RecordedGame, RecordFormatError, RecordHeaders, Where, write_game_string, write_pgn
from .sgf_reader import read_sgf, read_sgf_headers
from .sgf_writer import write_sgf

#: The record formats, as named by ``iter_games(fmt=...)`` and ``hive convert --to``.
FORMATS = ("sgf", "pgn", "gamestring")
#: The format of a file by its extension (lower case, with the dot): ``.sgf``, ``.pgn``, ``.txt``, ``.gs``...
EXTENSIONS: Mapping[str, str] = MappingProxyType(
    {".sgf": "sgf", ".pgn": "pgn", ".txt": "gamestring", ".gs": "gamestring", ".gamestring": "gamestring"}
)
#: The writer of each format: a game in, its text out.
WRITERS: Mapping[str, Callable[[RecordedGame], str]] = MappingProxyType(
    {"sgf": write_sgf, "pgn": write_pgn, "gamestring": write_game_string}
)
_READERS: dict[str, Callable[[TextIO, Where | None], Iterator[RecordedGame]]] = {
    "sgf": read_sgf,
    "pgn": read_pgn,
    "gamestring": read_game_strings,
}
_HEADER_READERS: dict[str, Callable[[TextIO], Iterator[RecordHeaders]]] = {
    "sgf": read_sgf_headers,
    "pgn": read_pgn_headers,
    "gamestring": read_game_string_headers,
}
_PGN_START = re.compile(r"^[0-9]+\s*\.")
_GAME_STRING_START = re.compile(r"^base", re.IGNORECASE)


def detect_format(path: str | Path, head: str | None = None) -> str:
    """``"sgf"``, ``"pgn"`` or ``"gamestring"``, by the file's extension, else by its first characters.

    :param head: the file's first characters, if already read (else up to 4096 are read).
    :raises RecordFormatError: naming the file when neither tells.
    """
    suffix = Path(path).suffix.lower()
    if suffix in EXTENSIONS and suffix != ".txt":  # any text file may be called .txt
        return EXTENSIONS[suffix]
    if head is None:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            head = handle.read(4096)
    text = head.lstrip("\ufeff \t\r\n")
    if text.startswith("("):
        return "sgf"
    if text.startswith("[") or _PGN_START.match(text):
        return "pgn"
    if _GAME_STRING_START.match(text) or (suffix == ".txt" and not text):
        return "gamestring"
    raise RecordFormatError(f"{path}: not a game record (expected SGF, PGN or UHP GameStrings)")


def iter_games(path: str | Path, fmt: str | None = None, where: Where | None = None) -> Iterator[RecordedGame]:
    """Stream the games of a record file, choosing the reader by ``fmt``, the extension or the content.

    :param where: a filter on each game's :class:`RecordHeaders`, read before its moves: only the games it
        accepts are replayed and yielded (like a python-chess visitor skipping a game after its headers).
    :raises OSError: when the file cannot be read.
    :raises RecordFormatError: when it is not a game record.
    """
    fmt = _format(path, fmt)
    with _open(path) as handle:
        yield from _READERS[fmt](handle, where)


def iter_headers(path: str | Path, fmt: str | None = None) -> Iterator[RecordHeaders]:
    """Stream the headers of each game of a record file without replaying any move (for quick filtering).

    Much faster than :func:`iter_games`; a game's moves are counted, not checked, and its result is the one the
    record states (the full read may find the game ends otherwise, or stops at an illegal move).

    :raises OSError: when the file cannot be read.
    :raises RecordFormatError: when it is not a game record.
    """
    fmt = _format(path, fmt)
    with _open(path) as handle:
        yield from _HEADER_READERS[fmt](handle)


def read_string(text: str, fmt: str, where: Where | None = None) -> list[RecordedGame]:
    """Read every game of a record held in a string (``fmt`` is ``sgf``, ``pgn`` or ``gamestring``).

    :raises RecordFormatError: for an unknown ``fmt``.
    """
    return list(_READERS[_format("", fmt)](io.StringIO(text), where))


def _format(path: str | Path, fmt: str | None) -> str:
    if fmt is None:
        fmt = detect_format(path)
    if fmt not in _READERS:
        raise RecordFormatError(f"unknown record format {fmt!r}: expected one of {', '.join(FORMATS)}")
    return fmt


def _open(path: str | Path) -> TextIO:
    return open(path, encoding="utf-8-sig", errors="replace", newline=None)
