"""Who is watching, across every server process: each process says it is alive every few seconds, and counts the
sockets it has open on each game with a seat's token. A seat is present when a live process has a socket of it open;
a process that stopped saying it is alive is forgotten, with its sockets.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from ..shared.database import Database
from .tables import processes, watchers

#: Seconds after its last word that a process counts as gone.
TIMEOUT = 20.0


class Presence:
    """The processes and the seats present.

    :param database: where they are kept.
    :param process: this process's id.
    :param now: the time source, seconds since the epoch.
    """

    def __init__(self, database: Database, process: str, now: Callable[[], float] = time.time) -> None:
        self.database = database
        self.process = process
        self.now = now

    async def register(self) -> None:
        """Say that this process is alive, from now on (again, after it was taken for gone)."""
        await self.database.run(self._register)

    def _register(self) -> None:
        now = self.now()
        row = {"id": self.process, "host": socket.gethostname(), "pid": os.getpid(), "started": now, "beat": now}
        with self.database.engine.begin() as connection:
            connection.execute(processes.delete().where(processes.c.id == self.process))
            connection.execute(processes.insert().values(row))

    async def beat(self) -> tuple[bool, list[str]]:
        """Say this process is still alive, and forget the processes gone silent: whether this process was still known
        (``False``: it was taken for gone and must register again), and the games whose watchers were forgotten."""
        return await self.database.run(self._beat)

    def _beat(self) -> tuple[bool, list[str]]:
        now = self.now()
        with self.database.engine.begin() as connection:
            known = connection.execute(
                processes.update().where(processes.c.id == self.process).values(beat=now)
            ).rowcount
            gone = sa.select(processes.c.id).where(processes.c.beat < now - TIMEOUT)
            games = connection.execute(
                sa.select(watchers.c.game_id).distinct().where(watchers.c.process.in_(gone))
            ).scalars()
            affected = list(games)
            connection.execute(watchers.delete().where(watchers.c.process.in_(gone)))
            connection.execute(processes.delete().where(processes.c.beat < now - TIMEOUT))
            return known == 1, affected

    async def unregister(self) -> list[str]:
        """Forget this process and its sockets (it is stopping): the games they watched."""
        return await self.database.run(self._unregister)

    def _unregister(self) -> list[str]:
        with self.database.engine.begin() as connection:
            games = connection.execute(
                sa.select(watchers.c.game_id).distinct().where(watchers.c.process == self.process)
            ).scalars()
            affected = list(games)
            connection.execute(watchers.delete().where(watchers.c.process == self.process))
            connection.execute(processes.delete().where(processes.c.id == self.process))
            return affected

    async def watch(self, game_id: str, seats: frozenset[int], delta: int) -> None:
        """Count ``delta`` more (or fewer) sockets of this process open on the game with the token of ``seats``."""
        if seats:
            await self.database.run(self._watch, game_id, seats, delta)

    def _watch(self, game_id: str, seats: frozenset[int], delta: int) -> None:
        with self.database.engine.begin() as connection:
            for seat in seats:
                key = {"process": self.process, "game_id": game_id, "seat": seat}
                if delta > 0:
                    insert = (postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert)(watchers)
                    connection.execute(
                        insert.values(**key, sockets=delta).on_conflict_do_update(
                            index_elements=[watchers.c.process, watchers.c.game_id, watchers.c.seat],
                            set_={"sockets": watchers.c.sockets + delta},
                        )
                    )
                else:
                    where = [watchers.c[name] == value for name, value in key.items()]
                    connection.execute(watchers.update().where(*where).values(sockets=watchers.c.sockets + delta))
                    connection.execute(watchers.delete().where(*where, watchers.c.sockets <= 0))

    async def present(self, game_id: str) -> tuple[bool, bool]:
        """Which seats of the game a live process has a socket of open."""
        return await self.database.run(self._present, game_id)

    def _present(self, game_id: str) -> tuple[bool, bool]:
        alive = sa.select(processes.c.id).where(processes.c.beat >= self.now() - TIMEOUT)
        query = (
            sa.select(watchers.c.seat).distinct().where(watchers.c.game_id == game_id, watchers.c.process.in_(alive))
        )
        with self.database.single() as connection:
            seats = set(connection.execute(query).scalars())
        return 0 in seats, 1 in seats


__all__ = ["TIMEOUT", "Presence"]
