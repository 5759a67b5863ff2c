"""The games on disk: one row per game, its moves by ply, every change stored in one transaction over the version it
was made from.

A game row holds its kind, options, mode, seat tokens, the players' names and their choices of engine help, which
seats have opened the game, its rematch, result and ``length``, the number of moves in effect; the ``moves`` table
holds every move by ply, those at or beyond ``length`` being the ones taken back (kept so that they can be redone
until a different move is played). A timed game's clock is stored with every move, with the moment its flag falls
(``deadline``) while it runs; a game set up from a position keeps that position's record (``start``).

Every change is stored only over the version it was made from (:meth:`GameRepository.save`): of two changes made from
the same version, in one process or in two, exactly one is stored and the other is refused with
:class:`StaleError`. The same transaction keeps the AI's queue in step (:mod:`~hive.web.ai.repository`) and runs the
caller's own statements (an announcement of the change that is sent only if it is stored).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import sqlalchemy as sa

from ..shared.bus import CHANNEL, NOTIFY
from ..shared.database import Database, Repository
from ..shared.errors import Conflict, Damaged
from ..shared.model import GameRecord, Summary
from .rows import CHANGED, changed, common, dumps, one_save, placeholder, read_record, row_values, version_read
from .tables import games, moves

#: A transaction's connection, as the statements run within a change see it.
Connection = sa.Connection
#: Statements run inside a change's transaction, on its connection.
Within = Callable[[sa.Connection], None]
#: What keeps a game's AI job in step with a change, inside its transaction: ``(connection, game id, ply the AI is
#: due after or None, client, now)`` (the AI queue's own, handed in: see :func:`hive.web.ai.keep_job`).
KeepJob = Callable[[sa.Connection, str, int | None, str, float], None]

# The statements of every move, built once (their parameters bound at each call).
_ID: sa.BindParameter[str] = sa.bindparam("game")
_SEEN: sa.BindParameter[int] = sa.bindparam("seen")
_SINCE: sa.BindParameter[int] = sa.bindparam("since")
_FROM: sa.BindParameter[int] = sa.bindparam("from_ply")
ROW = sa.select(games).where(games.c.id == _ID)
VERSION = sa.select(games.c.version).where(games.c.id == _ID)
VERSION_READ = version_read()  # the same on PostgreSQL, for the driver's cursor
ALL_MOVES = sa.select(moves.c.move).where(moves.c.game_id == _ID).order_by(moves.c.ply)
#: the game's row with each move written since a version (one statement: one snapshot, one round trip)
CHANGES = (
    sa.select(games, moves.c.ply.label("changed_ply"), moves.c.move.label("changed_move"))
    .select_from(
        games.outerjoin(moves, sa.and_(moves.c.game_id == games.c.id, moves.c.written > _SINCE)),
    )
    .where(games.c.id == _ID)
    .order_by(moves.c.ply)
)
SAVE = (
    games.update()
    .where(games.c.id == _ID, games.c.version == _SEEN)
    .values({name: sa.bindparam(f"new_{name}") for name in CHANGED})
)
CUT = moves.delete().where(moves.c.game_id == _ID, moves.c.ply >= _FROM)
ADD = moves.insert()
#: a change that appends at most one move, in one statement on PostgreSQL: by (a move added, a notification sent)
AT_ONCE = MappingProxyType({(add, notify): one_save(add, notify) for add in (False, True) for notify in (False, True)})


class StaleError(Conflict):
    """The game changed since the caller last saw it (another change was stored first), or was deleted."""


@dataclass(frozen=True)
class Effects:
    """What a change implies beyond the game's own row.

    :ivar ai_due: the AI is to move after the change (its job is queued, or kept if it is for the same position).
    :ivar client: who made the change (the AI's queue shares its time between clients).
    :ivar deadline: when the running clock's flag falls after the change (``None``: no clock runs).
    :ivar within: statements of the caller's to run in the same transaction.
    :ivar notice: what works out the change's notification once the record is complete (on the database thread,
        before anything is written): a text it gives is sent on :data:`~hive.web.shared.bus.CHANNEL` by the save.
    :ivar alone: ``within`` does nothing once ``notice`` gave a text, so that a change taking back no move and adding
        at most one may be stored in one statement, without a transaction around it.
    """

    ai_due: bool = False
    client: str = ""
    deadline: float | None = None
    within: Within | None = None
    notice: Callable[[], str | None] | None = None
    alone: bool = False


class GameRepository(Repository):
    """The games in a database.

    :param database: where they are kept.
    :param now: the time source of their dates.
    :param keep_job: what keeps a game against the AI's job in the AI's queue in step with each change (in the
        change's transaction); none keeps no job.
    """

    def __init__(
        self, database: Database, now: Callable[[], float] = time.time, keep_job: KeepJob | None = None
    ) -> None:
        super().__init__(database, now)
        self.keep_job = keep_job

    # ------------------------------------------------------------------
    # reading

    async def load(self, game_id: str) -> GameRecord | None:
        """The stored game, or ``None`` when there is no such game.

        :raises Damaged: when its row cannot be read.
        """
        return await self.database.run(self._load, game_id)

    def _load(self, game_id: str) -> GameRecord | None:
        with self.database.reading() as connection:
            row = connection.execute(ROW, {"game": game_id}).first()
            if row is None:
                return None
            stored = connection.execute(ALL_MOVES, {"game": game_id}).scalars()
            return read_record(row, list(stored))

    async def changes(self, game_id: str, known: GameRecord) -> GameRecord | None:
        """The stored game, read as the changes since ``known`` (a copy of it at an earlier version): its row, and
        only the moves written since (every change rewrites the moves from the first one it alters to the end);
        ``None`` when there is no such game.

        :raises Damaged: when its row cannot be read.
        """
        return await self.database.run(self._changes, game_id, known)

    def _changes(self, game_id: str, known: GameRecord) -> GameRecord | None:
        with self.database.single() as connection:
            rows = connection.execute(CHANGES, {"game": game_id, "since": known.version}).all()
        if not rows:
            return None
        row = rows[0]
        written = [(found.changed_ply, found.changed_move) for found in rows if found.changed_ply is not None]
        stored = (known.moves + known.redo)[: row.stored]
        for ply, move in written:
            if ply < len(stored):
                stored[ply] = move
            elif ply == len(stored):
                stored.append(move)
            else:  # a gap: the copy is too old to patch (cannot happen when rows are written as above)
                return self._load(game_id)
        if len(stored) != row.stored:
            return self._load(game_id)
        return read_record(row, stored)

    async def version(self, game_id: str) -> int | None:
        """The game's version (``None``: no such game): a cheap check that a copy in memory is current."""
        return await self.database.run(self._version, game_id)

    def _version(self, game_id: str) -> int | None:
        if not self.database.sqlite:  # read before every move on PostgreSQL: without SQLAlchemy's result, for less
            row = self.database.first_row(VERSION_READ, {"game": game_id})
            return None if row is None else int(row[0])
        with self.database.single() as connection:
            found: int | None = connection.execute(VERSION, {"game": game_id}).scalar_one_or_none()
            return found

    async def games(
        self, limit: int = 200, account: str | None = None, live: bool = False, tokens: Sequence[str] | None = None
    ) -> list[Summary]:
        """The stored games (``account``: those the account plays; ``tokens``: those a seat of which one of the
        tokens holds, besides the account's; ``live``: those in progress between two accounts), those in progress
        first, then the finished ones, the latest change first in each; a row that cannot be read is listed as
        damaged rather than failing the list."""
        return await self.database.run(self._games, limit, account, live, tokens)

    def _games(self, limit: int, account: str | None, live: bool, tokens: Sequence[str] | None) -> list[Summary]:
        query = sa.select(games).order_by(games.c.result.is_not(None), games.c.updated.desc()).limit(limit)
        if tokens is not None:
            held = list(tokens)
            mine: list[sa.ColumnElement[bool]] = [games.c.token0.in_(held), games.c.token1.in_(held)] if held else []
            if account is not None:
                mine += [games.c.account0 == account, games.c.account1 == account]
            query = query.where(sa.or_(sa.false(), *mine))
        elif account is not None:
            query = query.where(sa.or_(games.c.account0 == account, games.c.account1 == account))
        if live:
            query = query.where(games.c.result.is_(None), games.c.account0.is_not(None), games.c.account1.is_not(None))
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        listed = []
        for row in rows:
            try:
                listed.append(Summary(read_record(row, []), row.length))
            except Damaged as err:
                listed.append(Summary(placeholder(row), 0, damaged=str(err)))
        return listed

    async def ongoing(self, account_id: str) -> list[tuple[str, int, str]]:
        """The account's games in progress: each one's id, the account's seat and that seat's token."""
        return await self.database.run(self._ongoing, account_id)

    def _ongoing(self, account_id: str) -> list[tuple[str, int, str]]:
        mine = sa.or_(games.c.account0 == account_id, games.c.account1 == account_id)
        query = sa.select(games.c.id, games.c.account0, games.c.token0, games.c.token1).where(
            mine, games.c.result.is_(None)
        )
        with self.database.single() as connection:
            rows = connection.execute(query.order_by(games.c.created)).all()
        found = []
        for row in rows:
            seat = 0 if row.account0 == account_id else 1
            found.append((row.id, seat, row.token0 if seat == 0 else row.token1))
        return found

    async def missing(self, game_ids: list[str]) -> list[str]:
        """Those of ``game_ids`` with no game stored (a process stopped between pairing a round and starting it)."""
        return await self.database.run(self._missing, game_ids)

    def _missing(self, game_ids: list[str]) -> list[str]:
        with self.database.single() as connection:
            found = {row[0] for row in connection.execute(sa.select(games.c.id).where(games.c.id.in_(game_ids)))}
        return [g for g in game_ids if g not in found]

    async def deadlines(self, before: float, limit: int = 100) -> list[tuple[str, float]]:
        """The games in progress whose flag falls before ``before``, soonest first: ``(id, deadline)``."""
        return await self.database.run(self._deadlines, before, limit)

    def _deadlines(self, before: float, limit: int) -> list[tuple[str, float]]:
        query = (
            sa.select(games.c.id, games.c.deadline)
            .where(games.c.deadline.is_not(None), games.c.deadline < before)
            .order_by(games.c.deadline)
            .limit(limit)
        )
        with self.database.single() as connection:
            return [(row.id, row.deadline) for row in connection.execute(query)]

    # ------------------------------------------------------------------
    # changing

    async def create(self, record: GameRecord, effects: Effects = Effects()) -> None:
        """Store a new game with its moves (at version 0), in one transaction with its ``effects``."""
        await self.database.run(self._create, record, effects)

    def _create(self, record: GameRecord, effects: Effects) -> None:
        now = self.now()
        record.created = record.updated = now
        row = {
            "id": record.id,
            "kind": record.kind,
            "options": json.dumps(record.options),
            "mode": record.mode,
            "ai_level": record.ai_level,
            "ai_seat": record.ai_seat,
            "token0": record.tokens[0],
            "token1": record.tokens[1],
            "created": now,
            "start": record.start,
            "account0": record.accounts[0],
            "account1": record.accounts[1],
            "rated": record.rated,
            **row_values(record, now, effects.deadline),
        }
        with self.database.engine.begin() as connection:
            connection.execute(games.insert().values(row))
            stored = record.moves + record.redo
            if stored:
                connection.execute(
                    moves.insert(),
                    [{"game_id": record.id, "ply": ply, "move": m, "written": 0} for ply, m in enumerate(stored)],
                )
            self._effects(connection, record, effects, now)

    async def save(self, record: GameRecord, previous: GameRecord, effects: Effects = Effects()) -> None:
        """Store a game's new state (``record``, whose ``version`` is one more than ``previous``'s) in one
        transaction with its ``effects``, if the stored game is still at ``previous``'s version; only the moves that
        differ from ``previous``'s are written.

        :raises StaleError: when another change was stored since ``previous``, or the game was deleted.
        """
        await self.database.run(self._save, record, previous, effects)

    def _save(self, record: GameRecord, previous: GameRecord, effects: Effects) -> None:
        now = self.now()
        record.updated = now
        old, new = previous.moves + previous.redo, record.moves + record.redo
        same = common(old, new)
        notice = effects.notice() if effects.notice is not None else None
        values = {"game": record.id, "seen": previous.version, **changed(record, now, effects.deadline)}
        if self._at_once(record, effects, notice, same == len(old) and len(new) - same <= 1):
            return self._save_at_once(values, new[same:], same, notice)
        with self.database.engine.begin() as connection:
            # the row is locked by this update until the transaction ends: a second writer waits, then finds a newer
            # version and updates nothing
            if connection.execute(SAVE, values).rowcount != 1:
                raise StaleError(f"Game {record.id} changed meanwhile; reload it.")
            if same < len(old):
                connection.execute(CUT, {"game": record.id, "from_ply": same})
            if same < len(new):
                added = [
                    {"game_id": record.id, "ply": ply, "move": new[ply], "written": record.version}
                    for ply in range(same, len(new))
                ]
                connection.execute(ADD, added[0] if len(added) == 1 else added)  # one move: no executemany
            if notice is not None:
                connection.execute(NOTIFY, {"channel": CHANNEL, "payload": notice})
            self._effects(connection, record, effects, now)

    def _at_once(self, record: GameRecord, effects: Effects, notice: str | None, appends: bool) -> bool:
        """Whether a change can be stored in one statement: on PostgreSQL, taking back no move and adding at most
        one, with nothing else in its transaction (no AI job kept, nothing of the caller's but its notification)."""
        if self.database.sqlite or not appends or (record.mode == "ai" and self.keep_job is not None):
            return False
        return effects.within is None or (effects.alone and notice is not None)

    def _save_at_once(self, values: dict[str, Any], added: list[str], ply: int, notice: str | None) -> None:
        """:meth:`_save` as one statement (see :func:`~hive.web.play.rows.one_save`): no transaction, one round trip."""
        if added:
            values.update(ply=ply, move=added[0])
        if notice is not None:
            values.update(channel=CHANNEL, payload=notice)
        if self.database.first_row(AT_ONCE[bool(added), notice is not None], values) is None:
            raise StaleError(f"Game {values['game']} changed meanwhile; reload it.")

    def _effects(self, connection: sa.Connection, record: GameRecord, effects: Effects, now: float) -> None:
        if record.mode == "ai" and self.keep_job is not None:  # only a game against the AI has its moves queued
            self.keep_job(connection, record.id, len(record.moves) if effects.ai_due else None, effects.client, now)
        if effects.within is not None:
            effects.within(connection)

    async def delete(self, game_id: str, within: Within | None = None) -> bool:
        """Remove a game with its moves, lines, review and AI job; ``False`` when there was no such game."""
        return await self.database.run(self._delete, game_id, within)

    def _delete(self, game_id: str, within: Within | None) -> bool:
        with self.database.engine.begin() as connection:
            deleted = connection.execute(games.delete().where(games.c.id == game_id)).rowcount > 0
            if deleted and within is not None:
                within(connection)
            return deleted

    async def clocks(self) -> list[tuple[str, int, dict[str, Any]]]:
        """The clocks of the timed games in progress: ``(id, version, clock)``; unreadable clocks are left out."""
        return await self.database.run(self._clocks)

    def _clocks(self) -> list[tuple[str, int, dict[str, Any]]]:
        query = sa.select(games.c.id, games.c.version, games.c.clock).where(
            games.c.clock.is_not(None), games.c.result.is_(None)
        )
        found = []
        with self.database.single() as connection:
            for row in connection.execute(query):
                try:
                    clock = json.loads(row.clock)
                except ValueError:
                    continue
                if isinstance(clock, dict):
                    found.append((row.id, row.version, clock))
        return found

    async def set_clock(self, game_id: str, version: int, clock: dict[str, Any], deadline: float | None) -> bool:
        """Store a game's clock alone (held as a lone server stops, or running again as it starts), over its
        ``version``; ``False`` when the game has changed since."""
        return await self.database.run(self._set_clock, game_id, version, clock, deadline)

    def _set_clock(self, game_id: str, version: int, clock: dict[str, Any], deadline: float | None) -> bool:
        with self.database.engine.begin() as connection:
            done = connection.execute(
                games.update()
                .where(games.c.id == game_id, games.c.version == version)
                .values(clock=dumps(clock), deadline=deadline, version=version + 1)
            )
            return done.rowcount == 1


__all__ = [
    "Connection",
    "Effects",
    "GameRepository",
    "KeepJob",
    "StaleError",
    "Within",
    "read_record",
]
