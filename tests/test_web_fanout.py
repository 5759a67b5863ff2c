"""Live updates never wait on a slow client: a WebSocket that never reads is dropped, and neither the mover's
answer, the opponent's update nor the AI's move waits for it."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from hive.games.hive.board import Board

from .web_support import midgame, random_move, server_thread

JSON = dict[str, Any]


def never_reading_socket(url: str, path: str) -> socket.socket:
    """A WebSocket opened on ``path`` (its handshake read) whose reader then reads nothing, with a small receive
    buffer so that what the server sends piles up on the server's side."""
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


class Watcher:
    """A WebSocket client reading every state as it comes, noting when each number of moves was first seen."""

    def __init__(self, url: str, game_id: str, token: str) -> None:
        self.uri = f"ws://{url.removeprefix('http://')}ws/games/{game_id}?token={token}"
        self.seen: dict[int, float] = {}
        self.names: list[Any] = []
        self.last: JSON = {}
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Watcher:
        self.socket = await websockets.connect(self.uri, max_size=None)
        self.task = asyncio.get_running_loop().create_task(self._read())
        return self

    async def _read(self) -> None:
        async for text in self.socket:
            state = json.loads(text)
            self.seen.setdefault(len(state["moves"]), time.perf_counter())
            self.names.append(state["names"])
            self.last = state

    async def __aexit__(self, *exc: object) -> None:
        assert self.task is not None
        self.task.cancel()
        await self.socket.close()


def test_a_socket_that_never_reads_delays_neither_the_mover_nor_the_opponent(tmp_path: Path) -> None:
    """600 updates (about 6 MB) sent towards a spectator that reads nothing: the answers stay prompt (before, the
    mover's request hung once some 3 MB were unread), and the opponent sees each move within a second."""

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=5) as c:
            game = (await c.post("/api/games", json={"mode": "online", "game_string": midgame(40, 3)})).json()
            game_id, white, black = game["id"], {"x-seat-token": game["token"]}, {"x-seat-token": game["invite"]}
            stuck = never_reading_socket(url, f"/ws/games/{game_id}")
            async with Watcher(url, game_id, game["invite"]) as opponent:
                times = []
                for i in range(600):
                    start = time.perf_counter()
                    r = await c.post(f"/api/games/{game_id}/name", json={"name": f"Ann {i}"}, headers=white)
                    times.append(time.perf_counter() - start)
                    assert r.status_code == 200, r.text
                board = Board.from_record(midgame(40, 3))
                moves = []
                for ply in range(40, 46):
                    move = random_move(board, ply)
                    start = time.perf_counter()
                    headers = white if ply % 2 == 0 else black
                    r = await c.post(f"/api/games/{game_id}/move", json={"move": move, "ply": ply}, headers=headers)
                    answered = time.perf_counter()
                    assert r.status_code == 200, r.text
                    moves.append(answered - start)
                    while ply + 1 not in opponent.seen and time.perf_counter() - start < 2:
                        await asyncio.sleep(0.005)
                    assert opponent.seen.get(ply + 1, float("inf")) - start < 1.0, f"move {ply + 1} reached late"
                assert opponent.names[-1][0] == "Ann 599"
            stuck.close()
        answers = sorted(times + moves)
        # a loaded 2-core machine stalls a few requests of the pure build by 100-200 ms whatever the sockets do:
        # 95 in 100 answers within 100 ms, every one within 1 s (before, the mover's request hung)
        assert answers[len(answers) * 95 // 100] < 0.1, answers[-40:]
        assert answers[-1] < 1.0, answers[-10:]

    with server_thread(tmp_path / "games.db") as url:
        asyncio.run(main(url))


def test_the_ai_moves_while_a_socket_reads_nothing(tmp_path: Path) -> None:
    """A game against the AI open in a second tab that reads nothing: after 1,500 updates (some 4 MB) have piled
    up, each of the player's moves is still answered by the AI within a second (before, the game stalled on the
    socket)."""

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=5) as c:
            body = {"mode": "ai", "ai_level": "easy", "colour": "white", "game_string": midgame(40, 8)}
            game = (await c.post("/api/games", json=body)).json()
            game_id, mine = game["id"], {"x-seat-token": game["token"]}
            stuck = never_reading_socket(url, f"/ws/games/{game_id}?token={game['token']}")  # the player's view
            async with Watcher(url, game_id, game["token"]) as me:
                for i in range(1500):
                    r = await c.post(f"/api/games/{game_id}/name", json={"name": f"Ann {i}"}, headers=mine)
                    assert r.status_code == 200, r.text
                board = Board.from_record(midgame(40, 8))
                for ply in range(40, 50, 2):
                    move = random_move(board, ply)
                    start = time.perf_counter()
                    r = await c.post(f"/api/games/{game_id}/move", json={"move": move, "ply": ply}, headers=mine)
                    assert r.status_code == 200, r.text
                    while ply + 2 not in me.seen and time.perf_counter() - start < 2:
                        await asyncio.sleep(0.005)
                    assert me.seen.get(ply + 2, float("inf")) - start < 1.0, f"the AI's move {ply + 2} came late"
                    board.push_text(me.last["moves"][ply + 1])
            stuck.close()

    with server_thread(tmp_path / "games.db") as url:
        asyncio.run(main(url))
