"""The server process: its parts wired together, started and stopped, and every change followed.

:class:`App` is the ASGI application. It opens the database, builds the game service and the parts that follow its
changes (the AI, the flags, the sockets), and the bus that carries changes between processes sharing a PostgreSQL
database. Every event (see :mod:`~hive.web.shared.events`) goes to the handlers subscribed to its type
(:attr:`App.subscribers`), whichever process it happened in: a change the service stores is announced to
:meth:`App.announce`, the others' events come by the bus (:meth:`App.heard`, which first brings this process up to
date: :attr:`App.arrivals`). Following a game's change means: the AI takes its turn if it is due, the flag watcher
looks at the new deadline, and every socket watching the game gets its new state, built once for every process (the
one that stored the change sends it to the others).

Stopping (SIGTERM, Ctrl+C) drains the process: it stops being ready, closes its sockets with a reason (the page
reconnects, to another process if there is one), lets the requests in flight finish, gives its AI jobs back to the
queue and stops its workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Protocol

import sqlalchemy as sa
from starlette.applications import Starlette
from starlette.routing import BaseRoute

from ..ai.player import AIPlayer
from ..ai.pool import Workers
from ..ai.routes import AIRoutes
from ..analysis.review import Reviews
from ..analysis.routes import AnalysisRoutes
from ..analysis.service import Analysis
from ..bots import Bots
from ..bots.routes import BotRoutes
from ..chat import Chat
from ..chat.events import LineSaid
from ..chat.routes import ChatRoutes
from ..lobby import SIGNED_OUT, LobbySockets, Seeks
from ..lobby.routes import LobbyRoutes
from ..play.events import AI_MOVE, CREATED, FLAG, MOVE, GameDeleted, GameEvent, GameShown
from ..play.fanout import Fanout, Watcher, dumps, with_seats
from ..play.flags import Flags
from ..play.game_list import GameList
from ..play.presence import Watching
from ..play.presence_events import PresenceChanged
from ..play.routes import PlayRoutes
from ..play.service import GameService
from ..play.session import Session
from ..play.sockets import GameSocket
from ..players import Accounts, Identity, Signed
from ..players.events import CameOnline
from ..players.profiles import Profiles
from ..players.routes import PlayerRoutes
from ..ratings import Ratings
from ..ratings.routes import RatingRoutes
from ..shared.bus import Bus, LocalBus, PostgresBus, RedisBus
from ..shared.errors import GameError
from ..shared.events import Event, LobbyEvent, Subscribers
from ..shared.settings import Settings
from ..storage import open_store
from ..tournaments import Tournaments
from ..tournaments.routes import TournamentRoutes
from .facts import AccountLinks, GameFacts
from .guard import Guard
from .limits import GameSockets, OpenSockets, RateLimits
from .ops import Metrics, Observed

#: Seconds between two looks at the tournaments under way.
TOURNAMENT_LOOK = 30.0
#: Seconds between two words that this process holds its seekers' seeks, at most (see :meth:`App.hold_seeks`).
SEEKERS_BEAT = 5.0
log = logging.getLogger("hive.web")
#: The close code and reason of the sockets of a process that is stopping (the page reconnects at once).
RESTARTING = 1012
RESTARTING_REASON = "The server is restarting: reconnecting."
#: Seconds between looks at the versions of the games watched here (a change whose event was lost still shows).
SWEEP = 10.0
#: Seconds for which the state just sent to a game's sockets answers the request that changed it (its clock's
#: remaining times are those of that moment).
SHOWN_FOR = 0.25
#: Seconds another process's state of a game it changed is awaited before this process builds it (its process died).
SHOWN_WAIT = 1.0
#: The changes of a game after which its players' lobby sockets are told whose turn it is.
TURNS = frozenset({MOVE, AI_MOVE, CREATED, FLAG, "undo", "redo", "answer", "resign", "abort"})


class DomainRoutes(Protocol):
    """A domain's endpoints, built with their collaborators handed in."""

    def routes(self) -> list[BaseRoute]:
        """The domain's routes."""
        ...


def process_name() -> str:
    """A name for this server process that no other process, here or on another machine, has."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class App:
    """One server process.

    :param database: the database: a SQLite file's path or URL, or a PostgreSQL URL (see
        :func:`~hive.web.shared.database.parse_url`).
    :param workers: processes for the AI; ``0`` thinks in a thread instead (for tests).
    :param settings: the limits and who may reach the server (by default :class:`~hive.web.shared.settings.Settings`'s).
    :param redis: a Redis URL to carry changes between processes (by default PostgreSQL's ``NOTIFY``).
    :param hold_clocks: hold the real-time clocks while the server is stopped (a lone server on one machine); by
        default, for SQLite.
    :raises ~hive.web.shared.database.DatabaseError: when the database cannot be used.
    """

    def __init__(
        self,
        database: str | os.PathLike[str],
        *,
        workers: int = 1,
        settings: Settings | None = None,
        redis: str | None = None,
        hold_clocks: bool | None = None,
    ) -> None:
        from .server import Api, routes

        self.settings = settings = settings or Settings()
        self.origin = process_name()
        self.store = open_store(database, self.origin, exclusive=True)
        db = self.store.database
        self.bus: Bus = (
            RedisBus(redis, self.origin) if redis else LocalBus() if db.sqlite else PostgresBus(db, self.origin)
        )
        self.service = GameService(
            self.store,
            live_games=settings.live_games,
            origin=self.origin,
            announcer=self,
            first_move=settings.first_move,
        )
        self.ai = AIPlayer(self.service, self.store.jobs, Workers(workers), settings)
        self.game_list = self.lobby = GameList(self.service)  # ``lobby``: the game list's name before
        self.reviews = Reviews(self.service, self.ai.jobs, self.store.reviews)
        self.analysis = Analysis(self.service, self.store.lines, self.ai.analyse)
        self.flags = Flags(self.service, db.sqlite if hold_clocks is None else hold_clocks)
        self.rates = RateLimits(settings)
        self.fanout = Fanout(settings.send_queue, settings.send_timeout)
        self.watching = Watching(self.store.presence, self._presence)
        self.lobby_sockets = LobbySockets(settings.send_queue, settings.send_timeout)
        self.lobby_clients = OpenSockets(settings.lobby_sockets)
        self.game_clients = GameSockets(settings)
        self.service.sessions.in_use = lambda game_id: self.fanout.watched(game_id) or self.ai.busy(game_id)
        self.metrics = Metrics(self)
        #: The address and port the server listens on, once :func:`~hive.web.http.run.serve` knows them.
        self.listening: tuple[str | None, int | None] = (None, None)
        self.draining = False
        #: Each game's state as last sent to its sockets: its version, when, and its JSON without the seats.
        self._shown: dict[str, tuple[int, float, str]] = {}
        self._started: asyncio.Task[None] | None = None
        self._loops: list[asyncio.Task[None]] = []
        self._stopped = False
        self.api = Api(self)
        self.accounts = Accounts(self.store.accounts, quotas=self.store.quotas, settings=settings)
        self.accounts.came_online = self._came_online
        self.identity = identity = Identity(self.accounts, settings.accounts)
        self.ratings = Ratings(self.store.ratings)
        self.tournaments = Tournaments(self.store.tournaments, self.service, self.accounts, self.lobby_changed)
        self.chat = Chat(self.store.chat, self.service, self.accounts, self.tournaments, self.chat_said)
        self.seeks = Seeks(
            self.store.seeks, self.ratings, self.service, self.accounts, self.chat, self.tournaments, self.lobby_changed
        )
        self.profiles = Profiles(self.store.accounts, self.service, self.ratings.rating)
        self.bots = Bots(self.accounts, self.ratings, self.seeks, self.service)
        self._tasks: set[asyncio.Task[None]] = set()
        depth = settings.json_depth
        self.lobby_routes = LobbyRoutes(identity, self.seeks, self.service, self.api.started, depth)
        self.bot_routes = BotRoutes(identity, self.bots)
        #: Each community domain's endpoints (their routes go into :func:`~hive.web.http.server.routes`).
        self.domains: list[DomainRoutes] = [
            PlayerRoutes(
                identity, self.accounts, self.profiles, depth, self.api.page, self.ratings.profile, self._signed_out
            ),
            RatingRoutes(identity, self.ratings, self.api.page),
            self.lobby_routes,
            TournamentRoutes(identity, self.tournaments, self.api.page, depth),
            ChatRoutes(identity, self.chat, depth),
            self.bot_routes,
        ]
        self.facts = GameFacts(self.accounts, self.ratings, self.tournaments, self.seeks)
        self.account_api = AccountLinks(identity, self.service, self.facts, self.lobby_routes, self.bot_routes)
        self._domain_routes(settings)
        self.asgi = Starlette(routes=routes(self), exception_handlers=self.api.handlers(), lifespan=self._lifespan)
        self.asgi.state.hive = self
        self.app = Observed(Guard(self.asgi, settings), self.metrics, settings)

    def _domain_routes(self, settings: Settings) -> None:
        """The routes of the game side's domains, each handed its collaborators."""
        socket = GameSocket(
            self.service,
            self.fanout,
            self.watching,
            self.game_clients,
            self.metrics.sockets,
            self.show,
            lambda: self.draining,
        )
        self.play_routes = PlayRoutes(
            self.service,
            self.game_list,
            self.watching,
            socket,
            self.rates,
            club=self.account_api,
            accounts=settings.accounts,
            lines=self.analysis,
            shown_now=self.shown_now,
            json_depth=settings.json_depth,
        )
        seats = self.play_routes.seats
        self.analysis_routes = AnalysisRoutes(
            self.service, self.analysis, self.reviews, self.rates, seats, json_depth=settings.json_depth
        )
        self.ai_routes = AIRoutes(self.service, self.ai, self.rates, seats, lines=self.analysis)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and self._started is None:
            await self.start()  # served without a lifespan (an in-process test client)
        await self.app(scope, receive, send)

    # ------------------------------------------------------------------
    # starting and stopping

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.ai.workers.warm_up()
        await self.start()
        yield
        await self.close()

    async def start(self) -> None:
        """Start following the changes: listen to the bus, say this process is alive, watch the flags, take the AI's
        moves from the queue; done once."""
        if self._started is None:
            self._started = asyncio.get_running_loop().create_task(self._start())
        await asyncio.shield(self._started)

    async def _start(self) -> None:
        await self.bus.start(self.heard, self.resync)
        await self.watching.start()
        await self.flags.start()
        self.ai.start()
        self._loops.append(asyncio.get_running_loop().create_task(self._sweep()))
        if self.settings.accounts:
            self._loops.append(asyncio.get_running_loop().create_task(self._tournaments()))
            self._loops.append(asyncio.get_running_loop().create_task(self._seekers()))

    async def drain(self) -> None:
        """Stop being ready, and close every socket with a reason (the page reconnects, to another process if there
        is one); the requests in flight go on."""
        if self.draining:
            return
        self.draining = True
        closing = []
        for game_id in list(self.fanout.games):
            closing += self.fanout.close(game_id, RESTARTING, RESTARTING_REASON)
        closing += self.lobby_sockets.close_all(RESTARTING, RESTARTING_REASON)
        await asyncio.gather(*(self.fanout.closing(watcher) for watcher in closing))

    async def close(self) -> None:
        """Drain, stop following the changes, give the AI's moves back to the queue, stop the workers, hold the
        clocks of a lone server, and close the database; done once."""
        if self._stopped:
            return
        self._stopped = True
        await self.drain()
        await asyncio.gather(*self._tasks, return_exceptions=True)  # a tournament's round being paired
        for task in self._loops:
            task.cancel()
        await asyncio.gather(*self._loops, return_exceptions=True)
        self.reviews.close()
        await self.ai.close()
        await self.watching.close()
        try:
            await self.flags.stop()
        except Exception:
            log.exception("the clocks could not be held")
        await self.bus.close()
        self.store.close()

    def stop(self) -> None:
        """:meth:`close`, from outside the event loop (once the server has stopped)."""
        if self._stopped:
            return
        try:
            asyncio.run(self.close())
        except RuntimeError:  # an event loop still runs in this thread: close what needs no loop
            self._stopped = True
            self.ai.jobs.close()
            self.ai.workers.close()
            self.store.close()

    # ------------------------------------------------------------------
    # following the changes

    @functools.cached_property
    def subscribers(self) -> Subscribers:
        """What follows each type of event here, whichever process it happened in."""
        subscribers = Subscribers()
        subscribers.subscribe(GameEvent, self.follow)
        subscribers.subscribe(GameShown, self._state_heard)
        subscribers.subscribe(PresenceChanged, self._present)
        subscribers.subscribe(LobbyEvent, self._lobby)
        subscribers.subscribe(CameOnline, self._lobby)
        subscribers.subscribe(LineSaid, self._tell_chat)
        return subscribers

    @functools.cached_property
    def arrivals(self) -> Subscribers:
        """What brings this process up to date with another process's event before it is followed."""
        arrivals = Subscribers()
        arrivals.subscribe(GameEvent, self._refresh)
        arrivals.subscribe(PresenceChanged, self._presence_heard)
        return arrivals

    def stored(self, connection: sa.Connection, event: GameEvent) -> None:
        """A change is being stored: the bus's part inside the transaction (PostgreSQL's ``NOTIFY``)."""
        self.bus.stored(connection, self._telling(event))

    def _telling(self, event: GameEvent) -> GameEvent:
        """The event as the other processes are sent it: saying whether this process sends the state it shows (it
        does when its sockets watch the game, see :meth:`_shown_to_others`)."""
        if isinstance(self.bus, LocalBus) or not self.fanout.watched(event.game_id):
            return event
        return dataclasses.replace(event, state_follows=True)

    async def announce(self, event: GameEvent) -> None:
        """A change of this process's to a game is stored: publish it, and follow it here."""
        await self.bus.published(self._telling(event))
        if event.what == FLAG:
            self.metrics.flag_falls.inc()
        elif event.what in (MOVE, AI_MOVE):
            self.metrics.moves.inc()
        await self.subscribers.deliver(event)
        await self._shown_to_others(event)
        session = self.service.sessions.get(event.game_id)
        if not isinstance(event, GameDeleted) and session is not None and session.record.result:
            self._ended(session)

    async def _shown_to_others(self, event: GameEvent) -> None:
        """Send the other processes the state this process just built for its sockets after its change, so that they
        send it to theirs rather than build it again."""
        if isinstance(self.bus, LocalBus) or isinstance(event, GameDeleted):
            return
        found = self._shown.get(event.game_id)
        if found is None or found[0] != event.version:
            return
        try:
            await self.bus.published(GameShown.pack(event.game_id, event.version, found[2]))
        except Exception as err:  # the others build it when it does not come
            log.warning("game %s's state could not be sent to the other processes: %s", event.game_id, err)

    async def _state_heard(self, event: GameShown) -> None:
        """Another process sent the state it built after its change: sent to the game's sockets here, if it is the
        one awaited."""
        if not self.fanout.arrived(event.game_id, event.version):
            return
        shared = event.text()
        if shared is None:
            await self.broadcast(event.game_id, event.version)
        else:
            self._publish(event.game_id, shared)

    def _build_later(self, game_id: str) -> None:
        """The state another process was to send did not come: build it here."""
        task = asyncio.get_running_loop().create_task(self.broadcast(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def publish(self, event: Event) -> None:
        """Something that stores nothing of a game happened here (or its change is stored): tell every process, this
        one included."""
        try:
            await self.bus.published(event)
        except Exception as err:  # stored all the same: the other processes' pages see it when they look again
            log.warning("a %s event could not be sent to the other processes: %s", event.kind, err)
        await self.subscribers.deliver(event)

    def _ended(self, session: Session) -> None:
        if any(session.record.accounts):
            # a tournament's game ended: its round may be over; looked at once the change's own lock is let go
            task = asyncio.create_task(self._game_over(session.record.id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _game_over(self, game_id: str) -> None:
        try:
            await self.tournaments.game_over(game_id)
        except Exception:
            logging.getLogger("hive.web").exception("pairing the tournament of game %s", game_id)

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
            self.reviews.stop(event.game_id)
            self.fanout.close(event.game_id, 4410, "The game was deleted.")
            return
        self.ai.changed(event)
        self.flags.changed(event)
        game_id = event.game_id
        if event.state_follows and event.origin != self.origin and self.fanout.watched(game_id):
            self.fanout.await_state(game_id, event.version, SHOWN_WAIT, lambda: self._build_later(game_id))
        else:
            self.fanout.stop_awaiting(game_id)
            await self.broadcast(game_id, event.version)
        if event.what in TURNS and self.lobby_sockets.signed_in:
            await self._tell_turns(event)

    async def resync(self) -> None:
        """After missing events (the bus was away): show every game watched here as it is stored now."""
        self.watching.forget_all()
        self.ai.wake()
        for game_id in list(self.fanout.games):
            await self.broadcast(game_id)
        for account, watcher, signed in self.lobby_sockets.sockets():  # the lobby as it stands, what was missed in it
            self.lobby_sockets.hold(watcher.ws)
            try:
                hello = await self.lobby_hello(signed)
            except GameError as err:
                log.warning("the lobby could not be sent again: %s", err)
                self.lobby_sockets.remove(watcher.ws, account)
                watcher.drop(RESTARTING, "The lobby cannot be shown now: reconnecting.")
                continue
            self.lobby_sockets.ready(watcher.ws, account, watcher, hello)

    async def _presence(self, game_id: str) -> None:
        """Who is present at a game changed here: tell every process (this one included)."""
        await self.publish(PresenceChanged(game_id))

    async def _present(self, event: PresenceChanged) -> None:
        """Who is present at a game changed: its sockets here are shown it."""
        await self.broadcast(event.game_id)

    # ------------------------------------------------------------------
    # the lobby's sockets and the games' chat

    async def lobby_changed(self, event: LobbyEvent) -> None:
        """A change of the lobby is stored (a seek, a challenge or an invitation; see
        :mod:`~hive.web.lobby.sockets`): tell every process, this one included."""
        await self.publish(event)

    async def _came_online(self, event: CameOnline) -> None:
        """An account came online: every lobby page is told, to show it among who is online."""
        await self.publish(event)

    async def _lobby(self, event: LobbyEvent | CameOnline) -> None:
        """A change of the lobby (from this process or another): this process's lobby sockets that may see it are
        sent it, and a finished game's sockets a rematch offer."""
        change = event.message()
        self.lobby_sockets.deliver(change)
        await self._offered(change)

    async def _offered(self, change: dict[str, Any]) -> None:
        """A rematch offer opened, declined or withdrawn: the finished game's sockets here are shown it (its state's
        ``rematch_offer``)."""
        game_id = change.get("rematch_of")
        if isinstance(game_id, str):
            await self.broadcast(game_id)

    async def lobby_hello(self, signed: Signed | None) -> dict[str, Any]:
        """The first message of a lobby socket: the open seeks and, for a signed-in player, their challenges and
        the games where it is their turn."""
        hello: dict[str, Any] = {"type": "hello", "name": None, **await self.seeks.listed()}
        hello.update(incoming=[], outgoing=[], turns=[])
        if signed is not None:
            hello.update(name=signed.account.name, **await self.seeks.challenges(signed))
            hello["turns"] = (await self.profiles.turns(signed))["games"]
        return hello

    async def _tell_turns(self, event: GameEvent) -> None:
        """Tell the lobby sockets of a game's players here whose turn it is now."""
        try:
            session = self.service.sessions.get(event.game_id) or await self.service.session(event.game_id)
        except GameError:
            return
        record = session.record
        if not any(self.lobby_sockets.has(account) for account in record.accounts):
            return
        game = session.board.game_name
        for seat, account in enumerate(record.accounts):
            if account is None or not self.lobby_sockets.has(account):
                continue
            over = record.result is not None
            self.lobby_sockets.tell(account, {
                "type": "turn", "game_id": record.id, "your_turn": not over and session.board.turn == seat,
                "over": over, "game": game, "opponent": record.names[1 - seat], "moves": len(record.moves),
                "version": record.version,
            })  # fmt: skip

    async def chat_said(self, event: LineSaid) -> None:
        """A message was written in a game's room: tell every process, this one included."""
        await self.publish(event)

    async def _tell_chat(self, event: LineSaid) -> None:
        """Tell the sockets of the game that follow its chat (``?chat=1``) and may read the room that a message was
        written there: the players' room its players, the spectators' room its spectators, and its players once
        the game is over."""
        session = self.service.sessions.get(event.game_id)
        over = session is not None and session.record.result is not None
        text = dumps({"type": "chat", "room": event.room, "id": event.id})
        for watcher in self.fanout.sockets(event.game_id):
            playing = bool(watcher.seats)
            if watcher.chat and (playing if event.room == "players" else not playing or over):
                self.fanout.send(event.game_id, watcher, text)

    async def _signed_out(self, account_id: str) -> None:
        """An account signed out: its seeks end, nobody being there to play them."""
        await self.seeks.withdraw_all(account_id, SIGNED_OUT)

    async def _tournaments(self) -> None:
        """Every half minute, look at the tournaments under way: absent players' forfeits fall due there."""
        while True:
            await asyncio.sleep(TOURNAMENT_LOOK)
            try:
                await self.tournaments.look()
            except Exception as err:
                log.warning("could not look at the tournaments: %s", err)

    def seekers_here(self) -> set[str]:
        """The accounts this process holds the seeks of: those with a lobby socket (any page of theirs) or a bot
        event stream open here."""
        return self.lobby_sockets.accounts() | set(self.bot_routes.streams)

    async def hold_seeks(self) -> list[str]:
        """Say which seekers are here, then end the seeks that nobody held for the grace (their seekers left); their
        ids. Every process does so every few seconds: a process that stops holds nothing more, so that its players'
        seeks end too."""
        await self.seeks.hold(self.seekers_here())
        return await self.seeks.expire(self.settings.seek_grace)

    async def _seekers(self) -> None:
        """Every few seconds (a sixth of the grace, 5 s at most), :meth:`hold_seeks`."""
        while True:
            await asyncio.sleep(min(SEEKERS_BEAT, self.settings.seek_grace / 6))
            try:
                await self.hold_seeks()
            except Exception as err:
                log.warning("could not look at the seekers: %s", err)

    async def _sweep(self) -> None:
        """Every few seconds, show again the games watched here whose stored version is newer than shown."""
        while True:
            await asyncio.sleep(SWEEP)
            for game_id in list(self.fanout.games):
                session = self.service.sessions.get(game_id)
                try:
                    stored = await self.store.games.version(game_id)
                except Exception as err:
                    log.warning("could not look at game %s: %s", game_id, err)
                    break
                if session is None or stored != session.record.version:
                    await self.broadcast(game_id)

    def shown_now(self, session: Session) -> str | None:
        """The state of ``session`` as its sockets were just sent it (its JSON without ``seats``, see
        :func:`~hive.web.play.fanout.with_seats`), if that was at its current version and a moment ago: the
        answer to the request that made the change is then the same text, not encoded again."""
        found = self._shown.pop(session.record.id, None)
        if found is None:
            return None
        version, when, text = found
        return text if version == session.record.version and time.monotonic() - when < SHOWN_FOR else None

    async def broadcast(self, game_id: str, version: int | None = None) -> None:
        """Queue the game's state as stored for every socket watching it here, each with its own seats; never waits
        on one (``version``: the version just stored, when it is known to be the one in memory)."""
        if not self.fanout.watched(game_id):
            return
        shared = await self._shared(game_id, version)
        if shared is not None:
            self._publish(game_id, shared)

    def _publish(self, game_id: str, shared: str) -> None:
        """Queue a state (its JSON without ``seats``) for every socket watching the game here, each with its seats:
        the text of each set of seats made once."""
        texts: dict[frozenset[int], str] = {}

        def text(seats: frozenset[int]) -> str:
            if seats not in texts:
                texts[seats] = with_seats(shared, seats)
            return texts[seats]

        self.fanout.publish(game_id, text)

    async def show(self, game_id: str, watcher: Watcher) -> None:
        """Queue the game's state as stored for one socket (one just opened, when nothing changed for the others)."""
        shared = await self._shared(game_id, None)
        if shared is not None:
            self.fanout.send(game_id, watcher, with_seats(shared, watcher.seats))

    async def _shared(self, game_id: str, version: int | None) -> str | None:
        """The game's state as its sockets are sent it, without ``seats`` (see :func:`with_seats`); ``None`` when
        it cannot be read now (logged)."""
        try:
            session = self.service.sessions.get(game_id)
            if session is None or version is None or session.record.version != version:
                session = await self.service.session(game_id)
            present = await self.watching.present(game_id)
        except Exception as err:
            log.warning("game %s could not be shown to its watchers: %s", game_id, err)
            return None
        base = self.service.state(session, present=present)
        del base["seats"]
        try:
            base.update(await self.account_api.game_facts(session))
        except Exception as err:
            log.warning("game %s's accounts could not be read: %s", game_id, err)
        shared = dumps(base)[:-1]  # encoded once; each socket's seats are added at the end
        self._shown[game_id] = (session.record.version, time.monotonic(), shared)
        return shared


def create_app(
    database: str | Path,
    *,
    workers: int = 1,
    settings: Settings | None = None,
    redis: str | None = None,
    hold_clocks: bool | None = None,
) -> App:
    """Build the ASGI app over ``database`` (see :class:`App`)."""
    return App(database, workers=workers, settings=settings, redis=redis, hold_clocks=hold_clocks)


__all__ = ["RESTARTING", "RESTARTING_REASON", "App", "create_app", "process_name"]
