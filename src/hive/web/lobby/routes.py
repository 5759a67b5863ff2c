"""The lobby's API (``hive serve``; a server without accounts answers 404):

- Seeks: ``GET /api/seeks`` (the open ones, newest first); ``POST /api/seeks`` (``game``: a name such as
  ``Base+MLP`` or ``HiveQueen``, or ``kind`` and ``options`` as for a new game; ``time_control`` as for a new game,
  which a rated seek needs; ``rated``, default true; ``colour``, the seeker's side or ``random``; ``rating_range``,
  ``[low, high]``); ``GET /api/seeks/{id}`` (its ``game_id`` once accepted); ``POST /api/seeks/{id}/accept`` (the
  game starts: answers its ``id``, the accepting player's seat ``token`` and its ``state``); ``DELETE
  /api/seeks/{id}`` (the seeker's own). A seek or challenge (but a correspondence one) ends by itself when its
  seeker has had no page (lobby socket) or bot stream open for ``--seek-grace`` seconds, signs out, or starts
  another game from a seek or a challenge; it is announced as cancelled (withdrawn) with ``why``. A game from a seek
  is played with the game API as any other, the session's cookie standing for the seat's token (its changes
  carrying the CSRF token). A rated game that ends after both players moved moves both ratings (Glicko-2), in the
  transaction that stores its end; one aborted before (``POST /api/games/{id}/abort``) moves none.
- Challenges: ``POST /api/challenges`` (``to``: a player's name, and a seek's fields), ``GET /api/challenges``
  (``incoming`` and ``outgoing``), ``POST /api/challenges/{id}/accept`` (as a seek's), ``POST
  /api/challenges/{id}/decline`` (the challenged player's; the challenger withdraws it the same way). A blocked
  account's challenges are refused.
- Quick pairing: ``GET /api/quickpair`` (the grid's cells: ``id``, ``label``, ``time_control``, ``speed``);
  ``POST /api/quickpair`` (``game``, or ``kind`` and ``options``; ``time_control``, one of the grid's; ``rated``,
  default true; ``rating_range``) accepts the oldest fitting open seek of that pool by someone else (answered as an
  accepted seek, with ``paired: "started"``), or else opens a seek (``paired: "waiting"``, ``seek``), or withdraws
  the asker's own seek waiting there (``paired: "cancelled"``, ``seek``: its id); a real-time cell's click by a
  player who plays a real-time game in progress is refused (409); see :mod:`~hive.web.lobby.quick`.
- ``GET /api/games/{id}/seat``: the signed-in player's ``seat`` and its ``token`` in a game from a seek.
- Rematch offers: ``POST /api/games/{id}/rematch`` of a finished game between accounts is an offer to the opponent
  (see :meth:`LobbyRoutes.rematch`).
- ``WS /ws/lobby``: the lobby's seeks and challenges as they change, and a signed-in player's own news (see
  :mod:`~hive.web.lobby.sockets`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from ...sdk.view import JSON
from ..play.service import GameService
from ..play.session import Session
from ..players import Identity
from ..shared.endpoints import body, endpoint
from ..shared.errors import Forbidden
from .quick import QuickPairing
from .service import Seeks

#: A started game's answer: its id, the asker's token, the other seat's (``None`` here) and the state.
Started = Callable[[Session, str, str | None], Awaitable[JSON]]


class LobbyRoutes:
    """The lobby's endpoints of a server process.

    :param identity: who asks.
    :param seeks: the seeks, challenges and rematch offers.
    :param games: the games in play (the seats of a game from a seek).
    :param started: a started game's answer, as a new game's.
    :param json_depth: the deepest a request's JSON may nest.
    """

    def __init__(self, identity: Identity, seeks: Seeks, games: GameService, started: Started, json_depth: int) -> None:
        self.identity = identity
        self.seeks = seeks
        self.games = games
        self.started = started
        self.json_depth = json_depth
        self.quick = QuickPairing(seeks)

    def routes(self) -> list[BaseRoute]:
        """The lobby's routes (the rematch is the game's route, which asks :meth:`rematch` between accounts)."""
        return [
            Route("/api/games/{id}/seat", endpoint(self.seat), methods=["GET"]),
            Route("/api/quickpair", endpoint(self.quick_grid), methods=["GET"]),
            Route("/api/quickpair", endpoint(self.quick_pair), methods=["POST"]),
            Route("/api/seeks", endpoint(self.list_seeks), methods=["GET"]),
            Route("/api/seeks", endpoint(self.open_seek), methods=["POST"]),
            Route("/api/seeks/{id}", endpoint(self.seek), methods=["GET"]),
            Route("/api/seeks/{id}", endpoint(self.cancel_seek), methods=["DELETE"]),
            Route("/api/seeks/{id}/accept", endpoint(self.accept_seek), methods=["POST"]),
            Route("/api/challenges", endpoint(self.challenges), methods=["GET"]),
            Route("/api/challenges", endpoint(self.challenge), methods=["POST"]),
            Route("/api/challenges/{id}/accept", endpoint(self.accept_seek), methods=["POST"]),
            Route("/api/challenges/{id}/decline", endpoint(self.cancel_seek), methods=["POST"]),
        ]

    async def _body(self, request: Request) -> JSON:
        return await body(request, self.json_depth)

    async def list_seeks(self, request: Request) -> Any:
        self.identity.check_enabled()
        return await self.seeks.listed()

    async def open_seek(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "play")
        return await self.seeks.open(signed, await self._body(request))

    async def quick_grid(self, request: Request) -> Any:
        self.identity.check_enabled()
        return self.quick.grid()

    async def quick_pair(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "play")
        done, found = await self.quick.pair(signed, await self._body(request))
        if done == "started":
            session, game = found
            return {**await self.started(session, game.token, None), "paired": done}
        return {"paired": done, "seek": found}

    async def seek(self, request: Request) -> Any:
        self.identity.check_enabled()
        return await self.seeks.get(request.path_params["id"])

    async def accept_seek(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "play")
        session, game = await self.seeks.accept(signed, request.path_params["id"])
        return await self.started(session, game.token, None)

    async def rematch(self, request: Request) -> Any:
        """The rematch of a finished game between accounts (see :meth:`~hive.web.lobby.service.Seeks.rematch`):
        offered (``offered``: the challenge), or started (the rematch, with the asker's own seat's token alone)."""
        signed = await self.identity.changing(request, "play")
        found = await self.seeks.rematch(signed, request.path_params["id"])
        if not isinstance(found, Session):
            return {"id": None, "token": None, "invite": None, **found}
        record = found.record
        token = record.tokens[record.accounts.index(signed.account.id)]
        assert token is not None
        return {**await self.started(found, token, None), "offered": None}

    async def cancel_seek(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "play")
        return await self.seeks.cancel(signed, request.path_params["id"])

    async def challenge(self, request: Request) -> Any:
        signed = await self.identity.changing(request, "play")
        return await self.seeks.challenge(signed, await self._body(request))

    async def challenges(self, request: Request) -> Any:
        signed = await self.identity.reading(request)
        return await self.seeks.challenges(signed)

    async def seat(self, request: Request) -> Any:
        """The signed-in player's seat and its token in a game from a seek or a challenge, for a page to keep as it
        keeps the tokens of the games it creates.

        :raises Unauthorized: when nobody is signed in.
        :raises Forbidden: when the account holds no seat of the game.
        """
        signed = await self.identity.reading(request)
        game_id = request.path_params["id"]
        record = (self.games.sessions.get(game_id) or await self.games.session(game_id)).record
        if signed.account.id not in record.accounts:
            raise Forbidden(f"{signed.account.name} plays no seat of this game.")
        seat = record.accounts.index(signed.account.id)
        return {"id": game_id, "seat": seat, "token": record.tokens[seat]}


__all__ = ["LobbyRoutes", "Started"]
