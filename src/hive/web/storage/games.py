"""Games on disk: an SQLite database, one transaction per change, committed before anyone is told.

A game row holds its kind, options, mode, seat tokens, the players' names and their choices of engine help, which
seats have opened the game, its rematch, result and ``length``, the number of moves in effect; the ``moves`` table
holds every move by ply. A timed game's ``clock`` (remaining times, whose clock runs and since when, the time used
per move) is stored with every move; a game set up from a position keeps that position's record (``start``), its
moves played from it. Moves at or beyond ``length`` are the ones taken back, kept so that they can be
redone until a different move is played.

A database written by an earlier version is brought up to date in place when it is opened: the columns it lacks are
added with their defaults, and no game is lost.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .database import DatabaseError, check_path, connect, lock

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    options TEXT NOT NULL,
    mode TEXT NOT NULL,
    ai_level TEXT,
    ai_seat INTEGER,
    token0 TEXT,
    token1 TEXT,
    length INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    reason TEXT,
    offer TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
"""
#: Columns added since the first schema, with their definitions; :meth:`Storage.migrate` adds the missing ones.
ADDED_COLUMNS = {
    "name0": "TEXT",
    "name1": "TEXT",
    "help0": "INTEGER",
    "help1": "INTEGER",
    "joined": "INTEGER NOT NULL DEFAULT 0",
    "rematch": "TEXT",
    "clock": "TEXT",
    "start": "TEXT",
}
_COLUMNS = (
    "id, kind, options, mode, ai_level, ai_seat, token0, token1, length, result, reason, offer, created, updated,"
    " name0, name1, help0, help1, joined, rematch, clock, start"
)


def default_path() -> Path:
    """``$XDG_DATA_HOME/hive/games.sqlite3``, else ``~/.local/share/hive/games.sqlite3``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "hive" / "games.sqlite3"


@dataclass
class GameRecord:
    """One stored game: ``moves`` are those in effect, ``redo`` the ones taken back (oldest first).

    :ivar names: the players' display names by seat (``None``: not given).
    :ivar help: each seat's choice of engine help in a two-browser game (``None``: not chosen yet).
    :ivar joined: the seats that have opened the game with their token, as bits (1: the first seat, 2: the second).
    :ivar rematch: the id of the game that followed this one with the colours swapped.
    :ivar clock: the game's clock (see :mod:`~hive.web.game.clock`), ``None`` when it is untimed.
    :ivar start: the position record the game started from (``None``: the start of a game); its moves follow it.
    """

    id: str
    kind: str
    options: dict[str, Any]
    mode: str
    ai_level: str | None
    ai_seat: int | None
    tokens: tuple[str | None, str | None]
    moves: list[str] = field(default_factory=list)
    redo: list[str] = field(default_factory=list)
    result: str | None = None
    reason: str | None = None
    offer: dict[str, Any] | None = None
    created: float = 0.0
    updated: float = 0.0
    names: tuple[str | None, str | None] = (None, None)
    help: tuple[bool | None, bool | None] = (None, None)
    joined: int = 0
    rematch: str | None = None
    clock: dict[str, Any] | None = None
    start: str | None = None


@dataclass(frozen=True)
class Summary:
    """A stored game as the game list shows it: its record without its moves, and how many moves are in effect."""

    record: GameRecord
    length: int


class StaleError(ValueError):
    """The game changed since the caller last saw it (another move was stored first)."""


def _dumps(value: dict[str, Any] | None) -> str | None:
    return json.dumps(value) if value is not None else None


def _flag(value: int | None) -> bool | None:
    return None if value is None else bool(value)


def _record(row: tuple[Any, ...], moves: list[str]) -> GameRecord:
    length = row[8]
    return GameRecord(
        id=row[0],
        kind=row[1],
        options=json.loads(row[2]),
        mode=row[3],
        ai_level=row[4],
        ai_seat=row[5],
        tokens=(row[6], row[7]),
        moves=moves[:length],
        redo=moves[length:],
        result=row[9],
        reason=row[10],
        offer=json.loads(row[11]) if row[11] else None,
        created=row[12],
        updated=row[13],
        names=(row[14], row[15]),
        help=(_flag(row[16]), _flag(row[17])),
        joined=row[18],
        rematch=row[19],
        clock=json.loads(row[20]) if row[20] else None,
        start=row[21],
    )


class Storage:
    """The games database (created on first use, brought up to date, WAL journal, synchronous commits).

    :param path: the database file, or ``":memory:"``.
    :param exclusive: hold the file's lock (``<path>.lock``) while open, so that no other server uses it.
    :raises ~hive.web.storage.database.DatabaseError: when the file cannot be used (a directory, read-only, damaged, or
        locked by another server).
    """

    def __init__(self, path: str | os.PathLike[str], *, exclusive: bool = False) -> None:
        self.path = str(path)
        self._lock: IO[bytes] | None = None
        if self.path != ":memory:":
            check_path(Path(path))
            if exclusive:
                self._lock = lock(Path(path))
        try:
            self.db = connect(self.path)
        except DatabaseError:
            self.close()
            raise
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        self.migrate()

    def migrate(self) -> None:
        """Add the columns an older database lacks, in one transaction. Games stored before the players' seats
        were tracked count as opened by both seats once a move has been played."""
        present = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
        missing = [name for name in ADDED_COLUMNS if name not in present]
        if not missing:
            return
        with self._transaction():
            for name in missing:
                self.db.execute(f"ALTER TABLE games ADD COLUMN {name} {ADDED_COLUMNS[name]}")
            if "joined" in missing:
                self.db.execute("UPDATE games SET joined = 3 WHERE length > 0")

    def close(self) -> None:
        """Close the database and let another server open it."""
        if hasattr(self, "db"):
            self.db.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def create(self, record: GameRecord) -> None:
        """Store a new game with its moves, in one transaction."""
        now = time.time()
        record.created = record.updated = now
        with self._transaction():
            self.db.execute(
                f"INSERT INTO games ({_COLUMNS}) VALUES ({', '.join('?' * 22)})",
                (
                    record.id,
                    record.kind,
                    json.dumps(record.options),
                    record.mode,
                    record.ai_level,
                    record.ai_seat,
                    record.tokens[0],
                    record.tokens[1],
                    len(record.moves),
                    record.result,
                    record.reason,
                    None,
                    now,
                    now,
                    *record.names,
                    *record.help,
                    record.joined,
                    record.rematch,
                    _dumps(record.clock),
                    record.start,
                ),
            )
            self.db.executemany(
                "INSERT INTO moves (game_id, ply, move) VALUES (?, ?, ?)",
                [(record.id, ply, move) for ply, move in enumerate(record.moves)],
            )

    def load(self, game_id: str) -> GameRecord | None:
        """The stored game, or ``None`` when there is no such game."""
        row = self.db.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        moves = [m for (m,) in self.db.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]
        return _record(row, moves)

    def games(self, limit: int = 200) -> list[Summary]:
        """The stored games, those in progress first, then the finished ones, the latest change first in each."""
        rows = self.db.execute(
            f"SELECT {_COLUMNS} FROM games ORDER BY result IS NOT NULL, updated DESC LIMIT ?", (limit,)
        ).fetchall()
        return [Summary(_record(row, []), row[8]) for row in rows]

    def moves(self, game_id: str) -> list[str]:
        """The moves in effect of a stored game, oldest first."""
        row = self.db.execute("SELECT length FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return []
        return [
            m
            for (m,) in self.db.execute(
                "SELECT move FROM moves WHERE game_id = ? AND ply < ? ORDER BY ply", (game_id, row[0])
            )
        ]

    def save(self, record: GameRecord, expected_length: int) -> None:
        """Store a game's new state in one transaction: its moves, redo list, result, offer, names and choices.

        Only the rows that differ are written. ``expected_length`` is the number of moves the caller
        started from; if the stored game has moved on since, nothing is written.

        :raises StaleError: when the stored length is not ``expected_length``.
        """
        now = time.time()
        record.updated = now
        with self._transaction():
            row = self.db.execute("SELECT length FROM games WHERE id = ?", (record.id,)).fetchone()
            if row is None or row[0] != expected_length:
                raise StaleError(f"Game {record.id} changed meanwhile; reload it.")
            stored = [
                m for (m,) in self.db.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (record.id,))
            ]
            wanted = record.moves + record.redo
            same = 0
            while same < min(len(stored), len(wanted)) and stored[same] == wanted[same]:
                same += 1
            if same < len(stored):
                self.db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (record.id, same))
            self.db.executemany(
                "INSERT INTO moves (game_id, ply, move) VALUES (?, ?, ?)",
                [(record.id, ply, wanted[ply]) for ply in range(same, len(wanted))],
            )
            self.db.execute(
                "UPDATE games SET length = ?, result = ?, reason = ?, offer = ?, updated = ?, name0 = ?, name1 = ?,"
                " help0 = ?, help1 = ?, joined = ?, rematch = ?, clock = ? WHERE id = ?",
                (
                    len(record.moves),
                    record.result,
                    record.reason,
                    json.dumps(record.offer) if record.offer else None,
                    now,
                    *record.names,
                    *record.help,
                    record.joined,
                    record.rematch,
                    _dumps(record.clock),
                    record.id,
                ),
            )

    def mark_joined(self, game_id: str, joined: int) -> None:
        """Record which seats have opened the game (a bit per seat), leaving the rest of the game alone."""
        with self._transaction():
            self.db.execute("UPDATE games SET joined = ? WHERE id = ?", (joined, game_id))

    def clocks(self) -> list[tuple[str, dict[str, Any]]]:
        """The clocks of the timed games in progress, by game id."""
        rows = self.db.execute("SELECT id, clock FROM games WHERE clock IS NOT NULL AND result IS NULL")
        return [(game_id, json.loads(clock)) for game_id, clock in rows]

    def set_clocks(self, clocks: list[tuple[str, dict[str, Any]]]) -> None:
        """Store games' clocks alone, in one transaction (the server pausing or resuming them)."""
        with self._transaction():
            self.db.executemany("UPDATE games SET clock = ? WHERE id = ?", [(_dumps(c), i) for i, c in clocks])

    def delete(self, game_id: str) -> bool:
        """Remove a game and its moves; ``False`` when there was no such game."""
        with self._transaction():
            return self.db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount > 0

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        if kind is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
