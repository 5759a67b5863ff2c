"""The web app: a Starlette ASGI application serving the game page, a JSON API and live updates.

Every change to a game is stored in SQLite (one transaction) before it is answered or broadcast to
the WebSocket clients watching that game. The AI thinks in worker processes, so the event loop stays
free while it does.

API (JSON; errors are ``{"error": message}`` with a 4xx status):

- ``POST /api/games`` create (``kind``, ``mode`` ``ai``/``local``/``online``, ``options``, ``colour``,
  ``ai_level``, ``game_string``): returns the game, your seat token and, online, the invitation token.
- ``GET /api/games/{id}``: the game as seen with the ``X-Seat-Token`` header (or as a spectator).
- ``GET /api/games/{id}/position?ply=N``: the position after the first N moves.
- ``POST /api/games/{id}/move`` (``move`` or ``piece`` and ``to``, optional ``ply``), ``/undo``, ``/redo``,
  ``/resign``, ``/offer`` (``what``: ``draw`` or ``undo``), ``/answer`` (``accept``), ``/why`` (``piece``),
  ``/preview`` (HiveQueen: part of a turn, ``move``; answers the field after it and the productions that may follow).
- ``GET /how-to-play/hivequeen``: the rules of HiveQueen as a page.
- ``GET /api/games/{id}/hint``: the AI's suggestion and an evaluation.
- ``WS /ws/games/{id}?token=``: the game, sent again after every change.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import multiprocessing
import secrets
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..svg import GLYPHS, THEMES
from .games import AI_LEVELS, JSON, BadRequest, GameKind, analyse, choose_move, kind_of, random_seed
from .pages import how_to_play_page
from .storage import GameRecord, StaleError, Storage

STATIC = Path(__file__).parent / "static"
MODES = ("ai", "local", "online")
#: The colour a new game's creator asks for, by either game's names: the first player's seat or the second's.
SEATS = {"white": 0, "black": 1, "south": 0, "north": 1}
MAX_BODY = 64 * 1024
log = logging.getLogger("hive.web")


class ApiError(Exception):
    """An error answered with ``status`` and ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Session:
    """A game in memory: its stored record, the live position, and who is watching."""

    record: GameRecord
    kind: GameKind
    game: Any
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sockets: dict[WebSocket, frozenset[int]] = field(default_factory=dict)
    thinking: bool = False
    ai_task: asyncio.Task[None] | None = None
    ai_error: str | None = None
    version: int = 0


class App:
    """The server's state: the database, the games in memory and the AI's workers.

    :param db: the SQLite file (created if missing), or ``":memory:"``.
    :param workers: processes for the AI; ``0`` thinks in a thread instead (for tests).
    """

    def __init__(self, db: str | Path, *, workers: int = 1) -> None:
        self.storage = Storage(db)
        self.sessions: dict[str, Session] = {}
        self.boot = secrets.token_hex(4)  # with a session's version, lets clients drop a late, older state
        self.workers = workers
        self._executor: Executor | None = None
        self.asgi = Starlette(
            routes=[
                Route("/", self.page),
                Route("/game/{id}", self.page),
                Route("/how-to-play/hivequeen", self.how_to_play),
                Route("/api/assets", self.assets),
                Route("/api/games", self.api(self.create), methods=["POST"]),
                Route("/api/games/{id}", self.api(self.get), methods=["GET"]),
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
        if self.executor is not None:
            self.executor.submit(int)  # start the AI's worker now rather than at its first move
        yield
        await self.close()

    async def close(self) -> None:
        """Stop the AI's tasks and workers and close the database."""
        for session in self.sessions.values():
            if session.ai_task is not None:
                session.ai_task.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        self.storage.close()

    @property
    def executor(self) -> Executor | None:
        if self._executor is None and self.workers > 0:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    # ------------------------------------------------------------------
    # plumbing

    def api(self, handler: Callable[[Request], Awaitable[JSON]]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                return JSONResponse(await handler(request))
            except ApiError as err:
                return JSONResponse({"error": err.message}, status_code=err.status)
            except BadRequest as err:
                return JSONResponse({"error": str(err)}, status_code=400)
            except StaleError as err:
                return JSONResponse({"error": str(err)}, status_code=409)
            except sqlite3.Error as err:
                log.exception("database error")
                return JSONResponse({"error": f"The game could not be saved: {err}"}, status_code=503)

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
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise ApiError(413, f"The request body is too large ({len(raw)} bytes, at most {MAX_BODY}).")
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise ApiError(400, f"The request body is not valid JSON: {err}.") from None
        if not isinstance(data, dict):
            raise ApiError(400, f"The request body must be a JSON object, not {type(data).__name__}.")
        return data

    def session(self, game_id: str) -> Session:
        session = self.sessions.get(game_id)
        if session is not None:
            return session
        record = self.storage.load(game_id) if len(game_id) <= 64 else None
        if record is None:
            raise ApiError(404, f"There is no game {game_id!r}.")
        kind = kind_of(record.kind)
        session = Session(record, kind, kind.replay(record.options, record.moves))
        self.sessions[game_id] = session
        self._schedule_ai(session)
        return session

    @staticmethod
    def seats(record: GameRecord, token: str | None) -> frozenset[int]:
        """The seats a token holds: none (a spectator), one, or both (two players on one screen)."""
        if not token:
            return frozenset()
        return frozenset(
            seat for seat, own in enumerate(record.tokens) if own and hmac.compare_digest(own.encode(), token.encode())
        )

    def over(self, session: Session) -> bool:
        return session.record.result is not None

    def state(self, session: Session, seats: frozenset[int] = frozenset()) -> JSON:
        record = session.record
        view = session.kind.view(session.game)
        if self.over(session):
            view["legal"], view["pass"] = {}, False
        return {
            "id": record.id,
            "kind": record.kind,
            "mode": record.mode,
            "options": record.options,
            "ai": {"level": record.ai_level, "seat": record.ai_seat} if record.mode == "ai" else None,
            "moves": record.moves,
            "redo": len(record.redo),
            "result": record.result,
            "reason": record.reason,
            "offer": record.offer,
            "thinking": session.thinking,
            "ai_error": session.ai_error,
            "seats": sorted(seats),
            "game_string": session.kind.export(session.game),
            "view": view,
            "version": [self.boot, session.version],
        }

    async def broadcast(self, session: Session) -> None:
        session.version += 1
        if not session.sockets:
            return
        base = self.state(session)
        for ws, seats in list(session.sockets.items()):
            try:
                await ws.send_json({**base, "seats": sorted(seats)})
            except Exception:  # a closed socket: forget it
                session.sockets.pop(ws, None)

    def commit(self, session: Session, moves: list[str], redo: list[str], **changes: Any) -> None:
        """Store the new state of a game, then bring the live position in line with it."""
        record = session.record
        before = len(record.moves)
        updated = GameRecord(**{**record.__dict__, "moves": moves, "redo": redo, **changes})
        self.storage.save(updated, before)
        common = 0
        while common < min(before, len(moves)) and record.moves[common] == moves[common]:
            common += 1
        for _ in range(before - common):
            session.kind.undo(session.game)
        for move in moves[common:]:
            session.kind.push(session.game, move)
        session.record = updated

    # ------------------------------------------------------------------
    # pages

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def how_to_play(self, request: Request) -> Response:
        return HTMLResponse(how_to_play_page())

    async def assets(self, request: Request) -> Response:
        return JSONResponse(
            {
                "glyphs": GLYPHS,
                "themes": {name: theme.__dict__ for name, theme in THEMES.items()},
                "levels": list(AI_LEVELS),
            }
        )

    # ------------------------------------------------------------------
    # the API

    async def create(self, request: Request) -> JSON:
        data = await self.body(request)
        kind = kind_of(data.get("kind", "hive"))
        mode = data.get("mode", "ai")
        if mode not in MODES:
            raise BadRequest(f"Unknown mode {mode!r}: expected one of {', '.join(MODES)}.")
        raw_options = data.get("options", {})
        if not isinstance(raw_options, dict):
            raise BadRequest(f"'options' must be an object, not {raw_options!r}.")
        options = kind.options(raw_options)
        colour = data.get("colour", "white")
        if colour != "random" and (not isinstance(colour, str) or colour not in SEATS):
            raise BadRequest(f"Unknown colour {colour!r}: expected {', '.join(SEATS)} or random.")
        seat = secrets.randbelow(2) if colour == "random" else SEATS[colour]
        level = data.get("ai_level", "easy")
        if mode == "ai" and level not in AI_LEVELS:
            raise BadRequest(f"Unknown AI level {level!r}: expected one of {', '.join(AI_LEVELS)}.")
        moves: list[str] = []
        game_string = data.get("game_string")
        if game_string is not None:
            if not isinstance(game_string, str) or not game_string.strip():
                raise BadRequest("'game_string' must be a GameString such as 'Base;InProgress;White[1]'.")
            options, moves = kind.import_game(game_string, options)
        token = secrets.token_urlsafe(16)
        other = secrets.token_urlsafe(16)
        if mode == "local":
            tokens: tuple[str | None, str | None] = (token, token)
        elif mode == "ai":
            tokens = (token, None) if seat == 0 else (None, token)
        else:
            tokens = (token, other) if seat == 0 else (other, token)
        record = GameRecord(
            id=secrets.token_urlsafe(6),
            kind=kind.name,
            options=options,
            mode=mode,
            ai_level=level if mode == "ai" else None,
            ai_seat=1 - seat if mode == "ai" else None,
            tokens=tokens,
            moves=moves,
        )
        game = kind.replay(options, moves)
        outcome = kind.outcome(game)
        if outcome is not None:
            record.result, record.reason = outcome
        self.storage.create(record)
        session = Session(record, kind, game)
        self.sessions[record.id] = session
        self._schedule_ai(session)
        seats = self.seats(record, token)
        return {
            "id": record.id,
            "token": token,
            "invite": other if mode == "online" else None,
            "state": self.state(session, seats),
        }

    def _token(self, request: Request) -> str | None:
        return request.headers.get("x-seat-token") or None

    async def get(self, request: Request) -> JSON:
        session = self.session(request.path_params["id"])
        return self.state(session, self.seats(session.record, self._token(request)))

    async def position(self, request: Request) -> JSON:
        session = self.session(request.path_params["id"])
        text = request.query_params.get("ply", "")
        if not text.isdigit() or int(text) > len(session.record.moves):
            raise BadRequest(f"'ply' must be a number from 0 to {len(session.record.moves)}, not {text!r}.")
        ply = int(text)
        game = session.kind.replay(session.record.options, session.record.moves[:ply])
        return {"ply": ply, "view": session.kind.view(game)}

    async def hint(self, request: Request) -> JSON:
        session = self.session(request.path_params["id"])
        record = session.record
        if self.over(session):
            raise ApiError(409, "The game is over: there is nothing to suggest.")
        job = (record.kind, record.options, list(record.moves))
        result: JSON = await asyncio.get_running_loop().run_in_executor(self.executor, analyse, *job)
        if record.moves != job[2]:
            raise ApiError(409, "The game moved on while the AI was thinking; ask again.")
        return result

    async def action(self, request: Request) -> JSON:
        session = self.session(request.path_params["id"])
        action = request.path_params["action"]
        handlers: dict[str, Callable[[Session, frozenset[int], JSON], None]] = {
            "move": self._move,
            "undo": self._undo,
            "redo": self._redo,
            "resign": self._resign,
            "offer": self._offer,
            "answer": self._answer,
        }
        data = await self.body(request)
        seats = self.seats(session.record, self._token(request))
        if action == "why":
            piece = data.get("piece")
            if not isinstance(piece, str):
                raise BadRequest(f"'piece' must be a piece name such as 'wQ', not {piece!r}.")
            return {"piece": piece, "reason": session.kind.why(session.game, piece)}
        if action == "preview":
            if self.over(session):
                raise ApiError(409, "The game is over.")
            return session.kind.preview(session.game, data)
        if action not in handlers:
            raise ApiError(404, f"Unknown action {action!r}: expected one of {', '.join(handlers)}, why, preview.")
        if not seats:
            token = self._token(request)
            raise ApiError(403, "This seat token does not belong to this game." if token else "A seat token is needed.")
        async with session.lock:
            handlers[action](session, seats, data)
        self._schedule_ai(session)
        await self.broadcast(session)
        return self.state(session, seats)

    def _check_ply(self, session: Session, data: JSON) -> None:
        ply = data.get("ply")
        if ply is None:
            return
        if not isinstance(ply, int) or isinstance(ply, bool):
            raise BadRequest(f"'ply' must be a number, not {ply!r}.")
        if ply != len(session.record.moves):
            raise ApiError(409, f"The game has moved on: {len(session.record.moves)} moves played, not {ply}.")

    def _move(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        self._check_ply(session, data)
        if self.over(session):
            raise ApiError(409, "The game is over.")
        turn = session.kind.turn(session.game)
        if turn not in seats:
            raise ApiError(409, f"It's {session.kind.sides[turn]}'s turn, not yours.")
        if session.thinking:
            raise ApiError(409, "The AI is thinking.")
        self._play(session, lambda: session.kind.play(session.game, data))

    def _play(self, session: Session, choose: Callable[[], str]) -> None:
        text = choose()  # plays it on the live position
        outcome = session.kind.outcome(session.game)
        session.kind.undo(session.game)
        result, reason = outcome if outcome else (None, None)
        self.commit(session, [*session.record.moves, text], [], result=result, reason=reason, offer=None)

    def _takeback(self, session: Session, seat: int) -> int:
        """How many moves to take back so that ``seat`` plays its last move again."""
        moves = session.record.moves
        for n in range(1, len(moves) + 1):
            if (len(moves) - n) % 2 == seat:
                return n
        raise ApiError(409, "Nothing to undo yet.")

    def _undo(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        record = session.record
        if record.mode == "online":
            self._offer(session, seats, {"what": "undo"})
            return
        if not record.moves:
            raise ApiError(409, "Nothing to undo yet.")
        if record.mode == "local":
            n = 1
        else:
            assert record.ai_seat is not None
            n = self._takeback(session, 1 - record.ai_seat)
        self._stop_ai(session)
        self._apply_undo(session, n)

    def _apply_undo(self, session: Session, n: int) -> None:
        record = session.record
        keep = len(record.moves) - n
        self.commit(
            session, record.moves[:keep], record.moves[keep:] + record.redo, result=None, reason=None, offer=None
        )

    def _redo(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        record = session.record
        if record.mode == "online":
            raise ApiError(409, "Redo is for games on one screen or against the AI.")
        if not record.redo:
            raise ApiError(409, "Nothing to redo.")
        if self.over(session):
            raise ApiError(409, "The game is over.")
        n = 1
        if record.mode == "ai":
            n = 1 if (len(record.moves) + 1) % 2 != record.ai_seat else min(2, len(record.redo))
        moves, redo = record.moves + record.redo[:n], record.redo[n:]
        game = session.kind.replay(record.options, moves)
        outcome = session.kind.outcome(game)
        result, reason = outcome if outcome else (None, None)
        self._stop_ai(session)
        self.commit(session, moves, redo, result=result, reason=reason, offer=None)

    def _resign(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        if self.over(session):
            raise ApiError(409, "The game is over.")
        seat = session.kind.turn(session.game) if len(seats) == 2 else next(iter(seats))
        self._stop_ai(session)
        record = session.record
        self.commit(
            session,
            record.moves,
            record.redo,
            result=f"{session.kind.sides[1 - seat]}Wins",
            reason=f"{session.kind.sides[seat]} resigned",
            offer=None,
        )

    def _offer(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        what = data.get("what")
        if what not in ("draw", "undo"):
            raise BadRequest(f"'what' must be 'draw' or 'undo', not {what!r}.")
        record = session.record
        if what == "draw" and self.over(session):
            raise ApiError(409, "The game is over.")
        if record.mode == "ai":
            if what == "draw":
                raise ApiError(409, "The AI plays on: it does not agree to draws.")
            self._undo(session, seats, {})
            return
        if record.mode == "local":
            self._agree(session, what, session.kind.turn(session.game))
            return
        seat = next(iter(seats))
        if what == "undo":
            self._takeback(session, seat)  # raises when there is nothing to undo
        if record.offer and record.offer["what"] == what and record.offer["by"] != seat:
            self._agree(session, what, record.offer["by"])
            return
        self.commit(session, record.moves, record.redo, offer={"what": what, "by": seat})

    def _answer(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        accept = data.get("accept")
        if not isinstance(accept, bool):
            raise BadRequest(f"'accept' must be true or false, not {accept!r}.")
        record = session.record
        offer = record.offer
        if not offer or (offer["by"] in seats and len(seats) == 1):
            raise ApiError(409, "There is no offer from your opponent to answer.")
        if accept:
            self._agree(session, offer["what"], offer["by"])
        else:
            self.commit(session, record.moves, record.redo, offer=None)

    def _agree(self, session: Session, what: str, by: int) -> None:
        record = session.record
        if what == "draw":
            self.commit(session, record.moves, record.redo, result="Draw", reason="the players agreed", offer=None)
        else:
            self._apply_undo(session, self._takeback(session, by))

    # ------------------------------------------------------------------
    # the AI

    def _ai_to_move(self, session: Session) -> bool:
        record = session.record
        return record.mode == "ai" and not self.over(session) and session.kind.turn(session.game) == record.ai_seat

    def _schedule_ai(self, session: Session) -> None:
        if self._ai_to_move(session) and (session.ai_task is None or session.ai_task.done()):
            session.thinking = True
            session.ai_error = None
            session.ai_task = asyncio.get_running_loop().create_task(self._ai_turn(session))

    def _stop_ai(self, session: Session) -> None:
        if session.ai_task is not None and not session.ai_task.done():
            session.ai_task.cancel()
        session.ai_task = None
        session.thinking = False

    async def _ai_turn(self, session: Session) -> None:
        record = session.record
        moves = list(record.moves)
        await self.broadcast(session)
        try:
            assert record.ai_level is not None
            job = (record.kind, record.options, moves, record.ai_level, random_seed())
            text = await asyncio.get_running_loop().run_in_executor(self.executor, choose_move, *job)
            async with session.lock:
                if session.record.moves != moves or not self._ai_to_move(session):
                    return  # taken back or resigned meanwhile
                session.thinking = False
                self._play(session, lambda: session.kind.play(session.game, {"move": text}))
        except asyncio.CancelledError:
            raise
        except Exception as err:
            log.exception("the AI failed")
            session.ai_error = f"The AI could not move: {err}"
        finally:
            if session.ai_task is asyncio.current_task():
                session.thinking = False
        await self.broadcast(session)

    # ------------------------------------------------------------------
    # live updates

    async def websocket(self, ws: WebSocket) -> None:
        try:
            session = self.session(ws.path_params["id"])
        except ApiError as err:
            await ws.close(code=4404, reason=err.message[:120])
            return
        seats = self.seats(session.record, ws.query_params.get("token"))
        await ws.accept()
        session.sockets[ws] = seats
        try:
            await ws.send_json(self.state(session, seats))
            while True:
                message = await ws.receive_text()
                if message == "ping":
                    await ws.send_text("pong")
        except WebSocketDisconnect:
            pass
        finally:
            session.sockets.pop(ws, None)


def create_app(db: str | Path, *, workers: int = 1) -> App:
    """Build the ASGI app over the database at ``db`` (see :class:`App`)."""
    return App(db, workers=workers)
