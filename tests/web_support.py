"""Running the web app for tests: uvicorn in a thread, or ``hive play`` in a subprocess, on a free port."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

import hive
from hive.web import App, create_app
from hive.web.http.run import config
from hive.web.shared.model import GameRecord
from hive.web.shared.settings import Settings
from hive.web.storage import Store, open_store


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_until_up(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "api/assets", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server at {url} did not come up within {timeout} s")


def wait_for(test: Callable[..., Any], seconds: float, what: str) -> Any:
    """What ``test()`` gives once it is true, asked every 0.2 s for up to ``seconds``; fails naming ``what``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = test()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"waited {seconds:g} s for {what}")


@contextlib.contextmanager
def server_thread(db: str | Path, workers: int = 0, settings: Settings | None = None) -> Iterator[str]:
    """Serve the app from a thread of this process, configured as ``hive play`` configures it; yields its base
    URL."""
    port = free_port()
    server = uvicorn.Server(config(create_app(db, workers=workers, settings=settings), "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_up(url)
        yield url
    finally:
        server.should_exit = True
        thread.join(10)


class ServerProcess:
    """``hive play --no-browser`` in a subprocess over a given database; can be stopped and started again."""

    def __init__(self, db: Path, *options: str) -> None:
        self.db = db
        self.options = options
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "hive",
            "play",
            "--no-browser",
            "--port",
            str(self.port),
            "--db",
            str(self.db),
            *self.options,
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        wait_until_up(self.url)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(15)
            self.process = None


@contextlib.contextmanager
def serving(db: Path) -> Iterator[ServerProcess]:
    """``hive play`` over ``db`` for the length of the block."""
    process = ServerProcess(db)
    process.start()
    try:
        yield process
    finally:
        process.stop()


def midgame(plies: int, seed: int) -> str:
    """A Base+MLP GameString of ``plies`` random legal moves."""
    board = hive.Board("Base+MLP")
    rng = random.Random(seed)
    for _ in range(plies):
        board.push(rng.choice(list(board.legal_moves)))
    return board.record()


def random_move(board: Any, seed: int) -> str:
    """Play a random legal move (chosen by ``seed``) on ``board``; returns its MoveString."""
    move: str = board.move_text(random.Random(seed).choice(list(board.legal_moves)))
    board.push_text(move)
    return move


def stored_games(db: str | Path, *game_ids: str) -> dict[str, GameRecord | None]:
    """The games ``game_ids`` as the database at ``db`` holds them (read outside any server)."""

    async def read(store: Store) -> dict[str, GameRecord | None]:
        return {game_id: await store.games.load(game_id) for game_id in game_ids}

    store = open_store(db, "reader")
    try:
        return asyncio.run(read(store))
    finally:
        store.close()


def counting(monkeypatch: pytest.MonkeyPatch, cls: type, names: tuple[str, ...]) -> dict[str, int]:
    """Count the calls of ``cls``'s methods ``names`` (on every board of the class) from now on."""
    calls = dict.fromkeys(names, 0)
    for name in names:
        original = getattr(cls, name)

        def wrapper(self: Any, *args: Any, _name: str = name, _original: Callable[..., Any] = original) -> Any:
            calls[_name] += 1
            return _original(self, *args)

        monkeypatch.setattr(cls, name, wrapper)
    return calls


#: The board's verbs whose calls tell whether a game was rebuilt, replayed or copied, and whether a move was checked
#: (``parse_move``, ``push``) or played as stored (``push_stored``).
VERBS = ("__init__", "parse_move", "push", "push_stored", "pop", "copy")


def made_ready(url: str) -> str:
    """The database at ``url`` with the server's tables made (``open_store(..., upgrade=True)``), empty; its URL."""
    open_store(url, "setup", upgrade=True).close()
    return url


async def state_where(ws: Any, test: Callable[[dict[str, Any]], bool], timeout: float = 30.0) -> dict[str, Any]:
    """The first state a game's socket sends that passes ``test``, skipping the others (a socket gets a state for
    every change, who is present included, in whatever order the server's processes send them)."""

    async def read() -> dict[str, Any]:
        while True:
            message = await ws.recv()
            if message == "pong":
                continue
            state: dict[str, Any] = json.loads(message)
            if test(state):
                return state

    return await asyncio.wait_for(read(), timeout)


class ServeProcess:
    """``hive serve`` in a subprocess on a port of its own (a database URL and options given); stopped with SIGTERM,
    or killed. Its output goes to a pipe read once it has stopped, or to the file ``log`` (for a process that
    writes more than a pipe holds while it runs: a full pipe would stop it)."""

    def __init__(
        self, database: str, *options: str, env: dict[str, str] | None = None, log: Path | None = None
    ) -> None:
        self.database = database
        self.options = options
        self.env = env or {}
        self.log = log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> ServeProcess:
        command = [sys.executable, "-m", "hive", "serve", "--port", str(self.port), "--database", self.database]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        command += self.options
        if self.log is None:
            self.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        else:
            with self.log.open("wb") as log:  # the child keeps a copy of its own
                self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = self.output()
                raise RuntimeError(f"hive serve stopped at start ({self.process.returncode}): {output}")
            try:
                if httpx.get(self.url + "readyz", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"hive serve on {self.url} was not ready within {timeout} s")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def output(self) -> str:
        """What the process printed (once it has stopped)."""
        if self.log is not None:
            return self.log.read_text(errors="replace")
        assert self.process is not None and self.process.stdout is not None
        return self.process.stdout.read().decode()

    def kill(self) -> None:
        """``kill -9``."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)

    def stop(self, timeout: float = 60.0) -> int:
        """SIGTERM, then wait; returns the exit code."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.terminate()
        return self.process.wait(timeout)

    def __enter__(self) -> ServeProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()


class FakeTime:
    """A clock the test moves by hand (``t``: seconds since the epoch), for a service's ``now``."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


# ---------------------------------------------------------------------------- the API in process, and the browser

JSON = dict[str, Any]
ROOT = Path(__file__).resolve().parent.parent


@contextlib.asynccontextmanager
async def client(app: App, address: tuple[str, int] = ("127.0.0.1", 123)) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of ``app`` in this process (no server), asking from ``address``."""
    transport = httpx.ASGITransport(app=app, client=address)
    async with httpx.AsyncClient(transport=transport, base_url="http://hive.test", timeout=60) as c:
        yield c


async def new_game(c: httpx.AsyncClient, **body: Any) -> JSON:
    r = await c.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    data: JSON = r.json()
    return data


async def play(c: httpx.AsyncClient, game: JSON, token: str | None, **body: Any) -> httpx.Response:
    headers = {"x-seat-token": token} if token else {}
    return await c.post(f"/api/games/{game['id']}/move", json=body, headers=headers)


#: axe.min.js as scripts/axe.sh installs it (or HIVE_AXE, the path of another copy).
AXE = Path(os.environ.get("HIVE_AXE", ROOT / ".venv" / "axe" / "node_modules" / "axe-core" / "axe.min.js"))


#: A short decisive HiveQueen game (the easy AI against the random mover).
QUEEN_GAME = ["Wc3-d4;+Wg3", "Df8-b6;+Se6", "Dc2-f8;+Se7;+Wa3", "Nd8-i8", "Se7xg9;+Se7;+Sd6", "Dg8-f5"]
#: A short Base game that White wins on its 15th move, after Black's 14th let White's Ant surround the Queen.
WON = (
    "Base;WhiteWins;Black[8];wS1;bA1 wS1\\;wA1 \\wS1;bS1 /bA1;wQ -wA1;bS2 bA1-;wB1 \\wA1;bQ /bS2;wS2 -wQ;"
    "bA2 /bS1;wA2 /wS2;bA3 bQ-;wA2 -wB1;bB1 /bQ;wA2 /bA3"
)


@contextlib.asynccontextmanager
async def in_process(
    db: str | Path, address: tuple[str, int] = ("127.0.0.1", 123), **options: Any
) -> AsyncIterator[tuple[App, httpx.AsyncClient]]:
    """The app over ``db`` (``create_app``'s ``options``; no AI worker processes unless given) and a client of it
    in this process, asking from ``address``; the app closed after."""
    app = create_app(db, **{"workers": 0, **options})
    try:
        async with client(app, address) as c:
            yield app, c
    finally:
        await app.close()


def release_0_1(path: Path) -> None:
    """Write at ``path`` a games file as release 0.1 left it: its tables, empty, and no schema revision (the
    migrations began after it)."""
    import sqlalchemy as sa

    from hive.web import migrations

    engine = sa.create_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as connection:
            migrations.upgrade(connection, "0001")
            connection.exec_driver_sql("DROP TABLE alembic_version")
    finally:
        engine.dispose()
