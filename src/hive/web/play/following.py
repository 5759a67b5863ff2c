"""Every change of a game followed in this process, whichever process made it: the game in memory brought up to date,
the parts that act on a change (the AI, the flags) told, and the game's sockets here shown its new state (see
:class:`~hive.web.play.showing.Showing`).

A change this process stores has the state its sockets here are to be shown built just before it is stored
(:meth:`Following.prepare`), carried by the change's own event to the other processes, which send it to theirs
rather than build it again; a state too long for the event is sent after it on its own (a process awaits it for
:data:`SHOWN_WAIT` at most, then builds it itself). The change is then announced (:meth:`Following.announce`):
published on the bus and followed here. Another process's change comes by the bus (:meth:`Following.heard`). A
sweep every :data:`SWEEP` seconds shows again a game whose stored version is newer than shown (its event was lost).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from ...periodic import every
from ..shared.bus import Bus, LocalBus
from ..shared.events import Event, Subscribers
from .events import GameDeleted, GameEvent, GameShown, pack_state, unpack_state
from .fanout import Fanout
from .presence import Watching
from .presence_events import PresenceChanged
from .service import GameService
from .showing import Showing

if TYPE_CHECKING:
    import sqlalchemy as sa

log = logging.getLogger("hive.web")
#: Seconds between looks at the versions of the games watched here (a change whose event was lost still shows).
SWEEP = 10.0
#: Seconds another process's state of a game it changed is awaited before this process builds it (its process died).
SHOWN_WAIT = 1.0
#: The longest state a change's event carries, in bytes of its JSON (PostgreSQL's notifications carry at most 8,000
#: bytes: the change the event also carries takes at most 3,000, its other fields a few hundred).
STATE_LONGEST = 4400


class Following:
    """What follows each change of a game here; the games' :class:`~hive.web.play.events.Announcer`.

    :param service: the games.
    :param bus: what carries the events between processes.
    :param subscribers: what follows each type of event here (this follows the games' changes among them).
    :param arrivals: what brings this process up to date with another process's event before it is followed.
    :param showing: the games' states shown to their sockets here.
    :param watching: who is present at each game.
    :param versions: a game's stored version (``None``: deleted), for the sweep.
    :param acting: what acts on a change (the AI, the flags), told of each, in order.
    :param deleted: what forgets a deleted game (its engine review), told its id.
    :param woken: what looks again after missed events (the AI's queue).
    :param counted: what counts the changes stored here (the metrics).
    :param ended: what follows the end of a game between accounts here, once the change's lock is let go (its
        tournament's round); its failures are its own.
    """

    def __init__(
        self,
        service: GameService,
        bus: Bus,
        subscribers: Subscribers,
        arrivals: Subscribers,
        showing: Showing,
        watching: Watching,
        versions: Callable[[str], Awaitable[int | None]],
        *,
        acting: Sequence[Callable[[GameEvent], None]] = (),
        deleted: Sequence[Callable[[str], None]] = (),
        woken: Sequence[Callable[[], None]] = (),
        counted: Callable[[GameEvent], None] = lambda event: None,
        ended: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self.service = service
        self.bus = bus
        self.subscribers = subscribers
        self.arrivals = arrivals
        self.showing = showing
        self.fanout: Fanout = showing.fanout
        self.watching = watching
        self.versions = versions
        self.acting = acting
        self.deleted = deleted
        self.woken = woken
        self.counted = counted
        self.ended = ended
        self._tasks: set[asyncio.Task[None]] = set()

    def subscribe(self) -> None:
        """Follow the games' changes, the states other processes built and who is present, here and from others."""
        self.subscribers.subscribe(GameEvent, self.follow)
        self.subscribers.subscribe(GameShown, self._state_heard)
        self.subscribers.subscribe(PresenceChanged, self._present)
        self.arrivals.subscribe(GameEvent, self._refresh)
        self.arrivals.subscribe(PresenceChanged, self._presence_heard)

    # ------------------------------------------------------------------
    # a change stored here

    def stored(self, connection: sa.Connection, event: GameEvent) -> None:
        """A change is being stored: the bus's part inside the transaction (PostgreSQL's ``NOTIFY``)."""
        self.bus.stored(connection, self._telling(event))

    def told(self, event: GameEvent) -> str | None:
        """A change is about to be stored: the text of its notification, sent by the statement that stores it."""
        return self.bus.told(self._telling(event))

    async def prepare(self, event: GameEvent) -> GameEvent:
        """A change of this process's is about to be stored: the state its sockets here are to be shown, built now
        and carried by the event to the other processes (when it is short enough, see :data:`STATE_LONGEST`), so
        that none builds it again and it needs no notification of its own."""
        if isinstance(self.bus, LocalBus) or isinstance(event, GameDeleted) or not self.fanout.watched(event.game_id):
            return event
        session = self.service.sessions.get(event.game_id)
        if session is None or session.record.version != event.version:
            return event
        shared = await self.showing.build(session)
        carried = "" if shared is None else pack_state(shared, STATE_LONGEST)
        return dataclasses.replace(event, state=carried) if carried else event

    def _telling(self, event: GameEvent) -> GameEvent:
        """The event as the other processes are sent it: saying whether this process sends the state it shows on
        its own (it does when its sockets watch the game and the event could not carry it, see
        :meth:`_shown_to_others`)."""
        if isinstance(self.bus, LocalBus) or event.state is not None or not self.fanout.watched(event.game_id):
            return event
        return dataclasses.replace(event, state_follows=True)

    async def announce(self, event: GameEvent) -> None:
        """A change of this process's to a game is stored: publish it, and follow it here."""
        await self.bus.published(self._telling(event))
        self.counted(event)
        await self.subscribers.deliver(event)
        await self._shown_to_others(event)
        session = self.service.sessions.get(event.game_id)
        over = not isinstance(event, GameDeleted) and session is not None and session.record.result
        if over and session is not None and any(session.record.accounts) and self.ended is not None:
            # a tournament's game ended: its round may be over; looked at once the change's own lock is let go
            self._later(self.ended(session.record.id))

    async def _shown_to_others(self, event: GameEvent) -> None:
        """Send the other processes the state this process just built for its sockets after its change, so that they
        send it to theirs rather than build it again."""
        if isinstance(self.bus, LocalBus) or isinstance(event, GameDeleted) or event.state is not None:
            return
        shared = self.showing.last(event.game_id, event.version)
        if shared is None:
            return
        try:
            await self.bus.published(GameShown.pack(event.game_id, event.version, shared))
        except Exception as err:  # the others build it when it does not come
            log.warning("game %s's state could not be sent to the other processes: %s", event.game_id, err)

    def _later(self, work: Awaitable[None]) -> None:
        """Do ``work`` in the background; :meth:`settle` awaits it."""

        async def run() -> None:
            await work

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Await the work begun in the background (a state built late, a tournament's round being paired)."""
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # ------------------------------------------------------------------
    # a change from any process

    async def heard(self, event: Event) -> None:
        """Another process's event: bring what this process holds up to date, and follow it here."""
        await self.arrivals.deliver(event)
        await self.subscribers.deliver(event)

    async def _refresh(self, event: GameEvent) -> None:
        """Another process's change to a game: bring the game in memory up to date."""
        if not isinstance(event, GameDeleted):
            await self.service.refresh(event)

    async def _presence_heard(self, event: PresenceChanged) -> None:
        """Who is present at a game changed on another process: look again."""
        self.watching.heard(event.game_id)

    async def follow(self, event: GameEvent) -> None:
        """What follows a change: the AI, the flags, and the sockets watching the game."""
        if isinstance(event, GameDeleted):
            self.service.sessions.pop(event.game_id, None)
            for forget in self.deleted:
                forget(event.game_id)
            self.fanout.close(event.game_id, 4410, "The game was deleted.")
            return
        for act in self.acting:
            act(event)
        game_id = event.game_id
        if event.state is not None and self._carried(event):
            return
        if event.state_follows and event.origin != self.service.origin and self.fanout.watched(game_id):
            self.fanout.await_state(
                game_id, event.version, SHOWN_WAIT, lambda: self._later(self.showing.broadcast(game_id))
            )
        else:
            self.fanout.stop_awaiting(game_id)
            await self.showing.broadcast(game_id, event.version)

    def _carried(self, event: GameEvent) -> bool:
        """Send the game's sockets here the state the event carries, if the game in memory is at its version
        (whether it was sent)."""
        session = self.service.sessions.get(event.game_id)
        if session is None or session.record.version != event.version or event.state is None:
            return False
        if self.fanout.watched(event.game_id):
            shared = unpack_state(event.state)
            if shared is None:
                return False
            self.fanout.stop_awaiting(event.game_id)
            self.showing.shown(event.game_id, event.version, shared)
        return True

    async def _state_heard(self, event: GameShown) -> None:
        """Another process sent the state it built after its change: sent to the game's sockets here, if it is the
        one awaited."""
        if not self.fanout.arrived(event.game_id, event.version):
            return
        shared = event.text()
        if shared is None:
            await self.showing.broadcast(event.game_id, event.version)
        else:
            self.showing.send(event.game_id, shared)

    async def _present(self, event: PresenceChanged) -> None:
        """Who is present at a game changed: its sockets here are shown it."""
        await self.showing.broadcast(event.game_id)

    async def resync(self) -> None:
        """After missing events (the bus was away): show every game watched here as it is stored now."""
        self.watching.forget_all()
        for wake in self.woken:
            wake()
        for game_id in list(self.fanout.games):
            await self.showing.broadcast(game_id)

    # ------------------------------------------------------------------
    # the sweep

    async def sweeping(self) -> None:
        """Every :data:`SWEEP` seconds, :meth:`sweep`; until cancelled."""
        await every(SWEEP, self.sweep, "could not look at the games watched here", log=log)

    async def sweep(self) -> None:
        """Show again the games watched here whose stored version is newer than shown."""
        for game_id in list(self.fanout.games):
            session = self.service.sessions.get(game_id)
            try:
                stored = await self.versions(game_id)
            except Exception as err:
                log.warning("could not look at game %s: %s", game_id, err)
                break
            if session is None or stored != session.record.version:
                await self.showing.broadcast(game_id)


__all__ = ["SHOWN_WAIT", "STATE_LONGEST", "SWEEP", "Following"]
