"""The web app's routes: the game page, the JSON API, the live updates and the operator's endpoints.

The games themselves are :class:`~hive.web.game.service.GameService`'s, the AI is
:class:`~hive.web.ai.player.AIPlayer`'s; this module reads requests and answers JSON. What follows a change (the AI,
the flags, the sockets watching the game) follows from the change's event (see :mod:`~hive.web.http.app`), not from
the request that made it.

API (JSON; errors are ``{"error": message}`` with a 4xx status; an unexpected failure is a 500 ``{"error":
"Internal error", "request": reference}``, the reference naming the failure's lines in the log):

- ``GET /api/games``: the stored games, in progress first, then finished (names, kind, result, dates); on a server
  with accounts only the asker's (see :meth:`Api.games`), each with the ``seat`` the asker plays.
- ``POST /api/games`` create (``kind``, ``mode`` ``ai``/``local``/``online``, ``options``, ``colour``,
  ``ai_level``, ``name``, ``help``, ``game_string``, ``time_control``: ``untimed``, ``bullet`` (1+2), ``blitz``
  (5+3), ``rapid`` (15+10), ``classical`` (30+20), ``{"initial": seconds, "increment": seconds}`` or
  ``{"days": 1, 2, 3, 5 or 7}`` per move): returns the game, your seat token and, online, the invitation token.
  ``position`` (a position record, ``Position;<game>;<turn>;...``, instead of ``game_string``) starts the game
  from that position (kept as the game's ``start``: undo, the record and rematches go back to it).
  A game's state holds ``clock`` (``null`` untimed): ``control``, ``label``, ``remaining`` (each side's
  milliseconds), ``running`` (whose clock runs: a seat or ``null``), ``used`` (milliseconds per move, ``null``
  where the clock had not started) and ``low`` (the remaining time that shows a warning).
- ``POST /api/positions``: the board editor's check (``kind``, ``options``, ``position``: a position record, or
  none for the start of a game): ``valid``, ``error`` (the rule it breaks), ``position`` (the record as the game
  writes it), ``options``, ``view`` (the position as a game shows it, its legal moves included) and ``over`` (why
  the game is over, when the position ends it). The page's editor is at ``/editor``.
- ``GET /api/games/{id}``: the game as seen with the ``X-Seat-Token`` header (or as a spectator). A game between
  accounts adds each seat's account (``accounts``) and, once a rated one is over, the ``ratings`` it moved (see
  :meth:`~hive.web.http.facts.GameFacts.of`); its sockets' states carry them too.
- ``DELETE /api/games/{id}``: delete the game (a seat holder only).
- ``POST /api/games/{id}/rematch``: the next game with the colours swapped (a seat holder of a finished game):
  returns it and your token in it, like a new game (an online game's ``invite`` too, for the other browser). Between
  accounts it is an offer (``offered``: a challenge to the opponent, which they accept or decline; asked by both, it
  starts, and each gets their own seat's token alone); a tournament's game has none.
- ``GET /api/games/{id}/position?ply=N``: the position after the first N moves.
- ``POST /api/games/{id}/move`` (``move`` or the game's own fields, e.g. ``piece`` and ``to``; optional ``ply``),
  ``/undo``, ``/redo``, ``/resign``, ``/abort`` (a game between two players online before both sides moved: no
  winner, no rating; see :mod:`~hive.web.game.aborts`), ``/offer`` (``what``: ``draw`` or ``undo``), ``/answer``
  (``accept``),
  ``/name`` (``name``), ``/help`` (``help``: a casual game with engine help), ``/why`` (``piece``),
  ``/preview`` (HiveQueen: part of a turn, ``move``; answers the field after it and the
  productions that may follow).
- ``GET /how-to-play/{kind}``: a game's rules as a page, when its package has them (HiveQueen's).
- ``GET /api/assets``: what the page draws with, the AI levels, the games on offer (``games``), and how the server
  is reached (``network``: the listening address, whether it is this machine only, the LAN address).
- ``GET /api/games/{id}/hint[?ply=N]``: the AI's suggestion and, where the game has one, an evaluation, after the
  game's moves or its first N (a review); for the holder of a seat with engine help (403 otherwise while the game
  is on), for anyone once it is over.
- The analysis board (:mod:`~hive.web.game.analysis`; the same access as hints, and only seat holders add or delete
  lines): ``GET /api/games/{id}/lines``: the lines explored beside the main line, ``lines`` (each one's ``id``,
  ``parent``: the line it branches from, ``null`` for the main line, ``ply``: the moves it shares with it, and its
  own ``moves``, the first being move ``ply + 1``) and ``writable``; ``POST /api/games/{id}/lines`` (``line``:
  a line's id or ``null``, ``ply``: a number of its moves, by default all, and a move as for ``/move``): plays the
  move there, through the game's own checks, without touching the game's record, stored as a line (a move a line
  already has is followed, one at a line's end extends it, any other starts a new line): answers ``line``, ``ply``,
  ``view``, ``end`` (why the game is over there) with the ``lines``; ``DELETE /api/games/{id}/lines/{line}``:
  deletes the line and the lines explored from it. ``?line=L&ply=N`` (``line=`` empty: the main line) makes
  ``/position`` and ``/hint`` answer for that position, and ``line`` and ``ply`` in the body of ``/why`` and
  ``/preview`` make them answer about it.
- ``POST /api/games/{id}/review`` (optional ``level``: one of the game's AI levels, by default its hint level):
  review every position of the game with the engine, in the background (the same access as hints; one review
  per game: asked again while it runs, it answers its progress); ``GET`` the review as it stands: ``status``
  (``none``, ``running``, ``done``, ``failed``), ``done`` of ``total`` positions, ``positions`` (each one's
  ``white``: the first player's winning chance, ``turn``, ``best``: the AI's move, ``depth``), ``marks`` (the
  moves that lost the mover at least the ``thresholds``' winning chance: ``ply``, ``move``, ``side``, ``kind``
  ``inaccuracy``/``mistake``/``blunder``, ``drop``, ``best``), ``calibrated`` (whether the game's scores are
  winning chances), ``error``, and the game's AI ``levels`` with the ``default_level``. Stored with the game:
  shown after a restart, and resumed if it was running.
- ``WS /ws/games/{id}?token=``: the game, sent again after every change (``ping`` answered ``pong``). A socket
  that cannot keep up is closed with code 4408 (reconnect to get the game as it stands). With ``chat=1`` it is
  also told of each message written in a room of the game's chat it may read (``{"type": "chat", "room", "id"}``).
- The community's endpoints (``hive serve``: accounts, ratings, the lobby and its socket ``/ws/lobby``,
  tournaments, chat, bots) are documented with their routes: :mod:`~hive.web.players.routes`,
  :mod:`~hive.web.ratings.routes`, :mod:`~hive.web.lobby.routes`, :mod:`~hive.web.tournaments.routes`,
  :mod:`~hive.web.chat.routes`, :mod:`~hive.web.bots.routes`.

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

from ..game import setup
from ..game.actions import act
from ..game.session import Session
from ..realtime.fanout import with_seats
from ..shared.endpoints import Handler, body, client, endpoint
from ..shared.errors import (
    BadRequest,
)
from ..views import JSON, kinds, plugin_of, rules_page, spec_of
from . import ops
from .network import reach
from .pages import how_to_play_page
from .sockets import lobby_websocket, websocket

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from .app import App

log = logging.getLogger("hive.web")
STATIC = Path(__file__).parent.parent / "static"
#: Actions after which the AI may be due to move, counted against the client's AI rate.
AI_ACTIONS = ("move", "undo", "redo")


#: The most seat tokens a game list is asked for at once, and the longest a token may be.
HELD_TOKENS, TOKEN_LENGTH = 500, 64


def held_tokens(header: str) -> list[str]:
    """The seat tokens of an ``X-Seat-Tokens`` header (comma-separated).

    :raises BadRequest: for more than :data:`HELD_TOKENS`, or a token that no seat could have.
    """
    tokens = [token.strip() for token in header.split(",") if token.strip()]
    if len(tokens) > HELD_TOKENS:
        raise BadRequest(f"X-Seat-Tokens holds at most {HELD_TOKENS} tokens, not {len(tokens)}.")
    for token in tokens:
        if len(token) > TOKEN_LENGTH or not token.replace("-", "").replace("_", "").isalnum() or not token.isascii():
            raise BadRequest("X-Seat-Tokens holds seat tokens (letters, digits, - and _), comma-separated.")
    return tokens


class Api:
    """The page and the JSON API of a server process.

    :param app: the server process.
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self.service = app.service

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

    @staticmethod
    def token(request: Request) -> str | None:
        """The seat token the request holds."""
        return request.headers.get("x-seat-token") or None

    async def state(self, session: Session, token: str | None) -> JSON:
        """The game as the holder of ``token`` sees it."""
        present = await self.app.watching.present(session.record.id)
        state = self.service.state(session, self.service.seats(session.record, token), present)
        state.update(await self.app.account_api.game_facts(session))
        return state

    # ------------------------------------------------------------------
    # pages

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def how_to_play(self, request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind not in kinds() or rules_page(kind) is None:
            raise HTTPException(404)
        return HTMLResponse(how_to_play_page(kind, spec_of(kind).title))

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
        return JSONResponse({**self.service.assets(), "network": network, "accounts": self.app.settings.accounts})

    # ------------------------------------------------------------------
    # the API

    async def games(self, request: Request) -> JSON:
        """The game list: under ``hive play`` every game; on a server with accounts the asker's own, those its
        session's account plays and those a seat of which a token in ``X-Seat-Tokens`` holds (the tokens this browser
        keeps, comma-separated). The live games anyone may watch are ``/api/live``'s."""
        if not self.app.settings.accounts:
            return await self.app.lobby.games()
        signed = await self.app.account_api.signed(request)
        tokens = held_tokens(request.headers.get("x-seat-tokens", ""))
        return await self.app.lobby.games(account=signed.account.id if signed else None, tokens=tokens)

    async def create(self, request: Request) -> JSON:
        data = await self.body(request)
        self.app.rates.charge("games", self.client(request))
        session, game = await self.service.create(data, self.client(request))
        return {**await self.started(session, game.token, game.invite), "warnings": list(game.warnings)}

    async def started(self, session: Session, token: str, invite: str | None) -> JSON:
        """A new game's answer: its id, the asker's token, the other seat's (online) and the state."""
        return {"id": session.record.id, "token": token, "invite": invite, "state": await self.state(session, token)}

    async def check_position(self, request: Request) -> JSON:
        return setup.check(await self.body(request))

    async def delete(self, request: Request) -> JSON:
        session = await self.app.lobby.delete(request.path_params["id"], await self.held(request))
        return {"deleted": session.record.id}

    async def rematch(self, request: Request) -> JSON:
        game = await self.service.session(request.path_params["id"])
        if any(game.record.accounts):  # between accounts: an offer the opponent accepts or declines
            answer: JSON = await self.app.account_api.rematch(request)
            return answer
        _, following, token = await self.app.lobby.rematch(
            request.path_params["id"], await self.held(request), self.client(request)
        )
        invite = following.record.tokens[1 - following.record.tokens.index(token)]
        return await self.started(following, token, invite if following.record.mode == "online" else None)

    async def held(self, request: Request) -> str | None:
        """:meth:`seat_token` in the game of the request's path."""
        return await self.seat_token(request, request.path_params["id"])

    async def seat_token(self, request: Request, game_id: str) -> str | None:
        """The request's seat token: its ``X-Seat-Token``, or what a signed-in player's session stands for."""
        return self.token(request) or await self.app.account_api.seat_token(request, game_id)

    async def get(self, request: Request) -> JSON:
        game_id = request.path_params["id"]
        await self.service.check_clock(game_id)
        session = await self.service.session(game_id)
        return await self.state(session, await self.seat_token(request, game_id))

    async def position(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        if "line" in request.query_params:  # a position of the analysis board
            query = request.query_params
            return await self.app.analysis.position(
                session, await self.held(request), query["line"] or None, query.get("ply")
            )
        return self.service.position(session, request.query_params.get("ply", ""))

    async def review(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        if request.method == "GET":
            return await self.app.reviews.report(session, await self.held(request))
        self.app.rates.charge("hints", self.client(request))
        return await self.app.reviews.start(
            session, await self.held(request), await self.body(request), self.client(request)
        )

    async def hint(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        self.app.rates.charge("hints", self.client(request))
        query = request.query_params
        token = await self.held(request)
        if "line" in query:
            return await self.app.analysis.hint(session, token, query["line"] or None, query.get("ply"))
        return await self.app.ai.hint(session, token, query.get("ply"), self.client(request))

    async def lines(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        return await self.app.analysis.listing(session, await self.held(request))

    async def explore(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        return await self.app.analysis.play(session, await self.held(request), await self.body(request))

    async def unexplore(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        return await self.app.analysis.delete(session, await self.held(request), request.path_params["line"])

    async def action(self, request: Request) -> JSON | Response:
        game_id, action = request.path_params["id"], request.path_params["action"]
        data = await self.body(request)
        token = await self.seat_token(request, game_id)
        if "line" in data:  # a query about a position of the analysis board
            analysed = await self.app.analysis.query(await self.service.session(game_id), action, token, data)
            if analysed is not None:
                return analysed
        if action in AI_ACTIONS:
            known = self.service.sessions.get(game_id) or await self.service.session(game_id)
            if known.record.mode == "ai":  # a game's mode never changes: a copy in memory tells it
                self.app.rates.charge("ai", self.client(request))
        session, answer = await act(self.service, game_id, action, token, data, self.client(request))
        if answer is not None:
            return answer
        seats = self.service.seats(session.record, token)
        shown = self.app.shown_now(session)  # the state just sent to the game's sockets, when it was
        if shown is not None:
            return Response(with_seats(shown, seats), media_type="application/json")
        return await self.state(session, token)


def routes(app: App) -> list[BaseRoute]:
    """The routes of a server process: the game's, each community domain's (see :attr:`App.domains`) and the
    operator's; those whose last path segment is a parameter after the others (so that ``/api/games/{id}/chat``
    wins over ``/api/games/{id}/{action}``), and the static files last."""
    api = app.api
    listed: list[BaseRoute] = [
        Route("/", api.page),
        Route("/game/{id}", api.page),
        Route("/editor", api.page),
        Route("/how-to-play/{kind}", api.how_to_play),
        Route("/favicon.ico", api.favicon),
        Route("/healthz", ops.healthz),
        Route("/readyz", ops.readyz),
        Route("/metrics", ops.metrics),
        Route("/api/assets", api.assets),
        Route("/api/games", api.api(api.games), methods=["GET"]),
        Route("/api/games", api.api(api.create), methods=["POST"]),
        Route("/api/positions", api.api(api.check_position), methods=["POST"]),
        Route("/api/games/{id}", api.api(api.get), methods=["GET"]),
        Route("/api/games/{id}", api.api(api.delete), methods=["DELETE"]),
        Route("/api/games/{id}/rematch", api.api(api.rematch), methods=["POST"]),
        Route("/api/games/{id}/position", api.api(api.position), methods=["GET"]),
        Route("/api/games/{id}/hint", api.api(api.hint), methods=["GET"]),
        Route("/api/games/{id}/review", api.api(api.review), methods=["GET", "POST"]),
        Route("/api/games/{id}/lines", api.api(api.lines), methods=["GET"]),
        Route("/api/games/{id}/lines", api.api(api.explore), methods=["POST"]),
        Route("/api/games/{id}/lines/{line}", api.api(api.unexplore), methods=["DELETE"]),
        Route("/api/games/{id}/{action}", api.api(api.action), methods=["POST"]),
        WebSocketRoute("/ws/games/{id}", websocket(app)),
        WebSocketRoute("/ws/lobby", lobby_websocket(app)),
        Route("/static/games/{name}", api.game_file),
    ]
    for domain in app.domains:
        listed += domain.routes()
    listed.sort(key=_ends_in_parameter)  # stable: each list's order holds otherwise
    return [*listed, Mount("/static", StaticFiles(directory=STATIC), name="static")]


def _ends_in_parameter(route: BaseRoute) -> bool:
    path = getattr(route, "path", "")
    return path.rsplit("/", 1)[-1].startswith("{")


__all__ = ["AI_ACTIONS", "STATIC", "Api", "routes"]
