"""The database behind the browser game: one SQLite file (the default) or PostgreSQL, through SQLAlchemy Core.

:class:`Database` opens it from a URL (``sqlite:///PATH`` or ``postgresql://USER@HOST/DB``; a bare path is a SQLite
file), brings its schema up to date (SQLite, on every start) or checks that it is (PostgreSQL: ``hive db upgrade``),
and runs all database work on threads of its own, so that the server's event loop never waits on the database.

Each problem gets a message naming the database and what to do (a directory, a file that cannot be written, a
damaged file, a file another server is using, a server that does not answer) instead of a driver's traceback; a
database that stops answering while the server runs makes requests fail with
:class:`~hive.web.shared.errors.Unavailable`
until it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import stat
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, ParamSpec, TypeVar

import sqlalchemy as sa
from sqlalchemy import event, exc

from .. import migrations
from .errors import Unavailable

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

P = ParamSpec("P")
T = TypeVar("T")
log = logging.getLogger("hive.web")
#: Connections (and threads) a PostgreSQL server is used through, per process.
POOL_SIZE = 8
#: Seconds a client is told to wait before trying again while the database does not answer.
RETRY_AFTER = 5


class DatabaseError(ValueError):
    """The database cannot be used; the message names it and why."""


def default_path() -> Path:
    """``$XDG_DATA_HOME/hive/games.sqlite3``, else ``~/.local/share/hive/games.sqlite3``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "hive" / "games.sqlite3"


def parse_url(database: str | os.PathLike[str]) -> sa.URL:
    """The SQLAlchemy URL of ``database``: ``sqlite:///PATH``, ``sqlite:///:memory:``, ``postgresql://…`` (also
    ``postgres://``), or a path, which is a SQLite file.

    :raises DatabaseError: for a URL of another kind, or PostgreSQL without its driver installed.
    """
    text = os.fspath(database)
    if "://" not in text:
        return sa.URL.create("sqlite+pysqlite", database=text)
    try:
        url = sa.make_url(text)
    except exc.ArgumentError:
        raise DatabaseError(
            f"{text!r} is not a database URL: give sqlite:///PATH or postgresql://USER@HOST/DB"
        ) from None
    backend = url.drivername.split("+")[0]
    if backend == "sqlite":
        return url.set(drivername="sqlite+pysqlite")
    if backend in ("postgresql", "postgres"):
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise DatabaseError("PostgreSQL needs the psycopg driver: pip install 'hive-game[server]'") from None
        return url.set(drivername="postgresql+psycopg")
    raise DatabaseError(
        f"{shown_url(url)} is not a database hive can use: give sqlite:///PATH or postgresql://USER@HOST/DB"
    )


def shown_url(url: sa.URL) -> str:
    """A URL as messages show it: without its password, and a SQLite file as its path."""
    if url.get_backend_name() == "sqlite":
        return url.database or ":memory:"
    return url.render_as_string(hide_password=True).replace("+psycopg", "")


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK)


def check_path(path: Path) -> None:
    """Make sure ``path`` can be a SQLite file the server writes (its directory is created if missing).

    :raises DatabaseError: for a directory, a device or other special file, a read-only file or directory, or a
        directory that cannot be created.
    """
    if path.is_dir():
        raise DatabaseError(
            f"the database at {path} is a directory, not a file: give a file in it, e.g. --db {path / 'games.sqlite3'}"
        )
    if path.exists() and not stat.S_ISREG(path.stat().st_mode):
        raise DatabaseError(
            f"the database at {path} is not a regular file (a device, a pipe or a socket): give a file, e.g."
            " --db games.sqlite3"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise DatabaseError(f"the database at {path} cannot be created: {err.strerror} ({path.parent})") from None
    if path.exists() and not _writable(path):
        raise DatabaseError(
            f"the database at {path} is read-only: the server stores every move, so it needs a file it may write"
            " (change its permissions, or choose another with --db)"
        )
    if not _writable(path.parent):
        raise DatabaseError(
            f"the database at {path} is in a read-only directory: SQLite writes its journal beside the file"
            f" ({path.parent}); choose another place with --db"
        )


def lock(path: Path) -> IO[bytes]:
    """Hold ``path``'s lock file (``<path>.lock``) for as long as the returned file stays open.

    :raises DatabaseError: when another server holds it.
    """
    held = open(f"{path}.lock", "a+b")  # noqa: SIM115 - kept open while the server runs
    try:
        if fcntl is not None:
            fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            import msvcrt

            msvcrt.locking(held.fileno(), msvcrt.LK_NBLCK, 1)
    except OSError:
        held.close()
        raise DatabaseError(
            f"the database at {path} is in use by another hive server: stop that one, or choose another file with"
            " --db (several servers share a PostgreSQL database, not a SQLite file)"
        ) from None
    return held


def _sqlite_engine(url: sa.URL) -> sa.Engine:
    memory = url.database in (None, "", ":memory:")
    pooling: dict[str, Any] = {"poolclass": sa.pool.StaticPool} if memory else {"pool_size": 1}
    # opened on the starting thread, then used on the database's one thread: never two threads at once
    engine = sa.create_engine(url, connect_args={"check_same_thread": False}, **pooling)

    @event.listens_for(engine, "connect")
    def connected(dbapi: Any, record: Any) -> None:
        dbapi.isolation_level = None  # transactions are begun below, so that writers take the lock at once
        cursor = dbapi.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def begun(connection: sa.Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def check_integrity(connection: sa.Connection, where: str) -> None:
    """Run SQLite's integrity check.

    :raises DatabaseError: naming the first problems it found.
    """
    try:
        problems = [row[0] for row in connection.exec_driver_sql("PRAGMA integrity_check(5)")]
    except exc.DatabaseError as err:
        raise DatabaseError(f"the database at {where} is damaged: {err.orig}") from None
    if problems != ["ok"]:
        raise DatabaseError(
            f"the database at {where} is damaged: {'; '.join(problems)} (keep a copy, then repair it with"
            " sqlite3's .recover, or choose another file with --db)"
        )


def unavailable(err: exc.DBAPIError) -> bool:
    """Whether a driver's error means the database cannot be reached or written now (rather than a fault in a
    statement)."""
    return err.connection_invalidated or isinstance(err, (exc.OperationalError, exc.InterfaceError))


class Database:
    """An open database, its schema current.

    :param database: a URL or a SQLite file's path (see :func:`parse_url`).
    :param exclusive: hold a SQLite file's lock (``<path>.lock``) while open, so that no other server uses it.
    :param upgrade: bring the schema up to date (``None``: for SQLite; PostgreSQL is upgraded by ``hive db upgrade``,
        and a server refuses a database that is behind).
    :param check: refuse a database whose schema is not the newest (``False``: to ask where it is).
    :raises DatabaseError: when the database cannot be used (its message says why and what to do).
    """

    def __init__(
        self,
        database: str | os.PathLike[str],
        *,
        exclusive: bool = False,
        upgrade: bool | None = None,
        check: bool = True,
    ) -> None:
        self.url = parse_url(database)
        self.shown = shown_url(self.url)
        self.sqlite = self.url.get_backend_name() == "sqlite"
        #: Whether another process may change the database: not so for a SQLite file this process holds the lock of
        #: (or one in memory), whose copies in memory need no comparing with it.
        self.shared = not self.sqlite or (exclusive is False and self.url.database not in (None, "", ":memory:"))
        self._lock: IO[bytes] | None = None
        path = None if self.url.database in (None, "", ":memory:") or not self.sqlite else Path(self.url.database)
        if path is not None:
            check_path(path)
            if exclusive:
                self._lock = lock(path)
        if self.sqlite:
            self.engine = _sqlite_engine(self.url)
        else:
            # no ping before each use: a connection the server dropped fails its statement, the whole pool is then
            # renewed, and that one request is answered 503 (a ping would cost every request a round trip)
            self.engine = sa.create_engine(self.url, pool_size=POOL_SIZE, max_overflow=2, pool_timeout=10)
        self._snapshots = (
            self.engine if self.sqlite else self.engine.execution_options(isolation_level="REPEATABLE READ")
        )
        self._autocommit = self.engine if self.sqlite else self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self._executor = ThreadPoolExecutor(1 if self.sqlite else POOL_SIZE, thread_name_prefix="hive-db")
        try:
            self._open(upgrade if upgrade is not None else self.sqlite, check)
        except BaseException:
            self.close()
            raise

    def _open(self, upgrade: bool, check: bool) -> None:
        try:
            with self.engine.begin() as connection:
                if self.sqlite:
                    check_integrity(connection, self.shown)
                if upgrade:
                    migrations.upgrade(connection)
                elif check:
                    self.check_schema(connection)
        except exc.DBAPIError as err:
            reason = _reason(err)
            if self.sqlite and ("not a database" in reason or "malformed" in reason):
                raise DatabaseError(f"the database at {self.shown} is damaged: {reason}") from None
            what = "opened" if self.sqlite else "reached"
            raise DatabaseError(f"the database at {self.shown} cannot be {what}: {reason}") from None

    def reading(self) -> contextlib.AbstractContextManager[sa.Connection]:
        """A connection whose statements read one snapshot of the database (PostgreSQL's REPEATABLE READ; SQLite's
        transactions are serializable), for a read of several statements."""
        return self._snapshots.begin()

    def single(self) -> contextlib.AbstractContextManager[sa.Connection]:
        """A connection for one statement that reads, without a transaction around it (no BEGIN and COMMIT sent)."""
        return self._autocommit.connect()

    def first_row(self, statement: str, parameters: dict[str, Any]) -> tuple[Any, ...] | None:
        """The first row of one statement written for the driver (``%(name)s`` parameters), run as :meth:`single`
        does but on the driver's own cursor, without SQLAlchemy's execution context and result (most of what the
        statements of every move, its version read and its save, cost in Python). The engine's
        ``before_cursor_execute`` listeners still hear of it; a driver's error is raised as SQLAlchemy's, and when
        it means the connection is lost, the pool is renewed as SQLAlchemy renews it for a statement of its own."""
        with self.single() as connection:
            driver = connection.connection.driver_connection
            cursor = driver.cursor()  # type: ignore[union-attr]
            connection.dispatch.before_cursor_execute(connection, cursor, statement, parameters, None, False)
            try:
                cursor.execute(statement, parameters)
                row: tuple[Any, ...] | None = cursor.fetchone()
                return row
            except self.engine.dialect.loaded_dbapi.Error as err:
                lost = self.engine.dialect.is_disconnect(err, driver, cursor)
                if lost:
                    connection.invalidate()
                    self.engine.dispose()  # the pool's other connections went with the server: opened anew
                raise exc.DBAPIError.instance(
                    statement,
                    parameters,
                    err,
                    self.engine.dialect.loaded_dbapi.Error,
                    connection_invalidated=lost,
                    dialect=self.engine.dialect,
                ) from None
            finally:
                cursor.close()

    def check_schema(self, connection: sa.Connection) -> None:
        """Make sure the schema is the newest this release knows.

        :raises DatabaseError: naming the command that brings it up to date, or saying the database is newer.
        """
        found, newest = migrations.current(connection), migrations.head()
        if found == newest:
            return
        if found is not None and found > newest:
            raise DatabaseError(
                f"the database at {self.shown} was written by a newer release of hive (schema {found}, this release"
                f" knows up to {newest}): upgrade hive-game"
            )
        raise DatabaseError(
            f"the database at {self.shown} needs its schema brought up to date ({found or 'empty'} -> {newest}):"
            f" run hive db upgrade --database {self.shown}"
        )

    def revision(self) -> str | None:
        """The schema revision the database is at (``None``: none yet)."""
        with self.engine.connect() as connection:
            return migrations.current(connection)

    def schema_current(self) -> bool:
        """Whether the database answers, with the newest schema (for ``/readyz``)."""
        try:
            with self.engine.connect() as connection:
                return migrations.current(connection) == migrations.head()
        except exc.DBAPIError:
            return False

    def close(self) -> None:
        """Close the connections and threads, and let another server open a SQLite file."""
        self._executor.shutdown(wait=True, cancel_futures=True)
        if hasattr(self, "engine"):
            self.engine.dispose()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def call(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``work(...)`` here and now, a driver's error that means the database is out of reach, or damaged, raised
        as :class:`~hive.web.shared.errors.Unavailable`."""
        try:
            return work(*args, **kwargs)
        except exc.DBAPIError as err:
            if type(err) is exc.DatabaseError:  # the database's own fault (SQLite: a damaged file), not a statement's
                log.error("the database at %s cannot be used: %s", self.shown, _reason(err))
                raise Unavailable(f"The database cannot be used: {_reason(err)}") from None
            if not unavailable(err):
                raise
            log.warning("the database at %s is unavailable: %s", self.shown, _reason(err))
            raise Unavailable(
                "The database is not answering; try again in a moment.", retry_after=RETRY_AFTER
            ) from None

    async def run(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``work(...)`` on the database's threads (see :meth:`call`), awaited."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(self.call, work, *args, **kwargs))


def _reason(err: exc.DBAPIError) -> str:
    text = " ".join(str(err.orig).split())
    return text[:300]


class Repository:
    """The base of the repositories: the rows of one concern, in a database.

    :param database: where they are kept.
    :param now: the time source of their dates, seconds since the epoch.
    """

    def __init__(self, database: Database, now: Callable[[], float] = time.time) -> None:
        self.database = database
        self.now = now


__all__ = [
    "RETRY_AFTER",
    "Database",
    "DatabaseError",
    "Repository",
    "check_integrity",
    "check_path",
    "default_path",
    "lock",
    "parse_url",
    "shown_url",
]
