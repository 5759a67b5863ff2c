"""Who is asking: a request's session (its cookie) or API token (``Authorization: Bearer``), and the checks a change
or a read makes of it (the scope an API token needs, the CSRF token a change made with the cookie carries). Every
domain's routes are handed one :class:`Identity` and ask it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response

from ..shared.errors import NotFound, Unauthorized
from ..shared.i18n import _
from ..shared.model import GameRecord
from .service import Accounts, Signed

COOKIE = "hive_session"
#: The device cookie: a random token the server gives a browser that signs an account in, so that later sign-ins
#: from it are not held by the lock a stranger's guesses put on the name (see :mod:`hive.web.players.throttle`).
DEVICE = "hive_device"

#: A page of the server (its shell, whose script shows what the path names), handed to the routes that serve one.
Page = Callable[[Request], Awaitable[Response]]


class Identity:
    """Who asks, on a server process.

    :param accounts: the accounts.
    :param enabled: whether the server keeps accounts (``hive serve``; ``hive play`` keeps none).
    """

    def __init__(self, accounts: Accounts, enabled: bool) -> None:
        self.accounts = accounts
        self.enabled = enabled

    def check_enabled(self) -> None:
        """:raises NotFound: on a server without accounts."""
        if not self.enabled:
            raise NotFound(_("This server keeps no accounts (hive play): anyone plays as a guest."))

    async def signed(self, request: Request) -> Signed | None:
        """The request's session, from its API token (``Authorization: Bearer``) or its cookie (``None`` without
        accounts or a live session).

        :raises Unauthorized: for an API token that is unknown or revoked.
        """
        if not self.enabled:
            return None
        header = request.headers.get("authorization")
        if header is not None:
            signed: Signed | None = await self.accounts.by_bearer(header)
        else:
            signed = await self.accounts.signed(request.cookies.get(COOKIE))
        if signed is not None and signed.account.language is not None:
            request.state.language = signed.account.language  # the account's choice answers its refusals
        return signed

    async def changing(self, request: Request, need: str) -> Signed:
        """The session of a change that needs the scope ``need`` (one of :data:`~hive.web.players.service.NEEDS`):
        an API token's within its scope, or the cookie's with its CSRF token.

        :raises Unauthorized: when nobody is signed in.
        :raises Forbidden: without the session's CSRF token, or for an API token whose scope does not allow it.
        """
        self.check_enabled()
        signed = await self.signed(request)
        if signed is None:
            raise Unauthorized(_("Sign in first."))
        self.accounts.check_scope(signed, need)
        self.accounts.check_csrf(signed, request.headers.get("x-csrf-token"))
        return signed

    async def reading(self, request: Request, need: str = "read") -> Signed:
        """The session (or API token, within its scope) of a request that reads, needing ``need``."""
        self.check_enabled()
        signed = await self.signed(request)
        if signed is None:
            raise Unauthorized(_("Sign in first, or send an API token."))
        self.accounts.check_scope(signed, need)
        return signed

    def may_be_signed(self, request: Request) -> bool:
        """Whether the request may come from a signed-in player at all (it carries a cookie or an API token)."""
        return self.enabled and (COOKIE in request.cookies or "authorization" in request.headers)

    def seat_token(self, request: Request, signed: Signed, record: GameRecord) -> str | None:
        """The seat token ``signed``, the request's session, stands for in a game between accounts (``None``: not a
        player of it); a change made so carries the CSRF token.

        :raises Forbidden: for a change without the session's CSRF token.
        """
        if signed.account.id not in record.accounts:
            return None
        if request.method not in ("GET", "HEAD"):
            self.accounts.check_scope(signed, "play")
            self.accounts.check_csrf(signed, request.headers.get("x-csrf-token"))
        return record.tokens[record.accounts.index(signed.account.id)]


__all__ = ["COOKIE", "DEVICE", "Identity", "Page"]
