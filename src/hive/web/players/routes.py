"""The players' API (``hive serve``; a server without accounts answers 404):

- ``POST /api/accounts`` (``name``, ``password``): make an account and sign it in; 201 with ``name``, ``admin`` and
  ``csrf``, and the session's cookie.
- ``POST /api/session`` (``name``, ``password``): sign in: a new session, its cookie, and ``csrf`` (and a device
  cookie, :data:`~hive.web.players.identity.DEVICE`, for a browser that has none). A wrong name and a wrong password
  are both ``401 Wrong name or password.``; a password over 256 characters, 400; too many attempts (counted before
  the password is checked: for the name from the address or browser, from the address, or for the name from places
  that never signed it in), 429 (see :mod:`hive.web.players.throttle`).
- ``GET /api/session``: who is signed in (``name``, ``admin``, ``csrf``, ``language``: the account's choice or
  ``null``), or ``{"name": null}``.
- ``DELETE /api/session``: sign out. ``POST /api/session/password`` (``old``, ``new``): a new password; every other
  session ends and every API token is revoked, and the answer carries the new session's cookie and ``csrf``.
- ``GET /api/players/{name}``: what anyone may see of an account, with its ``ratings`` by game and speed (each
  ``rating``, ``deviation``, ``provisional``, ``more``: about how many more rated games establish it, ``games``,
  ``wins``, ``draws``, ``losses``) and its ``history`` (the rating after each rated game, by game and speed; see
  :mod:`hive.web.ratings.routes`).
- Profiles: ``GET /api/players/{name}/games`` (``?opponent=&result=win|draw|loss|ongoing&game=&speed=``: the
  player's games with the W/D/L they add up to, so head-to-head with ``opponent``), ``GET
  /api/players/{name}/records`` (those finished, as one file of records); ``GET /api/account/turns`` (the signed-in
  player's games where it is their turn); ``GET /api/live`` (the games in progress between accounts, strongest
  first, to watch); ``GET /api/online`` (who is online: the accounts seen in the last 5
  minutes, most recent first, at most 100: each one's ``name``, ``bot`` and ``seen``).
- An admin's actions on accounts are :mod:`hive.web.moderation.routes`'s; a forgotten password's link, and the
  account's e-mail address, :mod:`hive.web.players.reset_routes`'s.
- ``POST /api/account/language`` (``language``: a code the server speaks, ``en``, ``fr``...; ``null``: the
  browser's): the account's language for the page and the server's messages (its refusals are answered in it); the
  answer sets the page's language cookie too (see :mod:`hive.web.shared.i18n`).
- API tokens: ``POST /api/account/token`` (``scope``: ``bot``, the default; ``label``: the owner's name for it, up
  to 40 characters) answers a new API token (``token``, shown this once: only its hash is kept; ``id``, by which it
  is listed and revoked, see :mod:`hive.web.players.social_routes`; an account holds at most 10), which acts as
  the account in ``Authorization: Bearer <token>`` within its scope (``bot``: reading and playing; see
  :data:`hive.web.players.service.NEEDS` and :mod:`hive.web.bots.routes`).

Every change made with the cookie (sign-out, password, an admin's) carries the session's CSRF token in
``X-CSRF-Token``; one made with an API token needs none, but only what its scope allows: changing the account and
an admin's actions answer an API token 403, naming the scope needed. The cookie is ``HttpOnly``, ``SameSite=Lax``, and
``Secure`` when the page came over HTTPS (behind a trusted proxy, as its ``X-Forwarded-Proto`` says).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ...sdk.view import JSON
from ..shared.endpoints import body, client, endpoint
from ..shared.errors import Unauthorized
from ..shared.i18n import COOKIE as LANGUAGE
from .identity import COOKIE, DEVICE, Identity, Page
from .profiles import Profiles
from .service import ONLINE_SECONDS, SESSION_SECONDS, Accounts, SignedIn
from .throttle import TRUST_SECONDS
from .tokens import Tokens

#: The most accounts ``GET /api/online`` lists.
ONLINE_LIMIT = 100
#: How long the page's language cookie lasts (a year; the page renews it).
LANGUAGE_SECONDS = 365 * 86400


class PlayerRoutes:
    """The players' endpoints of a server process.

    :param identity: who asks.
    :param accounts: the accounts.
    :param profiles: what anyone may see of a player.
    :param json_depth: the deepest a request's JSON may nest.
    :param page: the page's shell (a profile's page is shown by its script).
    :param rated: what a profile shows of an account's ratings (:meth:`hive.web.ratings.service.Ratings.profile`).
    :param signed_out: told the account that signed out (its seeks end: nobody is there to play them).
    :param tokens: the API tokens.
    """

    def __init__(
        self,
        identity: Identity,
        accounts: Accounts,
        profiles: Profiles,
        json_depth: int,
        page: Page,
        rated: Callable[[str], Awaitable[JSON]],
        signed_out: Callable[[str], Awaitable[object]],
        tokens: Tokens,
    ) -> None:
        self.identity = identity
        self.accounts = accounts
        self.profiles = profiles
        self.json_depth = json_depth
        self._page = page
        self.rated = rated
        self.signed_out = signed_out
        self.tokens = tokens

    def routes(self) -> list[BaseRoute]:
        """The players' routes."""
        return [
            Route("/player/{name}", self.page),
            Route("/api/accounts", endpoint(self.sign_up), methods=["POST"]),
            Route("/api/session", endpoint(self.session), methods=["GET"]),
            Route("/api/session", endpoint(self.sign_in), methods=["POST"]),
            Route("/api/session", endpoint(self.sign_out), methods=["DELETE"]),
            Route("/api/session/password", endpoint(self.password), methods=["POST"]),
            Route("/api/players/{name}", endpoint(self.player), methods=["GET"]),
            Route("/api/players/{name}/games", endpoint(self.player_games), methods=["GET"]),
            Route("/api/players/{name}/records", endpoint(self.player_records), methods=["GET"]),
            Route("/api/account/turns", endpoint(self.turns), methods=["GET"]),
            Route("/api/live", endpoint(self.live), methods=["GET"]),
            Route("/api/online", endpoint(self.online), methods=["GET"]),
            Route("/api/account/token", endpoint(self.api_token), methods=["POST"]),
            Route("/api/account/language", endpoint(self.language), methods=["POST"]),
        ]

    async def page(self, request: Request) -> Response:
        """A player's page: the page's shell, whose script shows it; none on a server without accounts."""
        if not self.identity.enabled:
            raise HTTPException(404)
        return await self._page(request)

    async def _body(self, request: Request) -> JSON:
        return await body(request, self.json_depth)

    def _with_cookie(self, request: Request, opened: SignedIn, status: int = 200) -> Response:
        response = JSONResponse(opened.answer(), status_code=status)
        secure = request.url.scheme == "https"
        cookies = [(COOKIE, opened.token, SESSION_SECONDS)]
        if opened.device:
            cookies.append((DEVICE, opened.device, int(TRUST_SECONDS)))
        for name, value, seconds in cookies:
            response.set_cookie(name, value, max_age=seconds, httponly=True, samesite="lax", secure=secure, path="/")
        if opened.account.language is not None:  # the account's choice, on this browser too
            response.set_cookie(LANGUAGE, opened.account.language, max_age=LANGUAGE_SECONDS, samesite="lax", path="/")
        return response

    @staticmethod
    def _device(request: Request) -> str | None:
        device = request.cookies.get(DEVICE)
        return device if device and len(device) <= 100 else None

    async def sign_up(self, request: Request) -> Response:
        self.identity.check_enabled()
        data, address = await self._body(request), client(request)
        opened = await self.accounts.sign_up(data, address, self._device(request))
        return self._with_cookie(request, opened, 201)

    async def sign_in(self, request: Request) -> Response:
        self.identity.check_enabled()
        data, address = await self._body(request), client(request)
        opened = await self.accounts.sign_in(data, address, self._device(request))
        return self._with_cookie(request, opened)

    async def session(self, request: Request) -> Any:
        self.identity.check_enabled()
        signed = await self.identity.signed(request)
        return {"name": None} if signed is None else signed.answer()

    async def sign_out(self, request: Request) -> Response:
        signed = await self.identity.changing(request, "account")
        await self.accounts.sign_out(signed)
        await self.signed_out(signed.account.id)
        response = JSONResponse({"name": None})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return response

    async def password(self, request: Request) -> Response:
        signed = await self.identity.changing(request, "account")
        opened = await self.accounts.change_password(signed, await self._body(request))
        return self._with_cookie(request, opened)

    async def player(self, request: Request) -> Any:
        self.identity.check_enabled()
        account = await self.accounts.find(request.path_params["name"])
        rated = await self.rated(account.id)
        return {
            "name": account.name,
            "created": account.created,
            "banned": account.banned,
            "bot": account.bot,
            "ratings": rated["ratings"],
            "history": rated["history"],
        }

    async def player_games(self, request: Request) -> Any:
        self.identity.check_enabled()
        return await self.profiles.games(request.path_params["name"], request.query_params)

    async def player_records(self, request: Request) -> Response:
        self.identity.check_enabled()
        return PlainTextResponse(await self.profiles.records(request.path_params["name"], request.query_params))

    async def turns(self, request: Request) -> Any:
        signed = await self.identity.reading(request)
        return await self.profiles.turns(signed)

    async def live(self, request: Request) -> Any:
        self.identity.check_enabled()
        return await self.profiles.live()

    async def online(self, request: Request) -> Any:
        """Who is online, most recent first; the asker, signed in, is among them."""
        self.identity.check_enabled()
        with contextlib.suppress(Unauthorized):  # a bad API token sees the list as a guest does
            await self.identity.signed(request)  # marks the asker online
        found = await self.accounts.online(ONLINE_LIMIT)
        players = [{"name": name, "bot": bot, "seen": seen} for name, bot, seen in found]
        return {"players": players, "seconds": ONLINE_SECONDS}

    async def language(self, request: Request) -> Response:
        """Keep the account's language; the answer sets the page's cookie to it too."""
        signed = await self.identity.changing(request, "account")
        chosen = await self.accounts.set_language(signed, (await self._body(request)).get("language"))
        response = JSONResponse({"name": signed.account.name, "language": chosen})
        if chosen is not None:
            response.set_cookie(LANGUAGE, chosen, max_age=LANGUAGE_SECONDS, samesite="lax", path="/")
        return response

    async def api_token(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        data = await self._body(request)
        token, made = await self.tokens.make(signed, data.get("scope", "bot"), data.get("label", ""))
        return {"name": signed.account.name, "token": token} | made.answer()


__all__ = ["ONLINE_LIMIT", "PlayerRoutes"]
