"""The tournaments' API (``hive serve``; a server without accounts answers 404):

- ``GET /api/tournaments``; ``POST /api/tournaments`` (``name``, ``format`` ``swiss`` or ``round-robin``,
  ``rounds``, ``double``, ``game``, ``time_control``, ``rated``); ``GET /api/tournaments/{id}`` (its players, every
  round's games and results, the standings with tie-breaks); ``POST /api/tournaments/{id}/join``, ``/leave``,
  ``/start`` (the organiser's), ``/invite`` (``name``: the organiser's, for a tournament made with ``invite_only``;
  ``bots``: false keeps bots out); ``GET /api/tournaments/{id}/records`` (every game's record, one file). The page
  ``/tournament/{id}`` shows one.

The server pairs each round when the last one's games have ended, and starts its games. A tournament's room is
:mod:`hive.web.chat.routes`'.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ..players import Identity, Page
from ..shared.endpoints import body, endpoint
from ..shared.errors import NotFound
from .service import Tournaments


class TournamentRoutes:
    """The tournaments' endpoints of a server process.

    :param identity: who asks.
    :param tournaments: the tournaments.
    :param page: the page's shell (a tournament's page is shown by its script).
    :param json_depth: the deepest a request's JSON may nest.
    """

    def __init__(self, identity: Identity, tournaments: Tournaments, page: Page, json_depth: int) -> None:
        self.identity = identity
        self.tournaments = tournaments
        self.page = page
        self.json_depth = json_depth

    def routes(self) -> list[BaseRoute]:
        """The tournaments' routes."""
        return [
            Route("/tournament/{id}", self.page),
            Route("/api/tournaments", endpoint(self.listed), methods=["GET"]),
            Route("/api/tournaments", endpoint(self.create), methods=["POST"]),
            Route("/api/tournaments/{id}", endpoint(self.tournament), methods=["GET"]),
            Route("/api/tournaments/{id}/records", endpoint(self.records), methods=["GET"]),
            Route("/api/tournaments/{id}/{action}", endpoint(self.action), methods=["POST"]),
        ]

    async def listed(self, request: Request) -> Any:
        self.identity.check_enabled()
        return await self.tournaments.listed()

    async def create(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        return await self.tournaments.create(signed, await body(request, self.json_depth))

    async def tournament(self, request: Request) -> Any:
        self.identity.check_enabled()
        return await self.tournaments.get(request.path_params["id"])

    async def action(self, request: Request) -> Any:
        tournament_id, action = request.path_params["id"], request.path_params["action"]
        signed = await self.identity.changing(request, "play" if action in ("join", "leave") else "account")
        tournaments = self.tournaments
        if action == "join":
            return await tournaments.join(signed, tournament_id)
        if action == "leave":
            return await tournaments.leave(signed, tournament_id)
        if action == "start":
            return await tournaments.start(signed, tournament_id)
        if action == "invite":
            return await tournaments.invite(signed, tournament_id, await body(request, self.json_depth))
        raise NotFound(f"No tournament action {action!r}: join, leave, start or invite.")

    async def records(self, request: Request) -> Response:
        self.identity.check_enabled()
        return PlainTextResponse(await self.tournaments.records(request.path_params["id"]))


__all__ = ["TournamentRoutes"]
