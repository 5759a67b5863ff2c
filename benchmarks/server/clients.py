"""The simulated browsers: players and spectators, each with its own connections."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import random
import re
import ssl
import sys
import time
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .servers import JSON, Servers, machine_cpu

if importlib.util.find_spec("sniffio") is None:
    # httpcore imports it on every request, and a failed import is not remembered: each would search the whole path
    sys.modules["sniffio"] = None  # type: ignore[assignment]

#: A new game of the load: two browsers, blitz, Base+MLP.
NEW_GAME: JSON = {"kind": "hive", "mode": "online", "time_control": "blitz", "options": {"game_type": "Base+MLP"}}
#: Requests at once while games are created (the first 200 all start together).
CREATING = 16
#: Seconds the games may take to be created and their sockets to open, before play starts everywhere at once.
SETUP_LIMIT = 180.0
#: Seconds a client keeps an idle connection: less than the server's idle timeout (5 s), so that it never sends a
#: request on a connection the server is closing.
KEEP_ALIVE = 4.0


@dataclass(eq=False)
class Game:
    """A game in play: its seat tokens, each move's sending (time, seat), the moves acknowledged, its watchers."""

    id: str
    tokens: tuple[str, str]
    #: The seat of the game's creator.
    creator: int
    sent: dict[int, tuple[float, int]] = field(default_factory=dict)
    acked: dict[int, str] = field(default_factory=dict)
    #: The last move acknowledged: its ply and when.
    last_ack: tuple[int, float] = (-1, 0.0)
    watchers: list[Watcher] = field(default_factory=list)
    over: bool = False


@dataclass
class Stats:
    acks: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    round_trips: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    sockets: int = 0
    open: int = 0
    peak: int = 0
    reconnects: int = 0
    retries: int = 0
    recovered: int = 0
    conflicts: int = 0
    failovers: int = 0
    created: int = 0
    finished: int = 0


class Watcher:
    """A socket following one game: a player's, with its seat token, or a spectator's (``seat`` ``None``)."""

    def __init__(
        self, bench: Bench, http: httpx.AsyncClient, game: Game, seat: int | None, server: int, first: bool
    ) -> None:
        self.bench = bench
        #: This browser's HTTP client.
        self.http = http
        self.game = game
        self.seat = seat
        self.server = server
        #: Among the first watchers of the run (play starts once each of them has had a state).
        self.first = first
        self.headers = {"x-seat-token": game.tokens[seat]} if seat is not None else {}
        self.seen = 0
        self.state: JSON | None = None
        self.started = self.done = False
        #: The last ply reported as not delivered to this watcher.
        self.stalled = -1
        game.watchers.append(self)

    def ws_url(self) -> str:
        url = self.bench.urls[self.server].replace("http://", "ws://", 1) + f"ws/games/{self.game.id}"
        return url + (f"?token={self.headers['x-seat-token']}" if self.headers else "")

    async def watch(self) -> None:
        """Follow the game until it is over or the run stops, connecting again (to the other server, when there is
        one) whenever the socket closes."""
        bench = self.bench
        again = False
        while not (self.done or bench.stopping):
            server, why = self.server, "closed"
            try:
                async with connect(
                    self.ws_url(), proxy=None, ping_interval=None, open_timeout=30, compression=bench.compression
                ) as ws:
                    bench.opened(ws)
                    try:
                        if again:
                            await self.resync()
                        async for message in ws:
                            self.message(message, time.perf_counter())
                            if self.done or bench.stopping:
                                break
                        why = f"closed ({ws.close_code} {ws.close_reason})"
                    finally:
                        bench.closed(ws)
            except ConnectionClosed as err:
                why = f"closed ({err})"
            except (OSError, InvalidHandshake, TimeoutError) as err:
                why = f"not opened ({type(err).__name__}: {err})"
            if self.done or bench.stopping:
                return
            bench.failed(server, f"socket {why.split(' (')[0]}", f"game {self.game.id}: {why}")
            if server == self.server:
                self.server = bench.other(server)
            bench.stats.reconnects += 1
            if again:
                await asyncio.sleep(0.2)
            again = True

    def message(self, text: str | bytes, now: float) -> None:
        """A state from the socket: its moves and result read at a glance, the whole of it parsed only when the
        watcher needs it (a player whose turn it may be, a game over)."""
        try:
            if not isinstance(text, str):
                raise ValueError("a binary frame")
            moves, result = glance(text)
        except (ValueError, TypeError) as err:
            self.bench.error("protocol error", f"game {self.game.id}: {err}: {text[:100]!r}")
            return
        if len(moves) < self.seen:
            return
        self.follow(len(moves), now)
        if result is not None or self.wants(len(moves)):
            self.receive(json.loads(text), now)

    def wants(self, length: int) -> bool:
        """Whether a state of ``length`` moves is wanted whole: spectators follow the moves alone."""
        return False

    def follow(self, length: int, now: float) -> None:
        """The game has ``length`` moves: each new one's time from its sending to now is a latency (but a player's
        own)."""
        sent = self.game.sent
        for ply in range(self.seen, length):
            move = sent.get(ply)
            if move is not None and move[1] != self.seat:
                self.bench.stats.latencies.append(now - move[0])
        self.seen = max(self.seen, length)
        if not self.started:
            self.started = True
            if self.first:
                self.bench.under_way()

    def receive(self, state: JSON, now: float) -> None:
        """Take in a whole state of the game (from the socket or a GET); an older one than seen already is
        ignored."""
        moves = state["moves"]
        if len(moves) < self.seen:
            return
        self.follow(len(moves), now)
        self.state = state
        if state["result"] is not None:
            self.done = True
            self.bench.ended(self.game, state)
        else:
            self.next(state)

    def next(self, state: JSON) -> None:
        """A player's turn comes: spectators do nothing."""

    async def resync(self) -> JSON | None:
        """GET the game as it stands, switching server on a failure, and take it in; ``None`` when none answers."""
        bench = self.bench
        for attempt in range(10):
            server = self.server
            try:
                answer = await self.http.get(f"{bench.urls[server]}api/games/{self.game.id}", headers=self.headers)
            except httpx.TransportError as err:
                bench.failed(server, "game request failed", f"{type(err).__name__}: {err}")
                if server == self.server:
                    self.server = bench.other(server)
                await asyncio.sleep(0.2 * attempt)
                continue
            if answer.status_code != 200:
                bench.error(f"game answered {answer.status_code}", answer.text[:200])
                return None
            state: JSON = answer.json()
            self.receive(state, time.perf_counter())
            return state
        return None


class Player(Watcher):
    """A seat's holder: on its turn, thinks, then POSTs a random legal move."""

    def __init__(self, bench: Bench, http: httpx.AsyncClient, game: Game, seat: int, server: int, first: bool) -> None:
        super().__init__(bench, http, game, seat, server, first)
        self.rng = random.Random(bench.rng.random())
        self.moving = False
        #: A request of this player failed since its last acknowledged move (a 409 is then expected).
        self.failed_over = False

    def wants(self, length: int) -> bool:
        """A state is needed whole unless its last move is this player's own (then the opponent is to move)."""
        last = self.game.sent.get(length - 1)
        return self.state is None or last is None or last[1] != self.seat

    def next(self, state: JSON) -> None:
        if self.moving or self.bench.stopping or state["view"]["turn"] != self.seat:
            return
        if len(state["moves"]) != self.seen:  # the state before this player's own move, acknowledged since
            return
        self.moving = True
        self.bench.spawn(self.move(self.seen, state), self.bench.moves)

    async def move(self, ply: int, state: JSON) -> None:
        try:
            if not self.bench.go.is_set():
                await self.bench.go.wait()
            await asyncio.sleep(self.rng.uniform(*self.bench.think))
            if self.bench.stopping or self.done:
                return
            await self.send(ply, pick(state, self.rng))
        finally:
            self.moving = False
        if self.state is not None and not self.done:
            self.next(self.state)

    async def send(self, ply: int, text: str) -> None:
        """POST the move; after a failure, look for it in the game as the server has it and send it again only when
        it is not there."""
        bench, game = self.bench, self.game
        assert self.seat is not None
        while not bench.stopping:
            server, sent = self.server, time.perf_counter()
            game.sent[ply] = (sent, self.seat)
            url = f"{bench.urls[server]}api/games/{game.id}/move"
            expected = False
            try:
                answer = await self.http.post(url, json={"move": text, "ply": ply}, headers=self.headers)
            except httpx.TransportError as err:
                bench.failed(server, "move request failed", f"{type(err).__name__}: {err}")
                if server == self.server:
                    self.server = bench.other(server)
                self.failed_over = expected = True
            else:
                if answer.status_code == 200:
                    self.acknowledged(ply, text)
                    bench.stats.round_trips.append(time.perf_counter() - sent)
                    return
                expected = answer.status_code == 409 and self.failed_over
                if expected:
                    bench.stats.conflicts += 1
                else:
                    bench.error(f"move answered {answer.status_code}", f"game {game.id} ply {ply}: {answer.text[:200]}")
            state = await self.resync()
            if state is None:
                return
            moves = state["moves"]
            if len(moves) > ply and moves[ply] == text:
                bench.stats.recovered += 1
                self.acknowledged(ply, text)
                return
            if not expected or len(moves) != ply or state["result"] is not None:
                return
            bench.stats.retries += 1

    def acknowledged(self, ply: int, text: str) -> None:
        now = time.perf_counter()
        self.game.acked[ply] = text
        self.game.last_ack = (ply, now)
        self.bench.stats.acks.append(now)
        self.seen = max(self.seen, ply + 1)
        self.failed_over = False


#: Where a state's ``moves`` and ``result`` begin: a quotation mark inside a JSON string is escaped, so these can
#: only be keys (and no object nested in a state has them).
MOVES = re.compile(r'"moves"\s*:\s*')
RESULT = re.compile(r'"result"\s*:\s*')
DECODER = json.JSONDecoder()


def glance(text: str) -> tuple[list[str], Any]:
    """A state's moves and result, read from its JSON text without parsing the rest.

    :raises ValueError: when the text has no such fields.
    """
    at_moves, at_result = MOVES.search(text), RESULT.search(text)
    if at_moves is None or at_result is None:
        raise ValueError("a state without moves or result")
    moves, _ = DECODER.raw_decode(text, at_moves.end())
    if not isinstance(moves, list):
        raise ValueError("moves that are not a list")
    return moves, DECODER.raw_decode(text, at_result.end())[0]


def pick(state: JSON, rng: random.Random) -> str:
    """A random legal move of the state's player to move."""
    view = state["view"]
    if view["pass"]:
        return "pass"
    moves: list[str] = [option["move"] for options in view["legal"].values() for option in options]
    return rng.choice(moves)


class Table:
    """One of the games kept in play: a new game as soon as the last one is over."""

    def __init__(self, bench: Bench, slot: int) -> None:
        self.bench = bench
        self.server = slot % len(bench.urls)
        #: The HTTP clients of the two browsers playing here: the first creates the games.
        self.browsers = (bench.client(), bench.client())
        self.game: Game | None = None
        self.changed = asyncio.Condition()

    async def run(self) -> None:
        bench, first = self.bench, True
        while not bench.stopping:
            game = await bench.create(self)
            if game is None:
                return
            count = len(bench.urls)
            players = [
                Player(bench, self.browsers[seat != game.creator], game, seat, (self.server + seat) % count, first)
                for seat in (0, 1)
            ]
            first = False
            async with self.changed:
                self.game = game
                self.changed.notify_all()
            await asyncio.gather(*(player.watch() for player in players))

    async def spectate(self, server: int, first: bool) -> None:
        """Watch this table's games one after the other."""
        bench, http = self.bench, self.bench.client()
        game: Game | None = None
        while not bench.stopping:
            game = await self.after(game)
            if game is None:
                return
            watcher = Watcher(bench, http, game, None, server, first)
            first = False
            await watcher.watch()
            server = watcher.server
            game.watchers.remove(watcher)

    async def after(self, game: Game | None) -> Game | None:
        """The table's game once it is another than ``game``; ``None`` when the run stops."""
        async with self.changed:
            await self.changed.wait_for(lambda: self.bench.stopping or self.game not in (None, game))
        return None if self.bench.stopping else self.game

    async def wake(self) -> None:
        async with self.changed:
            self.changed.notify_all()


class Bench:
    """The clients of a run: tables of two players, spectators, and what they count."""

    def __init__(self, urls: list[str], args: argparse.Namespace) -> None:
        self.urls = urls
        self.think: tuple[float, float] = tuple(args.think)
        self.stall: float = args.stall
        self.compression = None if args.no_deflate else "deflate"
        self.rng = random.Random(args.seed)
        self.games = args.games
        self.spectators = args.spectators
        self.stats = Stats()
        self.stopping = False
        #: The processes killed (their failures are failovers, not errors).
        self.dead: set[int] = set()
        self.every: list[Game] = []
        self.tables: list[Table] = []
        self.tasks: set[asyncio.Task[None]] = set()
        #: The players' moves under way (thought about, or sent).
        self.moves: set[asyncio.Task[None]] = set()
        self.sockets: set[ClientConnection] = set()
        self.lost_on_time: set[str] = set()
        #: First states still to come before play starts (every game created, every socket open), and the start.
        self.waiting = 2 * args.games + args.spectators
        self.go = asyncio.Event()
        self.setup = 0.0
        self.creating = asyncio.Semaphore(CREATING)
        self.tls = ssl.create_default_context()  # made once: loading the certificates takes 50 ms
        self.clients: list[httpx.AsyncClient] = []

    def client(self, connections: int = 4) -> httpx.AsyncClient:
        """A browser's HTTP client: its own few connections, kept alive (closed at the end of the run)."""
        limits = httpx.Limits(max_connections=connections, keepalive_expiry=KEEP_ALIVE)
        client = httpx.AsyncClient(timeout=30, limits=limits, trust_env=False, verify=self.tls)
        self.clients.append(client)
        return client

    def other(self, server: int) -> int:
        return (server + 1) % len(self.urls)

    def error(self, kind: str, detail: str) -> None:
        self.stats.errors[kind] += 1
        if len(self.stats.examples) < 20:
            self.stats.examples.append(f"{kind}: {detail}")

    def failed(self, server: int, kind: str, detail: str) -> None:
        """A request or socket to ``server`` failed: a failover once that process is killed, an error otherwise."""
        if server in self.dead:
            self.stats.failovers += 1
        else:
            self.error(kind, detail)

    def spawn(self, work: Coroutine[Any, Any, None], tasks: set[asyncio.Task[None]] | None = None) -> None:
        """Run ``work`` in a task of ``tasks`` (by default :attr:`tasks`), which forgets it once done."""
        kept = self.tasks if tasks is None else tasks
        task = asyncio.get_running_loop().create_task(work)
        kept.add(task)
        task.add_done_callback(kept.discard)

    def opened(self, ws: ClientConnection) -> None:
        stats = self.stats
        stats.sockets += 1
        stats.open += 1
        stats.peak = max(stats.peak, stats.open)
        self.sockets.add(ws)

    def closed(self, ws: ClientConnection) -> None:
        self.stats.open -= 1
        self.sockets.discard(ws)

    def under_way(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.go.set()

    def ended(self, game: Game, state: JSON) -> None:
        if game.over:
            return
        game.over = True
        self.stats.finished += 1
        if "ran out" in (state.get("reason") or "") and game.id not in self.lost_on_time:
            self.lost_on_time.add(game.id)
            self.error("game lost on time", f"game {game.id}: {state['reason']}")

    async def create(self, table: Table) -> Game | None:
        """A new game on the table's server (another after a failure); ``None`` once the run stops."""
        async with self.creating:
            while not self.stopping:
                server = table.server
                try:
                    answer = await table.browsers[0].post(self.urls[server] + "api/games", json=NEW_GAME)
                except httpx.TransportError as err:
                    self.failed(server, "new game request failed", f"{type(err).__name__}: {err}")
                    table.server = self.other(server)
                    await asyncio.sleep(0.2)
                    continue
                if answer.status_code != 200:
                    self.error(f"new game answered {answer.status_code}", answer.text[:200])
                    await asyncio.sleep(1)
                    continue
                data = answer.json()
                seat = data["state"]["seats"][0]
                tokens = (data["token"], data["invite"]) if seat == 0 else (data["invite"], data["token"])
                game = Game(data["id"], tokens, seat)
                self.every.append(game)
                self.stats.created += 1
                return game
        return None

    def check_stalls(self, now: float) -> None:
        """Report each watcher that has not had a move ``stall`` seconds after it was acknowledged, and GET the game
        for it."""
        for table in self.tables:
            game = table.game
            if game is None or game.over:
                continue
            ply, at = game.last_ack
            if ply < 0 or now - at < self.stall:
                continue
            for watcher in game.watchers:
                if watcher.seen <= ply and watcher.stalled < ply and not watcher.done:
                    watcher.stalled = ply
                    who = "a spectator" if watcher.seat is None else f"seat {watcher.seat}"
                    self.error("state not delivered", f"game {game.id} ply {ply} to {who} after {self.stall} s")
                    self.spawn(self._resync(watcher))

    async def _resync(self, watcher: Watcher) -> None:
        await watcher.resync()

    async def monitor(self, start: float, kill_at: float | None, servers: Servers) -> None:
        """Every quarter second, the event loop's lateness; every second, stalls; every five, the servers' CPU; the
        kill."""
        tick, beat = 0.25, 0
        due = time.perf_counter() + tick
        while not self.stopping:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            now = time.perf_counter()
            self.stats.lags.append(now - due)
            due = now + tick
            beat += 1
            if beat % 4 == 0:
                self.check_stalls(now)
            if beat % 20 == 0:
                servers.sample()
            if kill_at is not None and now - start >= kill_at and not self.dead:
                self.dead.add(len(self.urls) - 1)
                servers.kill_last()

    async def run(self, seconds: float, kill_at: float | None, servers: Servers) -> Window:
        """Create the games and open the sockets, then play for ``seconds`` from the moment all are open; let the moves
        under way be answered and close every socket; the run's span and CPU readings."""
        launched = time.perf_counter()
        self.tables = [Table(self, slot) for slot in range(self.games)]
        for table in self.tables:
            self.spawn(table.run())
        for index in range(self.spectators):
            table = self.tables[index * self.games // self.spectators]
            self.spawn(table.spectate(index % len(self.urls), True))
        try:
            await asyncio.wait_for(self.go.wait(), SETUP_LIMIT)
        except TimeoutError:
            self.error("setup", f"{self.waiting} sockets still without a game after {SETUP_LIMIT:g} s")
            self.go.set()
        window = Window(servers)
        self.setup = window.start - launched
        self.spawn(self.monitor(window.start, kill_at, servers))
        await asyncio.sleep(seconds)
        self.stopping = True
        window.close(servers)
        if self.moves:
            await asyncio.wait(list(self.moves), timeout=40)
        for table in self.tables:
            await table.wake()
        await asyncio.gather(*(ws.close() for ws in list(self.sockets)), return_exceptions=True)
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=20)
        for task in list(self.tasks):
            task.cancel()
        return window

    async def verify(self) -> JSON:
        """Every game as each live server has it: the acknowledged moves missing at their ply, the moves stored and
        those stored without an acknowledgement."""
        live = [index for index in range(len(self.urls)) if index not in self.dead]
        lost: set[tuple[str, int]] = set()
        stored = unacknowledged = 0
        limit = asyncio.Semaphore(16)
        checker = self.client(16)

        async def check(game: Game, server: int) -> None:
            nonlocal stored, unacknowledged
            async with limit:
                try:
                    answer = await checker.get(f"{self.urls[server]}api/games/{game.id}")
                except httpx.TransportError as err:
                    self.error("check request failed", f"{type(err).__name__}: {err}")
                    return
            if answer.status_code != 200:
                self.error(f"check answered {answer.status_code}", f"game {game.id}: {answer.text[:200]}")
                lost.update((game.id, ply) for ply in game.acked)
                return
            moves = answer.json()["moves"]
            lost.update((game.id, p) for p, text in game.acked.items() if p >= len(moves) or moves[p] != text)
            if server == live[0]:
                stored += len(moves)
                unacknowledged += max(0, len(moves) - len(game.acked))

        await asyncio.gather(*(check(game, server) for game in self.every for server in live))
        return {
            "lost_moves": len(lost),
            "lost_examples": sorted(lost)[:10],
            "moves_stored": stored,
            "stored_unacknowledged": unacknowledged,
        }


class Window:
    """The run's span and the CPU used in it: by this process, by each server process, by the whole machine."""

    def __init__(self, servers: Servers) -> None:
        servers.sample()
        self.start = self.end = time.perf_counter()
        self._client = time.process_time()
        self._machine = machine_cpu()[0]
        self._servers = servers.cpu_seconds()
        self.client_cpu = self.machine_cpu = 0.0
        self.server_cpu = [0.0 for _ in self._servers]

    def close(self, servers: Servers) -> None:
        servers.sample()
        self.end = time.perf_counter()
        self.client_cpu = time.process_time() - self._client
        self.machine_cpu = machine_cpu()[0] - self._machine
        self.server_cpu = [after - before for before, after in zip(self._servers, servers.cpu_seconds(), strict=True)]
