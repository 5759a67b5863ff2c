"""The ratings' API (``hive serve``; a server without accounts answers 404): each account's Glicko-2 rating per game
and speed (a profile's ``ratings`` and ``history``, see :mod:`hive.web.players.routes`), moved by a rated game that
ends after both players moved, in the transaction that stores its end (one aborted before moves none).

- ``GET /api/leaderboard?game=&speed=``: the best established ratings, how many rated games a rating needs to be
  established, and the asker's own count there. The page ``/leaderboard`` shows it.
"""

from __future__ import annotations

import contextlib
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..players import Identity, Page
from ..shared.endpoints import endpoint
from ..shared.errors import Unauthorized
from .service import Ratings


class RatingRoutes:
    """The ratings' endpoints of a server process.

    :param identity: who asks.
    :param ratings: the ratings.
    :param page: the page's shell (the leaderboard's page is shown by its script).
    """

    def __init__(self, identity: Identity, ratings: Ratings, page: Page) -> None:
        self.identity = identity
        self.ratings = ratings
        self._page = page

    def routes(self) -> list[BaseRoute]:
        """The ratings' routes."""
        return [
            Route("/leaderboard", self.page),
            Route("/api/leaderboard", endpoint(self.leaders), methods=["GET"]),
        ]

    async def page(self, request: Request) -> Response:
        """The leaderboard's page: the page's shell, whose script shows it; none on a server without accounts."""
        if not self.identity.enabled:
            raise HTTPException(404)
        return await self._page(request)

    async def leaders(self, request: Request) -> Any:
        self.identity.check_enabled()
        signed = None
        with contextlib.suppress(Unauthorized):  # a bad API token sees the board as a guest does
            signed = await self.identity.signed(request)
        return await self.ratings.leaders(request.query_params, signed)


__all__ = ["RatingRoutes"]
