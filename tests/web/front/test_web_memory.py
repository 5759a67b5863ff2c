"""The server's memory stays bounded: a 300 MB request body is refused after reading at most the size limit, and
10,000 games created keep the server under a ceiling (the games past the in-memory bound live in the database)."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from ...web_support import ServerProcess

MB = 1024 * 1024
#: The server's resident memory after 10,000 games, at most (about 60 MB at start, 256 games in memory).
CEILING = 250 * MB


def memory(pid: int, field: str = "VmHWM") -> int:
    """A process's peak (``VmHWM``) or current (``VmRSS``) resident memory in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no {field} for process {pid}")


def send_huge_body(url: str, chunked: bool, size: int = 300 * MB) -> bytes:
    """POST ``size`` bytes of JSON-ish body until the server stops reading; returns its answer."""
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    framing = b"Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}".encode()
    sock.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + framing + b"\r\n\r\n"
    )
    block = b" " * MB
    piece = f"{len(block):x}\r\n".encode() + block + b"\r\n" if chunked else block
    sent = 0
    try:
        while sent < size:
            sock.sendall(piece)
            sent += len(block)
    except OSError:
        pass  # the server answered and closed the connection
    sock.settimeout(30)
    answer = b""
    try:
        while chunk := sock.recv(65536):
            answer += chunk
    except OSError:
        pass
    sock.close()
    return answer


@pytest.mark.parametrize("chunked", [False, True])
def test_a_300_mb_body_costs_less_than_10_mb(tmp_path: Path, chunked: bool) -> None:
    """Before, the body was read whole and then refused: +586 MB for 300 MB."""
    server = ServerProcess(tmp_path / "games.db")
    server.start()
    try:
        assert server.process is not None
        before = memory(server.process.pid)
        answer = send_huge_body(server.url, chunked)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b"The request body is too large" in answer
        assert memory(server.process.pid) - before < 10 * MB
        assert httpx.get(server.url + "api/assets", timeout=10).status_code == 200
    finally:
        server.stop()


@pytest.mark.slow
def test_ten_thousand_games_keep_the_server_under_its_memory_ceiling(tmp_path: Path) -> None:
    """Before, every game created stayed in memory (~300 KB each: 1,000 games, +291 MB)."""
    server = ServerProcess(tmp_path / "games.db", "--max-games-per-minute", "0")
    server.start()
    try:
        assert server.process is not None
        start = time.perf_counter()
        with httpx.Client(base_url=server.url, timeout=30) as c:
            for i in range(10_000):
                body = {"mode": ("local", "online", "ai")[i % 3], "ai_level": "random", "colour": "white"}
                r = c.post("/api/games", json=body)
                assert r.status_code == 200, r.text
                if i % 3 == 0:
                    game = r.json()
                    seat = {"x-seat-token": game["token"]}
                    assert (
                        c.post(f"/api/games/{game['id']}/move", json={"move": "wS1"}, headers=seat).status_code == 200
                    )
        peak, now = memory(server.process.pid), memory(server.process.pid, "VmRSS")
        print(f"10,000 games in {time.perf_counter() - start:.0f} s: peak {peak / MB:.0f} MB, now {now / MB:.0f} MB")
        assert peak < CEILING
        listed = httpx.get(server.url + "api/games", timeout=30).json()["games"]
        assert len(listed) == 200
    finally:
        server.stop()
