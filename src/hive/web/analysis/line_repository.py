"""The lines explored on a game's analysis board, on disk: one row per line, holding every move from the start of the
game (where it branches off is the analysis board's to work out, see :mod:`~hive.web.analysis.service`). Deleting a game
deletes its lines.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa

from ..shared.database import Repository
from ..shared.model import Line
from .tables import lines


class LineRepository(Repository):
    """The lines of every game."""

    async def lines(self, game_id: str) -> dict[int, Line]:
        """A game's lines by number, oldest first."""
        return await self.database.run(self._lines, game_id)

    def _lines(self, game_id: str) -> dict[int, Line]:
        query = (
            sa.select(lines.c.line, lines.c.parent, lines.c.moves)
            .where(lines.c.game_id == game_id)
            .order_by(lines.c.line)
        )
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return {row.line: Line(row.line, row.parent, tuple(json.loads(row.moves))) for row in rows}

    async def add(self, game_id: str, parent: int | None, moves: Sequence[str]) -> Line:
        """Store a new line of a game, numbered after its last one."""
        return await self.database.run(self._add, game_id, parent, moves)

    def _add(self, game_id: str, parent: int | None, moves: Sequence[str]) -> Line:
        with self.database.engine.begin() as connection:
            last = connection.execute(
                sa.select(sa.func.max(lines.c.line)).where(lines.c.game_id == game_id)
            ).scalar_one_or_none()
            line = Line((last or 0) + 1, parent, tuple(moves))
            connection.execute(
                lines.insert().values(
                    game_id=game_id, line=line.id, parent=parent, moves=json.dumps(line.moves), created=self.now()
                )
            )
        return line

    async def extend(self, game_id: str, line: Line, moves: Sequence[str]) -> Line:
        """Store a line's new moves (from the start of the game)."""
        await self.database.run(self._extend, game_id, line.id, list(moves))
        return Line(line.id, line.parent, tuple(moves))

    def _extend(self, game_id: str, number: int, moves: list[str]) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(
                lines.update().where(lines.c.game_id == game_id, lines.c.line == number).values(moves=json.dumps(moves))
            )

    async def delete(self, game_id: str, numbers: Sequence[int]) -> None:
        """Remove lines of a game, in one transaction."""
        await self.database.run(self._delete, game_id, list(numbers))

    def _delete(self, game_id: str, numbers: list[int]) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(lines.delete().where(lines.c.game_id == game_id, lines.c.line.in_(numbers)))


__all__ = ["LineRepository"]
