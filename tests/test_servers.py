"""The servers the storage tests run against (tests/servers.py, scripts/postgres.sh, scripts/redis.sh): a real
PostgreSQL with a fresh database for each test, LISTEN/NOTIFY across connections, Redis pub/sub across clients, and
the scripts leaving nothing running when a start fails."""

from __future__ import annotations

import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
import redis

from .servers import SCRIPTS, ensure_installed, scratch_parent

#: The databases given to this module's tests so far, in order.
DATABASES: list[str] = []


def test_postgres_runs_a_query(postgres_url: str) -> None:
    assert urlsplit(postgres_url).scheme == "postgresql"
    with psycopg.connect(postgres_url) as connection:
        assert connection.info.dbname == urlsplit(postgres_url).path.lstrip("/")
        assert connection.info.encoding == "utf-8"
        # DROP DATABASE ... WITH (FORCE), which the fixture relies on, is PostgreSQL 13's.
        assert connection.info.server_version >= 130000
        connection.execute("CREATE TABLE games (id integer PRIMARY KEY, record text NOT NULL)")
        connection.execute("INSERT INTO games VALUES (%s, %s)", (1, "Base+MLP;InProgress;White[1];wQ — é"))
        assert connection.execute("SELECT record FROM games WHERE id = 1").fetchone() == (
            "Base+MLP;InProgress;White[1];wQ — é",
        )


@pytest.mark.parametrize("turn", [1, 2])
def test_each_test_has_a_fresh_empty_database(
    postgres_url: str, postgres_admin: psycopg.Connection[Any], turn: int
) -> None:
    with psycopg.connect(postgres_url) as connection:
        name = connection.info.dbname
        relations = connection.execute(
            "SELECT count(*) FROM pg_class JOIN pg_namespace ON pg_namespace.oid = relnamespace"
            " WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg_toast%'"
        ).fetchone()
        assert relations == (0,)
        # Left behind on purpose: the next test must not see it.
        connection.execute("CREATE TABLE leftover (turn integer)")
        connection.execute("INSERT INTO leftover VALUES (%s)", (turn,))
    assert name not in DATABASES
    existing = {row[0] for row in postgres_admin.execute("SELECT datname FROM pg_database")}
    assert name in existing
    assert existing.isdisjoint(DATABASES), "the databases of earlier tests were not dropped"
    DATABASES.append(name)


def test_listen_notify_across_connections(postgres_url: str) -> None:
    with (
        psycopg.connect(postgres_url, autocommit=True) as listener,
        psycopg.connect(postgres_url) as notifier,
    ):
        listener.execute("LISTEN game_moves")
        # A rolled back transaction notifies no one; a committed one delivers its notifications in order.
        notifier.execute("NOTIFY game_moves, 'rolled back'")
        notifier.rollback()
        for move in ["wQ", "bG1 -wQ", "wA1 wQ-"]:
            notifier.execute("SELECT pg_notify('game_moves', %s)", (move,))
        assert list(listener.notifies(timeout=0.2, stop_after=1)) == []
        notifier.commit()
        received = [(n.channel, n.payload, n.pid) for n in listener.notifies(timeout=10, stop_after=3)]
        pid = notifier.info.backend_pid
        assert received == [("game_moves", "wQ", pid), ("game_moves", "bG1 -wQ", pid), ("game_moves", "wA1 wQ-", pid)]


@pytest.mark.parametrize("turn", [1, 2])
def test_each_test_has_an_empty_redis_database(redis_url: str, turn: int) -> None:
    with redis.Redis.from_url(redis_url) as client:
        assert client.dbsize() == 0
        client.set("leftover", turn)
        assert client.connection_pool.connection_kwargs["db"] == int(urlsplit(redis_url).path.lstrip("/"))


def test_redis_pubsub_across_clients(redis_url: str) -> None:
    channel = f"game-{secrets.token_hex(4)}"
    with (
        redis.Redis.from_url(redis_url) as subscriber,
        redis.Redis.from_url(redis_url) as publisher,
        subscriber.pubsub() as pubsub,
    ):
        pubsub.subscribe(channel)
        assert pubsub.get_message(timeout=10) == {
            "type": "subscribe",
            "pattern": None,
            "channel": channel.encode(),
            "data": 1,
        }
        assert publisher.publish(channel, "wQ") == 1
        assert pubsub.get_message(timeout=10) == {
            "type": "message",
            "pattern": None,
            "channel": channel.encode(),
            "data": b"wQ",
        }


@pytest.fixture()
def taken_port() -> Iterator[int]:
    """A port on 127.0.0.1 with a listener on it."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        yield listening.getsockname()[1]


def script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPTS / name), *args], capture_output=True, text=True, timeout=180, check=False
    )


@pytest.mark.parametrize(("name", "options"), [("postgres.sh", ["--fast"]), ("redis.sh", [])])
def test_a_failed_start_leaves_nothing_running(name: str, options: list[str], taken_port: int) -> None:
    ensure_installed(name)
    directory = Path(tempfile.mkdtemp(prefix="hive-test-failed-start-", dir=scratch_parent()))
    try:
        started = script(name, *options, "start", str(directory), str(taken_port))
        assert started.returncode == 1, started.stderr
        assert started.stdout == ""
        assert f"no server is left running in {directory}" in started.stderr
        url = script(name, "url", str(directory))
        assert url.returncode == 1
        assert "no server is running" in url.stderr
        if name == "postgres.sh":
            assert not (directory / "data").exists(), "the cluster the failed start created is removed"
            # A postmaster's command line names its data directory.
            assert subprocess.run(["pgrep", "-f", str(directory)], check=False).returncode == 1
    finally:
        script(name, "stop", str(directory))
        shutil.rmtree(directory)


@pytest.mark.parametrize(("name", "options"), [("postgres.sh", ["--fast"]), ("redis.sh", [])])
def test_a_start_where_a_server_runs_already_says_it_is_not_its_own(name: str, options: list[str]) -> None:
    """A second start on a directory whose server runs prints no URL on stdout (as if it had started it): it says
    the server was started earlier and stops, with the way to use or stop that server."""
    ensure_installed(name)
    directory = Path(tempfile.mkdtemp(prefix="hive-test-second-start-", dir=scratch_parent()))
    try:
        first = script(name, *options, "start", str(directory))
        assert first.returncode == 0, first.stderr
        again = script(name, *options, "start", str(directory))
        assert again.returncode == 1 and again.stdout == "", again.stdout + again.stderr
        assert "started earlier" in again.stderr and "not one this command started" in again.stderr
        assert first.stdout.strip() in again.stderr  # its address, named as someone else's
        assert script(name, "url", str(directory)).stdout == first.stdout  # the first server runs on, untouched
    finally:
        script(name, "stop", str(directory))
        shutil.rmtree(directory)
