"""Bots (``hive serve``): an account an engine plays through the API with an API token of scope ``bot``. An account
becomes a bot's for good, before any rated game; its engine reads its events (challenges to it, its games starting)
from a stream, and plays its games with the game API."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable

from ...sdk.view import JSON
from ..lobby import Seeks
from ..play import GameService
from ..players import Accounts, Signed, StoredAccount
from ..ratings import Ratings
from ..shared.errors import Conflict

#: How often the bot stream looks for new events, in seconds.
STREAM_POLL = 0.5


class Bots:
    """The bots' accounts and their event streams.

    :param accounts: the accounts.
    :param ratings: the ratings (an account with rated games stays a player's).
    :param seeks: the lobby (the challenges to a bot).
    :param games: the games (a bot's in progress, with their seats' tokens).
    """

    def __init__(self, accounts: Accounts, ratings: Ratings, seeks: Seeks, games: GameService) -> None:
        self.accounts = accounts
        self.service = games
        self.ratings = ratings
        self.seeks = seeks

    async def become(self, signed: Signed) -> StoredAccount:
        """Make the account a bot's, for good (its games are then played by an engine, through the bot API).

        :raises Conflict: when it has played rated games already, or is a bot's already.
        """
        account = signed.account
        if account.bot:
            raise Conflict(f"{account.name} is a bot's account already.")
        if await self.ratings.rated_games(account.id):
            raise Conflict("An account that has played rated games stays a player's: make a new one for the bot.")
        return await self.accounts.make_bot(account)

    async def games(self, signed: Signed) -> JSON:
        """The account's games in progress, each with its seat and that seat's token."""
        games = await self.service.ongoing(signed.account.id)
        return {"games": [{"id": game_id, "seat": seat, "token": token} for game_id, seat, token in games]}

    async def events(self, signed: Signed, gone: Callable[[], Awaitable[bool]]) -> AsyncIterator[str]:
        """The account's events as they come, until ``gone`` says the reader left: lines of JSON objects,
        ``challenge`` (a challenge to it, open) and ``gameStart`` (a game of its in progress: its ``id``, ``seat``
        and seat ``token``), each once; an empty line after 10 s without any."""
        told: set[str] = set()
        quiet = 0.0
        while not await gone():
            await self.accounts.seen(signed.account)  # a bot streaming its events is online
            lines = []
            for seek in (await self.seeks.challenges(signed))["incoming"]:
                if seek["id"] not in told:
                    told.add(seek["id"])
                    lines.append(json.dumps({"type": "challenge", "challenge": seek}))
            for game_id, seat, token in await self.service.ongoing(signed.account.id):
                if game_id not in told:
                    told.add(game_id)
                    game = {"id": game_id, "seat": seat, "token": token}
                    lines.append(json.dumps({"type": "gameStart", "game": game}))
            if lines:
                quiet = 0.0
                yield "\n".join(lines) + "\n"
            elif quiet >= 10:
                quiet = 0.0
                yield "\n"
            await asyncio.sleep(STREAM_POLL)
            quiet += STREAM_POLL


__all__ = ["STREAM_POLL", "Bots"]
