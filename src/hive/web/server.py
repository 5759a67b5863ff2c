"""The web app's HTTP side: a Starlette ASGI application serving the game page, a JSON API and live updates.

The games themselves are :class:`~hive.web.service.GameService`'s, the AI is :class:`~hive.web.ai.AIPlayer`'s;
this module reads requests, answers JSON, and sends each game's new state to the WebSocket clients watching it
once the change is stored.

API (JSON; errors are ``{"error": message}`` with a 4xx status):

- ``GET /api/games``: the stored games, in progress first, then finished (names, kind, result, dates).
- ``POST /api/games`` create (``kind``, ``mode`` ``ai``/``local``/``online``, ``options``, ``colour``,
  ``ai_level``, ``name``, ``help``, ``game_string``): returns the game, your seat token and, online, the
  invitation token.
- ``GET /api/games/{id}``: the game as seen with the ``X-Seat-Token`` header (or as a spectator).
- ``DELETE /api/games/{id}``: delete the game (a seat holder only).
- ``POST /api/games/{id}/rematch``: the next game with the colours swapped (a seat holder of a finished game):
  returns it and your token in it, like a new game.
- ``GET /api/games/{id}/position?ply=N``: the position after the first N moves.
- ``POST /api/games/{id}/move`` (``move`` or the game's own fields, e.g. ``piece`` and ``to``; optional ``ply``),
  ``/undo``, ``/redo``, ``/resign``, ``/offer`` (``what``: ``draw`` or ``undo``), ``/answer`` (``accept``),
  ``/name`` (``name``), ``/help`` (``help``: a casual game with engine help), ``/why`` (``piece``),
  ``/preview`` (HiveQueen: part of a turn, ``move``; answers the field after it and the
  productions that may follow).
- ``GET /how-to-play/{kind}``: a game's rules as a page, when its package has them (HiveQueen's).
- ``GET /api/assets``: what the page draws with, the AI levels, the games on offer (``games``), and how the server
  is reached (``network``: the listening address, whether it is this machine only, the LAN address).
- ``GET /api/games/{id}/hint[?ply=N]``: the AI's suggestion and, where the game has one, an evaluation, after the
  game's moves or its first N (a review); for the holder of a seat with engine help (403 otherwise while the game
  is on), for anyone once it is over.
- ``WS /ws/games/{id}?token=``: the game, sent again after every change.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .ai import AIPlayer
from .errors import BadRequest, Conflict, Forbidden, GameError, NotFound, Unavailable
from .lobby import Lobby
from .network import reach
from .pages import how_to_play_page, rules_page
from .service import GameService, Session
from .storage import Storage
from .views import JSON, kinds, spec_of

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024
#: The status code of each kind of refusal.
STATUS: dict[type[GameError], int] = {BadRequest: 400, Forbidden: 403, NotFound: 404, Conflict: 409, Unavailable: 503}
log = logging.getLogger("hive.web")


class BodyError(Exception):
    """A request body that cannot be read, answered with ``status``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def status_of(err: GameError) -> int:
    """The HTTP status of a refusal."""
    return next(status for kind, status in STATUS.items() if isinstance(err, kind))


class App:
    """The server: the games, their AI, the pages and the sockets watching each game.

    :param db: the SQLite file (created if missing), or ``":memory:"``.
    :param workers: processes for the AI; ``0`` thinks in a thread instead (for tests).
    """

    def __init__(self, db: str | Path, *, workers: int = 1) -> None:
        self.storage = Storage(db)
        self.service = GameService(self.storage)
        self.ai = AIPlayer(self.service, self.broadcast, workers)
        self.service.loaded = self.ai.follow
        self.lobby = Lobby(self.service)
        #: The address and port the server listens on, once :func:`~hive.web.run.serve` knows them.
        self.listening: tuple[str | None, int | None] = (None, None)
        self.sockets: dict[str, dict[WebSocket, frozenset[int]]] = {}
        self.asgi = Starlette(
            routes=[
                Route("/", self.page),
                Route("/game/{id}", self.page),
                Route("/how-to-play/{kind}", self.how_to_play),
                Route("/api/assets", self.assets),
                Route("/api/games", self.api(self.games), methods=["GET"]),
                Route("/api/games", self.api(self.create), methods=["POST"]),
                Route("/api/games/{id}", self.api(self.get), methods=["GET"]),
                Route("/api/games/{id}", self.api(self.delete), methods=["DELETE"]),
                Route("/api/games/{id}/rematch", self.api(self.rematch), methods=["POST"]),
                Route("/api/games/{id}/position", self.api(self.position), methods=["GET"]),
                Route("/api/games/{id}/hint", self.api(self.hint), methods=["GET"]),
                Route("/api/games/{id}/{action}", self.api(self.action), methods=["POST"]),
                WebSocketRoute("/ws/games/{id}", self.websocket),
                Mount("/static", StaticFiles(directory=STATIC), name="static"),
            ],
            exception_handlers={HTTPException: self._http_error, Exception: self._crash},
            lifespan=self._lifespan,
        )

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.asgi(scope, receive, send)

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.ai.warm_up()
        yield
        await self.close()

    async def close(self) -> None:
        """Stop the AI and close the database."""
        self.ai.close()
        self.storage.close()

    # ------------------------------------------------------------------
    # plumbing

    def api(self, handler: Callable[[Request], Awaitable[JSON]]) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint answering ``handler``'s JSON, or ``{"error": ...}`` with the refusal's status."""

        async def endpoint(request: Request) -> Response:
            try:
                return JSONResponse(await handler(request))
            except BodyError as err:
                return JSONResponse({"error": str(err)}, status_code=err.status)
            except GameError as err:
                return JSONResponse({"error": str(err)}, status_code=status_of(err))

        return endpoint

    async def _http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse(
            {"error": f"{exc.detail}: {request.method} {request.url.path}"}, status_code=exc.status_code
        )

    async def _crash(self, request: Request, exc: Exception) -> Response:
        log.exception("unexpected error", exc_info=exc)
        return JSONResponse({"error": f"Internal error: {exc}"}, status_code=500)

    @staticmethod
    async def body(request: Request) -> JSON:
        """The request's JSON object (``{}`` for an empty body).

        :raises BodyError: when the body is too large, not JSON, or not an object.
        """
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise BodyError(413, f"The request body is too large ({len(raw)} bytes, at most {MAX_BODY}).")
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise BodyError(400, f"The request body is not valid JSON: {err}.") from None
        if not isinstance(data, dict):
            raise BodyError(400, f"The request body must be a JSON object, not {type(data).__name__}.")
        return data

    @staticmethod
    def _token(request: Request) -> str | None:
        return request.headers.get("x-seat-token") or None

    def _state(self, session: Session, token: str | None) -> JSON:
        return self.service.state(session, self.service.seats(session.record, token), self.present(session))

    def present(self, session: Session) -> tuple[bool, bool]:
        """Which seats have the game open now (a socket watching it with the seat's token)."""
        held = set().union(*self.sockets.get(session.record.id, {}).values())
        return 0 in held, 1 in held

    async def broadcast(self, session: Session) -> None:
        """Send the game's state to every socket watching it, each with its own seats."""
        session.version += 1
        sockets = self.sockets.get(session.record.id)
        if not sockets:
            return
        base = self.service.state(session, present=self.present(session))
        for ws, seats in list(sockets.items()):
            try:
                await ws.send_json({**base, "seats": sorted(seats)})
            except Exception:  # a closed socket: forget it
                sockets.pop(ws, None)

    # ------------------------------------------------------------------
    # pages

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def how_to_play(self, request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind not in kinds() or rules_page(kind) is None:
            raise HTTPException(404)
        return HTMLResponse(how_to_play_page(kind, spec_of(kind).title))

    async def assets(self, request: Request) -> Response:
        return JSONResponse({**self.service.assets(), "network": reach(*self.listening)})

    # ------------------------------------------------------------------
    # the API

    async def games(self, request: Request) -> JSON:
        return self.lobby.games()

    async def create(self, request: Request) -> JSON:
        session, game = self.service.create(await self.body(request))
        return self._started(session, game.token, game.invite)

    def _started(self, session: Session, token: str, invite: str | None) -> JSON:
        """A new game's answer: its id, the asker's token, the other seat's (online) and the state."""
        self.ai.follow(session)
        return {"id": session.record.id, "token": token, "invite": invite, "state": self._state(session, token)}

    async def delete(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        self.lobby.delete(session, self._token(request))
        self.ai.stop(session.record.id)
        sockets = self.sockets.pop(session.record.id, {})
        for ws in list(sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=4410, reason="The game was deleted.")
        return {"deleted": session.record.id}

    async def rematch(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        following, token = self.lobby.rematch(session, self._token(request))
        await self.broadcast(session)
        invite = following.record.tokens[1 - following.record.tokens.index(token)]
        return self._started(following, token, invite if following.record.mode == "online" else None)

    async def get(self, request: Request) -> JSON:
        return self._state(self.service.session(request.path_params["id"]), self._token(request))

    async def position(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        return self.service.position(session, request.query_params.get("ply", ""))

    async def hint(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        return await self.ai.hint(session, self._token(request), request.query_params.get("ply"))

    async def action(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        data = await self.body(request)
        token = self._token(request)
        answer = self.service.act(session, request.path_params["action"], token, data)
        if answer is not None:
            return answer
        self.ai.follow(session)
        await self.broadcast(session)
        return self._state(session, token)

    # ------------------------------------------------------------------
    # live updates

    async def websocket(self, ws: WebSocket) -> None:
        try:
            session = self.service.session(ws.path_params["id"])
        except GameError as err:
            await ws.close(code=4404, reason=str(err)[:120])
            return
        seats = self.service.seats(session.record, ws.query_params.get("token"))
        await ws.accept()
        watching = self.sockets.setdefault(session.record.id, {})
        watching[ws] = seats
        if seats:
            self.service.note_seats(session, seats)
        try:
            if seats:
                await self.broadcast(session)  # the opponent sees this seat connected
            else:
                await ws.send_json(self.service.state(session, seats, self.present(session)))
            while True:
                message = await ws.receive_text()
                if message == "ping":
                    await ws.send_text("pong")
        except WebSocketDisconnect:
            pass
        finally:
            watching.pop(ws, None)
            if seats:
                with contextlib.suppress(Exception):
                    await self.broadcast(session)


def create_app(db: str | Path, *, workers: int = 1) -> App:
    """Build the ASGI app over the database at ``db`` (see :class:`App`)."""
    return App(db, workers=workers)
