"""Ratings: each account's Glicko-2 rating per game and speed, and each rated game's effect on them, written in the
transaction that ends the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from ...ratings import PROVISIONAL_DEVIATION, Rating, games_to_establish, rate_game
from ..players import accounts
from ..shared.database import Repository
from .tables import rated_games, ratings


@dataclass(frozen=True)
class PlayerRating:
    """An account's rating in one game and speed, and its record there."""

    game: str
    speed: str
    rating: Rating
    games: int
    wins: int
    draws: int
    losses: int

    def answer(self) -> dict[str, Any]:
        """As the API shows it (``more``: about how many more rated games establish a provisional rating)."""
        return {
            "rating": round(self.rating.rating),
            "deviation": round(self.rating.deviation),
            "provisional": self.rating.provisional,
            "more": games_to_establish(self.rating),
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        }


@dataclass(frozen=True)
class RatedGame:
    """A rated game's effect on its two players' ratings (``score0``: the first seat's points)."""

    game_id: str
    game: str
    speed: str
    accounts: tuple[str, str]
    score0: float
    before: tuple[float, float]
    after: tuple[float, float]
    at: float


class RatingRepository(Repository):
    """The ratings of a server's accounts."""

    def _read(self, connection: sa.Connection, account: str, game: str, speed: str) -> sa.Row[Any] | None:
        key = (ratings.c.account_id == account, ratings.c.game == game, ratings.c.speed == speed)
        query = sa.select(ratings).where(*key)
        if not self.database.sqlite:
            query = query.with_for_update()
        return connection.execute(query).first()

    def _lock(self, connection: sa.Connection, account: str, game: str, speed: str) -> sa.Row[Any]:
        """The account's rating row, made (a new player's) if it has none, and locked till the transaction ends."""
        fresh = Rating()
        row = {
            "account_id": account, "game": game, "speed": speed, "rating": fresh.rating, "deviation": fresh.deviation,
            "volatility": fresh.volatility, "games": 0, "wins": 0, "draws": 0, "losses": 0, "updated": self.now(),
        }  # fmt: skip
        insert = (sqlite.insert if self.database.sqlite else postgresql.insert)(ratings).values(row)
        connection.execute(insert.on_conflict_do_nothing())  # two games ending at once both find the row
        found = self._read(connection, account, game, speed)
        assert found is not None
        return found

    def rate_within(
        self, connection: sa.Connection, game_id: str, game: str, speed: str, accounts: tuple[str, str], score0: float
    ) -> None:
        """Rate a game that has just ended (on the connection of the transaction storing its end): both players'
        ratings in ``game`` and ``speed`` move by one Glicko-2 period each, from the other's rating before it.
        A game rated already is left alone."""
        done = sa.select(rated_games.c.game_id).where(rated_games.c.game_id == game_id)
        if connection.execute(done).first() is not None:
            return
        rows = [self._lock(connection, account, game, speed) for account in accounts]
        before = [Rating(row.rating, row.deviation, row.volatility) for row in rows]
        after = rate_game(before[0], before[1], score0)
        now = self.now()
        for account, row, rating, score in zip(accounts, rows, after, (score0, 1.0 - score0), strict=True):
            connection.execute(
                ratings.update()
                .where(ratings.c.account_id == account, ratings.c.game == game, ratings.c.speed == speed)
                .values(
                    rating=rating.rating, deviation=rating.deviation, volatility=rating.volatility, updated=now,
                    games=row.games + 1, wins=row.wins + (score == 1.0), draws=row.draws + (score == 0.5),
                    losses=row.losses + (score == 0.0),
                )
            )  # fmt: skip
        connection.execute(
            rated_games.insert().values(
                game_id=game_id, game=game, speed=speed, account0=accounts[0], account1=accounts[1], score0=score0,
                before0=before[0].rating, after0=after[0].rating, before1=before[1].rating, after1=after[1].rating,
                at=now,
            )
        )  # fmt: skip

    async def of(self, account: str) -> list[PlayerRating]:
        """Every rating the account has, by game and speed."""
        return await self.database.run(self._of, account)

    def _of(self, account: str) -> list[PlayerRating]:
        query = sa.select(ratings).where(ratings.c.account_id == account).order_by(ratings.c.game, ratings.c.speed)
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return [
            PlayerRating(
                row.game, row.speed, Rating(row.rating, row.deviation, row.volatility), row.games, row.wins,
                row.draws, row.losses,
            )
            for row in rows
        ]  # fmt: skip

    async def rating(self, account: str, game: str, speed: str) -> Rating:
        """The account's rating in ``game`` and ``speed`` (a new player's, without one)."""
        return await self.database.run(self._rating, account, game, speed)

    def _rating(self, account: str, game: str, speed: str) -> Rating:
        query = sa.select(ratings).where(
            ratings.c.account_id == account, ratings.c.game == game, ratings.c.speed == speed
        )
        with self.database.single() as connection:
            row = connection.execute(query).first()
        return Rating() if row is None else Rating(row.rating, row.deviation, row.volatility)

    async def history(self, account: str) -> list[tuple[str, str, float, float]]:
        """The account's rating after each of its rated games, oldest first: game, speed, when, rating."""
        return await self.database.run(self._history, account)

    def _history(self, account: str) -> list[tuple[str, str, float, float]]:
        played = sa.or_(rated_games.c.account0 == account, rated_games.c.account1 == account)
        query = sa.select(rated_games).where(played).order_by(rated_games.c.at)
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return [(r.game, r.speed, r.at, r.after0 if r.account0 == account else r.after1) for r in rows]

    async def leaders(self, game: str, speed: str, limit: int = 50) -> list[tuple[str, PlayerRating, bool]]:
        """The best established ratings in ``game`` and ``speed`` (those no longer provisional, of accounts not
        banned), highest first: each account's name, rating, and whether it is a bot's."""
        return await self.database.run(self._leaders, game, speed, limit)

    def _leaders(self, game: str, speed: str, limit: int) -> list[tuple[str, PlayerRating, bool]]:
        query = (
            sa.select(ratings, accounts.c.name, accounts.c.bot)
            .join(accounts, accounts.c.id == ratings.c.account_id)
            .where(
                ratings.c.game == game,
                ratings.c.speed == speed,
                ratings.c.deviation <= PROVISIONAL_DEVIATION,
                accounts.c.banned.is_(False),
            )
            .order_by(ratings.c.rating.desc())
            .limit(limit)
        )
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return [
            (
                row.name,
                PlayerRating(
                    row.game, row.speed, Rating(row.rating, row.deviation, row.volatility), row.games, row.wins,
                    row.draws, row.losses,
                ),
                bool(row.bot),
            )
            for row in rows
        ]  # fmt: skip

    async def rated_games(self, account: str) -> int:
        """How many rated games the account has finished."""
        return await self.database.run(self._rated_games, account)

    def _rated_games(self, account: str) -> int:
        played = sa.or_(rated_games.c.account0 == account, rated_games.c.account1 == account)
        with self.database.single() as connection:
            return int(connection.execute(sa.select(sa.func.count()).where(played)).scalar_one())

    async def games(self) -> list[str]:
        """The games anyone has a rating in, by name."""
        return await self.database.run(self._games)

    def _games(self) -> list[str]:
        with self.database.single() as connection:
            return [
                str(game)
                for game in connection.execute(sa.select(ratings.c.game).distinct().order_by(ratings.c.game)).scalars()
            ]

    async def rated(self, game_id: str) -> RatedGame | None:
        """A rated game's effect, once it has ended."""
        return await self.database.run(self._rated, game_id)

    def _rated(self, game_id: str) -> RatedGame | None:
        with self.database.single() as connection:
            row = connection.execute(sa.select(rated_games).where(rated_games.c.game_id == game_id)).first()
        if row is None:
            return None
        return RatedGame(
            row.game_id, row.game, row.speed, (row.account0, row.account1), row.score0, (row.before0, row.before1),
            (row.after0, row.after1), row.at,
        )  # fmt: skip


__all__ = ["PlayerRating", "RatedGame", "RatingRepository"]
