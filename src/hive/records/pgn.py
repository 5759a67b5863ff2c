"""Reading PGN: Mzinga's dialect and hivegame.com's."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .recorded import RecordedGame, RecordHeaders, Where
from .replay import game_from_moves, headers_of, normalise_result, safe_game, safe_headers
from .text import LongLine, bounded_lines, quote

# possessive repeats: a header line is matched in linear time and constant memory however long it is
_HEADER = re.compile(r'^\[\s*+([A-Za-z0-9_]++)\s++"([^"\\]*+(?:\\.[^"\\]*+)*+)"\s*+\]\s*+$')
_NUMBERED = re.compile(r"^([0-9]+)\s*\.+\s*(.*)$")

# one game as written: its headers, its MoveStrings, the errors met reading them
_Record = tuple[dict[str, str], list[str], list[str]]


def read_pgn(handle: Iterable[str], where: Where | None = None) -> Iterator[RecordedGame]:
    """Read the games of a PGN file one at a time.

    Both dialects are read: Mzinga's (result ``WhiteWins``/``BlackWins``/``Draw`` in the headers and after
    the moves) and hivegame.com's (``1-0``/``0-1``/``1/2-1/2``); a ``[GameType "..."]`` header names the
    game type (without one it is inferred from the bugs played). Moves are numbered UHP MoveStrings, one
    per line, ``pass`` included; the forms other programs write are read too (see
    :mod:`hive.records.movestring`), with a warning on the game.

    :param handle: an open text file (or any iterable of lines).
    :param where: a filter on each game's headers, read first (see :func:`hive.records.iter_headers`): only the
        games it accepts are replayed and yielded.
    """
    for number, (headers, texts, errors) in enumerate(_records(handle), start=1):
        if where is None or where(safe_headers(number, headers_of, number, headers, texts, errors)):
            yield safe_game(game_from_moves, headers, texts, errors)


def read_pgn_headers(handle: Iterable[str]) -> Iterator[RecordHeaders]:
    """The headers of each game of a PGN file and its number of moves, without replaying the moves."""
    for number, (headers, texts, errors) in enumerate(_records(handle), start=1):
        yield safe_headers(number, headers_of, number, headers, texts, errors)


def _records(handle: Iterable[str]) -> Iterator[_Record]:
    """Each game of the file as written, before its moves are replayed."""
    headers: dict[str, str] = {}
    texts: list[str] = []
    errors: list[str] = []
    in_moves = False
    for number, raw in enumerate(bounded_lines(handle), start=1):
        if isinstance(raw, LongLine):
            if in_moves and raw.head.lstrip("\ufeff \t")[:1] == "[":  # a header: the next game's
                yield headers, texts, errors
                headers, texts, errors, in_moves = {}, [], [], False
            errors.append(f"line {number} {raw.error()}")
            continue
        line = raw.strip().lstrip("\ufeff")
        if not line or line[0] in "%;":
            continue
        header = _HEADER.match(line) if line[0] == "[" else None
        if header:
            if in_moves:
                yield headers, texts, errors
                headers, texts, errors, in_moves = {}, [], [], False
            headers[header.group(1)] = header.group(2).replace('\\"', '"').replace("\\\\", "\\")
            continue
        in_moves = True
        if "{" in line:
            line = _without_comments(line)
            if not line:
                continue
        result = normalise_result(line)
        if result is not None:
            headers.setdefault("Result", line)
            if normalise_result(headers["Result"]) != result:
                errors.append(
                    f"line {number}: result {quote(line)} disagrees with the Result header {quote(headers['Result'])}"
                )
            continue
        numbered = _NUMBERED.match(line)
        text = numbered.group(2).strip() if numbered else line
        if "  " in text or "\t" in text:
            text = " ".join(text.split())
        if text:
            texts.append(text)
    if headers or texts or errors:
        yield headers, texts, errors


def _without_comments(line: str) -> str:
    """The line without its ``{...}`` comments (one unclosed runs on), spaced as words; linear in its length."""
    parts = []
    pos = 0
    while (start := line.find("{", pos)) >= 0 and (end := line.find("}", start)) >= 0:
        parts.append(line[pos:start])
        pos = end + 1
    parts.append(line[pos:])
    return " ".join(" ".join(parts).split())
