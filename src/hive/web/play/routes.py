"""A game in play's part of the JSON API, and its page and socket. The games themselves are
:class:`~hive.web.play.service.GameService`'s; this module reads requests and answers JSON. What follows a change (the
AI, the flags, the sockets watching the game) follows from the change's event, not from the request that made it.

- ``GET /api/games``: the stored games, in progress first, then finished (names, kind, result, dates); on a server
  with accounts only the asker's (see :meth:`PlayRoutes.games`), each with the ``seat`` the asker plays.
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
- ``GET /api/games/{id}/seat``: a signed-in player's seat and its token in a game from a seek or a challenge.
- ``GET /api/games/{id}/position?ply=N``: the position after the first N moves.
- ``POST /api/games/{id}/move`` (``move`` or the game's own fields, e.g. ``piece`` and ``to``; optional ``ply``),
  ``/undo``, ``/redo``, ``/resign``, ``/abort`` (a game between two players online before both sides moved: no
  winner, no rating; see :mod:`~hive.web.play.aborts`), ``/offer`` (``what``: ``draw`` or ``undo``), ``/answer``
  (``accept``), ``/name`` (``name``), ``/help`` (``help``: a casual game with engine help), ``/why`` (``piece``),
  ``/preview`` (HiveQueen: part of a turn, ``move``; answers the field after it and the productions that may
  follow).
- ``WS /ws/games/{id}?token=``: the game, sent again after every change (``ping`` answered ``pong``). A socket
  that cannot keep up is closed with code 4408 (reconnect to get the game as it stands). With ``chat=1`` it is
  also told of each message written in a room of the game's chat it may read (``{"type": "chat", "room", "id"}``;
  see :mod:`~hive.web.play.sockets`).

A position of the analysis board (``?line=`` on ``/position``, ``line`` in the body of ``/why`` and ``/preview``) is
the analysis' to answer (see :mod:`~hive.web.analysis.routes`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute

from ...sdk.view import JSON
from ..shared.endpoints import body, client, endpoint
from ..shared.errors import BadRequest
from ..shared.i18n import VARY, language, page_shell
from ..shared.model import GameRecord
from . import setup
from .actions import QUERIES, act
from .fanout import with_seats
from .game_list import GameList
from .presence import Watching
from .service import GameService
from .session import Session
from .showing import Facts
from .sockets import GameSocket

#: The page's shell, whose script shows a game, the editor, and every other page.
PAGE = Path(__file__).parent.parent / "static" / "index.html"
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


class Rates(Protocol):
    """The rates each client may ask for things at (the front door's, handed in)."""

    def charge(self, what: str, client: str) -> None:
        """Count one ``what`` for ``client``, or refuse it (:class:`~hive.web.shared.errors.TooMany`)."""


class _Account(Protocol):
    @property
    def id(self) -> str: ...


class _Signed(Protocol):
    @property
    def account(self) -> _Account: ...


class Identity(Protocol):
    """Who asks, on a server with accounts (the players' own, handed in): whether a request may be signed in, its
    signed-in session, and the seat that session stands for in a game."""

    def may_be_signed(self, request: Request) -> bool:
        """Whether the request may come from a signed-in player at all."""

    async def signed(self, request: Request) -> _Signed | None:
        """The request's signed-in session (``None``: none)."""

    def seat_token(self, request: Request, signed: Any, record: GameRecord) -> str | None:
        """The seat token the session ``signed`` stands for in the game of ``record`` (``None``: none)."""


class Lines(Protocol):
    """The analysis board's answers about a position of its lines (the analysis' own, handed in)."""

    async def position(self, session: Session, token: str | None, line: str | None, ply: str | None) -> JSON:
        """The position ``ply`` moves along ``line`` (``None``: the main line)."""

    async def query(self, session: Session, action: str, token: str | None, data: JSON) -> JSON | None:
        """The answer to a query (``why``, ``preview``) about a position of the lines (``None``: not one)."""


class Seats:
    """The seat token a request holds in a game: its ``X-Seat-Token`` header, or what its signed-in session stands
    for.

    :param service: the games.
    :param identity: who asks (``None``: a server without accounts).
    """

    def __init__(self, service: GameService, identity: Identity | None = None) -> None:
        self.service = service
        self.identity = identity

    async def of(self, request: Request, game_id: str) -> str | None:
        """The request's seat token in ``game_id``."""
        token = request.headers.get("x-seat-token") or None
        if token is None and self.identity is not None:
            token = await self.signed_seat(request, game_id)
        return token

    async def signed_seat(self, request: Request, game_id: str) -> str | None:
        """The seat token a signed-in player's session stands for in a game (``None``: no session, or not a player
        of it); a change made so carries the CSRF token.

        :raises Forbidden: for a change without the session's CSRF token.
        """
        if self.identity is None or not self.identity.may_be_signed(request):
            return None
        signed = await self.identity.signed(request)
        if signed is None:
            return None
        record = (self.service.sessions.get(game_id) or await self.service.session(game_id)).record
        return self.identity.seat_token(request, signed, record)

    async def held(self, request: Request) -> str | None:
        """:meth:`of` the game of the request's path."""
        return await self.of(request, request.path_params["id"])


class PlayRoutes:
    """The routes of the games in play.

    :param service: the games.
    :param game_list: the game list, rematches and deletions.
    :param watching: who is present at each game.
    :param socket: the game's WebSocket endpoint.
    :param rates: the clients' rates.
    :param identity: who asks, on a server with accounts (their sessions stand for seats).
    :param facts: what a game's state adds about its accounts.
    :param offer_rematch: the rematch of a finished game between accounts: an offer, or the game started.
    :param accounts: whether the server keeps accounts (``hive serve``): the game list is then the asker's own.
    :param lines: the analysis board, which answers about a position of its lines.
    :param shown_now: the state just sent to a game's sockets, when it was at the game's version a moment ago.
    :param json_depth: how deeply a request's JSON may nest.
    """

    def __init__(
        self,
        service: GameService,
        game_list: GameList,
        watching: Watching,
        socket: GameSocket,
        rates: Rates,
        *,
        identity: Identity | None = None,
        facts: Facts | None = None,
        offer_rematch: Callable[[Request], Awaitable[Any]] | None = None,
        accounts: bool = False,
        lines: Lines | None = None,
        shown_now: Callable[[Session], str | None] = lambda session: None,
        json_depth: int = 32,
    ) -> None:
        self.service = service
        self.game_list = game_list
        self.watching = watching
        self.socket = socket
        self.rates = rates
        self.identity = identity
        self.facts = facts
        self.offer_rematch = offer_rematch
        self.accounts = accounts
        self.lines = lines
        self.shown_now = shown_now
        self.json_depth = json_depth
        self.seats = Seats(service, identity)

    def routes(self) -> list[BaseRoute]:
        """The game page's routes, its JSON API's and its socket."""
        found: list[BaseRoute] = [
            Route("/game/{id}", self.page),
            Route("/editor", self.page),
            Route("/api/games", endpoint(self.games), methods=["GET"]),
            Route("/api/games", endpoint(self.create), methods=["POST"]),
            Route("/api/positions", endpoint(self.check_position), methods=["POST"]),
            Route("/api/games/{id}", endpoint(self.get), methods=["GET"]),
            Route("/api/games/{id}", endpoint(self.delete), methods=["DELETE"]),
            Route("/api/games/{id}/rematch", endpoint(self.rematch), methods=["POST"]),
            Route("/api/games/{id}/position", endpoint(self.position), methods=["GET"]),
            Route("/api/games/{id}/{action}", endpoint(self.action), methods=["POST"]),
            WebSocketRoute("/ws/games/{id}", self.socket.endpoint),
        ]
        return found

    async def body(self, request: Request) -> JSON:
        """The request's JSON object (see :func:`~hive.web.shared.endpoints.body`)."""
        return await body(request, self.json_depth)

    async def state(self, session: Session, token: str | None) -> JSON:
        """The game as the holder of ``token`` sees it."""
        present = await self.watching.present(session.record.id)
        state = self.service.state(session, self.service.seats(session.record, token), present)
        if self.facts is not None:
            state.update(await self.facts(session))
        return state

    async def started(self, session: Session, token: str, invite: str | None) -> JSON:
        """A new game's answer: its id, the asker's token, the other seat's (online) and the state."""
        return {"id": session.record.id, "token": token, "invite": invite, "state": await self.state(session, token)}

    async def page(self, request: Request) -> Response:
        """The page's shell in the asker's language (its script shows the game or the editor)."""
        return HTMLResponse(page_shell(language(request)), headers=VARY)

    async def games(self, request: Request) -> JSON:
        """The game list: under ``hive play`` every game; on a server with accounts the asker's own, those its
        session's account plays and those a seat of which a token in ``X-Seat-Tokens`` holds (the tokens this browser
        keeps, comma-separated). The live games anyone may watch are ``/api/live``'s."""
        if not self.accounts or self.identity is None:
            return await self.game_list.games()
        signed = await self.identity.signed(request)
        tokens = held_tokens(request.headers.get("x-seat-tokens", ""))
        return await self.game_list.games(account=signed.account.id if signed else None, tokens=tokens)

    async def create(self, request: Request) -> JSON:
        data = await self.body(request)
        self.rates.charge("games", client(request))
        session, game = await self.service.create(data, client(request))
        return {**await self.started(session, game.token, game.invite), "warnings": list(game.warnings)}

    async def check_position(self, request: Request) -> JSON:
        return setup.check(await self.body(request))

    async def get(self, request: Request) -> JSON:
        game_id = request.path_params["id"]
        await self.service.check_clock(game_id)
        session = await self.service.session(game_id)
        return await self.state(session, await self.seats.of(request, game_id))

    async def delete(self, request: Request) -> JSON:
        session = await self.game_list.delete(request.path_params["id"], await self.seats.held(request))
        return {"deleted": session.record.id}

    async def rematch(self, request: Request) -> JSON:
        game = await self.service.session(request.path_params["id"])
        if self.offer_rematch is not None and any(game.record.accounts):  # an offer the opponent accepts or declines
            answer: JSON = await self.offer_rematch(request)
            return answer
        _, following, token = await self.game_list.rematch(
            request.path_params["id"], await self.seats.held(request), client(request)
        )
        invite = following.record.tokens[1 - following.record.tokens.index(token)]
        return await self.started(following, token, invite if following.record.mode == "online" else None)

    async def position(self, request: Request) -> JSON:
        session = await self.service.session(request.path_params["id"])
        query = request.query_params
        if "line" in query and self.lines is not None:  # a position of the analysis board
            return await self.lines.position(
                session, await self.seats.held(request), query["line"] or None, query.get("ply")
            )
        return self.service.position(session, query.get("ply", ""))

    async def action(self, request: Request) -> JSON | Response:
        game_id, action = request.path_params["id"], request.path_params["action"]
        data = await self.body(request)
        token = await self.seats.of(request, game_id)
        if action in QUERIES and "line" in data and self.lines is not None:  # about a position of the analysis board
            analysed = await self.lines.query(await self.service.session(game_id), action, token, data)
            if analysed is not None:
                return analysed
        if action in AI_ACTIONS:
            known = self.service.sessions.get(game_id) or await self.service.session(game_id)
            if known.record.mode == "ai":  # a game's mode never changes: a copy in memory tells it
                self.rates.charge("ai", client(request))
        session, answer = await act(self.service, game_id, action, token, data, client(request))
        if answer is not None:
            return answer
        seats = self.service.seats(session.record, token)
        shown = self.shown_now(session)  # the state just sent to the game's sockets, when it was
        if shown is not None:
            return Response(with_seats(shown, seats), media_type="application/json")
        return await self.state(session, token)


__all__ = ["AI_ACTIONS", "PAGE", "Identity", "Lines", "PlayRoutes", "Rates", "Seats", "held_tokens"]
