"""The AI's part of the JSON API.

- ``GET /api/games/{id}/hint[?ply=N]``: the AI's suggestion and, where the game has one, an evaluation, after the
  game's moves or its first N (a review); for the holder of a seat with engine help (403 otherwise while the game
  is on), for anyone once it is over. With ``?line=L&ply=N`` the position is one of the analysis board's lines,
  answered by the analysis (handed in: see :mod:`~hive.web.analysis.routes`). Hints are counted per client.
"""

from __future__ import annotations

from typing import Protocol

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from ...sdk.view import JSON
from ..play import GameService, Session
from ..play.routes import Rates, Seats
from ..shared.endpoints import client, endpoint
from .player import AIPlayer


class LineHints(Protocol):
    """The hint on a position of the analysis board's lines (the analysis' own, handed in)."""

    async def hint(self, session: Session, token: str | None, line: str | None, ply: str | None) -> JSON:
        """The AI's hint ``ply`` moves along ``line`` (``None``: the main line)."""


class AIRoutes:
    """The routes of the AI's hints.

    :param service: the games.
    :param ai: the AI.
    :param rates: the clients' rates.
    :param seats: the seat token a request holds.
    :param lines: the analysis board, which answers a hint on a position of its lines.
    """

    def __init__(
        self, service: GameService, ai: AIPlayer, rates: Rates, seats: Seats, lines: LineHints | None = None
    ) -> None:
        self.service = service
        self.ai = ai
        self.rates = rates
        self.seats = seats
        self.lines = lines

    def routes(self) -> list[BaseRoute]:
        """The hint's route."""
        return [Route("/api/games/{id}/hint", endpoint(self.hint), methods=["GET"])]

    async def hint(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        self.rates.charge("hints", client(request))
        query = request.query_params
        token = await self.seats.held(request)
        if "line" in query and self.lines is not None:
            return await self.lines.hint(session, token, query["line"] or None, query.get("ply"))
        return await self.ai.hint(session, token, query.get("ply"), client(request))


__all__ = ["AIRoutes", "LineHints"]
