"""The AI's moves as a queue shared by every server process: a row per game whose AI is due, kept in step with the
game by the same transaction that stores each change (:func:`keep`).

A process takes the next job (:meth:`AIJobs.claim`) for as long as its lease lasts and renews the lease while its
worker thinks; a job whose process died is taken over by another once the lease runs out. Jobs are taken fairly
between clients: the client with the fewest jobs being worked out goes first, then the client this process served
longest ago (the clients take turns, however many games one of them has waiting), then the oldest job. On PostgreSQL
two processes never take the same job (``FOR UPDATE SKIP LOCKED``); on SQLite one process serves them all.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from ..shared.database import Database, Repository
from ..shared.model import AIJob
from .tables import ai_jobs

#: Workers that may take one job (each started after the last one's process died) before it fails for good.
MAX_TRIES = 3
#: The clients whose turns a process remembers (those served longer ago count as never served, and go first).
TURNS = 64


def keep(connection: sa.Connection, game_id: str, ply: int | None, client: str, now: float) -> None:
    """Keep the game's job in step with a change stored on ``connection``: queued for the position after ``ply``
    moves (left as it is if it is for that position already, being worked out perhaps), or gone (``ply`` ``None``: the
    AI is not due)."""
    if ply is None:
        connection.execute(ai_jobs.delete().where(ai_jobs.c.game_id == game_id))
        return
    values = {"game_id": game_id, "ply": ply, "client": client, "created": now, "owner": None, "lease": None}
    insert = (postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert)(ai_jobs)
    statement = insert.values(**values, tries=0).on_conflict_do_update(
        index_elements=[ai_jobs.c.game_id],
        set_={**{k: v for k, v in values.items() if k != "game_id"}, "tries": 0},
        where=ai_jobs.c.ply != ply,
    )
    connection.execute(statement)


class AIJobs(Repository):
    """The shared queue of the AI's moves.

    The time source of leases is shared by every process: the machines' clocks are assumed to agree within a
    second or so.
    """

    def __init__(self, database: Database, now: Callable[[], float] = time.time) -> None:
        super().__init__(database, now)
        #: The turn in which this process last took a job of each client, the latest last.
        self._served: OrderedDict[str, int] = OrderedDict()
        self._turn = 0

    async def claim(self, owner: str, lease: float) -> AIJob | None:
        """Take the next job for ``owner`` for ``lease`` seconds: one nobody holds, or whose holder's lease ran out;
        ``None`` when there is none."""
        return await self.database.run(self._claim, owner, lease)

    def _claim(self, owner: str, lease: float) -> AIJob | None:
        now = self.now()
        running = sa.alias(ai_jobs, "running")
        busy = (
            sa.select(sa.func.count())
            .select_from(running)
            .where(running.c.client == ai_jobs.c.client, running.c.owner.is_not(None), running.c.lease >= now)
            .scalar_subquery()
        )
        served = sa.case(dict(self._served), value=ai_jobs.c.client, else_=0) if self._served else sa.literal(0)
        query = (
            sa.select(ai_jobs.c.game_id, ai_jobs.c.ply, ai_jobs.c.client, ai_jobs.c.tries)
            .where(sa.or_(ai_jobs.c.owner.is_(None), ai_jobs.c.lease < now))
            .order_by(busy, served, ai_jobs.c.created)
            .limit(1)
        )
        with self.database.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True, of=ai_jobs)
            row = connection.execute(query).first()
            if row is None:
                return None
            connection.execute(
                ai_jobs.update()
                .where(ai_jobs.c.game_id == row.game_id)
                .values(owner=owner, lease=now + lease, tries=row.tries + 1)
            )
        self._turn += 1
        self._served[row.client] = self._turn
        self._served.move_to_end(row.client)
        if len(self._served) > TURNS:
            self._served.popitem(last=False)
        return AIJob(row.game_id, row.ply, row.client, row.tries + 1)

    async def renew(self, owner: str, game_ids: list[str], lease: float) -> None:
        """Extend ``owner``'s leases on the jobs of ``game_ids`` by ``lease`` seconds from now."""
        if game_ids:
            await self.database.run(self._renew, owner, game_ids, lease)

    def _renew(self, owner: str, game_ids: list[str], lease: float) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(
                ai_jobs.update()
                .where(ai_jobs.c.owner == owner, ai_jobs.c.game_id.in_(game_ids))
                .values(lease=self.now() + lease)
            )

    async def release(self, owner: str, game_id: str) -> None:
        """Give back ``owner``'s job on a game unfinished (its process is stopping), for another to take at once."""
        await self.database.run(self._release, owner, game_id)

    def _release(self, owner: str, game_id: str) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(
                ai_jobs.update()
                .where(ai_jobs.c.owner == owner, ai_jobs.c.game_id == game_id)
                .values(owner=None, lease=None, tries=ai_jobs.c.tries - 1)
            )

    async def waiting(self) -> int:
        """Jobs nobody is working out now."""
        return await self.database.run(self._waiting)

    def _waiting(self) -> int:
        now = self.now()
        query = (
            sa.select(sa.func.count())
            .select_from(ai_jobs)
            .where(sa.or_(ai_jobs.c.owner.is_(None), ai_jobs.c.lease < now))
        )
        with self.database.single() as connection:
            return int(connection.execute(query).scalar_one())


__all__ = ["MAX_TRIES", "TURNS", "AIJobs", "keep"]
