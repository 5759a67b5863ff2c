"""The accounts' API (``hive serve``; a server without accounts answers 404):

- ``POST /api/accounts`` (``name``, ``password``): make an account and sign it in; 201 with ``name``, ``admin`` and
  ``csrf``, and the session's cookie.
- ``POST /api/session`` (``name``, ``password``): sign in: a new session, its cookie, and ``csrf`` (and a device
  cookie, :data:`DEVICE`, for a browser that has none). A wrong name and a wrong password are both ``401 Wrong name
  or password.``; a password over 256 characters, 400; too many attempts (counted before the password is checked:
  for the name from the address or browser, from the address, or for the name from places that never signed it in),
  429 (see :mod:`hive.web.accounts.throttle`).
- ``GET /api/session``: who is signed in (``name``, ``admin``, ``csrf``), or ``{"name": null}``.
- ``DELETE /api/session``: sign out. ``POST /api/session/password`` (``old``, ``new``): a new password; every other
  session ends and every API token is revoked, and the answer carries the new session's cookie and ``csrf``.
- ``GET /api/games/{id}/seat``: the signed-in player's ``seat`` and its ``token`` in a game from a seek.
- ``GET /api/players/{name}``: what anyone may see of an account, with its ``ratings`` by game and speed (each
  ``rating``, ``deviation``, ``provisional``, ``more``: about how many more rated games establish it, ``games``,
  ``wins``, ``draws``, ``losses``).
- Chat: ``GET /api/games/{id}/chat?room=players|spectators`` and ``POST`` (``room``, ``text``): the players' room
  (the two players') and the spectators' room (which the players read once the game is over); ``POST
  /api/account/block`` and ``/unblock`` (``name``); ``GET``/``POST /api/tournaments/{id}/chat`` (``text``): a
  tournament's room, its organiser's and players'; a blocked account's messages are hidden from the blocker, and
  its challenges refused; ``POST /api/chat/{id}/report`` reports a message to the admins, who list them with ``GET
  /api/admin/reports``.
- Profiles: ``GET /api/players/{name}/games`` (``?opponent=&result=win|draw|loss|ongoing&game=&speed=``: the
  player's games with the W/D/L they add up to, so head-to-head with ``opponent``), ``GET
  /api/players/{name}/records`` (those finished, as one file of records); the profile's ``history`` (the rating
  after each rated game, by game and speed); ``GET /api/account/turns`` (the signed-in player's games where it is
  their turn); ``GET /api/leaderboard?game=&speed=`` (the best established ratings, how many rated games a rating needs
  to be established, and the asker's own count there); ``GET /api/live`` (the games
  in progress between accounts, strongest first, to watch); ``GET /api/online`` (who is online: the accounts seen in
  the last 5 minutes, most recent first, at most 100: each one's ``name``, ``bot`` and ``seen``).
- The lobby's seeks: ``GET /api/seeks`` (the open ones, newest first); ``POST /api/seeks`` (``game``: a name such
  as ``Base+MLP`` or ``HiveQueen``, or ``kind`` and ``options`` as for a new game; ``time_control`` as for a new
  game, which a rated seek needs; ``rated``, default true; ``colour``, the seeker's side or ``random``;
  ``rating_range``, ``[low, high]``); ``GET /api/seeks/{id}`` (its ``game_id`` once accepted);
  ``POST /api/seeks/{id}/accept`` (the game starts: answers its ``id``, the accepting player's seat ``token`` and its
  ``state``); ``DELETE /api/seeks/{id}`` (the seeker's own). A seek or challenge (but a correspondence one) ends by
  itself when its seeker has had no page (lobby socket) or bot stream open for ``--seek-grace`` seconds, signs out,
  or starts another game from a seek or a challenge; it is announced as cancelled (withdrawn) with ``why``. A game
  from a seek is played with the game API as any other, the session's cookie standing for the seat's token (its
  changes carrying the CSRF token). A rated game that ends after both players moved moves both ratings (Glicko-2), in
  the transaction that stores its end; one aborted before (``POST /api/games/{id}/abort``) moves none.
- An admin's: ``POST /api/admin/accounts/{name}/password`` (answers a new random ``password`` to pass on),
  ``POST /api/admin/accounts/{name}/ban`` (``banned``: true or false), ``DELETE /api/admin/accounts/{name}``.

- Challenges: ``POST /api/challenges`` (``to``: a player's name, and a seek's fields), ``GET /api/challenges``
  (``incoming`` and ``outgoing``), ``POST /api/challenges/{id}/accept`` (as a seek's), ``POST
  /api/challenges/{id}/decline`` (the challenged player's; the challenger withdraws it the same way).
- API tokens and bots: ``POST /api/account/token`` (``scope``: ``bot``, the default) answers a new API token (once;
  it replaces any other), which acts as the account in ``Authorization: Bearer <token>`` within its scope (``bot``:
  reading and playing; see :data:`hive.web.accounts.service.NEEDS`); ``POST /api/account/bot`` makes the account a
  bot's for good (one without rated games). ``GET /api/bot/stream`` streams the account's events, one JSON object a line
  (``challenge``, ``gameStart``), and holds the account's seeks and challenges while it is open (a bot's page);
  ``GET /api/bot/games`` lists its games in progress with its seat tokens.

- Tournaments: ``GET /api/tournaments``; ``POST /api/tournaments`` (``name``, ``format`` ``swiss`` or
  ``round-robin``, ``rounds``, ``double``, ``game``, ``time_control``, ``rated``); ``GET /api/tournaments/{id}`` (its
  players, every round's games and results, the standings with tie-breaks); ``POST /api/tournaments/{id}/join``,
  ``/leave``, ``/start`` (the organiser's), ``/invite`` (``name``: the organiser's, for a tournament made with
  ``invite_only``; ``bots``: false keeps bots out); ``GET /api/tournaments/{id}/records`` (every game's record, one
  file).
  The server pairs each round when the last one's games have ended, and starts its games.

Every change made with the cookie (sign-out, password, an admin's) carries the session's CSRF token in
``X-CSRF-Token``; one made with an API token needs none, but only what its scope allows: changing the account and
an admin's actions answer an API token 403, naming the scope needed. The cookie is ``HttpOnly``, ``SameSite=Lax``, and
``Secure`` when the page came over HTTPS (behind a trusted proxy, as its ``X-Forwarded-Proto`` says).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse

from ...sdk.view import JSON
from ..accounts import Accounts, Signed, SignedIn
from ..accounts.seeks import SIGNED_OUT, Seeks
from ..accounts.service import ONLINE_SECONDS, SESSION_SECONDS
from ..accounts.throttle import TRUST_SECONDS
from ..play import clock
from ..play.session import Session
from ..shared.errors import BadRequest, Forbidden, NotFound, Unauthorized
from ..shared.model import GameRecord

if TYPE_CHECKING:
    from .app import App

COOKIE = "hive_session"
#: The device cookie: a random token the server gives a browser that signs an account in, so that later sign-ins
#: from it are not held by the lock a stranger's guesses put on the name (see :mod:`hive.web.accounts.throttle`).
DEVICE = "hive_device"
#: The most entries each of the caches of :meth:`AccountApi.game_facts` keeps.
CACHED = 4096
#: How often the bot stream looks for new events, in seconds.
STREAM_POLL = 0.5
#: The most accounts ``GET /api/online`` lists.
ONLINE_LIMIT = 100


def _bounded(cache: dict[str, Any]) -> dict[str, Any]:
    """``cache``, emptied first when it is full."""
    if len(cache) >= CACHED:
        cache.clear()
    return cache


class AccountApi:
    """The accounts' endpoints of a server process."""

    def __init__(self, app: App, accounts: Accounts, seeks: Seeks) -> None:
        self.app = app
        self.accounts = accounts
        self.seeks = seeks
        self._accounts: dict[str, JSON] = {}  # each account's name and bot flag, by id (see game_facts)
        self._rated: dict[str, JSON | None] = {}  # each rated game's effect on the ratings, once it is over
        self._tournament_of: dict[str, JSON | None] = {}  # each game's place in a tournament (never changes)
        self._began: dict[str, list[JSON | None]] = {}  # each game's players' ratings as this process first read them
        #: The bot event streams open here, by account: each holds its account's seeks (see Seeks.hold).
        self.streams: Counter[str] = Counter()

    async def page(self, request: Request) -> Response:
        """A page of the accounts (a profile, the leaderboard): the page's shell, whose script shows it; none on a
        server without accounts."""
        if not self.app.settings.accounts:
            raise HTTPException(404)
        return await self.app.api.page(request)

    async def game_facts(self, session: Session) -> JSON:
        """What a game's state adds about its accounts: ``accounts``, each seat's account (``name`` and ``bot``, for
        a link to its profile, and its ``rating`` in the game's game and speed, rounded, with ``provisional``, to
        show beside the name while the game is played) or ``None`` for a guest's; ``tournament``, the id of the
        tournament it is a game of (``None``: none; a tournament's game has no rematch) and ``tournament_game``, its
        place there (the tournament's ``id`` and ``name``, the ``round`` and ``board``); and once a rated game is
        over, ``ratings``: the ``speed`` and both players' ratings ``before`` and ``after`` it. Nothing for a game
        without accounts. Each is read once a game and process: an account's name never changes, nor a game's
        tournament, the ratings shown during play are those the game began with (as this process first read them),
        and a rated game's effect never changes once it is stored (in the transaction that stores the game's end)."""
        record = session.record
        if not any(record.accounts):
            return {}
        if record.id not in self._began:
            game, speed = session.board.game_name, clock.speed_of(record.clock)
            began: list[JSON | None] = []
            for account in record.accounts:
                if account is None:
                    began.append(None)
                    continue
                rating = await self.app.store.ratings.rating(account, game, speed)
                began.append({"rating": round(rating.rating), "provisional": rating.provisional})
            _bounded(self._began)[record.id] = began
        accounts = [await self._account_of(account) for account in record.accounts]
        facts: JSON = {
            "accounts": [
                None if account is None else {**account, **(rating or {})}
                for account, rating in zip(accounts, self._began[record.id], strict=True)
            ]
        }
        if record.rated and record.result is not None:
            if record.id not in self._rated:
                rated = await self.app.store.ratings.rated(record.id)
                change = None
                if rated is not None:
                    change = {"speed": rated.speed, "before": list(rated.before), "after": list(rated.after)}
                _bounded(self._rated)[record.id] = change
            if self._rated[record.id] is not None:
                facts["ratings"] = self._rated[record.id]
        if record.id not in self._tournament_of:
            found = await self.app.store.tournaments.place_of(record.id)
            _bounded(self._tournament_of)[record.id] = (
                None if found is None else dict(zip(("id", "name", "round", "board"), found, strict=True))
            )
        place = self._tournament_of[record.id]
        facts["tournament"] = None if place is None else place["id"]
        facts["tournament_game"] = place
        if record.result is not None:
            facts.update(await self._rematch_facts(record))
        return facts

    async def _rematch_facts(self, record: GameRecord) -> JSON:
        """A finished game's ``rematch_offer``: the open offer of its rematch (``id``: the challenge's, ``by``: the
        offering seat)."""
        offer = None
        if record.rematch is None:
            for seek in await self.app.store.seeks.rematch_offers(record.id):
                if seek.account_id in record.accounts:
                    offer = {"id": seek.id, "by": record.accounts.index(seek.account_id)}
                    break
        return {"rematch_offer": offer}

    async def _account_of(self, account_id: str | None) -> JSON | None:
        if account_id is None:
            return None
        if account_id not in self._accounts:
            account = await self.app.store.accounts.by_id(account_id)
            if account is None:  # deleted since
                return None
            _bounded(self._accounts)[account_id] = {"name": account.name, "bot": account.bot}
        return self._accounts[account_id]

    def _check_enabled(self) -> None:
        if not self.app.settings.accounts:
            raise NotFound("This server keeps no accounts (hive play): anyone plays as a guest.")

    async def _body(self, request: Request) -> dict[str, Any]:
        return await self.app.api.body(request)

    async def signed(self, request: Request) -> Signed | None:
        """The request's session, from its API token (``Authorization: Bearer``) or its cookie (``None`` without
        accounts or a live session).

        :raises Unauthorized: for an API token that is unknown or revoked.
        """
        if not self.app.settings.accounts:
            return None
        header = request.headers.get("authorization")
        if header is not None:
            return await self.accounts.by_bearer(header)
        return await self.accounts.signed(request.cookies.get(COOKIE))

    async def _changing(self, request: Request, need: str) -> Signed:
        """The session of a change that needs the scope ``need`` (one of :data:`~hive.web.accounts.service.NEEDS`): an
        API token's within its scope, or the cookie's with its CSRF token.

        :raises Unauthorized: when nobody is signed in.
        :raises Forbidden: without the session's CSRF token, or for an API token whose scope does not allow it.
        """
        self._check_enabled()
        signed = await self.signed(request)
        if signed is None:
            raise Unauthorized("Sign in first.")
        self.accounts.check_scope(signed, need)
        self.accounts.check_csrf(signed, request.headers.get("x-csrf-token"))
        return signed

    def _with_cookie(self, request: Request, opened: SignedIn, status: int = 200) -> Response:
        response = JSONResponse(opened.answer(), status_code=status)
        secure = request.url.scheme == "https"
        cookies = [(COOKIE, opened.token, SESSION_SECONDS)]
        if opened.device:
            cookies.append((DEVICE, opened.device, int(TRUST_SECONDS)))
        for name, value, seconds in cookies:
            response.set_cookie(name, value, max_age=seconds, httponly=True, samesite="lax", secure=secure, path="/")
        return response

    @staticmethod
    def _device(request: Request) -> str | None:
        device = request.cookies.get(DEVICE)
        return device if device and len(device) <= 100 else None

    async def sign_up(self, request: Request) -> Response:
        self._check_enabled()
        body, address = await self._body(request), self.app.api.client(request)
        opened = await self.accounts.sign_up(body, address, self._device(request))
        return self._with_cookie(request, opened, 201)

    async def sign_in(self, request: Request) -> Response:
        self._check_enabled()
        body, address = await self._body(request), self.app.api.client(request)
        opened = await self.accounts.sign_in(body, address, self._device(request))
        return self._with_cookie(request, opened)

    async def session(self, request: Request) -> Any:
        self._check_enabled()
        signed = await self.signed(request)
        return {"name": None} if signed is None else signed.answer()

    async def sign_out(self, request: Request) -> Response:
        signed = await self._changing(request, "account")
        await self.accounts.sign_out(signed)
        await self.seeks.withdraw_all(signed.account.id, SIGNED_OUT)  # nobody is there to play them
        response = JSONResponse({"name": None})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return response

    async def password(self, request: Request) -> Response:
        signed = await self._changing(request, "account")
        opened = await self.accounts.change_password(signed, await self._body(request))
        return self._with_cookie(request, opened)

    async def player(self, request: Request) -> Any:
        self._check_enabled()
        account = await self.accounts.find(request.path_params["name"])
        ratings: dict[str, dict[str, Any]] = {}
        for rating in await self.app.store.ratings.of(account.id):
            ratings.setdefault(rating.game, {})[rating.speed] = rating.answer()
        return {
            "name": account.name,
            "created": account.created,
            "banned": account.banned,
            "bot": account.bot,
            "ratings": ratings,
            "history": await self.app.profiles.history(account),
        }

    async def player_games(self, request: Request) -> Any:
        self._check_enabled()
        return await self.app.profiles.games(request.path_params["name"], request.query_params)

    async def player_records(self, request: Request) -> Response:
        self._check_enabled()
        return PlainTextResponse(await self.app.profiles.records(request.path_params["name"], request.query_params))

    async def turns(self, request: Request) -> Any:
        signed = await self._reading(request)
        return await self.app.profiles.turns(signed)

    async def live(self, request: Request) -> Any:
        self._check_enabled()
        return await self.app.profiles.live()

    async def online(self, request: Request) -> Any:
        """Who is online, most recent first; the asker, signed in, is among them."""
        self._check_enabled()
        with contextlib.suppress(Unauthorized):  # a bad API token sees the list as a guest does
            await self.signed(request)  # marks the asker online
        found = await self.accounts.online(ONLINE_LIMIT)
        players = [{"name": name, "bot": bot, "seen": seen} for name, bot, seen in found]
        return {"players": players, "seconds": ONLINE_SECONDS}

    async def leaders(self, request: Request) -> Any:
        self._check_enabled()
        signed = None
        with contextlib.suppress(Unauthorized):  # a bad API token sees the board as a guest does
            signed = await self.signed(request)
        return await self.app.profiles.leaders(request.query_params, signed)

    async def seat_token(self, request: Request, game_id: str) -> str | None:
        """The seat token a signed-in player's session stands for in a game from a seek (``None``: no session, or
        not a player of it); a change made so carries the CSRF token.

        :raises Forbidden: for a change without the session's CSRF token.
        """
        if not self.app.settings.accounts or (COOKIE not in request.cookies and "authorization" not in request.headers):
            return None
        signed = await self.signed(request)
        if signed is None:
            return None
        service = self.app.service
        record = (service.sessions.get(game_id) or await service.session(game_id)).record
        if signed.account.id not in record.accounts:
            return None
        if request.method not in ("GET", "HEAD"):
            self.accounts.check_scope(signed, "play")
            self.accounts.check_csrf(signed, request.headers.get("x-csrf-token"))
        return record.tokens[record.accounts.index(signed.account.id)]

    async def seat(self, request: Request) -> Any:
        """The signed-in player's seat and its token in a game from a seek or a challenge, for a page to keep as it
        keeps the tokens of the games it creates.

        :raises Unauthorized: when nobody is signed in.
        :raises Forbidden: when the account holds no seat of the game.
        """
        signed = await self._reading(request)
        game_id = request.path_params["id"]
        service = self.app.service
        record = (service.sessions.get(game_id) or await service.session(game_id)).record
        if signed.account.id not in record.accounts:
            raise Forbidden(f"{signed.account.name} plays no seat of this game.")
        seat = record.accounts.index(signed.account.id)
        return {"id": game_id, "seat": seat, "token": record.tokens[seat]}

    # ------------------------------------------------------------------ the lobby's seeks

    async def list_seeks(self, request: Request) -> Any:
        self._check_enabled()
        return await self.seeks.listed()

    async def open_seek(self, request: Request) -> Any:
        signed = await self._changing(request, "play")
        return await self.seeks.open(signed, await self._body(request))

    async def seek(self, request: Request) -> Any:
        self._check_enabled()
        return await self.seeks.get(request.path_params["id"])

    async def accept_seek(self, request: Request) -> Any:
        signed = await self._changing(request, "play")
        session, game = await self.seeks.accept(signed, request.path_params["id"])
        return await self.app.api.started(session, game.token, None)

    async def rematch(self, request: Request) -> Any:
        """The rematch of a finished game between accounts (see :meth:`~hive.web.accounts.seeks.Seeks.rematch`):
        offered (``offered``: the challenge), or started (the rematch, with the asker's own seat's token alone)."""
        signed = await self._changing(request, "play")
        found = await self.seeks.rematch(signed, request.path_params["id"])
        if not isinstance(found, Session):
            return {"id": None, "token": None, "invite": None, **found}
        record = found.record
        token = record.tokens[record.accounts.index(signed.account.id)]
        assert token is not None
        return {**await self.app.api.started(found, token, None), "offered": None}

    async def cancel_seek(self, request: Request) -> Any:
        signed = await self._changing(request, "play")
        return await self.seeks.cancel(signed, request.path_params["id"])

    # ------------------------------------------------------------------ challenges, API tokens and bots

    async def challenge(self, request: Request) -> Any:
        signed = await self._changing(request, "play")
        return await self.seeks.challenge(signed, await self._body(request))

    async def challenges(self, request: Request) -> Any:
        signed = await self._reading(request)
        return await self.seeks.challenges(signed)

    async def api_token(self, request: Request) -> Any:
        signed = await self._changing(request, "account")
        scope = (await self._body(request)).get("scope", "bot")
        token = await self.accounts.make_token(signed, scope)
        return {"name": signed.account.name, "token": token, "scope": scope}

    async def become_bot(self, request: Request) -> Any:
        signed = await self._changing(request, "account")
        account = await self.accounts.become_bot(signed)
        return {"name": account.name, "bot": account.bot}

    async def bot_games(self, request: Request) -> Any:
        signed = await self._reading(request)
        games = await self.app.store.accounts.ongoing(signed.account.id)
        return {"games": [{"id": game_id, "seat": seat, "token": token} for game_id, seat, token in games]}

    async def bot_stream(self, request: Request) -> Response:
        """The account's events as they come, one JSON object a line: ``challenge`` (a challenge to it, open) and
        ``gameStart`` (a game of its in progress: its ``id``, ``seat`` and seat ``token``), each once a stream; an
        empty line every 10 s keeps the connection open."""
        signed = await self._reading(request)
        return StreamingResponse(self._events(request, signed), media_type="application/x-ndjson")

    async def _events(self, request: Request, signed: Signed) -> AsyncIterator[str]:
        account = signed.account.id
        self.streams[account] += 1  # the stream holds the bot's seeks while it is open
        try:
            async for lines in self._lines(request, signed):
                yield lines
        finally:
            self.streams[account] -= 1
            if self.streams[account] <= 0:
                del self.streams[account]

    async def _lines(self, request: Request, signed: Signed) -> AsyncIterator[str]:
        told: set[str] = set()
        quiet = 0.0
        while not await request.is_disconnected():
            await self.accounts.seen(signed.account)  # a bot streaming its events is online
            lines = []
            for seek in (await self.seeks.challenges(signed))["incoming"]:
                if seek["id"] not in told:
                    told.add(seek["id"])
                    lines.append(json.dumps({"type": "challenge", "challenge": seek}))
            for game_id, seat, token in await self.app.store.accounts.ongoing(signed.account.id):
                if game_id not in told:
                    told.add(game_id)
                    game = {"id": game_id, "seat": seat, "token": token}
                    lines.append(json.dumps({"type": "gameStart", "game": game}))
            if lines:
                quiet = 0.0
                yield "\n".join(lines) + "\n"
            elif quiet >= 10:
                quiet = 0.0
                yield "\n"
            await asyncio.sleep(STREAM_POLL)
            quiet += STREAM_POLL

    # ------------------------------------------------------------------ chat

    async def read_chat(self, request: Request) -> Any:
        self._check_enabled()
        signed = await self.signed(request)
        return await self.app.chat.read(request.path_params["id"], request.query_params.get("room"), signed)

    async def say(self, request: Request) -> Any:
        signed = await self._changing(request, "play")
        return await self.app.chat.say(signed, request.path_params["id"], await self._body(request))

    async def tournament_chat(self, request: Request) -> Any:
        if request.method == "GET":
            self._check_enabled()
            return await self.app.chat.read_tournament(request.path_params["id"], await self.signed(request))
        signed = await self._changing(request, "play")
        return await self.app.chat.say_tournament(signed, request.path_params["id"], await self._body(request))

    async def block(self, request: Request) -> Any:
        signed = await self._changing(request, "account")
        return await self.app.chat.block(signed, await self._body(request), True)

    async def unblock(self, request: Request) -> Any:
        signed = await self._changing(request, "account")
        return await self.app.chat.block(signed, await self._body(request), False)

    async def report(self, request: Request) -> Any:
        signed = await self._changing(request, "account")
        return await self.app.chat.report(signed, request.path_params["id"])

    async def reports(self, request: Request) -> Any:
        signed = await self._reading(request, "admin")
        return await self.app.chat.reports(signed)

    # ------------------------------------------------------------------ tournaments

    async def list_tournaments(self, request: Request) -> Any:
        self._check_enabled()
        return await self.app.tournaments.listed()

    async def create_tournament(self, request: Request) -> Any:
        signed = await self._changing(request, "account")
        return await self.app.tournaments.create(signed, await self._body(request))

    async def tournament(self, request: Request) -> Any:
        self._check_enabled()
        return await self.app.tournaments.get(request.path_params["id"])

    async def tournament_action(self, request: Request) -> Any:
        tournament_id, action = request.path_params["id"], request.path_params["action"]
        signed = await self._changing(request, "play" if action in ("join", "leave") else "account")
        tournaments = self.app.tournaments
        if action == "join":
            return await tournaments.join(signed, tournament_id)
        if action == "leave":
            return await tournaments.leave(signed, tournament_id)
        if action == "start":
            return await tournaments.start(signed, tournament_id)
        if action == "invite":
            return await tournaments.invite(signed, tournament_id, await self._body(request))
        raise NotFound(f"No tournament action {action!r}: join, leave, start or invite.")

    async def tournament_records(self, request: Request) -> Response:
        self._check_enabled()
        return PlainTextResponse(await self.app.tournaments.records(request.path_params["id"]))

    async def _reading(self, request: Request, need: str = "read") -> Signed:
        """The session (or API token, within its scope) of a request that reads, needing ``need``."""
        self._check_enabled()
        signed = await self.signed(request)
        if signed is None:
            raise Unauthorized("Sign in first, or send an API token.")
        self.accounts.check_scope(signed, need)
        return signed

    async def admin(self, request: Request) -> Any:
        signed = await self._changing(request, "admin")
        name, action = request.path_params["name"], request.path_params.get("action")
        if request.method == "DELETE" and action is None:
            await self.accounts.delete(signed, name)
            return {"deleted": name}
        if action == "password":
            return {"name": name, "password": await self.accounts.reset_password(signed, name)}
        if action == "ban":
            banned = (await self._body(request)).get("banned", True)
            if not isinstance(banned, bool):
                raise BadRequest("'banned' is true or false.")
            account = await self.accounts.set_banned(signed, name, banned)
            return {"name": account.name, "banned": account.banned}
        raise NotFound(f"No admin action {action!r}.")


__all__ = ["COOKIE", "DEVICE", "AccountApi"]
