"""Real PostgreSQL and Redis servers for the tests, started by ``scripts/postgres.sh`` and ``scripts/redis.sh``.

- ``postgres_server`` (session): the URL of a PostgreSQL server, ``postgresql://postgres@127.0.0.1:PORT/postgres``.
  ``HIVE_TEST_POSTGRES=URL`` uses that server (its user must be allowed to create databases); otherwise one is
  started (``--fast``: no fsync) in a temporary directory and stopped at the end of the session, also when it is
  interrupted (Ctrl-C, or SIGTERM, which stops the session as Ctrl-C does while a server of its own runs).
- ``postgres_url`` (function): a fresh, empty database of the test's own on that server,
  ``postgresql://USER@HOST:PORT/DBNAME``, dropped after the test (SQLAlchemy names psycopg 3 ``postgresql+psycopg://``).
  ``postgres_admin`` (session) is the autocommit connection to the server that creates and drops them.
- ``redis_server`` (session) and ``redis_url`` (function): the same for Redis (``HIVE_TEST_REDIS``); each test gets a
  logical database of its own, ``redis://127.0.0.1:PORT/N`` with N from 1 up, flushed before and after it (so do
  not point ``HIVE_TEST_REDIS`` at a server whose data matters). Pub/sub channels are not per database.

When a server is not installed and cannot be installed here (the scripts install Debian's package when run as root
with apt-get), the tests that need it are skipped, or fail when ``CI`` or ``HIVE_REQUIRE_SERVERS=1`` is set.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import pytest

if TYPE_CHECKING:
    import psycopg
    import redis

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
#: The servers by script: their name and Debian package.
SERVERS = {"postgres.sh": ("PostgreSQL", "postgresql"), "redis.sh": ("Redis", "redis-server")}
#: The scripts' exit status when the server is not installed and cannot be installed here.
NOT_INSTALLED = 3
#: Seconds a server may take to start or stop (a cold start on a loaded 2-core machine takes seconds).
SERVER_TIMEOUT = int(os.environ.get("HIVE_SERVER_TIMEOUT", "120"))
#: Seconds apt-get may take to install a server.
INSTALL_TIMEOUT = 900
#: The room a server's directory on /dev/shm needs: a cluster, its WAL (--fast keeps it under 256 MB) and databases.
SHM_ROOM = 1 << 30


def servers_required() -> bool:
    """Whether a missing server fails the tests that need it rather than skipping them (CI, or asked for)."""
    ci = os.environ.get("CI", "").strip().lower()
    return ci not in ("", "0", "false", "no") or os.environ.get("HIVE_REQUIRE_SERVERS") == "1"


def unavailable(message: str) -> NoReturn:
    """Skip the test, or fail it where the servers are required."""
    if servers_required():
        pytest.fail(
            f"{message} (CI or HIVE_REQUIRE_SERVERS=1 is set, so this fails instead of skipping)", pytrace=False
        )
    pytest.skip(message)


def run_script(script: str, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HIVE_SERVER_TIMEOUT": str(SERVER_TIMEOUT)}
    return subprocess.run(
        ["bash", str(SCRIPTS / script), *args], capture_output=True, text=True, timeout=timeout, env=env, check=False
    )


@contextlib.contextmanager
def interrupt_on_sigterm() -> Iterator[None]:
    """While the block runs, SIGTERM (a CI job's timeout, say) interrupts the session as Ctrl-C does, so that the
    session's teardown stops the servers it started rather than leaving them running."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def ensure_installed(script: str) -> None:
    """Have ``scripts/<script> install`` install the server if it is missing; skip (or fail) when it cannot."""
    name, package = SERVERS[script]
    installed = run_script(script, "install", timeout=INSTALL_TIMEOUT)
    if installed.returncode == NOT_INSTALLED:
        unavailable(
            f"{name} is missing and cannot be installed here: bash scripts/test.sh installs Debian's {package} package"
            f" (needs root and apt-get), or run 'sudo apt-get install {package}'"
        )
    if installed.returncode != 0:
        pytest.fail(f"scripts/{script} install failed:\n{installed.stderr}", pytrace=False)


def scratch_parent() -> str | None:
    """Where the servers' temporary directories go: ``HIVE_TEST_SERVERS_TMPDIR``, else /dev/shm when it has room
    (memory: a test's database is created in about 20 ms there, against 150 to 500 ms on the shared machine's
    disk), else the system's temporary directory (None)."""
    if os.environ.get("HIVE_TEST_SERVERS_TMPDIR"):
        return os.environ["HIVE_TEST_SERVERS_TMPDIR"]
    shm = "/dev/shm"
    with contextlib.suppress(OSError):
        room = os.statvfs(shm)
        if os.access(shm, os.W_OK | os.X_OK) and room.f_bavail * room.f_frsize >= SHM_ROOM:
            return shm
    return None


@contextlib.contextmanager
def throwaway_server(script: str, *options: str) -> Iterator[str]:
    """A server started by ``scripts/<script> start`` in a temporary directory for the length of the block; yields
    its URL. The server is stopped and the directory removed however the block ends."""
    ensure_installed(script)
    directory = tempfile.mkdtemp(prefix=f"hive-test-{Path(script).stem}-", dir=scratch_parent())
    with interrupt_on_sigterm():
        try:
            started = run_script(script, *options, "start", directory, timeout=SERVER_TIMEOUT + 30)
            if started.returncode != 0:
                pytest.fail(f"scripts/{script} start {directory} failed:\n{started.stderr}", pytrace=False)
            yield started.stdout.split()[-1]
        finally:
            stopped = run_script(script, "stop", directory, timeout=SERVER_TIMEOUT + 30)
            if stopped.returncode == 0:
                shutil.rmtree(directory, ignore_errors=True)
            else:
                # Reported by pytest as an error in the last test's teardown; the directory is kept for its logs.
                raise RuntimeError(f"scripts/{script} stop {directory} failed:\n{stopped.stderr}")


def with_path(url: str, path: str) -> str:
    """``url`` with its path replaced by ``/path`` (user, password, host, port and query kept)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{path}"))


# PostgreSQL


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a running PostgreSQL server: ``HIVE_TEST_POSTGRES``, or one of the session's own."""
    if os.environ.get("HIVE_TEST_POSTGRES"):
        yield os.environ["HIVE_TEST_POSTGRES"]
        return
    with throwaway_server("postgres.sh", "--fast") as url:
        yield url


@pytest.fixture(scope="session")
def postgres_admin(postgres_server: str) -> Iterator[psycopg.Connection[Any]]:
    """A connection (autocommit) to the server's own database, which creates and drops the tests' databases."""
    try:
        import psycopg
    except ImportError:
        unavailable("psycopg is missing: pip install 'psycopg[binary]' (the test extra has it)")
    try:
        connection: psycopg.Connection[Any] = psycopg.connect(postgres_server, autocommit=True, connect_timeout=30)
    except psycopg.OperationalError as error:
        pytest.fail(f"cannot connect to PostgreSQL at {postgres_server}: {error}", pytrace=False)
    with connection:
        yield connection


@pytest.fixture()
def postgres_url(postgres_server: str, postgres_admin: psycopg.Connection[Any]) -> Iterator[str]:
    """A fresh, empty database of the test's own (UTF-8, from template0), dropped after the test; yields its URL
    ``postgresql://USER@HOST:PORT/DBNAME``."""
    from psycopg import sql

    name = f"hive_test_{secrets.token_hex(6)}"
    postgres_admin.execute(
        sql.SQL("CREATE DATABASE {} TEMPLATE template0 ENCODING 'UTF8'").format(sql.Identifier(name))
    )
    try:
        yield with_path(postgres_server, name)
    finally:
        # FORCE: connections the test left open (a pool, say) do not keep the database alive.
        postgres_admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


# Redis


@pytest.fixture(scope="session")
def redis_server() -> Iterator[str]:
    """The URL of a running Redis server: ``HIVE_TEST_REDIS``, or one of the session's own."""
    if os.environ.get("HIVE_TEST_REDIS"):
        yield os.environ["HIVE_TEST_REDIS"]
        return
    with throwaway_server("redis.sh") as url:
        yield url


@pytest.fixture(scope="session")
def redis_databases(redis_server: str) -> Iterator[Iterator[int]]:
    """The logical database numbers the tests take in turn: 1 to the server's last, then 1 again."""
    try:
        import redis
    except ImportError:
        unavailable("redis is missing: pip install redis (the test extra has it)")
    client: redis.Redis = redis.Redis.from_url(redis_server, socket_timeout=30)
    with client:
        try:
            count = int(client.config_get("databases").get("databases") or 16)
        except redis.ConnectionError as error:
            pytest.fail(f"cannot connect to Redis at {redis_server}: {error}", pytrace=False)
        except redis.ResponseError:  # CONFIG may be disabled on a server of someone else's
            count = 16
    if count < 2:
        pytest.fail(f"the Redis server at {redis_server} has {count} database(s); the tests need 2 or more")
    yield itertools.cycle(range(1, count))


@pytest.fixture()
def redis_url(redis_server: str, redis_databases: Iterator[int]) -> Iterator[str]:
    """A logical database of the test's own, empty, flushed again after the test; yields its URL."""
    import redis

    url = with_path(redis_server, str(next(redis_databases)))
    client: redis.Redis = redis.Redis.from_url(url, socket_timeout=30)
    with client:
        client.flushdb()
        try:
            yield url
        finally:
            client.flushdb()
