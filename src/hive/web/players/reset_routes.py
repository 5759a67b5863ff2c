"""The forgotten password's API and page (``hive serve``; a server without accounts answers 404):

- ``GET /reset/{token}``: the page that sets a new password with a one-time link (the page's shell, whose script
  shows it).
- ``GET /api/password/reset/{token}``: the name of a live link's account (404 for a link unknown, used or
  expired); ``POST /api/password/reset`` (``token``, ``password``): set the password, once; every session of the
  account ends and its API tokens are revoked. Answers ``name``, to sign in with.
- ``POST /api/password/forgot`` (``name``): mail the account's link to its e-mail address, where the host configured
  mail (404 otherwise). The answer is the same whatever the name (whether it exists, whether it has an address;
  a text holding a control or format character, which no name holds, is 400);
  too many asks for a name or from an address are 429 (see :mod:`hive.web.players.resets`).
- ``GET /api/account/email`` and ``POST`` (``email``: an address, or ``""`` for none): the signed-in account's own
  e-mail address, which nobody else sees; a change carries the session's CSRF token.

An admin issues a link with ``POST /api/admin/accounts/{name}/reset`` (:mod:`hive.web.moderation.routes`).
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..shared.endpoints import body, client, endpoint
from ..shared.i18n import gettext_in, language
from .identity import Identity, Page
from .resets import PasswordResets


def reset_link(request: Request, token: str) -> str:
    """The page's address that uses the link ``token``, on the server the request came to."""
    return f"{request.base_url}reset/{token}"


class ResetRoutes:
    """The forgotten password's endpoints of a server process.

    :param identity: who asks.
    :param resets: the reset links.
    :param json_depth: the deepest a request's JSON may nest.
    :param page: the page's shell.
    """

    def __init__(self, identity: Identity, resets: PasswordResets, json_depth: int, page: Page) -> None:
        self.identity = identity
        self.resets = resets
        self.json_depth = json_depth
        self._page = page

    def routes(self) -> list[BaseRoute]:
        """The forgotten password's routes."""
        return [
            Route("/reset/{token}", self.page),
            Route("/api/password/reset/{token}", endpoint(self.check), methods=["GET"]),
            Route("/api/password/reset", endpoint(self.use), methods=["POST"]),
            Route("/api/password/forgot", endpoint(self.forgot), methods=["POST"]),
            Route("/api/account/email", endpoint(self.email), methods=["GET"]),
            Route("/api/account/email", endpoint(self.set_email), methods=["POST"]),
        ]

    async def page(self, request: Request) -> Response:
        """The reset page: the page's shell, whose script shows it; kept out of caches and referrers (its address
        is the secret)."""
        if not self.identity.enabled:
            raise HTTPException(404)
        response = await self._page(request)
        response.headers["cache-control"] = "no-store"
        response.headers["referrer-policy"] = "no-referrer"
        return response

    async def check(self, request: Request) -> Any:
        self.identity.check_enabled()
        return {"name": await self.resets.name(request.path_params["token"])}

    async def use(self, request: Request) -> Any:
        self.identity.check_enabled()
        return {"name": await self.resets.use(await body(request, self.json_depth))}

    async def forgot(self, request: Request) -> Response:
        self.identity.check_enabled()
        data = await body(request, self.json_depth)
        base = str(request.base_url)  # the mail is written after the answer
        text = await self.resets.ask(data, client(request), lambda token: f"{base}reset/{token}")
        return JSONResponse({"message": gettext_in(language(request), text)}, status_code=202)

    async def email(self, request: Request) -> Any:
        signed = await self.identity.reading(request, "account")
        return {"email": await self.resets.email(signed)}

    async def set_email(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        return {"email": await self.resets.set_email(signed, await body(request, self.json_depth))}


__all__ = ["ResetRoutes", "reset_link"]
