"""How the server processes sharing a database hear of each other's changes: a bus carrying every event
(of any type declared, see :class:`~hive.web.shared.events.Event`) to every process.

- :class:`LocalBus`: one process alone (SQLite): nothing to carry.
- :class:`PostgresBus`: PostgreSQL's ``LISTEN``/``NOTIFY``. An event told with its change (a game's, see
  :attr:`~hive.web.shared.events.Event.with_change`) is sent by the statement or transaction that stores the
  change, so it goes out if and only if the change is stored, even if the process dies a moment later; the others
  are sent on their own once what they tell is stored, one statement each on a connection the bus keeps for them
  (no transaction, no database thread).
- :class:`RedisBus`: Redis pub/sub (``--redis URL``), published once the change is stored.

Each process listens on a connection of its own, reconnects after a fault (the database or Redis restarting), and
then asks to be brought up to date (``resync``), since it may have missed events while it was away.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

import sqlalchemy as sa

from .database import Database
from .events import Event, Subscribers

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("hive.web")
#: The channel the events go by.
CHANNEL = "hive_games"
#: The statement that sends an event (inside the transaction storing its change, on PostgreSQL).
NOTIFY = sa.text("SELECT pg_notify(:channel, :payload)")
#: The same, as an event sent on its own on the bus's connection.
SEND = "SELECT pg_notify(%s, %s)"
#: Seconds between attempts to listen again after a fault, at most.
BACKOFF = 5.0

Deliver = Callable[[Event], Awaitable[None]]
Resync = Callable[[], Awaitable[None]]


class Bus(Protocol):
    """What carries events between processes."""

    #: Whether the bus is listening now (``/readyz`` says so).
    listening: bool

    def stored(self, connection: sa.Connection, event: Event) -> None:
        """A change is being stored on ``connection`` (inside its transaction, on a database thread): ``event``, one
        sent with its change, tells it."""
        ...

    def told(self, event: Event) -> str | None:
        """The text of ``event``, one sent with its change, as the statement storing the change sends it on
        :data:`CHANNEL` (PostgreSQL's ``NOTIFY``); ``None`` when the change's transaction sends nothing."""
        ...

    async def published(self, event: Event) -> None:
        """An event happened: its change is stored (or it stores nothing, such as who is present)."""
        ...

    async def start(self, deliver: Deliver, resync: Resync) -> None:
        """Start listening: ``deliver`` gets every other process's events; ``resync`` is called after listening
        again following a fault."""
        ...

    async def close(self) -> None:
        """Stop listening."""
        ...


class LocalBus:
    """One process alone: its own events are all there are."""

    listening = True

    def stored(self, connection: sa.Connection, event: Event) -> None:
        """Nothing to send."""

    def told(self, event: Event) -> str | None:
        """Nothing to send."""
        return None

    async def published(self, event: Event) -> None:
        """Nothing to send."""

    async def start(self, deliver: Deliver, resync: Resync) -> None:
        """Nothing to listen to."""

    async def close(self) -> None:
        """Nothing to stop."""


class Publisher:
    """Tells every process, this one included, of what happened here.

    :param bus: what carries the events to the other processes.
    :param subscribers: what follows each type of event here.
    """

    def __init__(self, bus: Bus, subscribers: Subscribers) -> None:
        self.bus = bus
        self.subscribers = subscribers

    async def publish(self, event: Event) -> None:
        """Something that stores nothing of a game happened here (or its change is stored): tell every process, this
        one included."""
        try:
            await self.bus.published(event)
        except Exception as err:  # stored all the same: the other processes' pages see it when they look again
            log.warning("a %s event could not be sent to the other processes: %s", event.kind, err)
        await self.subscribers.deliver(event)


class _Listener:
    """A task that listens, and listens again after a fault, with back-off."""

    listening = False

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self._task: asyncio.Task[None] | None = None

    async def start(self, deliver: Deliver, resync: Resync) -> None:
        if self._task is None:
            ready = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run(deliver, resync, ready))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ready.wait(), 10)

    async def _run(self, deliver: Deliver, resync: Resync, ready: asyncio.Event) -> None:
        delay, first = 0.2, True
        while True:
            try:
                await self._listen(self._heard(deliver), self._up(resync, first, ready))
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if self.listening:
                    log.warning("stopped hearing other processes' changes (%s); listening again", err)
                self.listening = False
            ready.set()
            first = False
            await asyncio.sleep(delay)
            delay = min(delay * 2, BACKOFF)

    def _up(self, resync: Resync, first: bool, ready: asyncio.Event) -> Callable[[], Awaitable[None]]:
        async def up() -> None:
            self.listening = True
            ready.set()
            if not first:
                log.info("hearing other processes' changes again")
                await resync()

        return up

    def _heard(self, deliver: Deliver) -> Callable[[str | bytes], Awaitable[None]]:
        own = f'"origin":{json.dumps(self.origin)}'  # as payload() writes it; never inside a string (quotes escaped)

        async def heard(payload: str | bytes) -> None:
            text = payload if isinstance(payload, str) else payload.decode(errors="replace")
            end = text.find("\n")  # the JSON ends there if a tail follows it: its origin is looked for in the JSON
            if text.find(own, 0, end if end >= 0 else len(text)) >= 0:
                return  # this process's own (PostgreSQL sends a listener its own notifications): not read
            try:
                event = Event.from_payload(text)
            except ValueError as err:
                log.warning("ignored a message on the bus: %s", err)
                return
            if event.origin != self.origin:
                try:
                    await deliver(event)
                except Exception:
                    log.exception("an event from another process could not be followed")

        return heard

    def text(self, event: Event) -> str:
        """The event's payload, this process named as its origin when it names none."""
        return (event if event.origin else dataclasses.replace(event, origin=self.origin)).payload()

    async def _listen(self, heard: Callable[[str | bytes], Awaitable[None]], up: Callable[[], Awaitable[None]]) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        self.listening = False


class PostgresBus(_Listener):
    """``LISTEN``/``NOTIFY`` on the games' PostgreSQL database.

    :param database: the database (its URL to listen on; its threads to notify from outside a change).
    :param origin: this process's name (its own events are not delivered back to it).
    """

    def __init__(self, database: Database, origin: str) -> None:
        super().__init__(origin)
        self.database = database
        self._sender: psycopg.AsyncConnection[Any] | None = None
        self._sending = asyncio.Lock()

    def stored(self, connection: sa.Connection, event: Event) -> None:
        connection.execute(NOTIFY, {"channel": CHANNEL, "payload": self.text(event)})

    def told(self, event: Event) -> str | None:
        return self.text(event)

    async def published(self, event: Event) -> None:
        """An event not sent by a change's transaction is sent on its own: one statement on the bus's own connection
        (no transaction, no database thread), opened again after a fault."""
        if event.with_change:
            return
        async with self._sending:
            try:
                if self._sender is None or self._sender.closed:
                    self._sender = await self._connect()
                await self._sender.execute(SEND, (CHANNEL, self.text(event)))
            except Exception:
                await self._drop_sender()
                raise

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        import psycopg

        url = self.database.url.set(drivername="postgresql").render_as_string(hide_password=False)
        return await psycopg.AsyncConnection.connect(url, autocommit=True, connect_timeout=10)

    async def _drop_sender(self) -> None:
        sender, self._sender = self._sender, None
        if sender is not None:
            with contextlib.suppress(Exception):
                await sender.close()

    async def close(self) -> None:
        await super().close()
        async with self._sending:
            await self._drop_sender()

    async def _listen(self, heard: Callable[[str | bytes], Awaitable[None]], up: Callable[[], Awaitable[None]]) -> None:
        async with await self._connect() as connection:
            await connection.execute(f"LISTEN {CHANNEL}")
            await up()
            await self._notices(connection, heard)

    @staticmethod
    async def _notices(
        connection: psycopg.AsyncConnection[Any], heard: Callable[[str | bytes], Awaitable[None]]
    ) -> None:
        """Hear every notification on ``connection`` until it fails: its socket watched once by the loop and read
        by libpq as it is readable (psycopg's own ``notifies()`` sets up a wait for every read, a cost every process
        pays for every change of every game)."""
        async for early in connection.notifies(timeout=0):  # any read with the LISTEN's answer
            await heard(early.payload)
        pgconn, loop, readable = connection.pgconn, asyncio.get_running_loop(), asyncio.Event()
        socket = pgconn.socket
        loop.add_reader(socket, readable.set)
        try:
            while True:
                await readable.wait()
                readable.clear()
                pgconn.consume_input()  # raises when the connection is lost
                while (notice := pgconn.notifies()) is not None:
                    await heard(notice.extra.decode())
        finally:
            loop.remove_reader(socket)


class RedisBus(_Listener):
    """Redis pub/sub.

    :param url: the Redis server, ``redis://HOST:PORT/DB``.
    :param origin: this process's name (its own events are not delivered back to it).
    """

    def __init__(self, url: str, origin: str) -> None:
        super().__init__(origin)
        import redis.asyncio

        self.url = url
        self._client = redis.asyncio.Redis.from_url(url, socket_connect_timeout=10)

    def stored(self, connection: sa.Connection, event: Event) -> None:
        """Nothing inside the transaction: Redis hears of the change once it is stored."""

    def told(self, event: Event) -> str | None:
        """Nothing inside the transaction."""
        return None

    async def published(self, event: Event) -> None:
        try:
            await self._client.publish(CHANNEL, self.text(event))
        except Exception as err:  # the other processes find the change at their next sweep
            log.warning("a change could not be published on Redis: %s", err)

    async def _listen(self, heard: Callable[[str | bytes], Awaitable[None]], up: Callable[[], Awaitable[None]]) -> None:
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(self.url, socket_connect_timeout=10)
        try:
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(CHANNEL)
                await up()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        await heard(message["data"])
        finally:
            await client.aclose()

    async def close(self) -> None:
        await super().close()
        with contextlib.suppress(Exception):
            await self._client.aclose()


__all__ = ["CHANNEL", "NOTIFY", "Bus", "LocalBus", "PostgresBus", "Publisher", "RedisBus"]
