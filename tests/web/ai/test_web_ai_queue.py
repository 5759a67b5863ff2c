"""The AI's queue: games and clients served in turn (one client's many games never hold up another's, in the local
queue and in the queue the server processes share, on SQLite and PostgreSQL), the same hint worked out once, a bounded
queue with clear refusals; a flood of hints leaves another player's move prompt; a hint never answers for a position
the game has left."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.games.hive.board import Board
from hive.web.ai.scheduler import Scheduler
from hive.web.ai.work import analyse, choose_move
from hive.web.shared.errors import TooMany
from hive.web.shared.settings import Settings

from ...web_support import JSON, client, in_process, midgame, new_game, random_move, server_thread


def test_moves_go_first_games_take_turns_and_a_shared_question_is_worked_out_once() -> None:
    async def main() -> None:
        order: list[str] = []

        def job(name: str) -> str:
            order.append(name)
            return name

        jobs = Scheduler(lambda: None, 1, queue_size=10, per_game=10)
        flood = [jobs.run("a", job, f"a{i}", share=("a", i)) for i in range(4)]
        others = [jobs.run("b", job, "b0", share="b"), jobs.run("c", job, "c0", share="c"), jobs.run("d", job, "d0")]
        again = [jobs.run("a", job, "a1", share=("a", 1)) for _ in range(3)]  # shares a1's answer
        answers = await asyncio.gather(*flood, *others, *again)
        assert answers == ["a0", "a1", "a2", "a3", "b0", "c0", "d0", "a1", "a1", "a1"]
        # a0 was running; d's move goes first, then b and c before a's second hint
        assert order == ["a0", "d0", "b0", "c0", "a1", "a2", "a3"]

    asyncio.run(main())


def test_a_full_queue_refuses_hints_but_never_the_ai_s_own_move() -> None:
    async def main() -> None:
        gate = threading.Event()
        jobs = Scheduler(lambda: None, 1, queue_size=3, per_game=2)
        running = asyncio.ensure_future(jobs.run("a", gate.wait, share="first"))
        await asyncio.sleep(0.05)
        waiting = [asyncio.ensure_future(jobs.run("a", gate.wait, share=i)) for i in range(2)]
        await asyncio.sleep(0)
        with pytest.raises(TooMany, match="This game already has 2 requests waiting for the AI"):
            await jobs.run("a", gate.wait, share="third")
        waiting.append(asyncio.ensure_future(jobs.run("b", gate.wait, share="b")))
        await asyncio.sleep(0)
        with pytest.raises(TooMany, match="The AI is busy: 3 requests are waiting for it"):
            await jobs.run("c", gate.wait, share="c")
        move = asyncio.ensure_future(jobs.run("c", gate.wait))  # the AI's move: queued all the same
        await asyncio.sleep(0)
        assert jobs.waiting == 4
        gate.set()
        assert await asyncio.gather(running, *waiting, move) == [True] * 5

    asyncio.run(main())


class Held(Executor):
    """An executor whose jobs run when the test says, one at a time, in the order they were started."""

    def __init__(self) -> None:
        self.started: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.started.append((future, fn, args))
        return future

    async def finish(self, index: int) -> None:
        """Run the ``index``-th job started, once it has been."""
        while len(self.started) <= index:
            await asyncio.sleep(0)
        future, fn, args = self.started[index]
        future.set_result(fn(*args))


def test_one_client_s_many_games_take_turns_with_another_client_in_the_local_queue() -> None:
    """One worker: a client with 30 games whose AI is due, and another client with one; the other client's job runs
    right after the job already running, not after the first client's 30."""

    async def main() -> None:
        held = Held()
        jobs = Scheduler(lambda: held, 1, queue_size=64, per_game=4)
        many = [asyncio.ensure_future(jobs.run(f"a{i}", str, f"a{i}", client="10.0.0.1")) for i in range(30)]
        await asyncio.sleep(0)
        one = asyncio.ensure_future(jobs.run("b", str, "b", client="10.0.0.2"))
        await asyncio.sleep(0)
        assert jobs.running == 1 and jobs.waiting == 30
        for index in range(31):
            await held.finish(index)
        assert await asyncio.gather(*many, one) == [*(f"a{i}" for i in range(30)), "b"]
        assert [args[0] for _, _, args in held.started[:3]] == ["a0", "b", "a1"]

    asyncio.run(main())


@pytest.mark.anyio
async def test_one_address_with_many_games_waiting_for_the_ai_does_not_hold_up_another(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One address has eight games whose AI is due at its slowest level, the first being worked out; another
    address's game against the easy AI is served next, after that one job only (before, after all eight: the oldest
    job went first once none of either address ran). The slow level is stood in for by the random mover, held until
    the other game is created."""
    levels: list[str] = []
    thinking, release = threading.Event(), threading.Event()

    def counted(kind: str, options: JSON, moves: list[str], level: str, *rest: Any) -> str:
        levels.append(level)
        if level == "max":
            thinking.set()
            release.wait(30)
        return choose_move(kind, options, moves, "random", *rest)

    monkeypatch.setattr("hive.web.ai.player.choose_move", counted)
    settings = Settings(games_per_minute=0, ai_per_minute=0)
    async with in_process(database, ("10.0.0.1", 1000), settings=settings) as (app, busy):
        many = [await new_game(busy, mode="ai", ai_level="max", colour="black") for _ in range(8)]
        while not thinking.is_set():
            await asyncio.sleep(0.01)
        async with client(app, ("10.0.0.2", 2000)) as other:
            mine = await new_game(other, mode="ai", ai_level="easy", colour="black")
            assert await app.store.jobs.waiting() == 8  # the busy address's seven, and this one
            release.set()
            for _ in range(1500):
                if (await other.get(f"/api/games/{mine['id']}")).json()["moves"]:
                    break
                await asyncio.sleep(0.02)
        assert levels[:2] == ["max", "easy"], levels
        for game in many:  # the busy address's games are answered in their turn
            for _ in range(1500):
                if (await busy.get(f"/api/games/{game['id']}")).json()["moves"]:
                    break
                await asyncio.sleep(0.02)
        assert levels.count("max") == 8 and await app.store.jobs.waiting() == 0


#: Seconds a hint takes in the flood test: long beside what the server does between a move and the AI taking it up.
HINT = 0.5


@pytest.mark.anyio
async def test_a_flood_of_hints_leaves_another_player_s_easy_ai_answer_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    """One client keeps the AI's queue full of hints over four games (once, they queued in one line ahead of
    everyone; later the AI's move was taken from the shared queue only when no hint was waiting, so that the flood
    kept it from ever moving); another player's moves against the easy AI are each answered after at most the one
    hint being worked out. Counted, not timed: each hint takes :data:`HINT` seconds here."""
    started: list[str] = []

    def hint(*args: Any) -> JSON:
        started.append("hint")
        time.sleep(HINT)
        return analyse(*args)

    def move(*args: Any) -> str:
        started.append("move")
        return choose_move(*args)

    monkeypatch.setattr("hive.web.ai.player.analyse", hint)
    monkeypatch.setattr("hive.web.ai.player.choose_move", move)
    settings = Settings(hints_per_minute=0)
    async with in_process(":memory:", ("10.0.0.1", 1000), settings=settings) as (app, flooder):
        games = [await new_game(flooder, mode="local", game_string=midgame(30, seed)) for seed in range(4)]
        statuses: list[int] = []
        stop = asyncio.Event()

        async def flood(game: JSON, ply: int) -> None:
            while not stop.is_set():
                url = f"/api/games/{game['id']}/hint?ply={ply % 12}"
                r = await flooder.get(url, headers={"x-seat-token": game["token"]})
                statuses.append(r.status_code)
                ply += 1
                if r.status_code == 429:  # the game's share of the queue is full: ask again soon
                    await asyncio.sleep(0.1)

        flooding = [asyncio.ensure_future(flood(games[i % 4], i // 4)) for i in range(40)]
        try:
            async with client(app, ("10.0.0.2", 2000)) as me:
                mine = await new_game(me, mode="ai", ai_level="easy", colour="white")
                seat = {"x-seat-token": mine["token"]}
                board = Board("Base+MLP")
                for ply in range(0, 10, 2):
                    while app.ai.jobs.waiting < 12:  # the queue full of hints
                        await asyncio.sleep(0.01)
                    before = len(started)
                    r = await me.post(
                        f"/api/games/{mine['id']}/move",
                        json={"move": random_move(board, ply), "ply": ply},
                        headers=seat,
                    )
                    assert r.status_code == 200, r.text
                    deadline = time.monotonic() + 30  # a generous bound: the count below is the test
                    while time.monotonic() < deadline:
                        state = (await me.get(f"/api/games/{mine['id']}", headers=seat)).json()
                        if len(state["moves"]) == ply + 2:
                            break
                        await asyncio.sleep(0.02)
                    assert len(state["moves"]) == ply + 2, f"the AI did not answer move {ply + 1}: {started[before:]}"
                    board.push_text(state["moves"][-1])
                    since = started[before:]
                    assert since[: since.index("move")].count("hint") <= 1, since
        finally:
            stop.set()
            for asking in flooding:
                asking.cancel()
            await asyncio.gather(*flooding, return_exceptions=True)
    assert set(statuses) <= {200, 429} and 200 in statuses and 429 in statuses  # 429: the game's share is full


def test_a_hint_for_a_position_the_game_has_left_never_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint worked out while a move is played is refused (409), not returned for the old position; a review of
    an earlier position, which the game still has, is answered."""
    started, release = threading.Event(), threading.Event()

    def slow(*args: Any) -> JSON:
        started.set()
        release.wait(30)
        return analyse(*args)

    monkeypatch.setattr("hive.web.ai.player.analyse", slow)

    async def main() -> None:
        async with in_process(":memory:") as (_, c):
            game = (await c.post("/api/games", json={"mode": "local"})).json()
            seat = {"x-seat-token": game["token"]}
            url = f"/api/games/{game['id']}"
            assert (await c.post(f"{url}/move", json={"move": "wS1"}, headers=seat)).status_code == 200
            for query, status in (("", 409), ("?ply=1", 200)):
                started.clear()
                release.clear()
                asking = asyncio.ensure_future(c.get(f"{url}/hint{query}", headers=seat))
                while not started.is_set():
                    await asyncio.sleep(0.01)
                played = len((await c.get(url)).json()["moves"])
                move = {"move": "bS1 wS1-" if played == 1 else "wQ -wS1", "ply": played}
                assert (await c.post(f"{url}/move", json=move, headers=seat)).status_code == 200
                release.set()
                r = await asking
                assert r.status_code == status, r.text
                if status == 409:
                    assert r.json()["error"] == "The game moved on while the AI was thinking; ask again."
                else:
                    assert r.json()["ply"] == 1

    asyncio.run(main())


def _dies(marker: str, times: int) -> str:
    """A job whose worker process dies the first ``times`` times it runs (counted in the file ``marker``)."""
    runs = int(Path(marker).read_text() or 0) if Path(marker).exists() else 0
    Path(marker).write_text(str(runs + 1))
    if runs < times:
        os._exit(1)
    return f"answered on run {runs + 1}"


def test_a_job_whose_worker_died_runs_once_more_on_new_workers(tmp_path: Path) -> None:
    pools: list[ProcessPoolExecutor] = []

    def restart() -> None:
        pools.append(ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")))

    async def main() -> None:
        restart()
        jobs = Scheduler(lambda: pools[-1], 1, queue_size=10, per_game=10, restart=restart)
        assert await jobs.run("a", _dies, str(tmp_path / "once"), 1) == "answered on run 2"
        with pytest.raises(BrokenProcessPool):
            await jobs.run("a", _dies, str(tmp_path / "always"), 9)
        assert (tmp_path / "always").read_text() == "2"  # tried twice, not forever
        # the pool the last failure broke is replaced when the next job finds it broken
        assert await jobs.run("b", _dies, str(tmp_path / "never"), 0) == "answered on run 1"
        assert jobs.running == 0 and len(pools) == 4

    try:
        asyncio.run(main())
    finally:
        for pool in pools:
            pool.shutdown()


def _workers() -> set[int]:
    """This process's AI worker processes (its living children that are not multiprocessing's resource tracker)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z" and b"spawn_main" in command:
            found.add(int(entry))
    return found


def test_the_ai_still_moves_when_its_worker_process_is_killed_while_it_thinks(tmp_path: Path) -> None:
    with server_thread(tmp_path / "games.db", workers=1) as url, httpx.Client(base_url=url, timeout=60) as client:
        game = client.post("api/games", json={"mode": "ai", "ai_level": "max", "colour": "white"}).json()
        seat = {"X-Seat-Token": game["token"]}
        board = Board("Base+MLP")
        killed: set[int] = set()
        for ply in range(0, 6, 2):
            move = random_move(board, ply)
            assert client.post(f"api/games/{game['id']}/move", json={"move": move}, headers=seat).status_code == 200
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                state = client.get(f"api/games/{game['id']}", headers=seat).json()
                if len(state["moves"]) == ply + 2:
                    break
                if ply == 2 and not killed and state["thinking"] and _workers():
                    killed = _workers()
                    for pid in killed:
                        os.kill(pid, signal.SIGKILL)
                time.sleep(0.02)
            assert state["ai_error"] is None
            assert len(state["moves"]) == ply + 2, f"the AI did not answer move {ply + 1}"
            board.push_text(state["moves"][-1])
        assert killed and not killed & _workers()  # the dead worker was replaced
