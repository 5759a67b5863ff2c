"""Running the web app for tests: uvicorn in a thread, or ``hive play`` in a subprocess, on a free port."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from hive.web import create_app


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


@contextlib.contextmanager
def server_thread(db: str | Path, workers: int = 0) -> Iterator[str]:
    """Serve the app from a thread of this process; yields its base URL."""
    port = free_port()
    config = uvicorn.Config(create_app(db, workers=workers), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
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

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "hive", "play", "--no-browser", "--port", str(self.port), "--db", str(self.db)]
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


#: Debian's Chromium, which the browser tests drive.
CHROMIUM = os.environ.get("HIVE_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextlib.contextmanager
def chromium(playwright_api: Any) -> Iterator[Any]:
    """Chromium launched by Playwright for the length of the block; the test is skipped when it is missing."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: bash scripts/test.sh installs Debian's chromium package")
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()
