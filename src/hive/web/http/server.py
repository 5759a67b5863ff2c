"""The web app's routes: the domains' routes assembled (each domain's routes module documents its part of the JSON
API), the front door's pages and the operator's endpoints.

The games in play are :mod:`~hive.web.play.routes`'s, their lines and reviews :mod:`~hive.web.analysis.routes`'s, the
AI's hints :mod:`~hive.web.ai.routes`'s, and each community domain's its own routes module's. :func:`routes` puts the
domains' lists together: a route whose last path segment is a parameter (``/api/games/{id}/{action}``) comes after
the others (so that ``/api/games/{id}/chat`` wins over it), and the static files last.

API (JSON; errors are ``{"error": message}`` with a 4xx status; an unexpected failure is a 500 ``{"error":
"Internal error", "request": reference}``, the reference naming the failure's lines in the log):

- ``GET /how-to-play/{kind}``: a game's rules as a page, when its package has them, in the asker's language.
- ``GET /i18n/{lang}.json``: the page's texts in a language (see :mod:`hive.web.shared.i18n`).
- ``GET /api/assets``: what the page draws with, the AI levels, the games on offer (``games``), and how the server
  is reached (``network``: the listening address, whether it is this machine only, the LAN address).
- ``WS /ws/lobby`` (``hive serve``): the lobby's seeks and challenges as they change, and a signed-in player's own
  news (see :mod:`~hive.web.lobby.sockets`).
- Each domain's endpoints are documented with its routes: the games (:mod:`~hive.web.play.routes`), the analysis
  board and engine reviews (:mod:`~hive.web.analysis.routes`), hints (:mod:`~hive.web.ai.routes`), and on
  ``hive serve`` accounts (:mod:`~hive.web.players.routes`), ratings (:mod:`~hive.web.ratings.routes`), the lobby
  (:mod:`~hive.web.lobby.routes`), tournaments (:mod:`~hive.web.tournaments.routes`), chat
  (:mod:`~hive.web.chat.routes`) and bots (:mod:`~hive.web.bots.routes`).

- ``GET /healthz``: 200 while the process runs; ``GET /readyz``: 200 when it can serve (the database answers with the
  current schema, it hears the other processes, it is not stopping), 503 naming what is wrong otherwise;
  ``GET /metrics``: Prometheus's text format (see :mod:`~hive.web.http.ops`).

A request the database cannot serve now (it is restarting, or out of reach) is answered 503 with ``Retry-After``.
Every request passes :class:`~hive.web.http.guard.Guard` first (allowed hosts and origins, JSON bodies within the size
limit, security headers); new games, hints and moves asking the AI are counted per client
(:class:`~hive.web.http.limits.RateLimits`), and a refusal over a limit is a 429 with a message.
"""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ...sdk.view import JSON
from ..play import Session
from ..shared.endpoints import Handler, body, client, endpoint
from ..shared.i18n import language, languages, page_catalog
from ..views import kinds, plugin_of, rules_page, spec_of
from . import ops
from .network import reach
from .pages import how_to_play_page, shell
from .sockets import lobby_websocket

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from .app import App, DomainRoutes

log = logging.getLogger("hive.web")
WEB = Path(__file__).parent.parent
#: The page's shell (index.html, the styles, main.js and its shared modules); each domain's page modules are in its
#: package's own ``static`` folder (see :func:`page_modules`).
STATIC = WEB / "static"
#: The pages the server writes in the asker's language vary with its cookie and its browser's languages.
VARY = {"vary": "Cookie, Accept-Language"}


def page_modules() -> list[BaseRoute]:
    """Each domain's page modules at ``/static/<domain>/``, from the ``static`` folder of its package: mounted before
    the shell's ``/static``, which would otherwise answer 404 for them."""
    folders = sorted(WEB.glob("*/static"))
    return [Mount(f"/static/{folder.parent.name}", StaticFiles(directory=folder)) for folder in folders]


def ordered(routes: list[BaseRoute]) -> list[BaseRoute]:
    """The routes in the order they are tried: a route whose last path segment is a parameter after the others (in
    their order otherwise), so that a domain's ``/api/games/{id}/chat`` wins over ``/api/games/{id}/{action}``; the
    mounts (the static files) last."""

    def rank(route: BaseRoute) -> int:
        if isinstance(route, Mount):
            return 2
        return 1 if str(getattr(route, "path", "")).rsplit("/", 1)[-1].startswith("{") else 0

    return sorted(routes, key=rank)


class Api:
    """The front door's pages and the JSON boundary shared by the routes of a server process.

    :param app: the server process.
    """

    def __init__(self, app: App) -> None:
        self.app = app

    def handlers(self) -> dict[Any, Callable[[Request, Exception], Awaitable[Response]]]:
        """Starlette's exception handlers: HTTP errors and crashes answered in JSON."""
        return {HTTPException: self._http_error, Exception: self._crash}

    @staticmethod
    def api(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint answering ``handler``'s JSON (see :func:`~hive.web.shared.endpoints.endpoint`)."""
        return endpoint(handler)

    async def _http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse(
            {"error": f"{exc.detail}: {request.method} {request.url.path}"}, status_code=exc.status_code
        )

    async def _crash(self, request: Request, exc: Exception) -> Response:
        """A request that failed unexpectedly: its exception and traceback go to the log under a reference, and the
        answer carries only the reference (never the exception's text, which may quote SQL or the data)."""
        reference = secrets.token_hex(6)
        log.error("unexpected error, request %s: %s %s", reference, request.method, request.url.path, exc_info=exc)
        return JSONResponse({"error": "Internal error", "request": reference}, status_code=500)

    async def body(self, request: Request) -> JSON:
        """The request's JSON object (``{}`` for an empty body), its size checked by the guard already.

        :raises Refused: when the body is not JSON, nests too deeply, or is not an object.
        """
        return await body(request, self.app.settings.json_depth)

    @staticmethod
    def client(request: Request) -> str:
        """Who asks, for the rate limits and the AI's fair share: the client's address."""
        return client(request)

    async def started(self, session: Session, token: str, invite: str | None) -> JSON:
        """A new game's answer (see :meth:`~hive.web.play.routes.PlayRoutes.started`)."""
        return await self.app.play_routes.started(session, token, invite)

    # ------------------------------------------------------------------
    # pages

    async def page(self, request: Request) -> Response:
        """The page's shell in the asker's language (see :func:`~hive.web.http.pages.shell`)."""
        return HTMLResponse(shell(language(request)), headers=VARY)

    async def how_to_play(self, request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind not in kinds() or rules_page(kind) is None:
            raise HTTPException(404)
        return HTMLResponse(how_to_play_page(kind, spec_of(kind).title, language(request)), headers=VARY)

    async def catalog(self, request: Request) -> Response:
        """The page's texts in a language, as JSON (see :func:`~hive.web.shared.i18n.page_catalog`): cached for a
        year when asked for by its version (``?v=``, as the shell names it), revalidated by its ETag otherwise."""
        lang = request.path_params["lang"]
        if lang not in languages():
            raise HTTPException(404)
        data, version = page_catalog(lang)
        etag = f'"{version}"'
        fresh = request.query_params.get("v") == version
        cache = "public, max-age=31536000, immutable" if fresh else "public, max-age=300, must-revalidate"
        headers = {"etag": etag, "cache-control": cache}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(data, media_type="application/json", headers=headers)

    async def favicon(self, request: Request) -> Response:
        """The page's icon, for the clients that ask for it where no page names it."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def game_file(self, request: Request) -> Response:
        """A file of a game's page module, from its package (see :attr:`~hive.plugin.GamePlugin.static`)."""
        name = request.path_params["name"]
        for kind in kinds():
            path = plugin_of(kind).page_file(name)
            if path is not None:
                return FileResponse(path)
        raise HTTPException(404)

    async def assets(self, request: Request) -> Response:
        network = reach(*self.app.listening)
        return JSONResponse({**self.app.service.assets(), "network": network, "accounts": self.app.settings.accounts})


def routes(app: App) -> list[BaseRoute]:
    """The routes of a server process: the front door's, each domain's (see :func:`ordered`), the static files."""
    api = app.api
    front: list[BaseRoute] = [
        Route("/", api.page),
        Route("/how-to-play/{kind}", api.how_to_play),
        Route("/i18n/{lang}.json", api.catalog),
        Route("/favicon.ico", api.favicon),
        Route("/healthz", ops.healthz),
        Route("/readyz", ops.readyz),
        Route("/metrics", ops.metrics),
        Route("/api/assets", api.assets),
        WebSocketRoute("/ws/lobby", lobby_websocket(app)),
        Route("/static/games/{name}", api.game_file),
        *page_modules(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    domains: list[DomainRoutes] = [app.play_routes, app.analysis_routes, app.ai_routes, *app.domains]
    return ordered([*(route for domain in domains for route in domain.routes()), *front])


__all__ = ["STATIC", "Api", "ordered", "page_modules", "routes"]
