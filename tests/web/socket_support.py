"""The club's sockets as the tests drive them: the lobby's socket of a guest or an account, the messages it sends
waited for by what they say, and a game's socket that never reads (with the server's word for dropping it)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import websockets

from ..web_support import JSON
from .api_support import PASSWORD

#: The server's message for a socket it dropped.
DROPPED = "dropped a socket of game %s that did not keep up"


def ws_url(url: str, path: str) -> str:
    """The WebSocket URL of ``path`` on the server at ``url``."""
    return url.replace("http://", "ws://") + path


async def account(c: httpx.AsyncClient, name: str) -> JSON:
    """Make an account signed in on ``c``: its name, CSRF headers and cookie header."""
    r = await c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    cookie = "; ".join(f"{key}={value}" for key, value in c.cookies.items())
    return {"name": name, "client": c, "headers": {"x-csrf-token": r.json()["csrf"]}, "cookie": cookie}


async def lobby(url: str, who: JSON | None = None) -> Any:
    """A lobby socket (a guest's, or signed in as ``who``) and its ``hello``."""
    headers = {"cookie": who["cookie"]} if who else {}
    ws: Any = await websockets.connect(ws_url(url, "ws/lobby"), additional_headers=headers)
    hello = await message(ws, lambda m: m["type"] == "hello")
    ws.hello = hello
    return ws


async def message(ws: Any, test: Callable[[JSON], bool], timeout: float = 20.0) -> JSON:
    """The first JSON message the socket sends that passes ``test``, skipping the others."""

    async def read() -> JSON:
        while True:
            text = await ws.recv()
            if text == "pong":
                continue
            data: JSON = json.loads(text)
            if test(data):
                return data

    return await asyncio.wait_for(read(), timeout)


async def both(ws: Any, first: Callable[[JSON], bool], second: Callable[[JSON], bool]) -> tuple[JSON, JSON]:
    """The first messages that pass ``first`` and ``second``, in whichever order they come."""
    found: list[JSON | None] = [None, None]
    while found[0] is None or found[1] is None:
        got = await message(ws, lambda m: (found[0] is None and first(m)) or (found[1] is None and second(m)))
        found[0 if found[0] is None and first(got) else 1] = got
    assert found[0] is not None and found[1] is not None
    return found[0], found[1]


async def until_pong(ws: Any) -> list[JSON]:
    """Every message the socket has sent until it answers a ping now (what came before is all there was)."""
    await ws.send("ping")
    seen: list[JSON] = []
    while True:
        text = await asyncio.wait_for(ws.recv(), 20)
        if text == "pong":
            return seen
        seen.append(json.loads(text))


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


def dropped_games(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The games whose sockets the server dropped for not keeping up, once per socket."""
    return [str(r.args[0]) for r in caplog.records if r.msg == DROPPED and isinstance(r.args, tuple)]
