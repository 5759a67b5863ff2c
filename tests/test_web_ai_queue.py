"""The AI's queue: games served in turn, the same hint worked out once, a bounded queue with clear refusals; a
flood of hints leaves another player's move prompt; a hint never answers for a position the game has left."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import statistics
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import httpx
import pytest

import hive
import hive.web.ai.player
from hive.games.hive.board import Board
from hive.web import create_app
from hive.web.ai.scheduler import Scheduler
from hive.web.errors import TooMany
from hive.web.settings import Settings

from .test_search_threads import children
from .web_support import midgame, random_move, server_thread

JSON = dict[str, Any]


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


def test_a_flood_of_hints_leaves_another_player_s_easy_ai_answer_prompt(tmp_path: Path) -> None:
    """One client asks 400 hints at once over four games (before, they queued in one line ahead of everyone); the
    AI still answers another game's moves at the easy level within half a second (the hints are of early positions,
    which the plain Python build also works out within a fraction of that)."""

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as flooder, httpx.AsyncClient(base_url=url) as me:
            games = []
            for seed in range(4):
                r = await flooder.post("/api/games", json={"mode": "local", "game_string": midgame(30, seed)})
                games.append(r.json())
            body = {"mode": "ai", "ai_level": "easy", "colour": "white"}
            mine = (await me.post("/api/games", json=body)).json()
            seat = {"x-seat-token": mine["token"]}
            board = Board("Base+MLP")

            async def hint(game: JSON, ply: int) -> int:
                url = f"/api/games/{game['id']}/hint?ply={ply}"
                r = await flooder.get(url, headers={"x-seat-token": game["token"]})
                return r.status_code

            flood = [asyncio.ensure_future(hint(games[i % 4], i % 12)) for i in range(400)]
            await asyncio.sleep(0.2)
            answers = []
            for ply in range(0, 10, 2):
                move = random_move(board, ply)
                start = time.perf_counter()
                r = await me.post(f"/api/games/{mine['id']}/move", json={"move": move, "ply": ply}, headers=seat)
                assert r.status_code == 200, r.text
                while True:
                    state = (await me.get(f"/api/games/{mine['id']}", headers=seat)).json()
                    if len(state["moves"]) == ply + 2 or time.perf_counter() - start > 5:
                        break
                    await asyncio.sleep(0.01)
                answers.append(time.perf_counter() - start)
                assert len(state["moves"]) == ply + 2, (
                    f"the AI had not answered move {ply + 1} after {answers[-1]:.1f} s"
                )
                board.push_text(state["moves"][-1])
            statuses = await asyncio.gather(*flood)
            assert set(statuses) <= {200, 429} and 200 in statuses  # 429: the game's share of the queue is full
        # a hint already being worked out is not interrupted: the plain Python build's take up to ~0.5 s under load
        assert max(answers) < (0.5 if hive.COMPILED else 1.0), answers
        assert statistics.median(answers) < 0.25, answers

    settings = Settings(hints_per_minute=0)
    with server_thread(tmp_path / "games.db", workers=1, settings=settings) as url:
        asyncio.run(main(url))


def test_a_hint_for_a_position_the_game_has_left_never_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint worked out while a move is played is refused (409), not returned for the old position; a review of
    an earlier position, which the game still has, is answered."""
    started, release = threading.Event(), threading.Event()
    analyse = hive.web.ai.player.analyse

    def slow(*args: Any) -> JSON:
        started.set()
        release.wait(30)
        return analyse(*args)

    monkeypatch.setattr(hive.web.ai.player, "analyse", slow)

    async def main() -> None:
        app = create_app(":memory:", workers=0)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1", timeout=60) as c:
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
        await app.close()

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
    """This process's AI worker processes (not multiprocessing's resource tracker)."""
    found = set()
    for pid in children():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            found.add(pid)
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
