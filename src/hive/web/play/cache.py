"""The games in memory, in step with the database: a copy is compared with the stored version before it is used and
brought up to date by playing or taking back only the moves that differ (never by replaying the game), loaded when
there is none, and forgotten with a deleted game (:class:`GameCache`).
"""

from __future__ import annotations

import dataclasses
import logging

from ...game import IllegalMoveError, InvalidMoveError, InvalidRecordError, UnknownGameError
from ...sdk.view import JSON
from ..shared.errors import BadRequest, Damaged, GameError, NotFound, shown
from ..shared.model import GameRecord
from ..views import kinds, replay, view_for
from . import aborts, clock
from .commit import Commits
from .events import GameEvent
from .rows import apply_change, common
from .session import Session

log = logging.getLogger("hive.web")


def damage(record: GameRecord) -> str | None:
    """What makes a stored record unusable, short of playing its moves (an unknown kind, a clock that cannot be
    read), as a message naming the game; ``None`` when nothing does."""
    if record.kind not in kinds():
        return f"Game {shown(record.id)} cannot be loaded: its kind {shown(record.kind)} is unknown."
    if record.clock is not None:
        try:
            clock.check(record.clock)
        except ValueError as err:
            return f"Game {shown(record.id)} cannot be loaded: {err}."
    return None


class GameCache(Commits):
    """The games in memory, each the stored game at its version (see :class:`~hive.web.play.commit.Commits` for the
    parameters)."""

    async def ongoing(self, account_id: str) -> list[tuple[str, int, str]]:
        """An account's games in progress: each one's id, the account's seat and that seat's token."""
        return await self.store.games.ongoing(account_id)

    async def missing(self, game_ids: list[str]) -> list[str]:
        """Those of ``game_ids`` with no game stored (a process stopped between pairing a round and starting it)."""
        return await self.store.games.missing(game_ids)

    async def session(self, game_id: str) -> Session:
        """The game ``game_id`` as stored now: the copy in memory if it is current, brought up to date if it is
        behind, loaded if there is none.

        :raises NotFound: when there is no such game.
        :raises Damaged: when its stored record cannot be read or played again.
        """
        async with self.lock(game_id):
            return await self.fresh(game_id)

    async def fresh(self, game_id: str) -> Session:
        """:meth:`session`, for a caller holding the game's :meth:`lock`."""
        if len(game_id) > 64:
            raise NotFound(f"There is no game {shown(game_id)}.")
        session = self.sessions.get(game_id)
        if session is not None and not self.store.database.shared:
            return session  # nobody else writes this database: the copy in memory is the stored game
        version = await self.store.games.version(game_id)
        if version is None:
            self.sessions.pop(game_id, None)
            raise NotFound(f"There is no game {shown(game_id)}.")
        if session is not None and session.record.version == version:
            return session
        return await self._read(game_id, session)

    async def _read(self, game_id: str, session: Session | None) -> Session:
        """The game as stored, read into its copy in memory (only what changed since it) or into a new one."""
        games = self.store.games
        try:
            record = await (games.changes(game_id, session.record) if session is not None else games.load(game_id))
        except Damaged as err:
            log.warning("%s", err)  # answered as a 500 naming why: the operator reads it here
            raise
        if record is None:
            self.sessions.pop(game_id, None)
            raise NotFound(f"There is no game {shown(game_id)}.")
        if session is not None and session.record.kind == record.kind and session.record.start == record.start:
            try:
                self._catch_up(session, record)
                await self.placed(session)
                return session
            except (ValueError, IndexError):
                log.warning("game %s could not be brought up to date in memory; loading it again", game_id)
        try:
            session = self._load(record)
        except Damaged as err:
            log.warning("%s", err)
            raise
        await self.placed(session)
        self.sessions[game_id] = session
        return session

    async def placed(self, session: Session) -> None:
        """Look up whether a game that may be aborted is a tournament's (once a game: see
        :attr:`~hive.web.play.session.Session.paired`)."""
        record = session.record
        if session.paired is None and aborts.open_to_abort(record):
            paired = None not in record.accounts and await self.store.tournaments.of_game(record.id) is not None
            session.paired = paired

    async def refresh(self, event: GameEvent) -> Session | None:
        """Bring the copy in memory of the game an event from another process changed up to date, when there is one
        (``None`` otherwise, or when the game is gone); the event becomes its last change. A copy at the version before
        takes the change the event carries, without asking the database; any other is read as the changes since its
        version (the event names the version stored)."""
        try:
            async with self.lock(event.game_id):
                session = self.sessions.get(event.game_id)
                if session is None:
                    return None
                if session.record.version == event.version - 1 and event.change is not None:
                    session = await self._changed(session, event.change, event.version)
                elif session.record.version < event.version:
                    session = await self._read(event.game_id, session)
        except (NotFound, Damaged):
            return None
        if session.record.version == event.version:
            session.last = event
        return session

    async def _changed(self, session: Session, change: JSON, version: int) -> Session:
        """The copy in memory brought to ``version`` by the change another process stored from the version before
        (its event's :attr:`~hive.web.play.events.GameEvent.change`), without reading the database; read if the
        change cannot be made on it."""
        try:
            record = apply_change(session.record, change, version)
            self._catch_up(session, record)
        except (ValueError, IndexError):
            log.warning("game %s could not be brought up to date by its change; loading it again", session.record.id)
            return await self._read(session.record.id, None)  # the board may be half changed: not used again
        await self.placed(session)
        return session

    def _load(self, record: GameRecord) -> Session:
        """A game in memory from its stored record, its moves played again.

        :raises Damaged: when the record names an unknown kind of game, or its moves cannot be played.
        """
        try:
            view = view_for(record.kind)
        except BadRequest:
            raise Damaged(
                f"Game {shown(record.id)} cannot be loaded: its kind {shown(record.kind)} is unknown."
            ) from None
        if record.clock is not None:
            try:
                clock.check(record.clock)
            except ValueError as err:  # the clock's own words
                raise Damaged(f"Game {shown(record.id)} cannot be loaded: {err}") from None
        try:
            board = replay(view, record.options, record.moves, record.start)
        except (InvalidMoveError, IllegalMoveError, InvalidRecordError, UnknownGameError, GameError) as err:
            raise Damaged(f"Game {shown(record.id)} cannot be loaded: {err}") from None
        except (ValueError, IndexError, KeyError, TypeError) as err:
            # not one of the games' own errors, whose text names the move and the rule: said in the log only
            log.warning("game %s cannot be loaded: %s: %s", record.id, type(err).__name__, err)
            raise Damaged(f"Game {shown(record.id)} cannot be loaded: its options or moves cannot be used.") from None
        return Session(record, view, board)

    @staticmethod
    def _catch_up(session: Session, record: GameRecord) -> None:
        """Bring a copy in memory to ``record``: take back the moves it has that the record has not, play the
        record's new ones. They are the game's own stored moves, each checked when it was played from the position
        the copy is at, so they are played without being checked again; one that cannot be played raises, and the
        caller loads the game again."""
        old, new = session.record.moves, record.moves
        same = common(old, new)
        board = session.board
        for _ in range(len(old) - same):
            board.pop()
        for text in new[same:]:
            board.push_stored(text)
        session.record = record
        session.shown_view = None

    async def forget(self, session: Session, by: int | None) -> None:
        """Delete a game from storage and from memory, and announce it."""
        event = dataclasses.replace(self._event(session, "deleted", by), version=session.record.version + 1)
        await self.store.games.delete(session.record.id, lambda connection: self.announcer.stored(connection, event))
        self.sessions.pop(session.record.id, None)
        await self.announcer.announce(event)


__all__ = ["GameCache", "damage"]
