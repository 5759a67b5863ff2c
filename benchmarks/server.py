"""Load on the browser game's server: two-browser blitz games played over the JSON API and WebSockets, with
spectators, then every acknowledged move looked for in the stored games.

Run: ``python -m benchmarks.server`` from the project root, with the package installed (or ``src`` on
``PYTHONPATH``: the servers started inherit it). By default 200 online Base+MLP blitz games (400 players) and 50
spectators for 120 s against ``--mode a``:

- ``a``: one ``hive play`` process on a fresh SQLite file;
- ``b``: two ``hive serve`` processes sharing the PostgreSQL database ``--database URL`` (its schema made first by
  ``hive db upgrade``); the two players of a game are on different processes, the spectators on both;
- ``c``: as ``b``, the second process killed with SIGKILL at ``--kill-at`` seconds (by default half the run): its
  clients go over to the other process as a load balancer would send them there;
- ``relay``: ``c``'s failover against one ``hive play`` process: the second address is a TCP relay to the first
  process, and the relay is what is killed (both addresses reach the same games, as ``hive serve``'s two processes
  would).

Each player and spectator is a browser: its own HTTP client (connections kept alive) and its own socket on the game.
Play starts everywhere at once when every game is created and every socket open. On its turn a player thinks
``--think`` seconds (uniform, 0.2-1.0 by default), then POSTs a random legal move with the ply it has seen. A
finished game is replaced by a new one; a spectator moves on to its table's next game. On a closed socket or a
failed request a client switches to the other address (when there is one), GETs the game and carries on; a move
whose POST failed is looked for in that state before it is sent again.

Figures: acknowledged moves per second over the run (set-up apart), the time from a move's POST being sent to each
watcher of the game (the opponent and the spectators) receiving a state holding it (from the send, because the server
publishes the state before it answers the POST: the watchers often have it before the mover has the answer, and it is
what a player sees, click to the other board), p50 and p99; the POST's round trip; the errors (a status other than 200,
but for a 409 after a failover; a socket closed or a request failed but on the killed process; a state not delivered
within ``--stall`` seconds; a game lost on time) and the lost moves (an acknowledged move not in the record at its ply,
on any live process); sockets, reconnects, retries; the CPU of this process, of each server process (and its children)
and of the whole machine, in % of one core. The run fails (exit status 1) unless both errors and lost moves are 0. A
table, then one JSON line of every figure and parameter.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import random
import re
import shlex
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

if importlib.util.find_spec("sniffio") is None:
    # httpcore imports it on every request, and a failed import is not remembered: each would search the whole path
    sys.modules["sniffio"] = None  # type: ignore[assignment]

JSON = dict[str, Any]
ROOT = Path(__file__).resolve().parent.parent
NEW_GAME: JSON = {"kind": "hive", "mode": "online", "time_control": "blitz", "options": {"game_type": "Base+MLP"}}
#: Requests at once while games are created (the first 200 all start together).
CREATING = 16
#: Seconds the games may take to be created and their sockets to open, before play starts everywhere at once.
SETUP_LIMIT = 180.0
#: Seconds a client keeps an idle connection: less than the server's idle timeout (5 s), so that it never sends a
#: request on a connection the server is closing.
KEEP_ALIVE = 4.0

# ----------------------------------------------------------------------
# the servers


#: The per-address limits of ``hive play`` (and ``hive serve``), lifted: all the load comes from 127.0.0.1 (the
#: games kept in memory are raised too, to twice the games in play).
LIFTED = ("--max-games-per-minute", "0", "--max-hints-per-minute", "0", "--max-ai-per-minute", "0")
PLAY = ("{python}", "-m", "hive", "play", "--no-browser", "--port", "{port}", "--db", "{dir}/games.sqlite3")
SERVE = ("{python}", "-m", "hive", "serve", "--host", "127.0.0.1", "--port", "{port}", "--database", "{database}")
UPGRADE = ("{python}", "-m", "hive", "db", "upgrade", "--database", "{database}")
RELAY = ("{python}", "-m", "benchmarks.server", "--relay", "{port}", "{target}")


@dataclass(frozen=True)
class Mode:
    """How a run's servers are started: a command template for each server process (``{python}``, ``{port}``,
    ``{dir}``: a temporary directory, ``{database}``), the limits lifted being added to it."""

    description: str
    command: tuple[str, ...]
    processes: int = 1
    #: The path answering 200 once a process is up.
    health: str = "api/assets"
    #: Run once before the servers start.
    prepare: tuple[str, ...] = ()
    #: The last process is killed with SIGKILL at ``--kill-at``.
    kill: bool = False
    #: A second address, a relay to the first process, stands for a second process.
    relay: bool = False


MODES = {
    "a": Mode("one hive play process on SQLite", PLAY),
    "b": Mode("two hive serve processes on PostgreSQL", SERVE, 2, "healthz", UPGRADE),
    "c": Mode("two hive serve processes on PostgreSQL, one killed", SERVE, 2, "healthz", UPGRADE, kill=True),
    "relay": Mode("one hive play process on SQLite, also through a relay that is killed", PLAY, kill=True, relay=True),
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def shown_url(url: str) -> str:
    """A database URL (or a command holding one) with its password hidden."""
    return re.sub(r"//([^:/@]+):[^@/]*@", r"//\1:***@", url)


def cpu_by_group(groups: Sequence[int]) -> dict[int, tuple[int, float]]:
    """The process group and CPU seconds (with those of the children it waited for) of every live process in these
    process groups, by pid."""
    tick = os.sysconf("SC_CLK_TCK")
    found: dict[int, tuple[int, float]] = {}
    wanted = set(groups)
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            text = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if int(fields[2]) in wanted:
            found[int(entry.name)] = int(fields[2]), sum(int(f) for f in fields[11:15]) / tick
    return found


def machine_cpu() -> tuple[float, float]:
    """The machine's busy and total CPU seconds since boot, all cores together."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = values[3] + values[4]
    return (sum(values) - idle) / tick, sum(values) / tick


class Servers:
    """The server processes of a run, each in its own process group (its AI workers with it), with their logs and
    CPU time."""

    def __init__(self, mode: Mode, games: int, database: str | None, workdir: Path, extra: Sequence[str] = ()) -> None:
        self.mode = mode
        self.workdir = workdir
        self.fields = {"python": sys.executable, "dir": str(workdir), "database": database or ""}
        self.extra = (*LIFTED, "--live-games", str(max(256, 2 * games)), *extra)
        self.processes: list[subprocess.Popen[bytes]] = []
        self.names: list[str] = []
        self.commands: list[list[str]] = []
        self.urls: list[str] = []
        #: The most CPU seconds seen of each pid, by process (a process killed keeps its last reading).
        self.cpu: list[dict[int, float]] = []

    def _spawn(self, template: Sequence[str], name: str, **fields: str) -> str:
        port = free_port()
        command = [part.format(**self.fields, port=port, **fields) for part in template]
        log = open(self.workdir / f"server{len(self.processes)}.log", "wb")  # noqa: SIM115 (kept for the process)
        self.processes.append(
            subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
        )
        self.names.append(f"{name} :{port}")
        self.commands.append(command)
        self.cpu.append({})
        self.urls.append(f"http://127.0.0.1:{port}/")
        return str(port)

    def start(self) -> list[str]:
        """Start the processes and wait until each answers; their base URLs."""
        if self.mode.prepare:
            command = [part.format(**self.fields) for part in self.mode.prepare]
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
            if done.returncode:
                raise RuntimeError(f"{shown_url(shlex.join(command))} failed:\n{done.stdout}{done.stderr}")
        name = " ".join(self.mode.command[2:4])
        first = self._spawn([*self.mode.command, *self.extra], name)
        for _ in range(1, self.mode.processes):
            self._spawn([*self.mode.command, *self.extra], name)
        if self.mode.relay:
            self._spawn(RELAY, "relay", target=first)
        for index, url in enumerate(self.urls):
            self._wait(index, url + self.mode.health)
        return self.urls

    def _wait(self, index: int, url: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.processes[index].poll() is not None:
                raise RuntimeError(f"{self.names[index]} ended at start:\n{self.log(index)[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url, timeout=2, trust_env=False).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"{self.names[index]} did not answer {url} within {timeout} s")

    def log(self, index: int) -> str:
        return (self.workdir / f"server{index}.log").read_text(errors="replace")

    def sample(self) -> None:
        """Note the CPU time of every process (read before a process is killed and at the end)."""
        groups = [process.pid for process in self.processes]
        for pid, (group, seconds) in cpu_by_group(groups).items():
            seen = self.cpu[groups.index(group)]
            seen[pid] = max(seconds, seen.get(pid, 0.0))

    def cpu_seconds(self) -> list[float]:
        return [sum(seen.values()) for seen in self.cpu]

    def kill_last(self) -> None:
        """SIGKILL the last process and its children, as a machine or container dies."""
        self.sample()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.processes[-1].pid, signal.SIGKILL)

    def stop(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)

    def log_lines(self) -> list[str]:
        """What the servers printed beyond their start-up line (warnings, errors, tracebacks)."""
        lines = []
        for index in range(len(self.processes)):
            lines += [f"{self.names[index]}: {line}" for line in self.log(index).splitlines()[1:] if line.strip()]
        return lines


async def _relay(port: int, target: int) -> None:
    """Forward every connection to ``port`` to ``target``, both on 127.0.0.1, byte for byte."""

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except OSError:
            pass
        finally:
            writer.close()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    server = await asyncio.start_server(handle, "127.0.0.1", port, backlog=1024)
    async with server:
        await server.serve_forever()


# ----------------------------------------------------------------------
# the clients


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


# ----------------------------------------------------------------------
# a run


def summary(seconds: list[float]) -> JSON:
    """p50, p99 and the largest of durations, in ms, and how many there were."""
    if not seconds:
        return {"p50": None, "p99": None, "max": None, "count": 0}
    ordered = sorted(seconds)

    def rank(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"p50": rank(0.5), "p99": rank(0.99), "max": round(ordered[-1] * 1000, 1), "count": len(ordered)}


async def _clients(urls: list[str], args: argparse.Namespace, servers: Servers) -> tuple[Bench, Window, JSON]:
    bench = Bench(urls, args)
    try:
        window = await bench.run(args.seconds, args.kill_at if MODES[args.mode].kill else None, servers)
        checked = await bench.verify()
    finally:
        for client in bench.clients:
            await client.aclose()
    return bench, window, checked


def _loop(work: Coroutine[Any, Any, tuple[Bench, Window, JSON]]) -> tuple[Bench, Window, JSON]:
    """Run ``work`` on uvloop when it is there (uvicorn's standard extra brings it), else on asyncio's loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    return uvloop.run(work)


def measure(args: argparse.Namespace) -> JSON:
    """Start the mode's servers, play, check the games, stop the servers: every figure of the run."""
    mode = MODES[args.mode]
    if "{database}" in mode.command and not args.database:
        raise SystemExit(f"mode {args.mode} needs --database postgresql://USER@HOST:PORT/DB")
    if args.kill_at is None:
        args.kill_at = args.seconds / 2
    with tempfile.TemporaryDirectory(prefix="hive-server-bench-") as workdir:
        servers = Servers(mode, args.games, args.database, Path(workdir), shlex.split(args.server_args))
        try:
            urls = servers.start()
            bench, window, checked = _loop(_clients(urls, args, servers))
        finally:
            servers.stop()
        log = servers.log_lines()
    stats = bench.stats
    seconds = window.end - window.start
    within = sum(t <= window.end for t in stats.acks)
    figures: JSON = {
        "benchmark": "server",
        "mode": args.mode,
        "description": mode.description,
        "seconds": args.seconds,
        "games": args.games,
        "players": 2 * args.games,
        "spectators": args.spectators,
        "think_s": list(bench.think),
        "kill_at_s": args.kill_at if mode.kill else None,
        "stall_s": args.stall,
        "seed": args.seed,
        "deflate": not args.no_deflate,
        "database": shown_url(args.database) if args.database else None,
        "servers": [shown_url(shlex.join(command)) for command in servers.commands],
        "cores": os.cpu_count(),
        "setup_s": round(bench.setup, 2),
        "measured_s": round(seconds, 2),
        "moves_acknowledged": len(stats.acks),
        "moves_per_s": round(within / seconds, 1),
        "latency_ms": summary(stats.latencies),
        "post_ms": summary(stats.round_trips),
        "games_created": stats.created,
        "games_finished": stats.finished,
        "games_lost_on_time": len(bench.lost_on_time),
        "sockets_opened": stats.sockets,
        "sockets_peak": stats.peak,
        "reconnects": stats.reconnects,
        "failovers": stats.failovers,
        "retries": stats.retries,
        "moves_recovered": stats.recovered,
        "conflicts_after_failover": stats.conflicts,
        "errors": sum(stats.errors.values()),
        "error_kinds": dict(stats.errors),
        "error_examples": stats.examples[:10],
        **checked,
        "client_cpu_pct": round(100 * window.client_cpu / seconds, 1),
        "client_loop_lag_ms": summary(stats.lags),
        "server_cpu_pct": {
            name: round(100 * cpu / seconds, 1) for name, cpu in zip(servers.names, window.server_cpu, strict=True)
        },
        "machine_cpu_pct": round(100 * window.machine_cpu / seconds, 1),
        # what the rest of the machine took: the servers get less than a core each when it is busy
        "other_cpu_pct": round(100 * (window.machine_cpu - window.client_cpu - sum(window.server_cpu)) / seconds, 1),
        # CPU time per move acknowledged within the run, which a busy machine changes less than moves per second
        "client_cpu_ms_per_move": round(1000 * window.client_cpu / max(1, within), 2),
        "server_cpu_ms_per_move": round(1000 * sum(window.server_cpu) / max(1, within), 2),
        "server_log_lines": len(log),
        "server_log": log[:10],
    }
    figures["passed"] = figures["errors"] == 0 and figures["lost_moves"] == 0
    return figures


def report(figures: JSON) -> list[str]:
    """The figures as a table, ending with the verdict."""
    f = figures

    def ms(summary: JSON) -> str:
        return f"{summary['p50']} / {summary['p99']} ms  (max {summary['max']} ms, {summary['count']:,})"

    kill = f", the last process killed at {f['kill_at_s']:g} s" if f["kill_at_s"] is not None else ""
    servers = sum(f["server_cpu_pct"].values())
    rows = [
        ("mode", f"{f['mode']}: {f['description']}{kill}"),
        (
            "load",
            f"{f['games']} games ({f['players']} players), {f['spectators']} spectators, {f['seconds']:g} s,"
            f" think {f['think_s'][0]:g}-{f['think_s'][1]:g} s",
        ),
        (
            "moves acknowledged",
            f"{f['moves_acknowledged']:,}  ({f['moves_per_s']}/s over {f['measured_s']} s"
            f"; {f['setup_s']} s creating the games and opening the sockets before)",
        ),
        ("move to watcher p50/p99", ms(f["latency_ms"])),
        ("move POST p50/p99", ms(f["post_ms"])),
        ("games created / over", f"{f['games_created']} / {f['games_finished']}"),
        ("sockets opened / peak", f"{f['sockets_opened']} / {f['sockets_peak']}"),
        ("reconnects / failovers", f"{f['reconnects']} / {f['failovers']}"),
        (
            "retries / recovered / 409s",
            f"{f['retries']} / {f['moves_recovered']} / {f['conflicts_after_failover']}  (409s after a failover)",
        ),
        (
            "benchmark CPU",
            f"{f['client_cpu_pct']}% of a core ({f['client_cpu_ms_per_move']} ms a move),"
            f" event loop late p99 {f['client_loop_lag_ms']['p99']} ms",
        ),
        (
            "server CPU",
            ", ".join(f"{name} {pct}%" for name, pct in f["server_cpu_pct"].items())
            + f"  (all {servers:.1f}%, {f['server_cpu_ms_per_move']} ms a move)",
        ),
        (
            "machine CPU",
            f"{f['machine_cpu_pct']}% of {f['cores']} cores x 100% (other work {f['other_cpu_pct']}%)",
        ),
        ("server log lines", str(f["server_log_lines"])),
        ("moves stored", f"{f['moves_stored']:,} ({f['stored_unacknowledged']} without an acknowledgement)"),
        ("errors", f"{f['errors']}  {f['error_kinds'] or ''}"),
        ("lost moves", str(f["lost_moves"])),
    ]
    lines = [f"{name:<27} {value}" for name, value in rows]
    lines += [f"  error: {example}" for example in f["error_examples"]]
    lines += [f"  server: {line}" for line in f["server_log"]]
    if f["passed"]:
        lines.append("PASS: no errors and no lost moves.")
    else:
        lines.append(f"FAIL: {f['errors']} errors and {f['lost_moves']} lost moves.")
    return lines


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Load on the browser game's server (see the module's docstring).")
    parser.add_argument("--mode", choices=sorted(MODES), default="a", help="how the servers run (default a)")
    parser.add_argument("--seconds", type=float, default=120.0, help="length of the run (default 120)")
    parser.add_argument("--games", type=int, default=200, help="games kept in play (default 200)")
    parser.add_argument("--spectators", type=int, default=50, help="spectators (default 50)")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=[0.2, 1.0],
        metavar=("MIN", "MAX"),
        help="a player's thinking time, uniform between MIN and MAX seconds (default 0.2 1.0)",
    )
    parser.add_argument("--database", help="b and c: the PostgreSQL database, postgresql://USER@HOST:PORT/DB")
    parser.add_argument("--kill-at", type=float, help="c and relay: seconds into the run (default: half of it)")
    parser.add_argument(
        "--stall",
        type=float,
        default=15.0,
        help="seconds after which a move not yet received by a watcher is an error (default 15)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the thinking times and moves")
    parser.add_argument("--no-deflate", action="store_true", help="sockets without permessage-deflate")
    parser.add_argument("--server-args", default="", help="more options for each server, e.g. '--workers 2'")
    parser.add_argument("--relay", type=int, nargs=2, metavar=("PORT", "TARGET"), help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    if args.relay:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_relay(*args.relay))
        return 0
    try:
        figures = measure(args)
    except RuntimeError as err:  # a server that would not start
        print(f"benchmarks.server: {err}", file=sys.stderr)
        return 2
    for line in report(figures):
        print(line)
    print(json.dumps(figures))
    return 0 if figures["passed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
