"""Reading PGN: Mzinga's dialect and hivegame.com's."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .game import Game
from .replay import game_from_moves, normalise_result

_HEADER = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_NUMBERED = re.compile(r"^(\d+)\s*\.+\s*(.*)$")
_COMMENT = re.compile(r"\{[^}]*\}")


def read_pgn(handle: Iterable[str]) -> Iterator[Game]:
    """Read the games of a PGN file one at a time.

    Both dialects are read: Mzinga's (result ``WhiteWins``/``BlackWins``/``Draw`` in the headers and after
    the moves) and hivegame.com's (``1-0``/``0-1``/``1/2-1/2``); a ``[GameType "..."]`` header names the
    game type (without one it is inferred from the bugs played). Moves are numbered UHP MoveStrings, one
    per line, ``pass`` included.

    :param handle: an open text file (or any iterable of lines).
    """
    headers: dict[str, str] = {}
    texts: list[str] = []
    errors: list[str] = []
    in_moves = False
    for number, raw in enumerate(handle, start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("%") or line.startswith(";"):
            continue
        header = _HEADER.match(line)
        if header:
            if in_moves:
                yield game_from_moves(headers, texts, errors)
                headers, texts, errors, in_moves = {}, [], [], False
            headers[header.group(1)] = header.group(2).replace('\\"', '"').replace("\\\\", "\\")
            continue
        in_moves = True
        line = " ".join(_COMMENT.sub(" ", line).split())
        if not line:
            continue
        result = normalise_result(line)
        if result is not None:
            headers.setdefault("Result", line)
            if normalise_result(headers["Result"]) != result:
                errors.append(f"line {number}: result {line!r} disagrees with the Result header {headers['Result']!r}")
            continue
        numbered = _NUMBERED.match(line)
        text = numbered.group(2).strip() if numbered else line
        if text:
            texts.append(text)
    if headers or texts:
        yield game_from_moves(headers, texts, errors)
