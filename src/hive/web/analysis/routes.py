"""The analysis' part of the JSON API: the analysis board's lines and the engine's review of a game.

- The analysis board (:mod:`~hive.web.analysis.service`; the same access as hints, and only seat holders add or
  delete lines): ``GET /api/games/{id}/lines``: the lines explored beside the main line, ``lines`` (each one's
  ``id``, ``parent``: the line it branches from, ``null`` for the main line, ``ply``: the moves it shares with it, and
  its own ``moves``, the first being move ``ply + 1``) and ``writable``; ``POST /api/games/{id}/lines`` (``line``:
  a line's id or ``null``, ``ply``: a number of its moves, by default all, and a move as for ``/move``): plays the
  move there, through the game's own checks, without touching the game's record, stored as a line (a move a line
  already has is followed, one at a line's end extends it, any other starts a new line): answers ``line``, ``ply``,
  ``view``, ``end`` (why the game is over there) with the ``lines``; ``DELETE /api/games/{id}/lines/{line}``:
  deletes the line and the lines explored from it. ``?line=L&ply=N`` (``line=`` empty: the main line) makes
  ``/position`` and ``/hint`` answer for that position, and ``line`` and ``ply`` in the body of ``/why`` and
  ``/preview`` make them answer about it (those routes are play's and the AI's, handed this domain's answers).
- ``POST /api/games/{id}/review`` (optional ``level``: one of the game's AI levels, by default its hint level):
  review every position of the game with the engine, in the background (the same access as hints; one review
  per game: asked again while it runs, it answers its progress); ``GET`` the review as it stands: ``status``
  (``none``, ``running``, ``done``, ``failed``), ``done`` of ``total`` positions, ``positions`` (each one's
  ``white``: the first player's winning chance, ``turn``, ``best``: the AI's move, ``depth``), ``marks`` (the
  moves that lost the mover at least the ``thresholds``' winning chance: ``ply``, ``move``, ``side``, ``kind``
  ``inaccuracy``/``mistake``/``blunder``, ``drop``, ``best``), ``calibrated`` (whether the game's scores are
  winning chances), ``error``, and the game's AI ``levels`` with the ``default_level``. Stored with the game:
  shown after a restart, and resumed if it was running.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from ...sdk.view import JSON
from ..play import GameService
from ..play.routes import Rates, Seats
from ..shared.endpoints import body, client, endpoint
from .review import Reviews
from .service import Analysis


class AnalysisRoutes:
    """The routes of the analysis board and the engine's reviews.

    :param service: the games.
    :param analysis: the analysis board.
    :param reviews: the engine's reviews.
    :param rates: the clients' rates (a review counts as a hint).
    :param seats: the seat token a request holds.
    :param json_depth: how deeply a request's JSON may nest.
    """

    def __init__(
        self,
        service: GameService,
        analysis: Analysis,
        reviews: Reviews,
        rates: Rates,
        seats: Seats,
        *,
        json_depth: int = 32,
    ) -> None:
        self.service = service
        self.analysis = analysis
        self.reviews = reviews
        self.rates = rates
        self.seats = seats
        self.json_depth = json_depth

    def routes(self) -> list[BaseRoute]:
        """The routes of the lines and the reviews."""
        return [
            Route("/api/games/{id}/review", endpoint(self.review), methods=["GET", "POST"]),
            Route("/api/games/{id}/lines", endpoint(self.lines), methods=["GET"]),
            Route("/api/games/{id}/lines", endpoint(self.explore), methods=["POST"]),
            Route("/api/games/{id}/lines/{line}", endpoint(self.unexplore), methods=["DELETE"]),
        ]

    async def review(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        if request.method == "GET":
            return await self.reviews.report(session, await self.seats.held(request))
        self.rates.charge("hints", client(request))
        data = await body(request, self.json_depth)
        return await self.reviews.start(session, await self.seats.held(request), data, client(request))

    async def lines(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        return await self.analysis.listing(session, await self.seats.held(request))

    async def explore(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        token = await self.seats.held(request)
        return await self.analysis.play(session, token, await body(request, self.json_depth))

    async def unexplore(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        return await self.analysis.delete(session, await self.seats.held(request), request.path_params["line"])


__all__ = ["AnalysisRoutes"]
