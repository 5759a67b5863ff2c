"""The lobby's open seeks, as every server process shares them: one taken is gone for every other."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ..play import game_stored, playing_in
from ..players import accounts, lock_account
from ..shared.database import Repository
from .tables import seeks


@dataclass(frozen=True)
class StoredSeek:
    """A game an account offers: its kind and options, time control, rated or not, the colour the seeker plays
    (``random``, or a side's name), and the ratings an opponent may have (``None``: any)."""

    id: str
    account_id: str
    name: str
    kind: str
    options: dict[str, Any]
    time_control: Any
    rated: bool
    colour: str
    low: float | None
    high: float | None
    created: float
    game_id: str | None = None
    target: str | None = None
    rematch_of: str | None = None


def _seek(row: sa.Row[Any]) -> StoredSeek:
    control = json.loads(row.time_control) if row.time_control is not None else None
    return StoredSeek(
        row.id, row.account_id, row.name, row.kind, json.loads(row.options), control, bool(row.rated), row.colour,
        row.low, row.high, float(row.created), row.game_id, row.target, row.rematch_of,
    )  # fmt: skip


_LISTED = sa.select(seeks, accounts.c.name).join(accounts, accounts.c.id == seeks.c.account_id)
#: Seconds a seek just taken may wait for its game to be stored before quick pairing no longer waits for it (a
#: process that stopped in between).
STARTING = 30.0


class SeekRepository(Repository):
    """The open seeks of a server."""

    async def open(self, seek: StoredSeek, limit: int) -> StoredSeek | None:
        """Store a new seek (its ``created`` set now), unless its account has ``limit`` seeks open already
        (``None``). The count and the insert are one transaction under the account's row lock, so that a burst of
        requests, on any number of processes, never opens more than ``limit``."""
        return await self.database.run(self._open, seek, limit)

    def _open(self, seek: StoredSeek, limit: int) -> StoredSeek | None:
        with self.database.engine.begin() as connection:
            return self._open_in(connection, seek, limit)

    def _open_in(self, connection: sa.Connection, seek: StoredSeek, limit: int) -> StoredSeek | None:
        row = {
            "id": seek.id, "account_id": seek.account_id, "kind": seek.kind, "options": json.dumps(seek.options),
            "time_control": None if seek.time_control is None else json.dumps(seek.time_control),
            "rated": seek.rated, "colour": seek.colour, "low": seek.low, "high": seek.high, "created": self.now(),
            "game_id": None, "target": seek.target, "rematch_of": seek.rematch_of,
        }  # fmt: skip
        row["held"] = row["created"]
        lock_account(connection, seek.account_id)
        if self._count_in(connection, seek.account_id) >= limit:
            return None
        connection.execute(seeks.insert().values(row))
        return StoredSeek(**{**seek.__dict__, "created": row["created"]})

    async def pair(
        self, seek: StoredSeek, lock: int, same: Callable[[StoredSeek], bool], known: Collection[str],
        takes: Mapping[str, str], limit: int, real_time: bool = False,
    ) -> tuple[str, StoredSeek | None]:  # fmt: skip
        """Quick pairing's one transaction, for the pool of ``seek`` (its game, options, time control and
        rated-ness: ``same`` says whether an open seek is in it), its deciders one at a time (PostgreSQL's advisory
        lock ``lock``; SQLite's writers are one at a time already). Returns what was done:

        - ``("playing", None)``: a ``real_time`` pool, and the account plays a real-time game in progress: nothing;
        - ``("cancelled", own)``: the account's own seek in the pool was open: it is withdrawn;
        - ``("changed", None)``: the pool holds a seek not in ``known`` (opened since the caller looked), or the one
          chosen was accepted meanwhile, or (``real_time``) a seek of the pool was taken and its game is not stored
          yet (its players are not known to play yet): look again;
        - ``("taken", found)``: the oldest open seek of the pool in ``takes`` is taken for the game ``takes`` names;
        - ``("full", None)``: none to take, and the account has ``limit`` seeks open already;
        - ``("opened", seek)``: none to take: ``seek`` is stored.
        """
        return await self.database.run(self._pair, seek, lock, same, known, takes, limit, real_time)

    def _pair(
        self, seek: StoredSeek, lock: int, same: Callable[[StoredSeek], bool], known: Collection[str],
        takes: Mapping[str, str], limit: int, real_time: bool,
    ) -> tuple[str, StoredSeek | None]:  # fmt: skip
        with self.database.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": lock})
            if real_time and self._starting_in(connection, seek, same):
                return "changed", None
            if real_time and playing_in(connection, seek.account_id):
                return "playing", None
            pool = [found for found in self._pool_in(connection, seek.kind, seek.rated) if same(found)]
            own = [found for found in pool if found.account_id == seek.account_id]
            if own:
                connection.execute(seeks.delete().where(seeks.c.id.in_([found.id for found in own])))
                return "cancelled", own[0]
            if any(found.id not in known for found in pool):
                return "changed", None
            for found in pool:
                if found.id in takes:
                    chosen = sa.and_(seeks.c.id == found.id, seeks.c.game_id.is_(None))
                    taking = {"game_id": takes[found.id], "held": self.now()}  # a taken seek's held: when taken
                    taken = connection.execute(seeks.update().where(chosen).values(taking))
                    return ("taken", found) if taken.rowcount == 1 else ("changed", None)
            stored = self._open_in(connection, seek, limit)
        return ("opened", stored) if stored is not None else ("full", None)

    def _starting_in(self, connection: sa.Connection, seek: StoredSeek, same: Callable[[StoredSeek], bool]) -> bool:
        """Whether a seek of the pool of ``seek`` was taken in the last :data:`STARTING` seconds and its game is not
        stored yet (the game starts after the transaction that took the seek)."""
        recent = sa.and_(
            seeks.c.game_id.is_not(None), seeks.c.held > self.now() - STARTING, seeks.c.kind == seek.kind,
            seeks.c.rated == seek.rated, seeks.c.target.is_(None), seeks.c.rematch_of.is_(None),
        )  # fmt: skip
        taken = [_seek(row) for row in connection.execute(_LISTED.where(recent)).all()]
        return any(same(found) and not game_stored(connection, str(found.game_id)) for found in taken)

    async def pool(self, kind: str, rated: bool) -> list[StoredSeek]:
        """The open seeks anyone may accept of the game ``kind``, rated or not, oldest first."""
        return await self.database.run(self._pool, kind, rated)

    def _pool(self, kind: str, rated: bool) -> list[StoredSeek]:
        with self.database.single() as connection:
            return self._pool_in(connection, kind, rated)

    @staticmethod
    def _pool_in(connection: sa.Connection, kind: str, rated: bool) -> list[StoredSeek]:
        public = sa.and_(seeks.c.game_id.is_(None), seeks.c.target.is_(None), seeks.c.rematch_of.is_(None))
        query = _LISTED.where(public, seeks.c.kind == kind, seeks.c.rated == rated).order_by(seeks.c.created)
        return [_seek(row) for row in connection.execute(query).all()]

    async def rematch_offers(self, game_id: str) -> list[StoredSeek]:
        """The open challenges that offer the rematch of the game ``game_id``, oldest first."""
        return await self.database.run(self._rematch_offers, game_id)

    def _rematch_offers(self, game_id: str) -> list[StoredSeek]:
        query = _LISTED.where(seeks.c.rematch_of == game_id, seeks.c.game_id.is_(None)).order_by(seeks.c.created)
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return [_seek(row) for row in rows]

    async def listed(self, limit: int = 200) -> list[StoredSeek]:
        """The open seeks, newest first."""
        return await self.database.run(self._listed, limit)

    def _listed(self, limit: int) -> list[StoredSeek]:
        with self.database.single() as connection:
            public = sa.and_(seeks.c.game_id.is_(None), seeks.c.target.is_(None))
            query = _LISTED.where(public).order_by(seeks.c.created.desc()).limit(limit)
            rows = connection.execute(query).all()
        return [_seek(row) for row in rows]

    async def challenges(self, account_id: str) -> list[StoredSeek]:
        """The open challenges to or from the account, oldest first."""
        return await self.database.run(self._challenges, account_id)

    def _challenges(self, account_id: str) -> list[StoredSeek]:
        involved = sa.or_(seeks.c.target == account_id, seeks.c.account_id == account_id)
        query = _LISTED.where(seeks.c.game_id.is_(None), seeks.c.target.is_not(None), involved)
        with self.database.single() as connection:
            rows = connection.execute(query.order_by(seeks.c.created)).all()
        return [_seek(row) for row in rows]

    async def find(self, seek_id: str) -> StoredSeek | None:
        """The open seek ``seek_id``."""
        return await self.database.run(self._find, seek_id)

    def _find(self, seek_id: str) -> StoredSeek | None:
        with self.database.single() as connection:
            row = connection.execute(_LISTED.where(seeks.c.id == seek_id)).first()
        return None if row is None else _seek(row)

    async def take(self, seek_id: str, game_id: str) -> bool:
        """Take the seek off the lobby for the game ``game_id``: whether this call took it (of two at once, one
        does). Seeks accepted a day ago are forgotten."""
        return await self.database.run(self._take, seek_id, game_id)

    def _take(self, seek_id: str, game_id: str) -> bool:
        open_seek = sa.and_(seeks.c.id == seek_id, seeks.c.game_id.is_(None))
        with self.database.engine.begin() as connection:
            taking = {"game_id": game_id, "held": self.now()}
            taken = connection.execute(seeks.update().where(open_seek).values(taking)).rowcount == 1
            old = sa.and_(seeks.c.game_id.is_not(None), seeks.c.created < self.now() - 86400)
            connection.execute(seeks.delete().where(old))
        return taken

    async def cancel(self, seek_id: str) -> bool:
        """Withdraw an open seek: whether it was open."""
        return await self.database.run(self._cancel, seek_id)

    def _cancel(self, seek_id: str) -> bool:
        with self.database.engine.begin() as connection:
            query = seeks.delete().where(seeks.c.id == seek_id, seeks.c.game_id.is_(None))
            return connection.execute(query).rowcount == 1

    async def hold(self, account_ids: Collection[str]) -> None:
        """Note that the accounts ``account_ids`` are here now (a page or a bot stream of theirs is open on this
        process): their open seeks are held (see :meth:`unheld`). Only the accounts with an open seek are written."""
        if account_ids:
            await self.database.run(self._hold, set(account_ids))

    def _hold(self, account_ids: set[str]) -> None:
        open_seek = seeks.c.game_id.is_(None)
        with self.database.engine.begin() as connection:
            seekers = set(connection.execute(sa.select(seeks.c.account_id).distinct().where(open_seek)).scalars())
            here = sorted(seekers & account_ids)
            if here:
                connection.execute(
                    seeks.update().where(open_seek, seeks.c.account_id.in_(here)).values(held=self.now())
                )

    async def unheld(self, before: float) -> list[StoredSeek]:
        """The open seeks and challenges whose seeker was last here (see :meth:`hold`) before ``before``, oldest
        first."""
        return await self.database.run(self._unheld, before)

    def _unheld(self, before: float) -> list[StoredSeek]:
        held = sa.func.coalesce(seeks.c.held, seeks.c.created)
        query = _LISTED.where(seeks.c.game_id.is_(None), held < before).order_by(seeks.c.created)
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return [_seek(row) for row in rows]

    async def mine(self, account_id: str) -> list[StoredSeek]:
        """The open seeks and challenges the account made, oldest first."""
        return await self.database.run(self._mine, account_id)

    def _mine(self, account_id: str) -> list[StoredSeek]:
        query = _LISTED.where(seeks.c.game_id.is_(None), seeks.c.account_id == account_id).order_by(seeks.c.created)
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return [_seek(row) for row in rows]

    async def count(self, account_id: str) -> int:
        """How many seeks the account has open."""
        return await self.database.run(self._count, account_id)

    def _count(self, account_id: str) -> int:
        with self.database.single() as connection:
            return self._count_in(connection, account_id)

    @staticmethod
    def _count_in(connection: sa.Connection, account_id: str) -> int:
        mine = sa.and_(seeks.c.account_id == account_id, seeks.c.game_id.is_(None))
        return int(connection.execute(sa.select(sa.func.count()).select_from(seeks).where(mine)).scalar_one())


__all__ = ["SeekRepository", "StoredSeek"]
