"""What a player is told by push notification, from the events of the domains that own what happened: their turn in
a game (play's :class:`~hive.web.play.events.MoveMade`: the opponent, or the AI, moved while the player has no page
of the game open on any process), a challenge to them (the lobby's :class:`~hive.web.lobby.events.SeekOpened` of a
challenge), a tournament of theirs starting (the tournaments' :class:`~hive.web.tournaments.events.TournamentStarted`).

Every process hears every event; only the one it happened in sends (its ``origin`` is this process's, or none: told
here first), so that a notification goes out once. An event heard is only queued: who is told is found by a
background loop (:meth:`Notices.noticing`), which queues the notifications for the :class:`Sender`, so that neither
the lookups nor the sending delay the event's other followers or the request that made it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..lobby.events import SeekOpened
from ..play import GameService
from ..play.events import MoveMade
from ..shared.errors import GameError
from ..shared.events import Event, Subscribers
from ..shared.i18n import SOURCE, _, gettext_in, languages, translate
from ..tournaments.events import TournamentStarted
from .repository import PushRepository
from .sending import Notification, Sender

log = logging.getLogger("hive.web")

#: The notifications' texts (their English, the catalogs' keys: see the ``messages-push.po`` files), by name.
TEXTS = {
    "turn.title": _("Your turn"),
    "turn.body": _("{opponent} moved in your game of {game}."),
    "turn.body.nobody": _("Your opponent moved in your game of {game}."),
    "challenge.title": _("A challenge for you"),
    "challenge.body": _("{player} challenges you to a game of {game} ({time_control})."),
    "tournament.title": _("Your tournament starts"),
    "tournament.body": _("{name} has started: your first game is ready."),
}
#: How long a push service keeps each kind of notification for a browser that is away (seconds): a turn for a day,
#: a challenge for an hour, a tournament's start for ten minutes (its first games are under way by then).
TTL = {"turn": 86_400, "challenge": 3600, "tournament": 600}


def text(key: str, language: str | None, **values: Any) -> str:
    """A notification's text in ``language`` (the subscriber's page's when it subscribed; English when the catalogs
    have not that language), its ``{…}`` filled in (a ``game``'s type and a ``time_control``, named in English by
    the server, in that language too)."""
    code = (language or SOURCE).split("-")[0].lower()
    code = code if code in languages() else SOURCE
    for name in ("game", "time_control"):
        if isinstance(values.get(name), str):
            values[name] = translate(code, values[name])
    return gettext_in(code, TEXTS[key].msgid, **values)


class Notices:
    """The push notifications this process sends, from the events it hears.

    :param repository: the subscriptions.
    :param sender: the queue they are sent from.
    :param service: the games (whose turn it is, and whose game).
    :param present: which seats of a game have a page of it open (on any process).
    :param origin: this process's name.
    :param queue: how many events may wait to be noticed.
    """

    def __init__(
        self,
        repository: PushRepository,
        sender: Sender,
        service: GameService,
        present: Callable[[str], Awaitable[tuple[bool, bool]]],
        origin: str,
        queue: int = 1024,
    ) -> None:
        self.repository = repository
        self.sender = sender
        self.service = service
        self.present = present
        self.origin = origin
        self.heard: asyncio.Queue[Event] = asyncio.Queue(queue)

    def subscribe(self, subscribers: Subscribers) -> None:
        """Follow the moves, the challenges and the tournaments' starts made here."""
        for kind in (MoveMade, SeekOpened, TournamentStarted):
            subscribers.subscribe(kind, self.hear)

    async def hear(self, event: Event) -> None:
        """An event: queued, if it happened here (dropped, and logged, when too many wait)."""
        if event.origin not in ("", self.origin):
            return
        try:
            self.heard.put_nowait(event)
        except asyncio.QueueFull:
            log.warning("a push notification was dropped: %d events wait already", self.heard.qsize())

    async def noticing(self) -> None:
        """Tell whom each event queued concerns; until cancelled."""
        while True:
            event = await self.heard.get()
            try:
                await self.notice(event)
            except GameError as err:
                log.warning("a push notification could not be made: %s", err)
            except Exception:  # a bug: said with its traceback, the next event noticed all the same
                log.exception("a push notification could not be made")
            finally:
                self.heard.task_done()

    async def notice(self, event: Event) -> None:
        """Queue the notifications an event calls for."""
        if isinstance(event, MoveMade):
            await self.moved(event)
        elif isinstance(event, SeekOpened):
            await self.challenged(event)
        elif isinstance(event, TournamentStarted):
            await self.started(event)

    async def settle(self) -> None:
        """Wait until every event queued was noticed and every notification sent or given up (for tests)."""
        await self.heard.join()
        await self.sender.settle()

    async def _notify(self, accounts: list[str], kind: str, payload: Callable[[str | None], dict[str, Any]]) -> None:
        """Queue a notification of ``kind`` to every subscription of ``accounts`` that asks for it (``payload``:
        its text in the subscription's language)."""
        for subscription in await self.repository.of_accounts(accounts, kind):
            message = {"kind": kind, **payload(subscription.language)}
            self.sender.put(Notification(subscription, message, TTL[kind], "high" if kind == "turn" else "normal"))

    async def moved(self, event: MoveMade) -> None:
        """A move was made: the player whose turn it is now is told, unless the game is over, the player is no
        account, or a page of theirs has the game open."""
        session = self.service.sessions.get(event.game_id) or await self.service.session(event.game_id)
        record, board = session.record, session.board
        seat = board.turn
        if record.result is not None or not isinstance(seat, int) or not 0 <= seat < len(record.accounts):
            return
        account = record.accounts[seat]
        if account is None or seat == event.by or (await self.present(record.id))[seat]:
            return
        opponent, game = record.names[1 - seat], board.game_name

        def payload(language: str | None) -> dict[str, Any]:
            body = "turn.body" if opponent else "turn.body.nobody"
            return {
                "title": text("turn.title", language), "body": text(body, language, opponent=opponent, game=game),
                "url": f"/game/{record.id}", "tag": f"turn-{record.id}", "game_id": record.id,
            }  # fmt: skip

        await self._notify([account], "turn", payload)

    async def challenged(self, event: SeekOpened) -> None:
        """A challenge was opened: the challenged player is told."""
        if event.to is None or len(event.route) < 2:
            return
        described = event.detail.get("challenge") or {}
        values = {
            "player": event.player, "game": described.get("game", ""),
            "time_control": described.get("time_control", ""),
        }  # fmt: skip

        def payload(language: str | None) -> dict[str, Any]:
            return {
                "title": text("challenge.title", language), "body": text("challenge.body", language, **values),
                "url": "/", "tag": f"challenge-{event.id}", "challenge_id": event.id,
            }  # fmt: skip

        await self._notify([event.route[1]], "challenge", payload)

    async def started(self, event: TournamentStarted) -> None:
        """A tournament started: its players are told."""
        name = event.detail.get("name", "")

        def payload(language: str | None) -> dict[str, Any]:
            return {
                "title": text("tournament.title", language), "body": text("tournament.body", language, name=name),
                "url": f"/tournament/{event.id}", "tag": f"tournament-{event.id}", "tournament_id": event.id,
            }  # fmt: skip

        await self._notify(list(event.route), "tournament", payload)


__all__ = ["TEXTS", "TTL", "Notices", "text"]
