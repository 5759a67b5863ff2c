"""The lines explored on a game's analysis board, as data and on disk: a tree of variations beside the main line.

A :class:`Line` holds every move from the start of the game, so that it stays a sequence of legal moves whatever
happens to the main line afterwards (a move taken back, a game played on); where it branches off is worked out
each time, as the moves it shares with its parent (the main line, or the line it was explored from). The lines of
a game live in their own table, which :class:`LineStore` adds to a database that lacks it; deleting a game deletes
its lines.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .games import Storage

SCHEMA = """
CREATE TABLE IF NOT EXISTS lines (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    parent INTEGER,
    moves TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (game_id, line)
);
"""


@dataclass(frozen=True)
class Line:
    """One explored line: its number in the game, the line it branches from (``None``: the main line), and its
    moves from the start of the game."""

    id: int
    parent: int | None
    moves: tuple[str, ...]


def shared(a: Sequence[str], b: Sequence[str]) -> int:
    """How many moves two sequences have in common from the start."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def branch(line: Line, lines: dict[int, Line], main: Sequence[str]) -> int:
    """The number of moves ``line`` shares with its parent: its first move of its own is the next one."""
    parent = lines[line.parent].moves if line.parent is not None else main
    return shared(line.moves, parent)


def descendants(lines: dict[int, Line], root: int) -> list[int]:
    """``root`` and every line explored from it, at any depth."""
    found = [root]
    for current in found:
        found.extend(line.id for line in lines.values() if line.parent == current)
    return found


class LineStore:
    """The lines of every game, in the games database (the table is created if missing).

    :param storage: the games database.
    """

    def __init__(self, storage: Storage) -> None:
        self.db = storage.db
        self.db.executescript(SCHEMA)

    def lines(self, game_id: str) -> dict[int, Line]:
        """A game's lines by number, oldest first."""
        rows = self.db.execute("SELECT line, parent, moves FROM lines WHERE game_id = ? ORDER BY line", (game_id,))
        return {line: Line(line, parent, tuple(json.loads(moves))) for line, parent, moves in rows}

    def add(self, game_id: str, parent: int | None, moves: Sequence[str]) -> Line:
        """Store a new line of a game, numbered after its last one."""
        with self._transaction():
            (last,) = self.db.execute("SELECT MAX(line) FROM lines WHERE game_id = ?", (game_id,)).fetchone()
            line = Line((last or 0) + 1, parent, tuple(moves))
            self.db.execute(
                "INSERT INTO lines (game_id, line, parent, moves, created) VALUES (?, ?, ?, ?, ?)",
                (game_id, line.id, parent, json.dumps(line.moves), time.time()),
            )
        return line

    def extend(self, game_id: str, line: Line, moves: Sequence[str]) -> Line:
        """Store a line's new moves (from the start of the game)."""
        with self._transaction():
            self.db.execute(
                "UPDATE lines SET moves = ? WHERE game_id = ? AND line = ?", (json.dumps(list(moves)), game_id, line.id)
            )
        return Line(line.id, line.parent, tuple(moves))

    def delete(self, game_id: str, numbers: Sequence[int]) -> None:
        """Remove lines of a game, in one transaction."""
        with self._transaction():
            self.db.executemany("DELETE FROM lines WHERE game_id = ? AND line = ?", [(game_id, n) for n in numbers])

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")


__all__ = ["SCHEMA", "Line", "LineStore", "branch", "descendants", "shared"]
