"""The games' sockets cost what they are: a seat's sockets are told of who is present only when that changes (the
messages grow with the sockets, not with their square), each address and each seat holds a bounded number of them
(more are closed with 4429 and why), and a socket dropped for not reading is really closed, its descriptor freed,
within a bounded time."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from hive.web.http.sockets import TOO_MANY
from hive.web.play.fanout import Fanout
from hive.web.shared.settings import Settings

from ...web_support import counting, midgame, server_thread
from ..socket_support import dropped_games, never_reading_socket

#: No limit on the sockets: the cost of many of them on one seat is measured.
UNCAPPED = Settings(game_sockets=0, game_sockets_per_game=0, spectator_sockets=0, seat_sockets=0)


def ws_url(url: str, game_id: str, token: str | None = None) -> str:
    return f"ws://{url.removeprefix('http://')}ws/games/{game_id}" + (f"?token={token}" if token else "")


async def first_state(ws: Any) -> dict[str, Any]:
    state: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
    return state


async def refused(url: str) -> tuple[int, str]:
    """The close code and reason of a socket the server refuses once open."""
    ws = await websockets.connect(url)
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


def test_many_sockets_on_one_seat_cost_messages_in_proportion(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """40 sockets opened one after another on one seat, then closed: each is sent the game once, and who is present
    is told only when it changes (before, every socket opening or closing sent the game to every other: 40 sockets
    opening cost 861 messages, 1,000 cost 524,895; now 42)."""
    sends = counting(monkeypatch, Fanout, ("send",))
    n = 40

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            game = (await c.post("/api/games", json={"mode": "online", "colour": "white"})).json()
        watcher = await websockets.connect(ws_url(url, game["id"]), max_queue=None)  # keeps what it does not read
        assert (await first_state(watcher))["present"] == [False, False]
        opened = []
        for _ in range(n):
            ws = await websockets.connect(ws_url(url, game["id"], game["token"]), max_queue=None)
            assert (await first_state(ws))["seats"] == [0]
            opened.append(ws)
        while (await first_state(watcher))["present"] != [True, False]:
            pass
        on_opening = sends["send"]
        for ws in opened:
            await ws.close()
        while (await first_state(watcher))["present"] != [False, False]:
            pass
        on_closing = sends["send"] - on_opening
        await watcher.close()
        print(f"{n} sockets on one seat: {on_opening} messages as they opened, {on_closing} as they closed")
        assert on_opening <= 2 * n + 2 and on_closing <= 2

    with server_thread(tmp_path / "games.db", settings=UNCAPPED) as url:
        asyncio.run(main(url))


def test_sockets_are_capped_per_address_per_game_per_seat_and_for_spectators(tmp_path: Path) -> None:
    settings = Settings(game_sockets=7, game_sockets_per_game=4, spectator_sockets=3, seat_sockets=2)

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            games = [(await c.post("/api/games", json={"mode": "online"})).json() for _ in range(3)]
        one, two, three = games
        kept = []
        for token in (one["token"], one["token"]):  # a seat's limit
            kept.append(await websockets.connect(ws_url(url, one["id"], token)))
            await first_state(kept[-1])
        code, reason = await refused(ws_url(url, one["id"], one["token"]))
        assert code == TOO_MANY and "one seat" in reason
        kept.append(await websockets.connect(ws_url(url, one["id"], one["invite"])))  # the other seat
        kept.append(await websockets.connect(ws_url(url, one["id"])))  # a spectator
        code, reason = await refused(ws_url(url, one["id"]))  # a game's limit from one address
        assert code == TOO_MANY and "one game" in reason
        for _ in range(2):  # the spectators' limit: 3 in all
            kept.append(await websockets.connect(ws_url(url, two["id"])))
            await first_state(kept[-1])
        code, reason = await refused(ws_url(url, three["id"]))
        assert code == TOO_MANY and "spectators" in reason
        kept.append(await websockets.connect(ws_url(url, three["id"], three["token"])))
        await first_state(kept[-1])
        code, reason = await refused(ws_url(url, three["id"], three["invite"]))  # 7 in all
        assert code == TOO_MANY and "game sockets" in reason
        await kept.pop(0).close()  # one closed, one more is let in
        for _ in range(100):
            try:
                last = await websockets.connect(ws_url(url, three["id"], three["invite"]))
                state = await first_state(last)
                break
            except websockets.ConnectionClosed:
                await asyncio.sleep(0.05)  # the closed one is counted out once its handler ends
        assert state["seats"] == [1]
        for ws in [*kept, last]:
            await ws.close()

    with server_thread(tmp_path / "games.db", settings=settings) as url:
        asyncio.run(main(url))


def socket_open(port: int, peer: int) -> bool:
    """Whether this process holds a descriptor of the TCP connection from local ``port`` to ``peer`` (the server's
    end, the server running in a thread here)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                local, remote, inode = fields[1], fields[2], fields[9]
                if int(local.rsplit(":", 1)[1], 16) == port and int(remote.rsplit(":", 1)[1], 16) == peer:
                    inodes.add(inode)
    held = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            held.add(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue
    return any(f"socket:[{inode}]" in held for inode in inodes if inode != "0")


@pytest.mark.timing
@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's /proc")
def test_a_socket_dropped_for_not_reading_is_closed_and_its_descriptor_freed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A spectator's socket that reads nothing is dropped once its updates outgrow the buffers, and its connection is
    closed on the server within a few send timeouts (before, it stayed open, descriptor and all, until the client
    went: 240 s and more)."""
    caplog.set_level(logging.WARNING, logger="hive.web")
    settings = Settings(send_queue=4, send_timeout=1.0)

    async def main(url: str) -> None:
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            game = (await c.post("/api/games", json={"mode": "online", "game_string": midgame(40, 3)})).json()
            stuck = never_reading_socket(url, f"/ws/games/{game['id']}")
            peer = stuck.getsockname()[1]
            assert socket_open(port, peer)
            mine = {"x-seat-token": game["token"]}
            for i in range(3000):
                r = await c.post(f"/api/games/{game['id']}/name", json={"name": f"Ann {i}"}, headers=mine)
                assert r.status_code == 200, r.text
                if dropped_games(caplog):
                    break
            assert dropped_games(caplog) == [game["id"]], "the socket was never dropped"
            dropped = time.monotonic()
            while socket_open(port, peer) and time.monotonic() - dropped < 30:
                await asyncio.sleep(0.1)
            held = time.monotonic() - dropped
            print(f"the dropped socket's connection was closed {held:.1f} s after the drop")
            assert not socket_open(port, peer), f"still open {held:.0f} s after it was dropped"
            assert held < 10  # the close's time limit and the abort's, a send timeout each, and some slack
            stuck.close()

    with server_thread(tmp_path / "games.db", settings=settings) as url:
        asyncio.run(main(url))
