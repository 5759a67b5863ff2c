"""Live updates never wait on a slow client: a WebSocket that never reads is dropped, and neither the mover's
answer, the opponent's update nor the AI's move waits for it.

Each test plays two games side by side, one watched by a socket that never reads and one that is not (the control),
taking turns request by request, so that whatever else the machine is doing slows both alike; the game with the
stuck socket is then held to the control's times, not to a fixed number of milliseconds. Each live socket reads
every update before the next is sent, as a page does.
"""

from __future__ import annotations

import asyncio
import json
import logging
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from hive.games.hive.board import Board

from ...web_support import midgame, random_move, server_thread
from ..socket_support import dropped_games, never_reading_socket

JSON = dict[str, Any]
#: How many times slower than the control game's the stuck game's answers and updates may be, at most (median and
#: 90th percentile). Before the fan-out queues, the mover's request hung once some 3 MB were unread (seconds, against
#: milliseconds for the control).
SLOWER = 3.0


class Watcher:
    """A WebSocket client reading every state as it comes, as a page does; :meth:`until` waits for a state."""

    def __init__(self, url: str, game_id: str, token: str) -> None:
        self.uri = f"ws://{url.removeprefix('http://')}ws/games/{game_id}?token={token}"
        self.last: JSON = {}
        #: When the last state arrived (``time.perf_counter``).
        self.at = 0.0
        self.task: asyncio.Task[None] | None = None
        self._new = asyncio.Event()

    async def __aenter__(self) -> Watcher:
        self.socket = await websockets.connect(self.uri, max_size=None)
        self.task = asyncio.get_running_loop().create_task(self._read())
        return self

    async def _read(self) -> None:
        try:
            async for text in self.socket:
                self.last = json.loads(text)
                self.at = time.perf_counter()
                self._new.set()
        finally:
            self._new.set()

    async def until(self, test: Callable[[JSON], bool], timeout: float = 60.0) -> float:
        """When the first state passing ``test`` arrived (waiting for it at most ``timeout`` seconds, a guard
        against a hang rather than a bound on the server)."""

        async def wait() -> float:
            while not test(self.last):
                assert self.task is not None and not self.task.done(), f"the socket closed: {self.socket.close_code}"
                self._new.clear()
                await self._new.wait()
            return self.at

        return await asyncio.wait_for(wait(), timeout)

    def dropped(self) -> int | None:
        """The code the server closed the socket with, if it did."""
        return self.socket.close_code

    async def __aexit__(self, *exc: object) -> None:
        assert self.task is not None
        self.task.cancel()
        await self.socket.close()


def at_version(version: int) -> Callable[[JSON], bool]:
    """Whether a state shows the game at ``version`` or later."""
    return lambda state: bool(state.get("version", -1) >= version)


def with_moves(plies: int) -> Callable[[JSON], bool]:
    """Whether a state shows ``plies`` moves or more."""
    return lambda state: len(state.get("moves", ())) >= plies


class Times:
    """The time each request took to be answered, and until the live socket saw its update, in one game."""

    def __init__(self) -> None:
        self.answers: list[float] = []
        self.updates: list[float] = []

    def within(self, control: Times, what: str) -> None:
        """Assert that these times are at most :data:`SLOWER` times ``control``'s, at the median and the 90th
        percentile."""
        for mine, theirs, name in (
            (self.answers, control.answers, "answer"),
            (self.updates, control.updates, "update"),
        ):
            for cut in (2, 10):  # the median, the 90th percentile
                ours, base = statistics.quantiles(mine, n=cut)[-1], statistics.quantiles(theirs, n=cut)[-1]
                print(
                    f"{what}: {name}s at the {100 - 100 // cut}th percentile: {ours * 1000:.1f} ms beside the stuck"
                    f" socket, {base * 1000:.1f} ms in the control game"
                )
                assert ours <= SLOWER * base, (
                    f"{what}: the {name}s beside the stuck socket took {ours * 1000:.1f} ms at the {100 - 100 // cut}th"
                    f" percentile, against {base * 1000:.1f} ms for the control game"
                )


@pytest.mark.slow  # 15 s: a socket filled to its bound
@pytest.mark.timing
def test_a_socket_that_never_reads_delays_neither_the_mover_nor_the_opponent(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """600 updates (about 6 MB) sent towards a spectator that reads nothing: it is dropped, the opponent sees every
    update and is never dropped, and the mover's answers and the opponent's updates keep the control game's pace
    (before, the mover's request hung once some 3 MB were unread)."""
    caplog.set_level(logging.WARNING, logger="hive.web")

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            body = {"mode": "online", "game_string": midgame(40, 3)}
            stuck_game, control_game = [(await c.post("/api/games", json=body)).json() for _ in range(2)]
            stuck = never_reading_socket(url, f"/ws/games/{stuck_game['id']}")
            times = {stuck_game["id"]: Times(), control_game["id"]: Times()}
            async with (
                Watcher(url, stuck_game["id"], stuck_game["invite"]) as stuck_opponent,
                Watcher(url, control_game["id"], control_game["invite"]) as control_opponent,
            ):
                pairs = [(stuck_game, stuck_opponent), (control_game, control_opponent)]

                async def request(game: JSON, opponent: Watcher, path: str, seat: int, data: JSON) -> None:
                    headers = {"x-seat-token": game["token"] if seat == 0 else game["invite"]}
                    start = time.perf_counter()
                    r = await c.post(f"/api/games/{game['id']}/{path}", json=data, headers=headers)
                    answered = time.perf_counter()
                    assert r.status_code == 200, r.text
                    version = r.json()["version"]
                    seen = await opponent.until(at_version(version))
                    times[game["id"]].answers.append(answered - start)
                    times[game["id"]].updates.append(seen - start)

                for i in range(600):
                    for game, opponent in pairs:
                        await request(game, opponent, "name", 0, {"name": f"Ann {i}"})
                boards = {game["id"]: Board.from_record(midgame(40, 3)) for game, _ in pairs}
                for ply in range(40, 46):
                    for game, opponent in pairs:
                        move = random_move(boards[game["id"]], ply)
                        await request(game, opponent, "move", ply % 2, {"move": move, "ply": ply})
                for _, opponent in pairs:
                    assert opponent.last["names"][0] == "Ann 599" and len(opponent.last["moves"]) == 46
                    assert opponent.dropped() is None
            stuck.close()
            # 6 MB unread, more than the system's largest send buffer (4 MB by default on Linux): the stuck socket is
            # dropped, and only it
            assert dropped_games(caplog) == [stuck_game["id"]]
            times[stuck_game["id"]].within(times[control_game["id"]], "600 names and 6 moves")

    with server_thread(tmp_path / "games.db") as url:
        asyncio.run(main(url))


@pytest.mark.timing
@pytest.mark.slow
def test_the_ai_moves_while_a_socket_reads_nothing(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A game against the AI open in a second tab that reads nothing: after 1,500 updates (some 4 MB) sent towards
    it, the AI answers each of the player's moves at the pace of a game without such a tab (before, the game stalled
    on the socket)."""
    caplog.set_level(logging.WARNING, logger="hive.web")

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            body = {"mode": "ai", "ai_level": "easy", "colour": "white", "game_string": midgame(40, 8)}
            stuck_game, control_game = [(await c.post("/api/games", json=body)).json() for _ in range(2)]
            # the player's own view, in a tab that reads nothing
            stuck = never_reading_socket(url, f"/ws/games/{stuck_game['id']}?token={stuck_game['token']}")
            ai_times: dict[str, list[float]] = {stuck_game["id"]: [], control_game["id"]: []}
            async with (
                Watcher(url, stuck_game["id"], stuck_game["token"]) as stuck_me,
                Watcher(url, control_game["id"], control_game["token"]) as control_me,
            ):
                mine = {"x-seat-token": stuck_game["token"]}
                for i in range(1500):
                    r = await c.post(f"/api/games/{stuck_game['id']}/name", json={"name": f"Ann {i}"}, headers=mine)
                    assert r.status_code == 200, r.text
                    version = r.json()["version"]
                    await stuck_me.until(at_version(version))
                pairs = [(stuck_game, stuck_me), (control_game, control_me)]
                boards = {game["id"]: Board.from_record(midgame(40, 8)) for game, _ in pairs}
                for ply in range(40, 50, 2):
                    for game, me in pairs:
                        board = boards[game["id"]]
                        move = random_move(board, ply)
                        start = time.perf_counter()
                        r = await c.post(
                            f"/api/games/{game['id']}/move",
                            json={"move": move, "ply": ply},
                            headers={"x-seat-token": game["token"]},
                        )
                        assert r.status_code == 200, r.text
                        seen = await me.until(with_moves(ply + 2))
                        ai_times[game["id"]].append(seen - start)
                        board.push_text(me.last["moves"][ply + 1])
                for _, me in pairs:
                    assert me.dropped() is None
            stuck.close()
            # the stuck tab is dropped once what it left unread outgrows the system's buffers (4 MB at most, by
            # default on Linux): here it may not be; the player's tabs never are
            assert set(dropped_games(caplog)) <= {stuck_game["id"]}
            late, base = (statistics.median(ai_times[game["id"]]) for game in (stuck_game, control_game))
            print(f"the AI's moves: {late * 1000:.0f} ms beside the stuck tab, {base * 1000:.0f} ms without")
            assert late <= SLOWER * base, (
                f"the AI's moves beside the stuck tab came after {late * 1000:.0f} ms (median), against"
                f" {base * 1000:.0f} ms in the control game"
            )

    with server_thread(tmp_path / "games.db") as url:
        asyncio.run(main(url))
