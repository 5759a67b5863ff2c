"""Who follows whom, and the names found by a search, as every server process shares them."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from ..shared.database import Repository
from .repository import lock_account
from .tables import accounts, follows, online


@dataclass(frozen=True)
class Followed:
    """A player followed: their account's id and name, whether it is a bot's, and when it was last seen (``None``:
    not since the window asked about)."""

    id: str
    name: str
    bot: bool
    seen: float | None


class FollowRepository(Repository):
    """The follows of a server's accounts, and the search for names."""

    async def follow(self, follower: str, followed: str, limit: int) -> str:
        """``follower`` follows ``followed`` from now: ``"added"``, ``"already"`` (it did), or ``"full"`` (it
        follows ``limit`` players already: counted under the follower's lock, so that requests at once cannot pass
        it)."""
        return await self.database.run(self._follow, follower, followed, limit)

    def _follow(self, follower: str, followed: str, limit: int) -> str:
        mine = follows.c.follower_id == follower
        with self.database.engine.begin() as connection:
            lock_account(connection, follower)
            there = sa.select(follows.c.created).where(mine, follows.c.followed_id == followed)
            if connection.execute(there).first() is not None:
                return "already"
            count = sa.select(sa.func.count()).select_from(follows).where(mine)
            if int(connection.execute(count).scalar_one()) >= limit:
                return "full"
            row = {"follower_id": follower, "followed_id": followed, "created": self.now()}
            connection.execute(follows.insert().values(**row))
        return "added"

    async def unfollow(self, follower: str, followed: str) -> bool:
        """``follower`` no longer follows ``followed``; whether it did."""
        return await self.database.run(self._unfollow, follower, followed)

    def _unfollow(self, follower: str, followed: str) -> bool:
        query = follows.delete().where(follows.c.follower_id == follower, follows.c.followed_id == followed)
        with self.database.engine.begin() as connection:
            return bool(connection.execute(query).rowcount)

    async def followed(self, follower: str, since: float) -> list[Followed]:
        """The players ``follower`` follows (not banned), by name, each with when it was seen since ``since``."""
        return await self.database.run(self._followed, follower, since)

    def _followed(self, follower: str, since: float) -> list[Followed]:
        seen = sa.case((online.c.seen >= since, online.c.seen), else_=None).label("seen")
        query = (
            sa.select(accounts.c.id, accounts.c.name, accounts.c.bot, seen)
            .join(follows, follows.c.followed_id == accounts.c.id)
            .outerjoin(online, online.c.account_id == accounts.c.id)
            .where(follows.c.follower_id == follower, accounts.c.banned.is_(False))
            .order_by(accounts.c.key)
        )
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return [Followed(str(r.id), str(r.name), bool(r.bot), None if r.seen is None else float(r.seen)) for r in rows]

    async def search(self, key: str, lower: str, limit: int) -> list[tuple[str, bool]]:
        """The names (not banned) whose key starts with ``key`` or that start with ``lower`` whatever their case,
        shortest first, at most ``limit``: each with whether it is a bot's."""
        return await self.database.run(self._search, key, lower, limit)

    def _search(self, key: str, lower: str, limit: int) -> list[tuple[str, bool]]:
        match = sa.or_(
            accounts.c.key.startswith(key, autoescape=True),
            sa.func.lower(accounts.c.name).startswith(lower, autoescape=True),
        )
        query = (
            sa.select(accounts.c.name, accounts.c.bot)
            .where(match, accounts.c.banned.is_(False))
            .order_by(sa.func.length(accounts.c.key), accounts.c.key)
            .limit(limit)
        )
        with self.database.single() as connection:
            return [(str(r.name), bool(r.bot)) for r in connection.execute(query).all()]


__all__ = ["FollowRepository", "Followed"]
