"""What a game's state adds about the community: its players' accounts and ratings, its tournament, its rematch
offer (each domain answers its part; this puts them together for the game's page and sockets)."""

from __future__ import annotations

from typing import Any

from ...sdk.view import JSON
from ..lobby import Seeks
from ..play import clock
from ..play.session import Session
from ..players import Accounts
from ..ratings import Ratings
from ..tournaments import Tournaments

#: The most entries each of the caches of :meth:`GameFacts.of` keeps.
CACHED = 4096


def _bounded(cache: dict[str, Any]) -> dict[str, Any]:
    """``cache``, emptied first when it is full."""
    if len(cache) >= CACHED:
        cache.clear()
    return cache


class GameFacts:
    """What a game's state adds about its accounts, read once a game and process.

    :param accounts: the accounts.
    :param ratings: the ratings.
    :param tournaments: the tournaments.
    :param seeks: the lobby (a finished game's rematch offer).
    """

    def __init__(self, accounts: Accounts, ratings: Ratings, tournaments: Tournaments, seeks: Seeks) -> None:
        self.accounts = accounts
        self.ratings = ratings
        self.tournaments = tournaments
        self.seeks = seeks
        self._accounts: dict[str, JSON] = {}  # each account's name and bot flag, by id
        self._rated: dict[str, JSON | None] = {}  # each rated game's effect on the ratings, once it is over
        self._tournament_of: dict[str, JSON | None] = {}  # each game's place in a tournament (never changes)
        self._began: dict[str, list[JSON | None]] = {}  # each game's players' ratings as this process first read them

    async def of(self, session: Session) -> JSON:
        """What a game's state adds about its accounts: ``accounts``, each seat's account (``name`` and ``bot``, for
        a link to its profile, and its ``rating`` in the game's game and speed, rounded, with ``provisional``, to
        show beside the name while the game is played) or ``None`` for a guest's; ``tournament``, the id of the
        tournament it is a game of (``None``: none; a tournament's game has no rematch) and ``tournament_game``, its
        place there (the tournament's ``id`` and ``name``, the ``round`` and ``board``); once a rated game is over,
        ``ratings``: the ``speed`` and both players' ratings ``before`` and ``after`` it; and once a game is over,
        ``rematch_offer``: the open offer of its rematch (``id``: the challenge's, ``by``: the offering seat).
        Nothing for a game without accounts. Each is read once a game and process: an account's name never changes,
        nor a game's tournament, the ratings shown during play are those the game began with (as this process first
        read them), and a rated game's effect never changes once it is stored (in the transaction that stores the
        game's end)."""
        record = session.record
        if not any(record.accounts):
            return {}
        if record.id not in self._began:
            game, speed = session.board.game_name, clock.speed_of(record.clock)
            began: list[JSON | None] = []
            for account in record.accounts:
                if account is None:
                    began.append(None)
                    continue
                rating = await self.ratings.rating(account, game, speed)
                began.append({"rating": round(rating.rating), "provisional": rating.provisional})
            _bounded(self._began)[record.id] = began
        accounts = [await self._account_of(account) for account in record.accounts]
        facts: JSON = {
            "accounts": [
                None if account is None else {**account, **(rating or {})}
                for account, rating in zip(accounts, self._began[record.id], strict=True)
            ]
        }
        if record.rated and record.result is not None:
            if record.id not in self._rated:
                rated = await self.ratings.rated(record.id)
                change = None
                if rated is not None:
                    change = {"speed": rated.speed, "before": list(rated.before), "after": list(rated.after)}
                _bounded(self._rated)[record.id] = change
            if self._rated[record.id] is not None:
                facts["ratings"] = self._rated[record.id]
        if record.id not in self._tournament_of:
            found = await self.tournaments.place_of(record.id)
            _bounded(self._tournament_of)[record.id] = (
                None if found is None else dict(zip(("id", "name", "round", "board"), found, strict=True))
            )
        place = self._tournament_of[record.id]
        facts["tournament"] = None if place is None else place["id"]
        facts["tournament_game"] = place
        if record.result is not None:
            facts["rematch_offer"] = await self.seeks.rematch_offer(record)
        return facts

    async def _account_of(self, account_id: str | None) -> JSON | None:
        if account_id is None:
            return None
        if account_id not in self._accounts:
            account = await self.accounts.by_id(account_id)
            if account is None:  # deleted since
                return None
            _bounded(self._accounts)[account_id] = {"name": account.name, "bot": account.bot}
        return self._accounts[account_id]


__all__ = ["CACHED", "GameFacts"]
