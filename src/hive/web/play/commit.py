"""A change to a game, stored: the record changed from the version it was made from, in one transaction with its
event's announcement, the AI's job kept in step and, for a rated game that ends, its rating
(:class:`Commits`, the base of :class:`~hive.web.play.service.GameService`); the board put back when it cannot be
stored.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ...sdk.view import JSON
from ..shared.database import Database
from ..shared.model import GameRecord
from . import aborts, clock
from .events import Announcer, GameEvent, Unheard, game_event
from .repository import Connection, Effects, GameRepository, Within
from .rows import stored_change
from .session import LiveGames, Session


class Tournaments(Protocol):
    """Which tournament a game is a round of (the tournaments' own, handed in)."""

    async def of_game(self, game_id: str) -> str | None:
        """The tournament whose game ``game_id`` is (``None``: none)."""

    async def of_games(self, game_ids: Sequence[str]) -> dict[str, str]:
        """The tournaments whose games are among ``game_ids``, by game id (a game of none left out)."""


class Ratings(Protocol):
    """What rates a rated game in the transaction that ends it (the ratings' own, handed in)."""

    def rate_within(
        self, connection: Connection, game_id: str, game: str, speed: str, accounts: tuple[str, str], score0: float
    ) -> None:
        """Rate the game ``game_id`` of ``game`` at ``speed`` between ``accounts``, the first scoring ``score0``."""


class GameStore(Protocol):
    """What the game service is handed to keep the games: the database, the games' repository, and the two other
    domains' parts a change needs in its transaction (the store :func:`hive.web.storage.open_store` opens has them)."""

    @property
    def database(self) -> Database:
        """The database (whether other processes share it)."""

    @property
    def games(self) -> GameRepository:
        """The games' repository."""

    @property
    def tournaments(self) -> Tournaments:
        """Which tournament a game is a round of."""

    @property
    def ratings(self) -> Ratings:
        """What rates a rated game as it ends."""


def first_score(sides: tuple[str, str], result: str) -> float:
    """The first player's points for a game's result (``WhiteWins``, ``Draw``...)."""
    wins = [f"{side}Wins" for side in sides]
    return 0.5 if result not in wins else 1.0 - wins.index(result)


class Commits:
    """The games' changes, stored one at a time per game and announced (the base of the game service).

    :param store: where the games are kept.
    :param live_games: games kept in memory (the least recently used are loaded again when asked for).
    :param now: the clock's time source, seconds since the epoch.
    :param origin: this server process's name in the events it announces.
    :param announcer: who hears of each change (see :class:`~hive.web.play.events.Announcer`).
    :param first_move: seconds each side has for its first move in a real-time game between two players online
        before the game is aborted (see :mod:`~hive.web.play.aborts`).
    """

    def __init__(
        self,
        store: GameStore,
        *,
        live_games: int = 256,
        now: Callable[[], float] = time.time,
        origin: str = "",
        announcer: Announcer | None = None,
        first_move: float = 30.0,
    ) -> None:
        self.store = store
        self.now = now
        self.first_move = first_move
        self.origin = origin or secrets.token_hex(6)
        self.announcer: Announcer = announcer or Unheard()
        self.sessions: LiveGames[Session] = LiveGames(live_games)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock under which this process changes a game, one change at a time."""
        held = self._locks.get(game_id)
        if held is None:
            held = self._locks[game_id] = asyncio.Lock()
        return held

    # ------------------------------------------------------------------
    # storing a change

    async def commit(
        self,
        session: Session,
        what: str,
        by: int | None,
        *,
        client: str = "",
        revert: Callable[[], object] | None = None,
        detail: JSON | None = None,
        **changes: Any,
    ) -> GameEvent:
        """Store ``changes`` to the game's record (fields of :class:`~hive.web.shared.model.GameRecord`), made by seat
        ``by``
        (``None``: the server) from ``session``'s version, in one transaction, then keep the new record in memory and
        announce the change. The board already shows the change; if it cannot be stored, ``revert`` takes it back.
        Any change clears the AI's error, unless it sets one.

        :raises StaleError: (a :class:`~hive.web.shared.errors.Conflict`) when another change was stored first.
        :raises Unavailable: when the database cannot be reached.
        """
        record = session.record
        updated = dataclasses.replace(record, **{"ai_error": None, **changes}, version=record.version + 1)
        previous, session.record = record, updated  # what the event is worked out from
        event = self._event(session, what, by, detail, ended=record.result is None and updated.result is not None)
        told: list[GameEvent] = []  # the event as the transaction told it, carrying what the change wrote
        last, session.last = session.last, event  # the state built before it is stored shows the change
        try:
            rating = self._rating(session, previous, updated)
            if rating is None:  # a rated game's end shows the rating change, known once it is stored
                event = await self.announcer.prepare(event)
            records = (previous, updated) if self.store.database.shared else None  # else nobody else to tell
            effects = self._effects(session, event, client, rating, records, told)
            await self.store.games.save(updated, previous, effects)
        except BaseException:
            session.record, session.last = previous, last
            session.shown_view = None  # the board's view may have been worked out for the change refused
            if revert is not None:
                revert()
            raise
        event = told[-1] if told else event
        session.last = event
        await self.announcer.announce(event)
        return event

    def _event(
        self, session: Session, what: str, by: int | None, detail: JSON | None = None, *, ended: bool = False
    ) -> GameEvent:
        record = session.record
        deadline = None if record.result is not None else clock.deadline(record.clock)
        abort = aborts.due(record, session.paired, self.first_move)  # the flag watcher aborts it then
        if abort is not None:
            deadline = abort if deadline is None else min(deadline, abort)
        return game_event(what, ended)(
            record.id, record.version, what, by, len(record.moves), session.ai_due, deadline, detail, origin=self.origin
        )

    def _effects(
        self,
        session: Session,
        event: GameEvent,
        client: str,
        rating: Within | None = None,
        records: tuple[GameRecord, GameRecord] | None = None,
        told: list[GameEvent] | None = None,
    ) -> Effects:
        """What is stored with a change (``records``: the record before and after it, for the event to carry what it
        wrote, as the record after is complete once its save has begun; ``told``: where that event is left, to be
        announced). The announcer gives the text of its notification, sent by the save itself, or is told inside the
        transaction."""
        announcer = self.announcer
        texts: list[str | None] = []

        def notice() -> str | None:
            carried = event if records is None else dataclasses.replace(event, change=stored_change(*records))
            if told is not None:
                told.append(carried)
            texts.append(announcer.told(carried))
            return texts[-1]

        def within(connection: Connection) -> None:
            if not texts or texts[-1] is None:  # no text (or a new game, stored with no notice): told here
                announcer.stored(connection, told[-1] if told else event)
            if rating is not None:
                rating(connection)

        return Effects(
            ai_due=event.ai_due,
            client=client or "server",
            deadline=event.deadline,
            within=within,
            notice=notice,
            alone=rating is None,
        )

    def _rating(self, session: Session, previous: GameRecord, updated: GameRecord) -> Within | None:
        """What rates a rated game in the transaction that ends it: only a game between two accounts that both moved
        (one aborted before is not rated)."""
        first, second = updated.accounts
        if not updated.rated or updated.result in (None, aborts.ABORTED) or previous.result is not None:
            return None
        if first is None or second is None or len(updated.moves) < 2:
            return None
        board = session.board
        score0 = first_score(board.sides, updated.result)
        game, speed = board.game_name, clock.speed_of(updated.clock)
        ratings = self.store.ratings
        return lambda connection: ratings.rate_within(connection, updated.id, game, speed, (first, second), score0)


__all__ = ["Commits", "GameStore", "Ratings", "Tournaments", "first_score"]
