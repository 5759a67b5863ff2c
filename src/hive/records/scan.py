"""Filters on a game's headers, for reading only the games of an archive that matter::

import hive.records
from hive.records.scan import HeaderFilter

wins = HeaderFilter(player="Dumbot", result="BlackWins", min_moves=30)
for found in hive.records.iter_headers("archive.sgf"):  # no move replayed: fast
    if wins(found):
        print(found.number, found.headers["White"], found.moves)
games = list(hive.records.iter_games("archive.sgf", where=wins))  # only those games replayed
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..games.hive import GameType, InvalidGameTypeError
from .recorded import RESULTS, RecordHeaders
from .replay import normalise_result

_DATE = re.compile(r"[0-9]{4}(?:\.[0-9]{2}(?:\.[0-9]{2})?)?")


class InvalidFilterError(ValueError):
    """A filter's value cannot be read; the message names the value and what is expected."""


@dataclass(frozen=True)
class HeaderFilter:
    """A test on a game's :class:`~hive.records.recorded.RecordHeaders`: called with one, whether the game matches
    every condition given. Pass it as ``where=`` to a reader to replay only the games it accepts.

    :ivar player: a name either player's name contains (letter case aside).
    :ivar white: a name White's name contains.
    :ivar black: a name Black's name contains.
    :ivar game_type: the game type, exactly (``Base+MLP``; ``Base`` matches only the base game).
    :ivar result: ``WhiteWins``, ``BlackWins``, ``Draw`` or ``InProgress`` (also ``1-0``, ``0-1``, ``1/2-1/2``,
        ``*``): the result the record states; a record stating none is ``InProgress``.
    :ivar min_moves: the fewest moves (plies, passes included) the record writes.
    :ivar max_moves: the most moves it writes.
    :ivar since: the earliest date, as PGN writes it (``2018``, ``2018.10`` or ``2018.10.09``).
    :ivar until: the latest date; a game whose date is unknown matches neither bound.
    :raises InvalidFilterError: for a game type, result, date or move bound that cannot be read.
    """

    player: str | None = None
    white: str | None = None
    black: str | None = None
    game_type: str | None = None
    result: str | None = None
    min_moves: int = 0
    max_moves: int | None = None
    since: str | None = None
    until: str | None = None

    def __post_init__(self) -> None:
        if self.game_type is not None:
            try:
                object.__setattr__(self, "game_type", str(GameType.parse(self.game_type)))
            except InvalidGameTypeError as err:
                raise InvalidFilterError(f"game type {self.game_type!r}: {err}") from None
        if self.result is not None:
            result = normalise_result(self.result)
            if result is None:
                expected = ", ".join(RESULTS)
                raise InvalidFilterError(f"result {self.result!r}: expected one of {expected} (or 1-0, 0-1, ...)")
            object.__setattr__(self, "result", result)
        if self.min_moves < 0 or (self.max_moves is not None and self.max_moves < self.min_moves):
            raise InvalidFilterError(
                f"moves from {self.min_moves} to {self.max_moves}: expected 0 <= minimum <= maximum"
            )
        for name in ("since", "until"):
            value = getattr(self, name)
            if value is not None and not _DATE.fullmatch(value):
                raise InvalidFilterError(f"date {value!r}: expected YYYY, YYYY.MM or YYYY.MM.DD")

    def __call__(self, found: RecordHeaders) -> bool:
        """Whether the game ``found`` matches every condition."""
        headers = found.headers
        if not self.min_moves <= found.moves or (self.max_moves is not None and found.moves > self.max_moves):
            return False
        if self.game_type is not None and headers.get("GameType") != self.game_type:
            return False
        if self.result is not None and headers.get("Result", "InProgress") != self.result:
            return False
        white, black = headers.get("White", "").lower(), headers.get("Black", "").lower()
        for name, where in ((self.player, white + "\n" + black), (self.white, white), (self.black, black)):
            if name is not None and name.lower() not in where:
                return False
        return self._dated(headers.get("Date", ""))

    def _dated(self, date: str) -> bool:
        if self.since is None and self.until is None:
            return True
        if not re.fullmatch(r"[0-9]{4}\.[0-9]{2}\.[0-9]{2}", date):
            return False
        # a bound matches every day it covers: 2018.10 runs from 2018.10.01 to 2018.10.31
        return (self.since is None or date >= self.since) and (
            self.until is None or date[: len(self.until)] <= self.until
        )
