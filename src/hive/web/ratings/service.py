"""The ratings' logic: a profile's ratings and their history, the leaderboards, and what a game's page shows of its
players' ratings. The ratings themselves move in the transaction that stores a rated game's end
(:meth:`~hive.web.ratings.repository.RatingRepository.rate_within`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...games import DEFAULT_GAME
from ...ratings import ESTABLISHED_AFTER, SPEEDS, Rating
from ...sdk.view import JSON
from ..players import Signed
from ..shared.errors import BadRequest, shown
from .repository import RatedGame, RatingRepository


class Ratings:
    """The ratings of a server's accounts.

    :param repository: where they are kept.
    """

    def __init__(self, repository: RatingRepository) -> None:
        self.repository = repository

    async def rating(self, account: str, game: str, speed: str) -> Rating:
        """The account's rating in ``game`` and ``speed`` (a new player's, without one)."""
        return await self.repository.rating(account, game, speed)

    async def rated(self, game_id: str) -> RatedGame | None:
        """A rated game's effect on its players' ratings, once it has ended."""
        return await self.repository.rated(game_id)

    async def rated_games(self, account: str) -> int:
        """How many rated games the account has finished."""
        return await self.repository.rated_games(account)

    async def profile(self, account: str) -> JSON:
        """What a profile shows of an account's ratings: ``ratings`` by game and speed (see
        :meth:`~hive.web.ratings.repository.PlayerRating.answer`) and their ``history``."""
        ratings: dict[str, dict[str, Any]] = {}
        for rating in await self.repository.of(account):
            ratings.setdefault(rating.game, {})[rating.speed] = rating.answer()
        return {"ratings": ratings, "history": await self.history(account)}

    async def history(self, account: str) -> dict[str, dict[str, list[list[float]]]]:
        """The account's rating after each rated game, by game and speed: ``[when, rating]`` pairs, oldest first."""
        history: dict[str, dict[str, list[list[float]]]] = {}
        for game, speed, at, rating in await self.repository.history(account):
            history.setdefault(game, {}).setdefault(speed, []).append([at, round(rating, 1)])
        return history

    async def leaders(self, query: Mapping[str, str], signed: Signed | None = None) -> JSON:
        """The leaderboard of ``game`` (default ``Base+MLP``) and ``speed`` (default ``blitz``): the best established
        ratings, highest first; ``games``, the games anyone has a rating in (the other boards); ``established_after``,
        about how many rated games a new player's rating needs to be listed; and ``you``, the ``signed`` player's
        rating there (``games``, ``provisional``, ``more``: the games still needed), ``None`` for a guest."""
        game, speed = query.get("game", DEFAULT_GAME), query.get("speed", "blitz")
        if speed not in SPEEDS:
            raise BadRequest(f"'speed' is one of {', '.join(SPEEDS)}, not {shown(speed)}.")
        leaders: list[Any] = []
        for rank, (name, rating, bot) in enumerate(await self.repository.leaders(game, speed), start=1):
            leaders.append({"rank": rank, "name": name, "bot": bot, **rating.answer()})
        you: JSON | None = None
        if signed is not None:
            you = {"name": signed.account.name, "games": 0, "provisional": True, "more": ESTABLISHED_AFTER}
            for mine in await self.repository.of(signed.account.id):
                if (mine.game, mine.speed) == (game, speed):
                    answer = mine.answer()
                    you.update(games=answer["games"], provisional=answer["provisional"], more=answer["more"])
        return {
            "game": game, "speed": speed, "leaders": leaders, "games": await self.repository.games(),
            "established_after": ESTABLISHED_AFTER, "you": you,
        }  # fmt: skip


__all__ = ["Ratings"]
