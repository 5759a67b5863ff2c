"""The bot API (``hive serve``; a server without accounts answers 404), for an engine acting with an API token
(``Authorization: Bearer``; see :mod:`hive.web.players.routes` for making one):

- ``POST /api/account/bot`` makes the account a bot's for good (one without rated games).
- ``GET /api/bot/stream`` streams the account's events, one JSON object a line (``challenge``, ``gameStart``), and
  holds the account's seeks and challenges while it is open (a bot's page).
- ``GET /api/bot/games`` lists its games in progress with its seat tokens.

The games themselves are played with the game API, the API token standing for the seat's token.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from ..players import Identity, Signed
from ..shared.endpoints import endpoint
from .service import Bots


class BotRoutes:
    """The bots' endpoints of a server process.

    :param identity: who asks.
    :param bots: the bots.
    """

    def __init__(self, identity: Identity, bots: Bots) -> None:
        self.identity = identity
        self.bots = bots
        #: The bot event streams open here, by account: each holds its account's seeks (see Seeks.hold).
        self.streams: Counter[str] = Counter()

    def routes(self) -> list[BaseRoute]:
        """The bots' routes."""
        return [
            Route("/api/account/bot", endpoint(self.become_bot), methods=["POST"]),
            Route("/api/bot/games", endpoint(self.games), methods=["GET"]),
            Route("/api/bot/stream", endpoint(self.stream), methods=["GET"]),
        ]

    async def become_bot(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        account = await self.bots.become(signed)
        return {"name": account.name, "bot": account.bot}

    async def games(self, request: Request) -> Any:
        signed = await self.identity.reading(request)
        return await self.bots.games(signed)

    async def stream(self, request: Request) -> Response:
        """The account's events as they come (see :meth:`~hive.web.bots.service.Bots.events`); an empty line every
        10 s keeps the connection open."""
        signed = await self.identity.reading(request)
        return StreamingResponse(self._events(request, signed), media_type="application/x-ndjson")

    async def _events(self, request: Request, signed: Signed) -> AsyncIterator[str]:
        account = signed.account.id
        self.streams[account] += 1  # the stream holds the bot's seeks while it is open
        try:
            async for lines in self.bots.events(signed, request.is_disconnected):
                yield lines
        finally:
            self.streams[account] -= 1
            if self.streams[account] <= 0:
                del self.streams[account]


__all__ = ["BotRoutes"]
