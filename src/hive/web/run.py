"""Running the app with uvicorn: check the port, print the URL, open a browser once it answers."""

from __future__ import annotations

import errno
import socket
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn

from .server import create_app
from .storage import default_path


class PortInUseError(OSError):
    """The port asked for is taken by another program."""


def check_port(host: str, port: int) -> None:
    """Make sure the server can listen on ``host:port``.

    :raises PortInUseError: naming the port, when another program holds it.
    :raises OSError: when the host cannot be bound at all.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                raise PortInUseError(f"Port {port} on {host} is in use; choose another with --port.") from None
            raise OSError(f"Cannot listen on {host}:{port}: {err.strerror}.") from None


def serve(
    host: str,
    port: int,
    db: str | None,
    *,
    open_browser: bool,
    workers: int = 1,
    announce: Any = print,
) -> None:
    """Serve the app on ``host:port`` over the database ``db`` (the user's data directory by default)."""
    check_port(host, port)
    path = Path(db) if db else default_path()
    app = create_app(path, workers=workers)
    app.listening = (host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/"
    say: Callable[[str], None] = announce
    say(f"Hive is on {url}  (games kept in {path}; Ctrl+C stops)")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws="websockets-sansio")
    server = uvicorn.Server(config)
    if open_browser:

        def opener() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=opener, daemon=True).start()
    server.run()
