"""Games on disk: an SQLite database, one transaction per change, committed before anyone is told.

A game row holds its kind, options, mode, seat tokens, result and ``length``, the number of moves in
effect; the ``moves`` table holds every move by ply. Moves at or beyond ``length`` are the ones taken
back, kept so that they can be redone until a different move is played.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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


def default_path() -> Path:
    """``$XDG_DATA_HOME/hive/games.sqlite3``, else ``~/.local/share/hive/games.sqlite3``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "hive" / "games.sqlite3"


@dataclass
class GameRecord:
    """One stored game: ``moves`` are those in effect, ``redo`` the ones taken back (oldest first)."""

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


class StaleError(ValueError):
    """The game changed since the caller last saw it (another move was stored first)."""


class Storage:
    """The games database (created on first use, WAL journal, synchronous commits).

    :param path: the database file, or ``":memory:"``.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def create(self, record: GameRecord) -> None:
        """Store a new game with its moves, in one transaction."""
        now = time.time()
        record.created = record.updated = now
        with self._transaction():
            self.db.execute(
                "INSERT INTO games (id, kind, options, mode, ai_level, ai_seat, token0, token1, length, result,"
                " reason, offer, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                ),
            )
            self.db.executemany(
                "INSERT INTO moves (game_id, ply, move) VALUES (?, ?, ?)",
                [(record.id, ply, move) for ply, move in enumerate(record.moves)],
            )

    def load(self, game_id: str) -> GameRecord | None:
        """The stored game, or ``None`` when there is no such game."""
        row = self.db.execute(
            "SELECT id, kind, options, mode, ai_level, ai_seat, token0, token1, length, result, reason, offer,"
            " created, updated FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            return None
        moves = [m for (m,) in self.db.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]
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
        )

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
        """Store a game's new state in one transaction: its moves, redo list, result and offer.

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
                "UPDATE games SET length = ?, result = ?, reason = ?, offer = ?, updated = ? WHERE id = ?",
                (
                    len(record.moves),
                    record.result,
                    record.reason,
                    json.dumps(record.offer) if record.offer else None,
                    now,
                    record.id,
                ),
            )

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
