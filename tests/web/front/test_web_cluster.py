"""Several ``hive serve`` processes sharing one PostgreSQL database act as one server: a game created on one is
played through both, a watcher on either sees every move, a same-ply race stores one move, and after ``kill -9`` of
one process the other carries the game on with every acknowledged move, the AI's move included. Real processes on
real ports, a real PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import sqlalchemy as sa
import websockets

from ...servers import ensure_installed, run_script, scratch_parent, with_path
from ...web_support import ServeProcess, state_where
from ..api_support import LIMITS

JSON = dict[str, Any]


def pick(state: JSON, rng: random.Random) -> str:
    """A random legal move of a state, as a MoveString."""
    entries: list[str] = [entry["move"] for entries in state["view"]["legal"].values() for entry in entries]
    if not entries:
        assert state["view"].get("pass"), state
        return "pass"
    return rng.choice(entries)


def at_least(plies: int) -> Callable[[JSON], bool]:
    """Whether a state has ``plies`` moves or more."""
    return lambda state: len(state["moves"]) >= plies


async def move(c: httpx.AsyncClient, url: str, game: str, token: str, ply: int, rng: random.Random) -> str:
    """Play a random legal move at ``ply`` through the server at ``url``; returns it once acknowledged."""
    state = (await c.get(f"{url}api/games/{game}", headers={"x-seat-token": token})).json()
    assert len(state["moves"]) == ply, (state["moves"], ply)
    text = pick(state, rng)
    r = await c.post(f"{url}api/games/{game}/move", json={"move": text, "ply": ply}, headers={"x-seat-token": token})
    assert r.status_code == 200, r.text
    return text


def test_two_processes_on_one_database_act_as_one_server(upgraded: str) -> None:
    rng = random.Random(7)
    with ServeProcess(upgraded, *LIMITS) as one, ServeProcess(upgraded, *LIMITS) as two:

        async def main() -> None:
            async with httpx.AsyncClient(timeout=30) as c:
                created = (await c.post(one.url + "api/games", json={"mode": "online"})).json()
                game, white, black = created["id"], created["token"], created["invite"]
                ws = {
                    "white@one": f"{one.url}ws/games/{game}?token={white}",
                    "black@two": f"{two.url}ws/games/{game}?token={black}",
                    "watcher@one": f"{one.url}ws/games/{game}",
                    "watcher@two": f"{two.url}ws/games/{game}",
                }
                sockets = {name: await websockets.connect(url.replace("http", "ws")) for name, url in ws.items()}
                # both players are seen present on both processes
                for name in ("watcher@one", "watcher@two"):
                    await state_where(sockets[name], lambda s: s["present"] == [True, True])
                acknowledged: list[str] = []
                for ply in range(12):
                    url, token = (one.url, white) if ply % 2 == 0 else (two.url, black)
                    acknowledged.append(await move(c, url, game, token, ply, rng))
                    for socket in sockets.values():  # every watcher, on either process, sees every move
                        state = await state_where(socket, at_least(ply + 1))
                        assert state["moves"][: ply + 1] == acknowledged
                # two moves for the same ply sent at once to the two processes: one stored, one refused as stale
                state = (await c.get(f"{one.url}api/games/{game}", headers={"x-seat-token": white})).json()
                first, second = [entry["move"] for entries in state["view"]["legal"].values() for entry in entries][:2]
                answers = await asyncio.gather(
                    c.post(
                        f"{one.url}api/games/{game}/move",
                        json={"move": first, "ply": 12},
                        headers={"x-seat-token": white},
                    ),
                    c.post(
                        f"{two.url}api/games/{game}/move",
                        json={"move": second, "ply": 12},
                        headers={"x-seat-token": white},
                    ),
                )
                assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
                acknowledged.append(first if answers[0].status_code == 200 else second)
                # kill -9 of the first process: the second carries the game on with every acknowledged move
                one.kill()
                state = (await c.get(f"{two.url}api/games/{game}")).json()
                assert state["moves"] == acknowledged
                reconnected = await websockets.connect(f"{two.url}ws/games/{game}?token={white}".replace("http", "ws"))
                resynced = await state_where(reconnected, lambda s: True)
                assert resynced["moves"] == acknowledged
                for ply in range(13, 17):
                    token = white if ply % 2 == 0 else black
                    acknowledged.append(await move(c, two.url, game, token, ply, rng))
                final = await state_where(sockets["watcher@two"], lambda s: len(s["moves"]) == 17)
                assert final["moves"] == acknowledged
                for socket in [*sockets.values(), reconnected]:
                    await socket.close()

        asyncio.run(main())


def test_the_ai_move_of_a_killed_process_is_taken_over_by_another(upgraded: str) -> None:
    """The AI's move is a job in the database: killed while its process thinks, it is taken by the other process
    once the lease runs out, and played."""
    lease = ("--ai-lease", "2")
    engine = sa.create_engine(upgraded.replace("postgresql://", "postgresql+psycopg://"))
    with ServeProcess(upgraded, *LIMITS, *lease) as one, ServeProcess(upgraded, *LIMITS, *lease) as two:
        created = httpx.post(one.url + "api/games", json={"mode": "ai", "ai_level": "max", "colour": "black"}).json()
        game = created["id"]
        owner = None
        deadline = time.monotonic() + 60
        while owner is None and time.monotonic() < deadline:
            with engine.connect() as connection:
                owner = connection.execute(
                    sa.text("SELECT owner FROM ai_jobs WHERE game_id = :g"), {"g": game}
                ).scalar()
            time.sleep(0.05)
        assert owner is not None
        thinking, other = (one, two) if f"-{one.pid}-" in owner else (two, one)
        assert f"-{thinking.pid}-" in owner, (owner, one.pid, two.pid)
        thinking.kill()
        deadline = time.monotonic() + 90
        state: JSON = {}
        while time.monotonic() < deadline:
            state = httpx.get(f"{other.url}api/games/{game}", timeout=10).json()
            if state["moves"]:
                break
            time.sleep(0.2)
        assert len(state["moves"]) == 1 and not state["thinking"] and state["ai_error"] is None, state
    engine.dispose()


def test_sigterm_drains_a_process(upgraded: str) -> None:
    """SIGTERM: the process stops being ready, its sockets close with 1012 and a reason, a request in flight is
    answered, and it exits cleanly; the other process goes on."""
    with ServeProcess(upgraded, *LIMITS) as one, ServeProcess(upgraded, *LIMITS) as two:

        async def main() -> None:
            async with httpx.AsyncClient(timeout=60) as c:
                created = (await c.post(one.url + "api/games", json={"mode": "local"})).json()
                game, token = created["id"], created["token"]
                socket = await websockets.connect(f"{one.url}ws/games/{game}?token={token}".replace("http", "ws"))
                await state_where(socket, lambda s: True)
                hint = asyncio.ensure_future(c.get(f"{one.url}api/games/{game}/hint", headers={"x-seat-token": token}))
                await asyncio.sleep(0.3)
                assert one.process is not None
                one.process.terminate()
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await state_where(socket, lambda s: False)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
                assert "restarting" in closed.value.rcvd.reason
                answer = await hint
                assert answer.status_code == 200 and answer.json()["move"], answer.text
                assert (await c.get(f"{two.url}api/games/{game}")).status_code == 200

        asyncio.run(main())
        assert one.process is not None and one.process.wait(60) == 0  # the SIGTERM above: nothing more sent
        assert "Traceback" not in one.output()


def test_metrics_and_json_logs(upgraded: str) -> None:
    with ServeProcess(upgraded, *LIMITS, "--log-format", "json", "--forwarded-allow-ips", "127.0.0.1") as one:
        created = httpx.post(one.url + "api/games", json={"mode": "local"}, headers={"x-forwarded-for": "203.0.113.9"})
        game, token = created.json()["id"], created.json()["token"]
        r = httpx.post(
            f"{one.url}api/games/{game}/move",
            json={"move": "wS1", "ply": 0},
            headers={"x-seat-token": token, "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9"},
        )
        assert r.status_code == 200 and r.headers["strict-transport-security"].startswith("max-age=")
        text = httpx.get(one.url + "metrics").text
        for name in (
            'hive_http_requests_total{method="POST",route="/api/games/{id}/{action}",status="200"}',
            "hive_http_request_seconds_bucket",
            "hive_websockets",
            "hive_live_games 1.0",
            "hive_ai_queue_depth 0.0",
            "hive_flag_falls_total",
            "hive_moves_total 1.0",
        ):
            assert name in text, name
        one.stop()
        lines = [json.loads(line) for line in one.output().splitlines() if line.startswith("{")]
        requests = [line for line in lines if line["logger"] == "hive.access"]
        moved = next(line for line in requests if line["route"] == "/api/games/{id}/{action}")
        assert (moved["client"], moved["method"], moved["status"]) == ("203.0.113.9", "POST", 200)
        assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)


def server_children(pid: int) -> set[int]:
    """The server processes a supervisor started (not multiprocessing's resource tracker)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes()
            except FileNotFoundError:
                continue
            if b"spawn_main" in command:
                found.add(int(child))
    return found


def serving_processes(url: str, tries: int = 200) -> set[str]:
    """The server processes answering on ``url``: each new connection may reach another."""
    seen = set()
    for _ in range(tries):
        with httpx.Client(timeout=10) as c:
            seen.add(c.get(url + "healthz").json()["process"])
        if len(seen) > 1:
            break
    return seen


@pytest.mark.slow
def test_workers_share_one_port_and_one_that_dies_is_started_again(upgraded: str) -> None:
    """``--workers 2``: two processes behind one port, their metrics summed; ``kill -9`` of one: another is started
    in its place, and the port keeps answering; SIGTERM stops them all, cleanly."""
    with ServeProcess(upgraded, *LIMITS, "--workers", "2") as server:
        deadline = time.monotonic() + 60
        while len(server_children(server.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        first = server_children(server.pid)
        assert len(first) == 2, first
        assert len(serving_processes(server.url)) == 2
        created = httpx.post(server.url + "api/games", json={"mode": "local"}).json()
        for ply, text in enumerate(("wS1", "bS1 wS1-", "wQ -wS1")):
            with httpx.Client(timeout=10) as c:  # a new connection for each move: either process may answer
                r = c.post(
                    f"{server.url}api/games/{created['id']}/move",
                    json={"move": text, "ply": ply},
                    headers={"x-seat-token": created["token"]},
                )
            assert r.status_code == 200, r.text
        assert "hive_moves_total 3.0" in httpx.get(server.url + "metrics").text  # summed over both processes
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            now = server_children(server.pid)
            if len(now) == 2 and victim not in now:
                break
            time.sleep(0.2)
        assert len(now) == 2 and victim not in now, now
        state = httpx.get(f"{server.url}api/games/{created['id']}", timeout=30).json()
        assert state["moves"] == ["wS1", "bS1 wS1-", "wQ -wS1"]
        assert server.stop() == 0
        assert not any(Path(f"/proc/{pid}").exists() for pid in now)
        assert "Traceback" not in server.output()


@pytest.mark.slow
def test_a_database_restart_answers_503_with_retry_after_then_play_goes_on() -> None:
    """A PostgreSQL server of the test's own is stopped under two running ``hive serve`` processes: requests get a
    clear 503 with ``Retry-After`` and the processes stop being ready; once the database is back they serve again, and
    a socket opened on one before the restart sees a move made on the other after it."""
    ensure_installed("postgres.sh")
    directory = Path(tempfile.mkdtemp(prefix="hive-test-restart-", dir=scratch_parent()))
    started = run_script("postgres.sh", "--fast", "start", str(directory), timeout=180)
    assert started.returncode == 0, started.stderr
    server = started.stdout.split()[-1]
    try:
        url = with_path(server, "postgres")
        done = subprocess.run(
            [sys.executable, "-m", "hive", "db", "upgrade", "--database", url], capture_output=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        with ServeProcess(url, *LIMITS) as serving, ServeProcess(url, *LIMITS) as other:

            async def main() -> None:
                async with httpx.AsyncClient(timeout=30) as c:
                    created = (await c.post(serving.url + "api/games", json={"mode": "local"})).json()
                    game, token = created["id"], created["token"]
                    seat = {"x-seat-token": token}
                    watcher = await websockets.connect(f"{other.url}ws/games/{game}".replace("http", "ws"))
                    await state_where(watcher, lambda s: True)
                    r = await c.post(
                        f"{serving.url}api/games/{game}/move", json={"move": "wS1", "ply": 0}, headers=seat
                    )
                    assert r.status_code == 200
                    assert (await state_where(watcher, at_least(1)))["moves"] == ["wS1"]
                    stopped = run_script("postgres.sh", "stop", str(directory), timeout=120)
                    assert stopped.returncode == 0, stopped.stderr
                    r = await c.get(f"{serving.url}api/games/{game}")
                    assert r.status_code == 503 and r.headers["retry-after"].isdigit(), r.text
                    assert "not answering" in r.json()["error"]
                    r = await c.post(
                        f"{serving.url}api/games/{game}/move", json={"move": "bS1 wS1-", "ply": 1}, headers=seat
                    )
                    assert r.status_code == 503, r.text
                    assert (await c.get(serving.url + "readyz")).status_code == 503
                    port = str(urlsplit(server).port)
                    again = run_script("postgres.sh", "start", str(directory), port, timeout=180)
                    assert again.returncode == 0, again.stderr
                    for process in (serving, other):  # each reconnects, and hears the other's changes again
                        deadline = time.monotonic() + 60
                        while (await c.get(process.url + "readyz")).status_code != 200:
                            assert time.monotonic() < deadline, "not ready again within 60 s"
                            await asyncio.sleep(0.2)
                    r = await c.post(
                        f"{serving.url}api/games/{game}/move", json={"move": "bS1 wS1-", "ply": 1}, headers=seat
                    )
                    assert r.status_code == 200, r.text
                    # the socket opened on the other process before the restart sees the move made on this one
                    assert (await state_where(watcher, at_least(2)))["moves"] == ["wS1", "bS1 wS1-"]
                    await watcher.close()

            asyncio.run(main())
            for process in (serving, other):
                assert process.stop() == 0
                assert "Traceback" not in process.output()
    finally:
        run_script("postgres.sh", "stop", str(directory), timeout=120)
        shutil.rmtree(directory, ignore_errors=True)


@pytest.mark.slow
def test_changes_reach_the_other_process_over_redis(upgraded: str, redis_url: str) -> None:
    """With ``--redis``, a move stored by one process reaches a socket on the other through Redis pub/sub."""
    with (
        ServeProcess(upgraded, *LIMITS, "--redis", redis_url) as one,
        ServeProcess(upgraded, *LIMITS, "--redis", redis_url) as two,
    ):

        async def main() -> None:
            async with httpx.AsyncClient(timeout=30) as c:
                created = (await c.post(one.url + "api/games", json={"mode": "online"})).json()
                game, white, black = created["id"], created["token"], created["invite"]
                socket = await websockets.connect(f"{two.url}ws/games/{game}?token={black}".replace("http", "ws"))
                await state_where(socket, lambda s: True)
                r = await c.post(
                    f"{one.url}api/games/{game}/move", json={"move": "wS1", "ply": 0}, headers={"x-seat-token": white}
                )
                assert r.status_code == 200
                assert (await state_where(socket, at_least(1), timeout=10))["moves"] == ["wS1"]
                await socket.close()

        asyncio.run(main())


@pytest.mark.timing
@pytest.mark.slow
def test_a_clock_runs_on_when_its_process_is_killed_and_another_drops_the_flag(upgraded: str) -> None:
    """With several processes, a crash stops no clock: the game goes on in another process, whose flag watcher ends
    it on time though nobody asks it (a lone ``hive play`` holds its clocks only on a clean stop)."""
    with ServeProcess(upgraded, *LIMITS) as one, ServeProcess(upgraded, *LIMITS) as two:

        async def main() -> None:
            async with httpx.AsyncClient(timeout=30) as c:
                body = {"mode": "online", "time_control": {"initial": 3, "increment": 0}}
                created = (await c.post(one.url + "api/games", json=body)).json()
                game, white, black = created["id"], created["token"], created["invite"]
                watcher = await websockets.connect(f"{two.url}ws/games/{game}?token={black}".replace("http", "ws"))
                await state_where(watcher, lambda s: True)
                for ply, (token, text) in enumerate(((white, "wS1"), (black, "bS1 wS1-"), (white, "wG1 -wS1"))):
                    r = await c.post(
                        f"{one.url}api/games/{game}/move",
                        json={"move": text, "ply": ply},
                        headers={"x-seat-token": token},
                    )
                    assert r.status_code == 200, r.text
                started = time.monotonic()
                one.kill()  # Black's clock runs, with 3 s on it
                ended = await state_where(watcher, lambda s: s["result"] is not None, timeout=30)
                assert ended["result"] == "WhiteWins" and "time" in ended["reason"], ended
                assert ended["clock"]["remaining"][1] == 0
                assert time.monotonic() - started < 15
                await watcher.close()

        asyncio.run(main())
