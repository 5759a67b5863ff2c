"""Engine reviews on disk: one row per game, beside the game it reviews.

A review holds the level it is worked out at, the moves it covers, the evaluation of every position analysed so
far (one per position, the start included), whether it is still being worked out, and why it failed if it did.
Each position is stored as soon as it is analysed, so that a review interrupted by a restart goes on from there.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from ..play import game_stored
from ..shared.database import Repository
from ..shared.model import StoredReview
from .tables import reviews


class ReviewRepository(Repository):
    """The reviews of the games."""

    async def load(self, game_id: str) -> StoredReview | None:
        """The game's review, or ``None`` when it has none."""
        return await self.database.run(self._load, game_id)

    def _load(self, game_id: str) -> StoredReview | None:
        with self.database.single() as connection:
            row = connection.execute(sa.select(reviews).where(reviews.c.game_id == game_id)).first()
        if row is None:
            return None
        return StoredReview(row.level, json.loads(row.moves), json.loads(row.positions), row.status, row.error)

    async def save(self, game_id: str, review: StoredReview) -> None:
        """Store the game's review in place of any it had (nothing is stored when the game is gone)."""
        await self.database.run(self._save, game_id, review)

    def _save(self, game_id: str, review: StoredReview) -> None:
        values = {
            "level": review.level,
            "moves": json.dumps(review.moves),
            "positions": json.dumps(review.positions),
            "status": review.status,
            "error": review.error,
            "updated": self.now(),
        }
        with self.database.engine.begin() as connection:
            if not game_stored(connection, game_id):
                return
            insert = (postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert)(reviews)
            connection.execute(
                insert.values(game_id=game_id, **values).on_conflict_do_update(
                    index_elements=[reviews.c.game_id], set_=values
                )
            )

    async def delete(self, game_id: str) -> None:
        """Forget the game's review."""
        await self.database.run(self._delete, game_id)

    def _delete(self, game_id: str) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(reviews.delete().where(reviews.c.game_id == game_id))


__all__ = ["ReviewRepository"]
