"""The chat's API (``hive serve``; a server without accounts answers 404):

- ``GET /api/games/{id}/chat?room=players|spectators`` and ``POST`` (``room``, ``text``): the players' room (the two
  players') and the spectators' room (which the players read once the game is over).
- ``GET``/``POST /api/tournaments/{id}/chat`` (``text``): a tournament's room, its organiser's and players'.
- ``POST /api/account/block`` and ``/unblock`` (``name``): a blocked account's messages are hidden from the blocker,
  and its challenges refused.
- ``POST /api/chat/{id}/report`` reports a message to the admins, who list them with ``GET /api/admin/reports``
  (:mod:`hive.web.moderation.routes`).

A game's socket opened with ``chat=1`` is told of each message written in a room of the game's chat it may read.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from ..players import Identity
from ..shared.endpoints import body, endpoint
from .service import Chat


class ChatRoutes:
    """The chat's endpoints of a server process.

    :param identity: who asks.
    :param chat: the chat rooms.
    :param json_depth: the deepest a request's JSON may nest.
    """

    def __init__(self, identity: Identity, chat: Chat, json_depth: int) -> None:
        self.identity = identity
        self.chat = chat
        self.json_depth = json_depth

    def routes(self) -> list[BaseRoute]:
        """The chat's routes."""
        return [
            Route("/api/games/{id}/chat", endpoint(self.read), methods=["GET"]),
            Route("/api/games/{id}/chat", endpoint(self.say), methods=["POST"]),
            Route("/api/tournaments/{id}/chat", endpoint(self.tournament), methods=["GET", "POST"]),
            Route("/api/account/block", endpoint(self.block), methods=["POST"]),
            Route("/api/account/unblock", endpoint(self.unblock), methods=["POST"]),
            Route("/api/chat/{id}/report", endpoint(self.report), methods=["POST"]),
        ]

    async def read(self, request: Request) -> Any:
        self.identity.check_enabled()
        signed = await self.identity.signed(request)
        return await self.chat.read(request.path_params["id"], request.query_params.get("room"), signed)

    async def say(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "play")
        return await self.chat.say(signed, request.path_params["id"], await body(request, self.json_depth))

    async def tournament(self, request: Request) -> Any:
        if request.method == "GET":
            self.identity.check_enabled()
            return await self.chat.read_tournament(request.path_params["id"], await self.identity.signed(request))
        signed = await self.identity.changing(request, "play")
        data = await body(request, self.json_depth)
        return await self.chat.say_tournament(signed, request.path_params["id"], data)

    async def block(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        return await self.chat.block(signed, await body(request, self.json_depth), True)

    async def unblock(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        return await self.chat.block(signed, await body(request, self.json_depth), False)

    async def report(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "account")
        return await self.chat.report(signed, request.path_params["id"])


__all__ = ["ChatRoutes"]
