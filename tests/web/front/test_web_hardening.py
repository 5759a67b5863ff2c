"""The server's front door and limits: security headers, allowed hosts and origins, JSON-only bodies read within
limits, strict numbers, binary frames, rates per client with clear 429s, and games kept in memory within a bound."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import socket
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import websockets

from hive.web.http.guard import ANY_ADDRESS, CSP, WS_MAX_SIZE, Guard, allowed_hosts, host_name
from hive.web.http.limits import RateLimits
from hive.web.shared.endpoints import Refused, json_depth
from hive.web.shared.errors import TooMany
from hive.web.shared.settings import Settings

from ...web_support import JSON, ServerProcess, in_process, new_game, server_thread, state_where

MB = 1024 * 1024
LOCAL = ("127.0.0.1", "::1", "localhost")


def with_app(test: Callable[[httpx.AsyncClient], Awaitable[None]], **settings: Any) -> None:
    async def main() -> None:
        async with in_process(":memory:", settings=Settings(**settings)) as (_, c):
            await test(c)

    asyncio.run(main())


def memory(pid: int, field: str = "VmHWM") -> int:
    """A process's peak (``VmHWM``) or current (``VmRSS``) resident memory in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no {field} for process {pid}")


def test_every_answer_carries_the_security_headers() -> None:
    async def test(c: httpx.AsyncClient) -> None:
        game = await new_game(c, mode="local")
        answers = [
            await c.get("/"),
            await c.get("/static/main.js"),
            await c.get("/api/assets"),
            await c.get(f"/api/games/{game['id']}"),
            await c.get("/api/games/nothing"),
            await c.get("/no/such/page"),
            await c.post(f"/api/games/{game['id']}/move", json={"move": "wS1"}),
            await c.post("/api/games", content=b"{", headers={"content-type": "text/plain"}),
        ]
        assert [r.status_code for r in answers] == [200, 200, 200, 200, 404, 404, 403, 415]
        for r in answers:
            assert r.headers["content-security-policy"] == CSP
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["referrer-policy"] == "no-referrer"
        assert "frame-ancestors 'none'" in CSP and "script-src 'self';" in CSP and "unsafe" not in CSP

    with_app(test)


def test_the_allowed_host_names_follow_the_listening_address() -> None:
    assert set(allowed_hosts("127.0.0.1")) == set(LOCAL)
    assert set(allowed_hosts("::1", ("Hive.Example.org:443",))) == {*LOCAL, "hive.example.org"}
    assert allowed_hosts("192.168.1.20") == ("192.168.1.20",)
    lan = allowed_hosts("0.0.0.0")
    assert set(LOCAL) <= set(lan) and ANY_ADDRESS in lan and socket.gethostname().lower() in lan
    assert [host_name(h) for h in ("[::1]:8000", "LOCALHOST:80", "example.org", "::1")] == [
        "::1",
        "localhost",
        "example.org",
        "::1",
    ]


def test_a_wrong_host_is_refused_and_an_allowed_one_served() -> None:
    """DNS rebinding: a page at evil.example whose name now points at 127.0.0.1 reaches the server with its own
    name in ``Host``; it is refused, for the API and the WebSocket alike."""

    async def test(c: httpx.AsyncClient) -> None:
        for host, status in [
            ("127.0.0.1:8000", 200),
            ("localhost:8000", 200),
            ("[::1]:8000", 200),
            ("10.1.2.3:8000", 200),  # typed as an address: no name to rebind
            ("hive.lan:8000", 200),
            ("evil.example:8000", 400),
            ("127.0.0.1.evil.example", 400),
            ("", 400),
        ]:
            r = await c.get("/api/assets", headers={"host": host})
            assert r.status_code == status, (host, r.text)
            if status == 400:
                assert "does not answer to the host name" in r.json()["error"]
                assert "--allow-host" in r.json()["error"]

    with_app(test, hosts=allowed_hosts("0.0.0.0", ("hive.lan",)))


def test_cross_origin_requests_and_sockets_are_refused(tmp_path: Path) -> None:
    """A page of another site may not create games, move, or watch a game live; the server's own page may, and
    so may clients that are not browsers (no ``Origin``)."""

    async def main(url: str) -> None:
        own = url.rstrip("/")
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            evil = {"origin": "http://evil.example"}
            r = await c.post("/api/games", json={"mode": "local"}, headers=evil)
            assert r.status_code == 403 and "Cross-origin request refused" in r.json()["error"]
            r = await c.post("/api/games", json={"mode": "local"}, headers={"origin": "null"})
            assert r.status_code == 403
            r = await c.post("/api/games", content=b'{"mode": "local"}', headers={"content-type": "text/plain"})
            assert r.status_code == 415 and "application/json" in r.json()["error"]
            game = (await c.post("/api/games", json={"mode": "local"}, headers={"origin": own})).json()
            seat = {"x-seat-token": game["token"]}
            move = f"/api/games/{game['id']}/move"
            assert (await c.post(move, json={"move": "wS1"}, headers={**seat, **evil})).status_code == 403
            assert (await c.delete(f"/api/games/{game['id']}", headers={**seat, **evil})).status_code == 403
            assert (await c.get(f"/api/games/{game['id']}", headers=evil)).status_code == 200  # reading is harmless
            assert (await c.post(move, json={"move": "wS1"}, headers={**seat, "origin": own})).status_code == 200
        ws = f"ws://{own.removeprefix('http://')}/ws/games/{game['id']}"
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(ws, origin="http://evil.example")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        async with websockets.connect(ws, origin=own) as watching:  # type: ignore[arg-type]
            assert (await state_where(watching, lambda s: True))["moves"] == ["wS1"]

    with server_thread(tmp_path / "games.db") as url:
        asyncio.run(main(url))


def test_numbers_are_ascii_digits_only_and_deep_json_is_refused() -> None:
    async def test(c: httpx.AsyncClient) -> None:
        game = await new_game(c, mode="local")
        for ply in ("²", "①", "٣", "1_0", " 1", "+1", "0x1"):
            r = await c.get(f"/api/games/{game['id']}/position", params={"ply": ply})
            assert r.status_code == 400 and "'ply' must be a number from 0 to 0" in r.json()["error"], (ply, r.text)
            r = await c.get(
                f"/api/games/{game['id']}/hint", params={"ply": ply}, headers={"x-seat-token": game["token"]}
            )
            assert r.status_code == 400, (ply, r.text)
        deep = b"[" * 30_000 + b"]" * 30_000
        r = await c.post("/api/games", content=deep, headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"] == "The request body nests deeper than 32 levels."
        nested: Any = {"game_string": "wS1"}
        for _ in range(31):
            nested = {"x": nested}
        assert json_depth(json.dumps(nested).encode()) == 32
        assert json_depth(b'{"a": "[[[[{{{{\\"]]"}') == 1

    with_app(test)


async def watch_new_game(url: str, token: bool = False) -> tuple[JSON, Any]:
    """A new game on one screen, and a WebSocket watching it (with the seat token, or as a spectator), its first
    state read."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as c:
        game: JSON = (await c.post("/api/games", json={"mode": "local"})).json()
    query = f"?token={game['token']}" if token else ""
    watching = await websockets.connect(f"ws://{url.removeprefix('http://')}ws/games/{game['id']}{query}")
    await watching.recv()
    return game, watching


def test_a_binary_frame_closes_the_socket_with_a_reason_and_the_server_goes_on(tmp_path: Path) -> None:
    async def main(url: str) -> None:
        game, watching = await watch_new_game(url)
        await watching.send(b"\x00\x01binary")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await watching.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003
        assert "Binary frames are not understood" in closed.value.rcvd.reason
        async with websockets.connect(f"ws://{url.removeprefix('http://')}ws/games/{game['id']}") as again:
            await again.recv()
            await again.send("ping")
            while (answer := await again.recv()) != "pong":
                assert json.loads(answer)["id"] == game["id"]  # a state of the game, then the answer

    with server_thread(tmp_path / "games.db") as url:
        asyncio.run(main(url))


def test_rates_per_client_are_counted_over_a_sliding_minute() -> None:
    now = [1000.0]
    rates = RateLimits(Settings(games_per_minute=2, hints_per_minute=0), clock=lambda: now[0])
    rates.charge("games", "a")
    rates.charge("games", "a")
    rates.charge("games", "b")
    with pytest.raises(TooMany, match=r"Too many new games: at most 2 a minute from one address; try again in 60 s"):
        rates.charge("games", "a")
    now[0] += 30
    with pytest.raises(TooMany, match="try again in 30 s"):
        rates.charge("games", "a")
    now[0] += 30.5
    rates.charge("games", "a")
    for _ in range(1000):
        rates.charge("hints", "a")  # 0: no limit
    with pytest.raises(ValueError, match=r"games_per_minute must be 0 \(no limit\) or more, not -1"):
        Settings(games_per_minute=-1)


def test_over_a_rate_the_answer_is_a_429_with_a_message() -> None:
    async def test(c: httpx.AsyncClient) -> None:
        games = [await new_game(c, mode="ai", ai_level="random", colour="white") for _ in range(3)]
        r = await c.post("/api/games", json={"mode": "local"})
        assert r.status_code == 429 and r.json()["error"].startswith("Too many new games: at most 3 a minute")
        seat = {"x-seat-token": games[0]["token"]}
        hint = f"/api/games/{games[0]['id']}/hint"
        assert [(await c.get(hint, headers=seat)).status_code for _ in range(3)] == [200, 200, 429]
        r = await c.get(hint, headers=seat)
        assert r.json()["error"].startswith("Too many hints: at most 2 a minute from one address")
        statuses = []
        for game in games[:2]:
            r = await c.post(
                f"/api/games/{game['id']}/move", json={"move": "wS1"}, headers={"x-seat-token": game["token"]}
            )
            statuses.append(r.status_code)
        assert statuses == [200, 429]

    with_app(test, games_per_minute=3, hints_per_minute=2, ai_per_minute=1)


@pytest.mark.anyio
async def test_games_in_memory_stay_within_the_bound_and_come_back_from_the_database(database: str) -> None:
    async with in_process(database, settings=Settings(live_games=3)) as (app, c):
        games = [await new_game(c, mode="local") for _ in range(8)]
        for game in games:
            r = await c.post(
                f"/api/games/{game['id']}/move", json={"move": "wS1"}, headers={"x-seat-token": game["token"]}
            )
            assert r.status_code == 200
            assert len(app.service.sessions) <= 3
        assert games[0]["id"] not in app.service.sessions
        state = (await c.get(f"/api/games/{games[0]['id']}")).json()
        assert state["moves"] == ["wS1"] and games[0]["id"] in app.service.sessions
        listed = (await c.get("/api/games")).json()["games"]
        assert len(listed) == 8 and all(g["length"] == 1 for g in listed)


def test_a_watched_game_stays_in_memory(tmp_path: Path) -> None:
    async def main(url: str) -> None:
        watched, watching = await watch_new_game(url, token=True)
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            for _ in range(5):
                await c.post("/api/games", json={"mode": "local"})
            seat = {"x-seat-token": watched["token"]}
            r = await c.post(f"/api/games/{watched['id']}/move", json={"move": "wS1"}, headers=seat)
            assert r.status_code == 200
        assert (await state_where(watching, lambda s: s["moves"] != []))["moves"] == ["wS1"]
        await watching.close()

    with server_thread(tmp_path / "games.db", settings=Settings(live_games=2)) as url:
        asyncio.run(main(url))


def _raw(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def _closed_within(sock: socket.socket, seconds: float) -> bytes:
    """What the server sent before closing the connection, which it must do within ``seconds``."""
    start = time.monotonic()
    received = b""
    sock.settimeout(seconds)
    while chunk := sock.recv(4096):
        received += chunk
    assert time.monotonic() - start < seconds
    return received


@pytest.mark.timing
def test_partial_requests_are_timed_out(tmp_path: Path) -> None:
    """A request's head, or its body, that stops arriving: the connection is closed after the request time limit
    (a body: with a 408 and a message) instead of being held forever."""
    with server_thread(tmp_path / "games.db", settings=Settings(request_timeout=1.0)) as url:
        head = _raw(url)
        head.sendall(b"GET /api/assets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        assert _closed_within(head, 5) == b""
        body = _raw(url)
        body.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"mode":'
        )
        answer = _closed_within(body, 5)
        assert answer.startswith(b"HTTP/1.1 408") and b"did not arrive within 1 s" in answer
        assert httpx.get(url + "api/assets", timeout=10).status_code == 200


@pytest.mark.anyio
async def test_a_database_that_cannot_be_read_says_so() -> None:
    """A read that fails on a damaged SQLite file (its driver's "database disk image is malformed") is a 503 naming
    why, for a game and for the list, rather than an internal error. Before, a damaged page made a plain read answer
    "could not be saved"."""

    def damaged(connection: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "games" in statement:
            raise sqlite3.DatabaseError("database disk image is malformed")

    async with in_process(":memory:") as (app, c):
        game = await new_game(c, mode="local")
        sa.event.listen(app.store.database.engine, "before_cursor_execute", damaged)
        with errors_logged() as errors:
            for url in (f"/api/games/{game['id']}x", "/api/games"):  # a game not in memory, and the list
                r = await c.get(url)
                assert r.status_code == 503, (url, r.text)
                assert r.json()["error"] == "The database cannot be used: database disk image is malformed"
        damage = "the database at :memory: cannot be used: database disk image is malformed"
        assert [(record.getMessage(), record.exc_info) for record in errors] == [(damage, None)] * 2  # no traceback
        sa.event.remove(app.store.database.engine, "before_cursor_execute", damaged)
        assert (await c.get(f"/api/games/{game['id']}")).status_code == 200


class _Errors(logging.Handler):
    """The error records of the loggers it is added to."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def errors_logged() -> Iterator[list[logging.LogRecord]]:
    """The errors uvicorn (``uvicorn.error`` does not reach the root logger) and the app log during the block."""
    handler = _Errors()
    loggers = [logging.getLogger("uvicorn"), logging.getLogger("hive")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def test_an_origin_with_a_port_that_is_none_is_refused_like_another_sites(tmp_path: Path) -> None:
    """An ``Origin`` whose port is out of range or not a number, or whose IPv6 address is not closed, is another
    site's page: a 403 naming it, with the security headers, and a socket's handshake refused. Before, reading its
    port raised (``ValueError: Port out of range 0-65535``): a plain-text 500 without the headers, a socket's
    handshake a 500 too, each with a logged traceback. (A valid port other than the server's, ``:1``, was already
    refused.)"""

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            game = (await c.post("/api/games", json={"mode": "local"})).json()
            ws = f"ws://{url.removeprefix('http://')}ws/games/{game['id']}"
            for origin in ("http://127.0.0.1:1", "http://127.0.0.1:99999", "http://127.0.0.1:8x", "http://[::1"):
                r = await c.post("/api/games", json={"mode": "local"}, headers={"origin": origin})
                assert r.status_code == 403, (origin, r.text)
                assert r.json()["error"].startswith(f"Cross-origin request refused: the page at {origin!r} is not")
                assert r.headers["content-security-policy"] == CSP and r.headers["x-frame-options"] == "DENY"
                with pytest.raises(websockets.InvalidStatus) as refused:
                    await websockets.connect(ws, origin=origin)  # type: ignore[arg-type]
                assert refused.value.response.status_code == 403, origin
            own = url.rstrip("/")
            assert (await c.post("/api/games", json={"mode": "local"}, headers={"origin": own})).status_code == 200

    with server_thread(tmp_path / "games.db") as url, errors_logged() as errors:
        asyncio.run(main(url))
        assert [record.getMessage() for record in errors] == []


def test_the_servers_own_origin_is_recognised_with_or_without_its_default_port() -> None:
    """Before, an origin on its scheme's default port was compared by its host name alone, which drops an IPv6
    address's brackets: ``http://[::1]`` was refused by the server at ``[::1]``. The scheme is compared with the one
    the request came in on (as a trusted proxy forwards it, uvicorn puts it in the scope): before, it was ignored,
    and ``https://127.0.0.1:8001`` was admitted by a plain-http server on that port."""
    guard = Guard(lambda *_: asyncio.sleep(0), Settings())

    def admitted(origin: str, host: str, scheme: str = "http", kind: str = "http") -> bool:
        scope = {"type": kind, "scheme": scheme, "headers": [(b"origin", origin.encode()), (b"host", host.encode())]}
        try:
            guard.check_origin(scope)
        except Refused:
            return False
        return True

    for origin, host, scheme in [
        ("http://[::1]", "[::1]", "http"),
        ("http://[::1]:80", "[::1]", "http"),
        ("http://[::1]:8000", "[::1]:8000", "http"),
        ("https://hive.example.org", "hive.example.org:443", "https"),
        ("https://hive.example.org", "hive.example.org", "https"),
        ("http://hive.example.org:80", "hive.example.org", "http"),
    ]:
        assert admitted(origin, host, scheme), (origin, host)
    for origin, host, scheme in [
        ("http://[::1]:8001", "[::1]:8000", "http"),
        ("http://hive.example.org", "hive.example.org:443", "https"),
        ("http://hive.example.org:99999", "hive.example.org:99999", "http"),
        ("https://127.0.0.1:8001", "127.0.0.1:8001", "http"),
        ("http://hive.example.org", "hive.example.org", "https"),
    ]:
        assert not admitted(origin, host, scheme), (origin, host, scheme)
    # a socket's scheme is ws or wss
    assert admitted("https://hive.example.org", "hive.example.org", "wss", "websocket")
    assert not admitted("https://127.0.0.1:8001", "127.0.0.1:8001", "ws", "websocket")
    assert admitted("http://127.0.0.1:8001", "127.0.0.1:8001", "ws", "websocket")


def _refused_bodies(url: str, bodies: list[tuple[str, str, str]]) -> list[str]:
    """POST each ``(path, body, message)`` to a new local game's server as JSON with its seat token (``{id}`` in a
    path is the game's): each must be a 400 whose error holds ``message``. Returns the errors the server logged."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            game = (await c.post("/api/games", json={"mode": "local"})).json()
            headers = {"content-type": "application/json", "x-seat-token": game["token"]}
            for path, body, message in bodies:
                r = await c.post(path.format(id=game["id"]), content=body.encode(), headers=headers)
                assert r.status_code == 400 and message in r.json()["error"], (body[:50], r.text)
            assert len((await c.get("/api/games")).json()["games"]) == 1

    with errors_logged() as errors:
        asyncio.run(main())
        return [record.getMessage() for record in errors]


def test_an_integer_of_more_than_4300_digits_in_a_body_is_a_400_naming_it(tmp_path: Path) -> None:
    """Before, ``json.loads`` raised past Python's limit on converting digits to an integer: a 500 with a logged
    traceback. An integer is now refused past what a JSON number carries exactly (2^53 - 1), by its length before
    any conversion."""
    bodies = [
        ("/api/games", '{"name": ' + "7" * 4301 + "}", "an integer out of range (777777777777…, 4,301 digits)"),
        ("/api/games", '{"time_control": {"initial": -' + "1" * 9000 + "}}", "(-11111111111…, 9,000 digits)"),
        ("/api/games/{id}/move", '{"move": "wS1", "ply": ' + "1" * 5000 + "}", "5,000 digits"),
        # 2^53 - 1 is read, and refused as what it is not.
        ("/api/games", '{"name": 9007199254740991}', "'name' must be a text, not 9007199254740991"),
        ("/api/games", '{"name": -9007199254740992}', "integers are at most 9,007,199,254,740,991 in size"),
    ]
    with server_thread(tmp_path / "games.db") as url:
        assert _refused_bodies(url, bodies) == []


def test_numbers_that_json_has_not_are_refused_at_the_boundary(tmp_path: Path) -> None:
    """Python's parser reads ``NaN``, ``Infinity`` and ``-Infinity``, and ``1e400`` as an infinity, and converts a
    10^400 literal: each is refused before any field sees it, as an integer beyond 2^53 is. Before, a NaN reached
    the fields (and a tournament stored with one answered 500 on every read)."""
    huge = "1" + "0" * 400
    bodies = [
        ("/api/games", '{"mode": "local", "name": NaN}', "has NaN, which is not a JSON number"),
        ("/api/games", '{"time_control": {"initial": Infinity}}', "has Infinity, which is not a JSON number"),
        ("/api/games", '{"time_control": {"initial": -Infinity}}', "has -Infinity, which"),
        ("/api/games", '{"time_control": {"initial": 1e400}}', "a number out of range (1e400): numbers must be finite"),
        ("/api/games", '{"time_control": {"initial": -2.5e999}}', "(-2.5e999)"),
        ("/api/games/{id}/move", '{"ply": ' + huge + "}", "an integer out of range (100000000000…, 401 digits)"),
        ("/api/games", '{"options": [' + huge + "]}", "401 digits"),
        ("/api/games", '{"time_control": {"initial": 1234567890123456789012345678901234567890}}', "40 digits"),
        ("/api/games", '{"mode": "local", "name": "a\\u0000b"}', "or a NUL character in 'name'"),
    ]
    with server_thread(tmp_path / "games.db") as url:
        assert _refused_bodies(url, bodies) == []


def test_a_lone_surrogate_in_a_body_is_a_400_naming_where(tmp_path: Path) -> None:
    """A ``\\ud800`` escape, half of a UTF-16 pair, is not text. Before, it reached SQLite and the answer, where
    encoding it as UTF-8 raised: a 500 with a logged traceback."""
    bodies = [
        ("/api/games", '{"mode": "local", "name": "\\ud800"}', "lone UTF-16 surrogate (an escape such as \\ud800"),
        ("/api/positions", '{"position": "Base;NotStarted;White[1];\\udc00"}', "in 'position', which is not text"),
        ("/api/games/{id}/name", '{"seat": 0, "name": "a\\udfffb"}', "in 'name', which is not text"),
        ("/api/games", '{"mode": "local", "options": {"x": ["ok", "\\ud83d"]}}', "in 'options.x[1]', which"),
        ("/api/games", '{"mode": "local", "options": {"\\ud800": 1}}', "in a key of 'options', which"),
        ("/api/games", '{"mode": "local", "\\ud800": 1}', "in a key, which"),
    ]
    with server_thread(tmp_path / "games.db") as url:
        assert _refused_bodies(url, bodies) == []

        async def main() -> None:  # a pair's two halves are one character
            async with httpx.AsyncClient(base_url=url, timeout=30) as c:
                game = (await c.post("/api/games", json={"mode": "local"})).json()
                headers = {"content-type": "application/json", "x-seat-token": game["token"]}
                body = b'{"seat": 0, "name": "ok\\ud83d\\ude00"}'
                r = await c.post(f"/api/games/{game['id']}/name", content=body, headers=headers)
                assert r.status_code == 200 and r.json()["names"][0] == "ok\N{GRINNING FACE}"

        asyncio.run(main())


def _ws_open(url: str, path: str) -> socket.socket:
    """A WebSocket opened by hand (no extensions: its frames go as written), its handshake's answer read."""
    sock = _raw(url)
    key = base64.b64encode(os.urandom(16))
    sock.sendall(
        b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (path.encode(), key)
    )
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _frame_head(length: int) -> bytes:
    """The head of a client's text frame of ``length`` bytes (masked, as a client's must be)."""
    return bytes([0x81, 0x80 | 127]) + length.to_bytes(8, "big") + os.urandom(4)


def _frame(text: bytes) -> bytes:
    """A client's whole text frame (masked with zeros: the text goes as it is)."""
    return bytes([0x81, 0x80 | len(text)]) + bytes(4) + text


def _next_frame(sock: socket.socket, seconds: float) -> tuple[int, bytes]:
    """The opcode and payload of the next frame the server sends, within ``seconds`` for each read."""
    sock.settimeout(seconds)

    def exactly(size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = sock.recv(size - len(data))
            assert chunk, "the connection closed without a close frame"
            data += chunk
        return data

    first, second = exactly(2)
    length = second & 0x7F
    if length >= 126:
        length = int.from_bytes(exactly(2 if length == 126 else 8), "big")
    return first & 0x0F, exactly(length)


def _close_code(sock: socket.socket, seconds: float) -> int:
    """The code of the server's close frame (the frames before it skipped)."""
    while True:
        opcode, payload = _next_frame(sock, seconds)
        if opcode == 0x8:
            return int.from_bytes(payload[:2], "big")


def test_a_websocket_frame_longer_than_a_ping_is_refused_at_its_head(tmp_path: Path) -> None:
    """The server understands only ``ping`` on a socket: a frame longer than
    :data:`~hive.web.http.guard.WS_MAX_SIZE` closes its socket with 1009 as soon as its head arrives, and what
    follows is never held. Before, anyone could send frames of up to 16 MiB (uvicorn's default), held until whole
    (a head alone: until the keep-alive gave up, 40 s later, with 1011): 20 sockets, each sending all but the last
    byte of a 16 MiB frame, took ``hive play`` from 48 to 369 MB resident, kept after they closed; now 48 to 48."""
    server = ServerProcess(tmp_path / "games.db")
    server.start()
    process = server.process
    assert process is not None
    try:
        game = httpx.post(server.url + "api/games", json={"mode": "local"}, timeout=30).json()
        path = f"/ws/games/{game['id']}"
        watching = _ws_open(server.url, path)
        watching.sendall(_frame(b"ping"))
        assert _next_frame(watching, 30)[0] == 0x1 and _next_frame(watching, 30) == (0x1, b"pong")
        baseline = memory(process.pid, "VmRSS")
        other = httpx.post(server.url + "api/games", json={"mode": "local"}, timeout=30).json()
        # on a game of their own: one address holds at most 20 sockets on one game
        flood = [_ws_open(server.url, f"/ws/games/{other['id']}") for _ in range(20)]
        for sock in flood:
            with contextlib.suppress(OSError):  # the server closes the connection at the frame's head
                sock.sendall(_frame_head(16 * MB) + b"x" * (16 * MB - 1))
        assert memory(process.pid) < 1.5 * baseline  # the peak
        assert [_close_code(sock, 30) for sock in flood] == [1009] * 20
        head_only = _ws_open(server.url, path)
        head_only.sendall(_frame_head(WS_MAX_SIZE + 1))
        assert _close_code(head_only, 30) == 1009  # no waiting for a payload
        watching.sendall(_frame(b"ping"))
        assert _next_frame(watching, 30) == (0x1, b"pong")
        for sock in (*flood, head_only, watching):
            sock.close()
    finally:
        server.stop()
    assert process.stdout is not None and b"Traceback" not in process.stdout.read()
