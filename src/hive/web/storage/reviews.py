"""Engine reviews on disk: one row per game in the games database, beside the game it reviews.

A review holds the level it is worked out at, the moves it covers, the evaluation of every position analysed so
far (one per position, the start included), whether it is still being worked out, and why it failed if it did.
Each position is stored as soon as it is analysed, so that a review interrupted by a restart goes on from there.

The ``reviews`` table is created when missing, so that a database written before reviews existed is brought up to
date in place when it is opened; deleting a game deletes its review.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS reviews (
    game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    level TEXT NOT NULL,
    moves TEXT NOT NULL,
    positions TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    updated REAL NOT NULL
);
"""
#: A review still being worked out, or interrupted while it was.
RUNNING = "running"
#: A review with every position analysed.
DONE = "done"
#: A review that stopped on an error.
FAILED = "failed"


@dataclass
class StoredReview:
    """One game's review as stored.

    :ivar level: the AI level that analysed the positions.
    :ivar moves: the move texts the review covers (the game's moves when it was asked for).
    :ivar positions: each analysed position's evaluation, from the start on (at most ``len(moves) + 1``).
    :ivar status: :data:`RUNNING`, :data:`DONE` or :data:`FAILED`.
    :ivar error: why it failed.
    """

    level: str
    moves: list[str]
    positions: list[dict[str, Any]] = field(default_factory=list)
    status: str = RUNNING
    error: str | None = None


class ReviewStore:
    """The reviews of the games in a games database (see :class:`~hive.web.storage.games.Storage`).

    :param db: the games database's open connection (autocommit: each statement is its own transaction).
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.db.executescript(SCHEMA)

    def load(self, game_id: str) -> StoredReview | None:
        """The game's review, or ``None`` when it has none."""
        row = self.db.execute(
            "SELECT level, moves, positions, status, error FROM reviews WHERE game_id = ?", (game_id,)
        ).fetchone()
        if row is None:
            return None
        return StoredReview(row[0], json.loads(row[1]), json.loads(row[2]), row[3], row[4])

    def save(self, game_id: str, review: StoredReview) -> None:
        """Store the game's review in place of any it had (nothing is stored when the game is gone)."""
        self.db.execute(
            "INSERT OR REPLACE INTO reviews (game_id, level, moves, positions, status, error, updated)"
            " SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE id = ?)",
            (
                game_id,
                review.level,
                json.dumps(review.moves),
                json.dumps(review.positions),
                review.status,
                review.error,
                time.time(),
                game_id,
            ),
        )

    def delete(self, game_id: str) -> None:
        """Forget the game's review."""
        self.db.execute("DELETE FROM reviews WHERE game_id = ?", (game_id,))


__all__ = ["DONE", "FAILED", "RUNNING", "ReviewStore", "StoredReview"]
