"""Opening the games database: the path checked, one server at a time, and the file's integrity checked first.

Each problem gets a message naming the file and what to do (a directory, a file that cannot be written, a damaged
file, a file another server is using) instead of an SQLite traceback.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]


class DatabaseError(ValueError):
    """The database file cannot be used; the message names it and why."""


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK)


def check_path(path: Path) -> None:
    """Make sure ``path`` can be a database the server writes (its directory is created if missing).

    :raises DatabaseError: for a directory, a read-only file or directory, or a directory that cannot be created.
    """
    if path.is_dir():
        raise DatabaseError(
            f"the database at {path} is a directory, not a file: give a file in it, e.g. --db {path / 'games.sqlite3'}"
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
            f"the database at {path} is in use by another hive play server: stop that one, or choose another file"
            " with --db"
        ) from None
    return held


def check_integrity(db: sqlite3.Connection, path: str) -> None:
    """Run SQLite's integrity check.

    :raises DatabaseError: naming the first problems it found.
    """
    try:
        problems = [row[0] for row in db.execute("PRAGMA integrity_check(5)")]
    except sqlite3.DatabaseError as err:
        raise DatabaseError(f"the database at {path} is damaged: {err}") from None
    if problems != ["ok"]:
        raise DatabaseError(
            f"the database at {path} is damaged: {'; '.join(problems)} (keep a copy, then repair it with"
            " sqlite3's .recover, or choose another file with --db)"
        )


def connect(path: str) -> sqlite3.Connection:
    """An open, checked connection (``path`` may be ``":memory:"``).

    :raises DatabaseError: when the file is not an SQLite database, or cannot be opened.
    """
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as err:
        raise DatabaseError(f"the database at {path} cannot be opened: {err}") from None
    try:
        check_integrity(db, path)
        db.execute("PRAGMA journal_mode=WAL")
    except sqlite3.OperationalError as err:
        db.close()
        raise DatabaseError(f"the database at {path} cannot be written: {err}") from None
    except DatabaseError:
        db.close()
        raise
    return db


__all__ = ["DatabaseError", "check_integrity", "check_path", "connect", "lock"]
