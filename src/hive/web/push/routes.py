"""Web Push's API (``hive serve``; a server without accounts answers 404). A signed-in player's browser subscribes
with the Push API (see :mod:`~hive.web.push.service` for what each value must be) and is sent the notifications it
asks for (see :mod:`~hive.web.push.notices`):

- ``GET /api/push/key``: the server's VAPID public key (``key``, base64url: the ``applicationServerKey`` to subscribe
  with) and the ``kinds`` of notification (``turn``, ``challenge``, ``tournament``).
- ``GET /api/push/subscription?endpoint=URL`` (signed in): whether this browser's subscription is the account's
  (``subscribed``) and the ``kinds`` it asks for.
- ``POST /api/push/subscribe`` (``endpoint``, ``keys``: ``p256dh`` and ``auth``, as ``PushSubscription.toJSON()``
  gives them; ``kinds``, all by default; ``language``): store it, in place of the same browser's earlier one. An
  account has 10 at most (429).
- ``POST /api/push/preferences`` (``endpoint``, ``kinds``): change which notifications it asks for (404: no such
  subscription of the account's).
- ``POST /api/push/unsubscribe`` (``endpoint``): delete it (``deleted``: whether there was one).

The changes need a signed-in page's session and its CSRF token (``X-CSRF-Token``); an API token is refused (403):
notifications are a browser's.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from ..players import Identity
from ..shared.endpoints import body, endpoint
from .service import Push


class PushRoutes:
    """Web Push's endpoints of a server process.

    :param identity: who asks.
    :param push: the subscriptions.
    :param json_depth: the deepest a request's JSON may nest.
    """

    def __init__(self, identity: Identity, push: Push, json_depth: int) -> None:
        self.identity = identity
        self.push = push
        self.json_depth = json_depth

    def routes(self) -> list[BaseRoute]:
        """Web Push's routes."""
        return [
            Route("/api/push/key", endpoint(self.key), methods=["GET"]),
            Route("/api/push/subscription", endpoint(self.status), methods=["GET"]),
            Route("/api/push/subscribe", endpoint(self.subscribe), methods=["POST"]),
            Route("/api/push/preferences", endpoint(self.preferences), methods=["POST"]),
            Route("/api/push/unsubscribe", endpoint(self.unsubscribe), methods=["POST"]),
        ]

    async def key(self, request: Request) -> Any:
        self.identity.check_enabled()
        return await self.push.key()

    async def status(self, request: Request) -> Any:
        signed = await self.identity.reading(request, "account")
        return await self.push.status(signed, request.query_params.get("endpoint"))

    async def subscribe(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        return await self.push.subscribe(signed, await body(request, self.json_depth))

    async def preferences(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        return await self.push.choose(signed, await body(request, self.json_depth))

    async def unsubscribe(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        return await self.push.unsubscribe(signed, await body(request, self.json_depth))


__all__ = ["PushRoutes"]
