"""A change stored in one statement on PostgreSQL when its notification is all its transaction would hold besides it
(the game's row updated over the version seen, at most one move appended, the notification sent): one round trip a
move, the notification sent if and only if the change is stored, and of two changes made from the same version one
stored and the other refused, as with a transaction. A change that takes moves back is stored as before."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa

from hive.web.play.actions import act
from hive.web.play.events import GameEvent, Unheard
from hive.web.play.service import GameService
from hive.web.shared.bus import CHANNEL
from hive.web.shared.errors import Conflict, Unavailable
from hive.web.storage import Store, open_store

from ...web_support import made_ready

pytestmark = pytest.mark.anyio


class Noted(Unheard):
    """An announcer giving each change's notification as text, as the PostgreSQL bus does."""

    def __init__(self) -> None:
        self.told_events: list[GameEvent] = []
        self.stored_events: list[GameEvent] = []

    def told(self, event: GameEvent) -> str | None:
        self.told_events.append(event)
        return event.payload()

    def stored(self, connection: sa.Connection, event: GameEvent) -> None:
        self.stored_events.append(event)


@pytest.fixture()
def url(postgres_url: str) -> str:
    return made_ready(postgres_url)


@pytest.fixture()
def listener(url: str) -> Iterator[psycopg.Connection[Any]]:
    """A connection listening to the games' channel."""
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"LISTEN {CHANNEL}")
        yield connection


def heard(listener: psycopg.Connection[Any]) -> list[str]:
    """The notifications sent since last asked (waiting a little for them)."""
    return [notice.payload for notice in listener.notifies(timeout=0.5)]


def statements(store: Store) -> list[str]:
    """The statements sent by ``store``'s database from now on."""
    sent: list[str] = []
    sa.event.listen(store.database.engine, "before_cursor_execute", lambda *args: sent.append(args[2]))
    return sent


async def test_a_move_is_one_statement_sending_its_notification(url: str, listener: psycopg.Connection[Any]) -> None:
    noted = Noted()
    store = open_store(url, "a")
    service = GameService(store, origin="a", announcer=noted)
    try:
        session, created = await service.create({"mode": "local"})
        game_id, token = session.record.id, created.token
        heard(listener)
        sent = statements(store)
        for move in ("wS1", "bS1 wS1-"):
            await act(service, game_id, "move", token, {"move": move})
            assert len(sent) == 1 and sent[0].startswith("WITH u AS (UPDATE games"), sent
            assert heard(listener) == [noted.told_events[-1].payload()]
            assert noted.told_events[-1].change is not None
            assert [event.what for event in noted.stored_events] == ["created"]  # a new game is told as before
            sent.clear()
        await act(service, game_id, "name", token, {"name": "Ada", "seat": 0})  # no move: the row alone
        assert len(sent) == 1 and "INSERT" not in sent[0] and len(heard(listener)) == 1
        assert await store.games.load(game_id) == session.record
        sent.clear()
        await act(service, game_id, "undo", token, {})  # a move taken back is kept (to be redone): one statement
        assert len(sent) == 1 and len(heard(listener)) == 1
        sent.clear()
        await act(service, game_id, "move", token, {"move": "bA1 wS1-"})  # the one taken back replaced: cut, added
        assert len(sent) > 1 and any("pg_notify" in text for text in sent) and len(heard(listener)) == 1
        stored = await store.games.load(game_id)
        assert stored == session.record and stored.moves == ["wS1", "bA1 wS1-"] and stored.redo == []
    finally:
        store.close()


async def test_of_two_changes_from_one_version_one_is_stored_and_notified(
    url: str, listener: psycopg.Connection[Any]
) -> None:
    first, second = open_store(url, "a"), open_store(url, "b")
    one, other = GameService(first, origin="a", announcer=Noted()), GameService(second, origin="b", announcer=Noted())
    try:
        for _ in range(5):  # a new game each time: a move that only appends
            session, created = await one.create({"mode": "local"})
            game_id, token = session.record.id, created.token
            await other.session(game_id)
            heard(listener)
            results = await asyncio.gather(
                act(one, game_id, "move", token, {"move": "wS1", "ply": 0}),
                act(other, game_id, "move", token, {"move": "wG1", "ply": 0}),
                return_exceptions=True,
            )
            refused = [result for result in results if isinstance(result, BaseException)]
            assert len(refused) == 1 and isinstance(refused[0], Conflict), results
            assert len(heard(listener)) == 1
            stored = await first.games.load(game_id)
            assert stored is not None and stored.version == 1 and len(stored.moves) == 1
        # a change made from a version no longer stored: refused, nothing sent, its board put back
        twin = await other.session(game_id)
        first_move = twin.record.moves[0]
        await act(one, game_id, "move", token, {"move": f"bS1 {first_move}-"})
        heard(listener)
        before = twin.record
        with pytest.raises(Conflict, match="changed meanwhile"):
            await other.commit(twin, "name", 0, names=("Ada", None))
        assert heard(listener) == [] and twin.record == before
    finally:
        first.close()
        second.close()


async def test_a_statement_on_a_lost_connection_is_unavailable_and_the_pool_is_opened_anew(url: str) -> None:
    """The one-statement save runs on the driver's cursor (:meth:`Database.first_row`): a connection the server ended
    fails that one statement as the database not answering, and the pool's other connections are not used again."""
    store = open_store(url, "a")
    database = store.database
    try:
        with database.single() as a, database.single() as b, database.single() as c:  # three pooled connections
            assert [one.exec_driver_sql("SELECT 1").scalar() for one in (a, b, c)] == [1, 1, 1]
        assert database.first_row("SELECT %(x)s::int", {"x": 7}) == (7,)
        with psycopg.connect(url, autocommit=True) as admin:  # the server ends the pool's connections
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        with pytest.raises(Unavailable, match="not answering"):
            database.call(database.first_row, "SELECT 1", {})
        for x in range(3):
            assert database.first_row("SELECT %(x)s::int", {"x": x}) == (x,)
            with database.single() as connection:
                assert connection.exec_driver_sql("SELECT 1").scalar() == 1
    finally:
        store.close()
