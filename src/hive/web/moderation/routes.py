"""The admins' page and API (``hive serve``; a server without accounts answers 404). Every route is an admin's:
anyone else is refused (401 signed out, 403 signed in), an API token is refused by its scope (an admin's action
needs a signed-in session), and every change carries the session's CSRF token in ``X-CSRF-Token``.

- ``GET /admin``: the admin screen (the page's shell, whose script shows it).
- ``GET /api/admin/reports``: the chat messages reported, the open ones first, each with the lines around it in its
  room (``context``), who wrote it (``name``, ``banned``, ``muted``), who reported it (``reported_by``, ``reports``)
  and when it was ``handled``. ``POST /api/admin/reports/{id}/handled`` (``handled``: true, the default, or false
  to open it again).
- ``POST /api/admin/accounts/{name}/ban`` (``banned``: true or false), ``.../mute`` (``muted``: true or false):
  idempotent, ``changed`` says whether this request changed the account (only a change is audited: of several at
  once, one is); ``.../password`` (answers a new random ``password`` to pass on), ``.../reset`` (answers a one-time
  ``link`` that sets a new password, valid for 30 minutes, and when it ``expires``), ``DELETE
  /api/admin/accounts/{name}`` (a spam account; its name is free again).
- ``GET /api/admin/audit`` (``?before=ID``): every admin's action, newest first, 100 at a time: ``id``, ``at``,
  ``admin``, ``action``, ``target`` and ``detail``.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...sdk.view import JSON
from ..players import Identity, Page
from ..shared.endpoints import body, endpoint
from ..shared.errors import BadRequest, NotFound
from ..shared.i18n import _
from ..shared.values import MAX_ID, parse_id
from .service import Moderation


def _flag(data: JSON, field: str, default: bool) -> bool:
    value = data.get(field, default)
    if not isinstance(value, bool):
        raise BadRequest(_("{field} is true or false.", field=repr(field)))
    return value


class ModerationRoutes:
    """The admins' endpoints of a server process.

    :param identity: who asks.
    :param moderation: the admins' actions.
    :param json_depth: the deepest a request's JSON may nest.
    :param page: the page's shell.
    """

    def __init__(self, identity: Identity, moderation: Moderation, json_depth: int, page: Page) -> None:
        self.identity = identity
        self.moderation = moderation
        self.json_depth = json_depth
        self._page = page

    def routes(self) -> list[BaseRoute]:
        """The admins' routes."""
        return [
            Route("/admin", endpoint(self.page), methods=["GET"]),
            Route("/api/admin/reports", endpoint(self.reports), methods=["GET"]),
            Route("/api/admin/reports/{id}/handled", endpoint(self.handled), methods=["POST"]),
            Route("/api/admin/audit", endpoint(self.audit), methods=["GET"]),
            Route("/api/admin/accounts/{name}", endpoint(self.delete), methods=["DELETE"]),
            Route("/api/admin/accounts/{name}/{action}", endpoint(self.account), methods=["POST"]),
        ]

    async def page(self, request: Request) -> Response:
        """The admin screen, for an admin; anyone else is refused as the API refuses them."""
        self.moderation.check(await self.identity.reading(request, "admin"))
        return await self._page(request)

    async def reports(self, request: Request) -> Any:
        return await self.moderation.reports(await self.identity.reading(request, "admin"))

    async def handled(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "admin")
        handled = _flag(await body(request, self.json_depth), "handled", True)
        return await self.moderation.handle(signed, request.path_params["id"], handled)

    async def audit(self, request: Request) -> Any:
        signed = await self.identity.reading(request, "admin")
        raw = request.query_params.get("before")
        before = None if raw is None else parse_id(raw, MAX_ID)
        if raw is not None and before is None:
            raise BadRequest(_("'before' is a row's id."))
        return await self.moderation.rows(signed, before)

    async def delete(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "admin")
        return await self.moderation.delete(signed, request.path_params["name"])

    async def account(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "admin")
        name, action = request.path_params["name"], request.path_params["action"]
        data = await body(request, self.json_depth)
        if action == "ban":
            return await self.moderation.ban(signed, name, _flag(data, "banned", True))
        if action == "mute":
            return await self.moderation.mute(signed, name, _flag(data, "muted", True))
        if action == "password":
            return await self.moderation.password(signed, name)
        if action == "reset":
            return await self.moderation.reset_link(signed, name, f"{request.base_url}reset/")
        raise NotFound(_("No admin action {action}.", action=repr(action)))


__all__ = ["ModerationRoutes"]
