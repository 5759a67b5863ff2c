"""Quotas counted atomically in the database, so that concurrent requests and several server processes cannot race
past a limit.

A quota is a row per key (``signin:name:alice``, ``signup:203.0.113.7``, ...): when its window began and how much of
it has been used. :meth:`QuotaRepository.take` counts one use in a single ``INSERT ... ON CONFLICT DO UPDATE ...
RETURNING`` statement, which the database runs under the row's lock: of 60 requests at once against a limit of 5,
exactly 5 are told yes, whichever process they reach. A use is counted *before* the work it guards (a password's
hash checked, an account made), so that nothing is done for a request past the limit.

:func:`take_in` does the same inside a transaction already open, where the row's lock then also serializes
whatever else that transaction counts and writes until it commits. A limit on what an account holds rather than on
uses in a window (its open seeks, its chat lines in the last minute) is counted after
:func:`~hive.web.players.repository.lock_account`, in the
transaction that stores the new row.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from .database import Repository
from .tables import quotas


@dataclass(frozen=True)
class Taken:
    """The answer of a quota: whether this use was within it, how many uses the window holds (this one included),
    and in how many seconds the window ends."""

    allowed: bool
    used: int
    retry_after: float


def take_in(connection: sa.Connection, key: str, limit: int, window: float, now: float, cost: int = 1) -> Taken:
    """Count ``cost`` uses of ``key`` at ``now``, in ``connection``'s transaction (see the module's text).

    A window begins at the first use after the last one lapsed, and lasts ``window`` seconds. A use past ``limit``
    is counted too (a burst keeps the window full), but answers ``allowed=False``.
    """
    insert = (postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert)(quotas)
    lapsed = quotas.c.start <= now - window
    statement = (
        insert.values(key=key, start=now, used=cost)
        .on_conflict_do_update(
            index_elements=[quotas.c.key],
            set_={
                "start": sa.case((lapsed, now), else_=quotas.c.start),
                "used": sa.case((lapsed, cost), else_=quotas.c.used + cost),
            },
        )
        .returning(quotas.c.start, quotas.c.used)
    )
    row = connection.execute(statement).one()
    used = int(row.used)
    return Taken(used <= limit, used, max(0.0, float(row.start) + window - now))


class QuotaRepository(Repository):
    """The quotas of a server (see the module's text)."""

    async def take(self, key: str, limit: int, window: float, cost: int = 1) -> Taken:
        """Count ``cost`` uses of ``key`` now, atomically; ``allowed`` says whether it was within ``limit`` uses in
        ``window`` seconds."""
        return await self.database.run(self._take, key, limit, window, cost)

    def _take(self, key: str, limit: int, window: float, cost: int) -> Taken:
        with self.database.engine.begin() as connection:
            taken = take_in(connection, key, limit, window, self.now(), cost)
            if taken.used == cost:  # a new window: now and then, drop the rows of lapsed ones
                connection.execute(sa.delete(quotas).where(quotas.c.start < self.now() - 86_400))
            return taken

    async def take_all(self, quotas: list[tuple[str, int, float]]) -> list[Taken]:
        """Count one use of each ``(key, limit, window)`` now, in one transaction, the keys in sorted order (so that
        two such transactions never wait on each other's rows in a circle); the answers in the order given."""
        return await self.database.run(self._take_all, quotas)

    def _take_all(self, quotas: list[tuple[str, int, float]]) -> list[Taken]:
        taken: dict[str, Taken] = {}
        with self.database.engine.begin() as connection:
            for key, limit, window in sorted(quotas):
                taken[key] = take_in(connection, key, limit, window, self.now())
        return [taken[key] for key, _, _ in quotas]

    async def give_back(self, *keys: str) -> None:
        """Return one use of each of ``keys`` to its window (the use turned out not to count: a sign-in that
        succeeded is no failure), never below none."""
        await self.database.run(self._give_back, list(keys))

    def _give_back(self, keys: list[str]) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(
                sa.update(quotas).where(quotas.c.key.in_(keys), quotas.c.used > 0).values(used=quotas.c.used - 1)
            )

    async def peek(self, key: str, window: float) -> int:
        """The uses of ``key`` in its current window (0 when it has lapsed), counting none."""
        return await self.database.run(self._peek, key, window)

    def _peek(self, key: str, window: float) -> int:
        query = sa.select(quotas.c.used).where(quotas.c.key == key, quotas.c.start > self.now() - window)
        with self.database.single() as connection:
            used = connection.execute(query).scalar()
        return int(used or 0)

    async def clear(self, *keys: str) -> None:
        """Forget the uses of ``keys`` (a sign-in that succeeded clears its failures)."""
        await self.database.run(self._clear, list(keys))

    def _clear(self, keys: list[str]) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(sa.delete(quotas).where(quotas.c.key.in_(keys)))


__all__ = ["QuotaRepository", "Taken", "take_in"]
