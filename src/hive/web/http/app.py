"""The server process: the domains' services built with their collaborators handed in, their events wired, their
routes collected, and the process started, drained and stopped.

:class:`App` is the ASGI application. It opens the database and the bus that carries events between processes sharing
a PostgreSQL database, builds each domain's service, and subscribes what follows each type of event (see
:mod:`~hive.web.shared.events`), whichever process it happened in: a game's changes are followed by play
(:class:`~hive.web.play.following.Following`, which shows them to the game's sockets through
:class:`~hive.web.play.showing.Showing`), the lobby's news by the lobby (:class:`~hive.web.lobby.news.LobbyNews`),
a chat's messages by the chat (:class:`~hive.web.chat.news.ChatNews`), a player's turn, a challenge and a
tournament's start by Web Push (:class:`~hive.web.push.notices.Notices`, which sends from a queue of its own). The
background loops are the domains' own (the sweep of the games watched here, the seekers held, the tournaments looked
at, the push notifications sent); the app starts and stops them.

Stopping (SIGTERM, Ctrl+C) drains the process: it stops being ready, closes its sockets with a reason (the page
reconnects, to another process if there is one), lets the requests in flight finish, gives its AI jobs back to the
queue and stops its workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Coroutine
from pathlib import Path
from typing import Any, Protocol

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
from ..chat.news import ChatNews
from ..chat.routes import ChatRoutes
from ..lobby import LobbySockets, Seeks
from ..lobby.news import LobbyNews
from ..lobby.routes import LobbyRoutes
from ..moderation import Moderation
from ..moderation.routes import ModerationRoutes
from ..play.fanout import Fanout
from ..play.flags import Flags
from ..play.following import Following
from ..play.game_list import GameList
from ..play.presence import Watching
from ..play.presence_events import PresenceChanged
from ..play.routes import PlayRoutes
from ..play.service import GameService
from ..play.showing import Showing
from ..play.sockets import GameSocket
from ..players import Accounts, Identity
from ..players.follows import Follows
from ..players.mail import Mailer, MailServer
from ..players.profiles import Profiles
from ..players.reset_routes import ResetRoutes
from ..players.resets import PasswordResets
from ..players.routes import PlayerRoutes
from ..players.social_routes import SocialRoutes
from ..players.tokens import Tokens
from ..push import Notices, Push, Sender
from ..push.routes import PushRoutes
from ..ratings import Ratings
from ..ratings.routes import RatingRoutes
from ..shared.bus import Bus, LocalBus, PostgresBus, Publisher, RedisBus
from ..shared.events import Subscribers
from ..shared.settings import Settings
from ..storage import open_store
from ..tournaments import Tournaments
from ..tournaments.looking import TournamentLooks
from ..tournaments.routes import TournamentRoutes
from .facts import GameFacts
from .guard import Guard
from .limits import GameSockets, OpenSockets, RateLimits
from .ops import Metrics, Observed

log = logging.getLogger("hive.web")
#: The close code and reason of the sockets of a process that is stopping (the page reconnects at once).
RESTARTING = 1012
RESTARTING_REASON = "The server is restarting: reconnecting."


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
        self.store = store = open_store(database, self.origin, exclusive=True)
        db = store.database
        self.bus: Bus = (
            RedisBus(redis, self.origin) if redis else LocalBus() if db.sqlite else PostgresBus(db, self.origin)
        )
        #: What follows each type of event here, whichever process it happened in; and what first brings this
        #: process up to date with another process's event.
        self.subscribers, self.arrivals = Subscribers(), Subscribers()
        publish = Publisher(self.bus, self.subscribers).publish
        self.service = service = GameService(
            store, live_games=settings.live_games, origin=self.origin, first_move=settings.first_move
        )
        self.ai = AIPlayer(service, store.jobs, Workers(workers), settings)
        self.game_list = GameList(service)
        self.reviews = Reviews(service, self.ai.jobs, store.reviews)
        self.analysis = Analysis(service, store.lines, self.ai.analyse)
        self.flags = Flags(service, db.sqlite if hold_clocks is None else hold_clocks)
        self.rates = RateLimits(settings)
        self.fanout = Fanout(settings.send_queue, settings.send_timeout)
        self.watching = Watching(store.presence, lambda game_id: publish(PresenceChanged(game_id)))
        self.lobby_sockets = LobbySockets(settings.send_queue, settings.send_timeout)
        self.lobby_clients = OpenSockets(settings.lobby_sockets)
        self.game_clients = GameSockets(settings)
        service.sessions.in_use = lambda game_id: self.fanout.watched(game_id) or self.ai.busy(game_id)
        self.metrics = Metrics(self)
        #: The address and port the server listens on, once :func:`~hive.web.http.run.serve` knows them.
        self.listening: tuple[str | None, int | None] = (None, None)
        self.draining = False
        self._started: asyncio.Task[None] | None = None
        self._loops: list[asyncio.Task[None]] = []
        self._stopped = False
        self.api = Api(self)
        self.accounts = Accounts(store.accounts, quotas=store.quotas, settings=settings)
        self.accounts.came_online = publish
        self.identity = identity = Identity(self.accounts, settings.accounts)
        self.ratings = Ratings(store.ratings)
        self.tournaments = Tournaments(store.tournaments, service, self.accounts, publish)
        self.looks = TournamentLooks(self.tournaments)
        self.chat = Chat(store.chat, service, self.accounts, self.tournaments, publish)
        self.seeks = Seeks(store.seeks, self.ratings, service, self.accounts, self.chat, self.tournaments, publish)
        self.profiles = Profiles(store.accounts, service, self.ratings.rating)
        self.tokens, self.follows = Tokens(self.accounts.tokens), Follows(self.accounts, store.follows, service)
        self.bots = Bots(self.accounts, self.ratings, self.seeks, service)
        mailer = Mailer(MailServer.parse(settings.smtp)) if settings.smtp else None
        self.resets = PasswordResets(store.resets, store.accounts, store.quotas, mailer, self.accounts.passwords)
        self.moderation = Moderation(self.accounts, self.resets, self.chat, store.audit)
        self.facts = GameFacts(self.accounts, self.ratings, self.tournaments, self.seeks)
        self.showing = Showing(service, self.fanout, self.watching, self.facts.of)
        self.following = Following(
            service,
            self.bus,
            self.subscribers,
            self.arrivals,
            self.showing,
            self.watching,
            store.games.version,
            acting=(self.ai.changed, self.flags.changed),
            deleted=(self.reviews.stop,),
            woken=(self.ai.wake,),
            counted=self.metrics.stored,
            ended=self.looks.game_over,
        )
        service.announcer = self.following
        self.bot_routes = BotRoutes(identity, self.bots)
        self.news = LobbyNews(
            self.lobby_sockets,
            self.seeks,
            self.profiles,
            service,
            self.showing.broadcast,
            self.bot_routes.streams,
            settings.seek_grace,
        )
        self.following.subscribe()
        self.news.subscribe(self.subscribers)
        ChatNews(service, self.fanout).subscribe(self.subscribers)
        self.push = Push(store.push, loopback=settings.push_loopback)
        self.notices = Notices(
            store.push,
            Sender(store.push, settings.push_contact, loopback=settings.push_loopback),
            service,
            self.watching.present,
            self.origin,
        )
        if settings.accounts:  # only accounts subscribe (and the queue is sent from the loops of hive serve)
            self.notices.subscribe(self.subscribers)
        self._routes(settings)
        self.asgi = Starlette(routes=routes(self), exception_handlers=self.api.handlers(), lifespan=self._lifespan)
        self.asgi.state.hive = self
        self.app = Observed(Guard(self.asgi, settings), self.metrics, settings)

    def _routes(self, settings: Settings) -> None:
        """Each domain's endpoints, handed their collaborators (their routes go into
        :func:`~hive.web.http.server.routes`)."""
        socket = GameSocket(
            self.service,
            self.fanout,
            self.watching,
            self.game_clients,
            self.metrics.sockets,
            self.showing.show,
            lambda: self.draining,
        )
        depth, identity = settings.json_depth, self.identity
        self.lobby_routes = LobbyRoutes(identity, self.seeks, self.service, self.api.started, depth)
        self.play_routes = PlayRoutes(
            self.service,
            self.game_list,
            self.watching,
            socket,
            self.rates,
            identity=identity,
            facts=self.facts.of,
            offer_rematch=self.lobby_routes.rematch,
            accounts=settings.accounts,
            lines=self.analysis,
            shown_now=self.showing.shown_now,
            json_depth=depth,
        )
        seats = self.play_routes.seats
        self.analysis_routes = AnalysisRoutes(
            self.service, self.analysis, self.reviews, self.rates, seats, json_depth=depth
        )
        self.ai_routes = AIRoutes(self.service, self.ai, self.rates, seats, lines=self.analysis)
        self.domains: list[DomainRoutes] = [
            PlayerRoutes(
                identity,
                self.accounts,
                self.profiles,
                depth,
                self.api.page,
                self.ratings.profile,
                self.news.signed_out,
                self.tokens,
            ),
            SocialRoutes(identity, self.tokens, self.follows, depth),
            RatingRoutes(identity, self.ratings, self.api.page),
            self.lobby_routes,
            TournamentRoutes(identity, self.tournaments, self.api.page, depth),
            ChatRoutes(identity, self.chat, depth),
            self.bot_routes,
            PushRoutes(identity, self.push, depth),
            ResetRoutes(identity, self.resets, depth, self.api.page),
            ModerationRoutes(identity, self.moderation, depth, self.api.page),
        ]

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
        moves from the queue, run the domains' background loops; done once."""
        if self._started is None:
            self._started = asyncio.get_running_loop().create_task(self._start())
        await asyncio.shield(self._started)

    async def _start(self) -> None:
        await self.bus.start(self.following.heard, self.resync)
        await self.watching.start()
        await self.flags.start()
        self.ai.start()
        loops: list[Coroutine[Any, Any, None]] = [self.following.sweeping()]
        if self.settings.accounts:
            loops += [self.looks.looking(), self.news.holding(), self.notices.noticing(), self.notices.sender.sending()]
        self._loops += [asyncio.get_running_loop().create_task(loop) for loop in loops]

    async def resync(self) -> None:
        """After missing events (the bus was away): the games watched here and the lobby shown as they stand."""
        await self.following.resync()
        await self.news.resync()

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
        await self.following.settle()  # a tournament's round being paired
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
