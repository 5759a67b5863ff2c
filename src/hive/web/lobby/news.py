"""The lobby's news in this process: each change of the lobby (a seek, a challenge, an invitation, an account come
online; see :mod:`~hive.web.lobby.sockets`), from this process or another, sent to the lobby sockets here that may see
it; each player told whose turn it is in their games; and the seeks this process holds for its seekers, said every
few seconds (a seek nobody holds for the grace ends: its seeker left).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ...periodic import every
from ..play import GameService
from ..play.events import AI_MOVE, CREATED, FLAG, MOVE, GameDeleted, GameEvent
from ..players import Signed
from ..players.events import CameOnline
from ..players.profiles import Profiles
from ..shared.errors import GameError
from ..shared.events import LobbyEvent, Subscribers
from .service import SIGNED_OUT, Seeks
from .sockets import LobbySockets

log = logging.getLogger("hive.web")
#: Seconds between two words that this process holds its seekers' seeks, at most (see :meth:`LobbyNews.hold_seeks`).
SEEKERS_BEAT = 5.0
#: The changes of a game after which its players' lobby sockets are told whose turn it is.
TURNS = frozenset({MOVE, AI_MOVE, CREATED, FLAG, "undo", "redo", "answer", "resign", "abort"})
#: The close code of a lobby socket whose lobby cannot be sent again (the page reconnects at once).
RESTARTING = 1012


class LobbyNews:
    """The lobby's news for the lobby sockets of this process.

    :param sockets: the lobby sockets here.
    :param seeks: the seeks and challenges.
    :param profiles: the players' profiles (the games where it is their turn).
    :param service: the games (whose turn it is).
    :param shown: shows a game to its sockets here (a finished game's rematch offer is part of its state).
    :param streams: the bot event streams open here, by account (each holds its account's seeks).
    :param seek_grace: seconds a seek nobody holds stays open.
    """

    def __init__(
        self,
        sockets: LobbySockets,
        seeks: Seeks,
        profiles: Profiles,
        service: GameService,
        shown: Callable[[str], Awaitable[None]],
        streams: Mapping[str, int],
        seek_grace: float,
    ) -> None:
        self.sockets = sockets
        self.seeks = seeks
        self.profiles = profiles
        self.service = service
        self.shown = shown
        self.streams = streams
        self.seek_grace = seek_grace

    def subscribe(self, subscribers: Subscribers) -> None:
        """Follow the lobby's changes and who came online, and the games' changes that pass a turn."""
        subscribers.subscribe(LobbyEvent, self._lobby)
        subscribers.subscribe(CameOnline, self._lobby)
        subscribers.subscribe(GameEvent, self._turned)

    async def _lobby(self, event: LobbyEvent | CameOnline) -> None:
        """A change of the lobby (from this process or another): this process's lobby sockets that may see it are
        sent it, and a finished game's sockets a rematch offer."""
        change = event.message()
        self.sockets.deliver(change)
        await self._offered(change)

    async def _offered(self, change: dict[str, Any]) -> None:
        """A rematch offer opened, declined or withdrawn: the finished game's sockets here are shown it (its state's
        ``rematch_offer``)."""
        game_id = change.get("rematch_of")
        if isinstance(game_id, str):
            await self.shown(game_id)

    async def hello(self, signed: Signed | None) -> dict[str, Any]:
        """The first message of a lobby socket: the open seeks and, for a signed-in player, their challenges and
        the games where it is their turn."""
        hello: dict[str, Any] = {"type": "hello", "name": None, **await self.seeks.listed()}
        hello.update(incoming=[], outgoing=[], turns=[])
        if signed is not None:
            hello.update(name=signed.account.name, **await self.seeks.challenges(signed))
            hello["turns"] = (await self.profiles.turns(signed))["games"]
        return hello

    async def resync(self) -> None:
        """After missing events (the bus was away): every lobby socket here is sent the lobby as it stands."""
        for account, watcher, signed in self.sockets.sockets():
            self.sockets.hold(watcher.ws)
            try:
                hello = await self.hello(signed)
            except GameError as err:
                log.warning("the lobby could not be sent again: %s", err)
                self.sockets.remove(watcher.ws, account)
                watcher.drop(RESTARTING, "The lobby cannot be shown now: reconnecting.")
                continue
            self.sockets.ready(watcher.ws, account, watcher, hello)

    async def _turned(self, event: GameEvent) -> None:
        """A game's change that may pass the turn: its players' lobby sockets here are told."""
        if not isinstance(event, GameDeleted) and event.what in TURNS and self.sockets.signed_in:
            await self._tell_turns(event)

    async def _tell_turns(self, event: GameEvent) -> None:
        """Tell the lobby sockets of a game's players here whose turn it is now."""
        try:
            session = self.service.sessions.get(event.game_id) or await self.service.session(event.game_id)
        except GameError:
            return
        record = session.record
        if not any(self.sockets.has(account) for account in record.accounts):
            return
        game = session.board.game_name
        for seat, account in enumerate(record.accounts):
            if account is None or not self.sockets.has(account):
                continue
            over = record.result is not None
            self.sockets.tell(account, {
                "type": "turn", "game_id": record.id, "your_turn": not over and session.board.turn == seat,
                "over": over, "game": game, "opponent": record.names[1 - seat], "moves": len(record.moves),
                "version": record.version,
            })  # fmt: skip

    async def signed_out(self, account_id: str) -> None:
        """An account signed out: its seeks end, nobody being there to play them."""
        await self.seeks.withdraw_all(account_id, SIGNED_OUT)

    def seekers_here(self) -> set[str]:
        """The accounts this process holds the seeks of: those with a lobby socket (any page of theirs) or a bot
        event stream open here."""
        return self.sockets.accounts() | set(self.streams)

    async def hold_seeks(self) -> list[str]:
        """Say which seekers are here, then end the seeks that nobody held for the grace (their seekers left); their
        ids. Every process does so every few seconds: a process that stops holds nothing more, so that its players'
        seeks end too."""
        await self.seeks.hold(self.seekers_here())
        return await self.seeks.expire(self.seek_grace)

    async def holding(self) -> None:
        """Every few seconds (a sixth of the grace, 5 s at most), :meth:`hold_seeks`; until cancelled."""
        await every(min(SEEKERS_BEAT, self.seek_grace / 6), self.hold_seeks, "could not look at the seekers", log=log)


__all__ = ["SEEKERS_BEAT", "TURNS", "LobbyNews"]
