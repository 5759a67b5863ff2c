"""The web app's HTTP side: a Starlette ASGI application serving the game page, a JSON API and live updates.

The games themselves are :class:`~hive.web.game.service.GameService`'s, the AI is
:class:`~hive.web.ai.player.AIPlayer`'s; this module reads requests, answers JSON, and sends each game's new state to
the WebSocket clients watching it once the change is stored.

API (JSON; errors are ``{"error": message}`` with a 4xx status):

- ``GET /api/games``: the stored games, in progress first, then finished (names, kind, result, dates).
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
  that cannot keep up is closed with code 4408 (reconnect to get the game as it stands).

Every request passes :class:`~hive.web.http.guard.Guard` first (allowed hosts and origins, JSON bodies within the size
limit, security headers); new games, hints and moves asking the AI are counted per client
(:class:`~hive.web.http.limits.RateLimits`), and a refusal over a limit is a 429 with a message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ..ai.player import AIPlayer
from ..ai.review import Reviews
from ..errors import BadRequest, Conflict, Forbidden, GameError, NotFound, TooMany, Unavailable
from ..game import setup as positions
from ..game.analysis import Analysis
from ..game.lobby import Lobby
from ..game.service import GameService, Session
from ..realtime.fanout import Fanout, Watcher
from ..realtime.flags import Flags
from ..settings import Settings
from ..storage.games import Storage
from ..storage.lines import LineStore
from ..storage.reviews import ReviewStore
from ..views import JSON, kinds, rules_page, spec_of
from .guard import Guard, Refused, parse_json
from .limits import RateLimits
from .network import reach
from .pages import how_to_play_page

STATIC = Path(__file__).parent.parent / "static"
#: The status code of each kind of refusal.
STATUS: dict[type[GameError], int] = {
    BadRequest: 400,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    TooMany: 429,
    Unavailable: 503,
}
#: The close code of a socket that sent a binary frame (the game speaks JSON text).
UNSUPPORTED = 1003
#: Actions after which the AI may be due to move, counted against the client's AI rate.
AI_ACTIONS = ("move", "undo", "redo")
log = logging.getLogger("hive.web")


def status_of(err: GameError) -> int:
    """The HTTP status of a refusal."""
    return next(status for kind, status in STATUS.items() if isinstance(err, kind))


class App:
    """The server: the games, their AI, the pages and the sockets watching each game.

    :param db: the SQLite file (created if missing), or ``":memory:"``.
    :param workers: processes for the AI; ``0`` thinks in a thread instead (for tests).
    :param settings: the limits and who may reach the server (by default :class:`~hive.web.settings.Settings`'s).
    :raises ~hive.web.storage.database.DatabaseError: when the database cannot be used (damaged, read-only, in use).
    """

    def __init__(self, db: str | Path, *, workers: int = 1, settings: Settings | None = None) -> None:
        self.settings = settings = settings or Settings()
        self.storage = Storage(db, exclusive=True)
        self.service = GameService(self.storage, settings.live_games)
        self.ai = AIPlayer(self.service, self.broadcast, workers, settings)
        self.service.loaded = self.ai.follow
        self.lobby = Lobby(self.service)
        self.reviews = Reviews(self.service, self.ai.jobs, ReviewStore(self.storage.db))
        self.analysis = Analysis(self.service, LineStore(self.storage), self.ai)
        self.flags = Flags(self.service, self._flagged)
        self._stopped = False
        self.rates = RateLimits(settings)
        self.fanout = Fanout(settings.send_queue, settings.send_timeout)
        self.service.sessions.in_use = lambda game_id: self.fanout.watched(game_id) or self.ai.busy(game_id)
        #: The address and port the server listens on, once :func:`~hive.web.http.run.serve` knows them.
        self.listening: tuple[str | None, int | None] = (None, None)
        self.asgi = Starlette(
            routes=[
                Route("/", self.page),
                Route("/game/{id}", self.page),
                Route("/editor", self.page),
                Route("/how-to-play/{kind}", self.how_to_play),
                Route("/api/assets", self.assets),
                Route("/api/games", self.api(self.games), methods=["GET"]),
                Route("/api/games", self.api(self.create), methods=["POST"]),
                Route("/api/positions", self.api(self.check_position), methods=["POST"]),
                Route("/api/games/{id}", self.api(self.get), methods=["GET"]),
                Route("/api/games/{id}", self.api(self.delete), methods=["DELETE"]),
                Route("/api/games/{id}/rematch", self.api(self.rematch), methods=["POST"]),
                Route("/api/games/{id}/position", self.api(self.position), methods=["GET"]),
                Route("/api/games/{id}/hint", self.api(self.hint), methods=["GET"]),
                Route("/api/games/{id}/review", self.api(self.review), methods=["GET", "POST"]),
                Route("/api/games/{id}/lines", self.api(self.lines), methods=["GET"]),
                Route("/api/games/{id}/lines", self.api(self.explore), methods=["POST"]),
                Route("/api/games/{id}/lines/{line}", self.api(self.unexplore), methods=["DELETE"]),
                Route("/api/games/{id}/{action}", self.api(self.action), methods=["POST"]),
                WebSocketRoute("/ws/games/{id}", self.websocket),
                Mount("/static", StaticFiles(directory=STATIC), name="static"),
            ],
            exception_handlers={HTTPException: self._http_error, Exception: self._crash},
            lifespan=self._lifespan,
        )
        self.guarded = Guard(self.asgi, settings)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.guarded(scope, receive, send)

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.ai.warm_up()
        self.flags.start()
        yield
        await self.close()

    async def close(self) -> None:
        """Stop the AI and close the database."""
        self.stop()

    def stop(self) -> None:
        """Stop the AI (its workers too, even in the middle of a search), hold the clocks and close the database;
        done once."""
        if self._stopped:
            return
        self._stopped = True
        try:
            self.flags.stop()
        except sqlite3.Error:
            log.exception("the clocks could not be held")
        self.reviews.close()
        self.ai.close()
        self.storage.close()

    # ------------------------------------------------------------------
    # plumbing

    def api(self, handler: Callable[[Request], Awaitable[JSON]]) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint answering ``handler``'s JSON, or ``{"error": ...}`` with the refusal's status."""

        async def endpoint(request: Request) -> Response:
            try:
                return JSONResponse(await handler(request))
            except Refused as err:
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

    async def body(self, request: Request) -> JSON:
        """The request's JSON object (``{}`` for an empty body), its size checked by the guard already.

        :raises Refused: when the body is not JSON, nests too deeply, or is not an object.
        """
        return parse_json(await request.body(), self.settings.json_depth)

    @staticmethod
    def client(request: Request | WebSocket) -> str:
        """Who asks, for the rate limits: the client's address."""
        return request.client.host if request.client else "unknown"

    @staticmethod
    def _token(request: Request) -> str | None:
        return request.headers.get("x-seat-token") or None

    def _state(self, session: Session, token: str | None) -> JSON:
        return self.service.state(session, self.service.seats(session.record, token), self.present(session))

    def present(self, session: Session) -> tuple[bool, bool]:
        """Which seats have the game open now (a socket watching it with the seat's token)."""
        return self.fanout.present(session.record.id)

    async def broadcast(self, session: Session) -> None:
        """Queue the game's state for every socket watching it, each with its own seats; never waits on one. The
        game's flag timer is set for its running clock (every change is broadcast)."""
        session.version += 1
        self.flags.follow(session)
        if not self.fanout.watched(session.record.id):
            return
        base = self.service.state(session, present=self.present(session))
        texts: dict[frozenset[int], str] = {}

        def text(seats: frozenset[int]) -> str:
            if seats not in texts:
                texts[seats] = _dumps({**base, "seats": sorted(seats)})
            return texts[seats]

        self.fanout.publish(session.record.id, text)

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
        data = await self.body(request)
        self.rates.charge("games", self.client(request))
        session, game = self.service.create(data)
        return self._started(session, game.token, game.invite)

    def _started(self, session: Session, token: str, invite: str | None) -> JSON:
        """A new game's answer: its id, the asker's token, the other seat's (online) and the state."""
        self.ai.follow(session)
        self.flags.follow(session)
        return {"id": session.record.id, "token": token, "invite": invite, "state": self._state(session, token)}

    async def check_position(self, request: Request) -> JSON:
        return positions.check(await self.body(request))

    async def delete(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        self.lobby.delete(session, self._token(request))
        self.ai.stop(session.record.id)
        self.reviews.stop(session.record.id)
        self.fanout.close(session.record.id, 4410, "The game was deleted.")
        return {"deleted": session.record.id}

    async def rematch(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        following, token = self.lobby.rematch(session, self._token(request))
        await self.broadcast(session)
        invite = following.record.tokens[1 - following.record.tokens.index(token)]
        return self._started(following, token, invite if following.record.mode == "online" else None)

    async def get(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        if self.service.check_clock(session):
            await self._flagged(session)
        return self._state(session, self._token(request))

    async def _flagged(self, session: Session) -> None:
        """A game whose flag has fallen: its AI stops, its watchers hear."""
        self.ai.follow(session)
        await self.broadcast(session)

    async def position(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        if "line" in request.query_params:  # a position of the analysis board
            query = request.query_params
            return self.analysis.position(session, self._token(request), query["line"] or None, query.get("ply"))
        return self.service.position(session, request.query_params.get("ply", ""))

    async def review(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        if request.method == "GET":
            return self.reviews.report(session, self._token(request))
        self.rates.charge("hints", self.client(request))
        return self.reviews.start(session, self._token(request), await self.body(request))

    async def hint(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        self.rates.charge("hints", self.client(request))
        if "line" in request.query_params:
            query = request.query_params
            return await self.analysis.hint(session, self._token(request), query["line"] or None, query.get("ply"))
        return await self.ai.hint(session, self._token(request), request.query_params.get("ply"))

    async def lines(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        return self.analysis.listing(session, self._token(request))

    async def explore(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        return self.analysis.play(session, self._token(request), await self.body(request))

    async def unexplore(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        return self.analysis.delete(session, self._token(request), request.path_params["line"])

    async def action(self, request: Request) -> JSON:
        session = self.service.session(request.path_params["id"])
        data = await self.body(request)
        token = self._token(request)
        analysed = self.analysis.query(session, request.path_params["action"], token, data)
        if analysed is not None:
            return analysed
        if self.service.check_clock(session):
            await self._flagged(session)
        if session.record.mode == "ai" and request.path_params["action"] in AI_ACTIONS:
            self.rates.charge("ai", self.client(request))
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
        game_id = session.record.id
        watcher = self.fanout.add(game_id, ws, seats)
        if seats:
            self.service.note_seats(session, seats)
            await self.broadcast(session)  # the opponent sees this seat connected
        else:
            self.fanout.send(game_id, watcher, _dumps(self.service.state(session, seats, self.present(session))))
        reading = asyncio.ensure_future(self._read(ws, game_id, watcher))
        dropped = asyncio.ensure_future(watcher.dropped.wait())
        try:
            await asyncio.wait({reading, dropped}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            reading.cancel()
            dropped.cancel()
            self.fanout.remove(game_id, ws)
        if watcher.dropped.is_set():
            await self.fanout.closing(watcher)
        if seats:
            await self.broadcast(self.service.sessions.get(game_id) or session)

    async def _read(self, ws: WebSocket, game_id: str, watcher: Watcher) -> None:
        """Answer a socket's pings until it closes; a binary frame closes it with a reason."""
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            if message.get("text") == "ping":
                self.fanout.send(game_id, watcher, "pong")
            elif message.get("bytes") is not None:
                watcher.drop(UNSUPPORTED, "Binary frames are not understood: send text ('ping').")
                return


def _dumps(data: JSON) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def create_app(db: str | Path, *, workers: int = 1, settings: Settings | None = None) -> App:
    """Build the ASGI app over the database at ``db`` (see :class:`App`)."""
    return App(db, workers=workers, settings=settings)
