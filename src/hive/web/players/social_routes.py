"""The API of an account's tokens and of players finding each other (``hive serve``; a server without accounts
answers 404):

- ``GET /api/account/tokens``: the account's API tokens, newest first: each one's ``id``, ``label``, ``scope``,
  ``created`` and ``used`` (when last used, to the minute; ``null``: never), never the token; and ``limit``, the most
  an account holds (10). ``POST /api/account/token`` (``scope``, ``label``) makes one (see
  :mod:`hive.web.players.routes`); ``DELETE /api/account/tokens/{id}`` revokes one. These need a signed-in session
  (and its CSRF token for a change): an API token is answered 403, so a token never lists, makes or revokes tokens.
- ``GET /api/players?prefix=al``: the names that start so, compared as names are (case and look-alikes folded: ``AL``
  and ``a1`` find ``alice``), shortest first, at most 20, none banned: each one's ``name`` and ``bot``. Anyone may
  search.
- ``GET /api/follows``: the players the asker follows: each one's ``name``, ``bot``, ``online``, ``seen`` and
  ``playing`` (a game of theirs in progress, to watch, or ``null``), online ones first. ``POST /api/follows``
  (``name``) follows a player (at most 200); ``DELETE /api/follows/{name}`` stops. Following is the account's own
  doing: a session with its CSRF token, not an API token.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from ...sdk.view import JSON
from ..shared.endpoints import body, endpoint
from .follows import Follows
from .identity import Identity
from .tokens import MAX_TOKENS, Tokens


class SocialRoutes:
    """The endpoints of an account's tokens and of its follows, on a server process.

    :param identity: who asks.
    :param tokens: the API tokens.
    :param follows: the search and the follows.
    :param json_depth: the deepest a request's JSON may nest.
    """

    def __init__(self, identity: Identity, tokens: Tokens, follows: Follows, json_depth: int) -> None:
        self.identity = identity
        self.tokens = tokens
        self.follows = follows
        self.json_depth = json_depth

    def routes(self) -> list[BaseRoute]:
        """The routes of the tokens and the follows."""
        return [
            Route("/api/account/tokens", endpoint(self.listed), methods=["GET"]),
            Route("/api/account/tokens/{id}", endpoint(self.revoke), methods=["DELETE"]),
            Route("/api/players", endpoint(self.search), methods=["GET"]),
            Route("/api/follows", endpoint(self.followed), methods=["GET"]),
            Route("/api/follows", endpoint(self.follow), methods=["POST"]),
            Route("/api/follows/{name}", endpoint(self.unfollow), methods=["DELETE"]),
        ]

    async def _body(self, request: Request) -> JSON:
        return await body(request, self.json_depth)

    async def listed(self, request: Request) -> Any:
        signed = await self.identity.reading(request, "account")
        tokens = await self.tokens.listed(signed)
        return {"tokens": [token.answer() for token in tokens], "limit": MAX_TOKENS}

    async def revoke(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        await self.tokens.revoke(signed, request.path_params["id"])
        return {"revoked": request.path_params["id"]}

    async def search(self, request: Request) -> Any:
        self.identity.check_enabled()
        return await self.follows.search(request.query_params)

    async def followed(self, request: Request) -> Any:
        signed = await self.identity.reading(request)
        return await self.follows.followed(signed)

    async def follow(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        return await self.follows.follow(signed, (await self._body(request)).get("name"))

    async def unfollow(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        return await self.follows.unfollow(signed, request.path_params["name"])


__all__ = ["SocialRoutes"]
