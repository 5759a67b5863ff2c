"""Running the app with uvicorn: check the port, print the URL, open a browser once it answers, stop cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import socket
import threading
import webbrowser
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..settings import Settings
from ..storage.database import default_path
from .app import App, create_app
from .guard import WS_MAX_SIZE, allowed_hosts


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


def timed_protocol(seconds: float) -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol with a time limit on a request's head: a connection that has not sent a whole
    request line and headers within ``seconds`` of opening, or of its last answer, is closed."""

    class Timed(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            self._head_timer = self.loop.call_later(seconds, self._expire)

        def _expire(self) -> None:
            waiting = self.cycle is None or self.cycle.response_complete
            if waiting and self.transport.get_protocol() is self and not self.transport.is_closing():
                self.transport.close()

        def handle_events(self) -> None:
            cycle = self.cycle
            super().handle_events()
            if self.cycle is not cycle and self._head_timer is not None:
                self._head_timer.cancel()  # a whole head arrived: the body has its own limit

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            super().connection_lost(exc)

    return Timed


class QuietServer(uvicorn.Server):
    """uvicorn's server, but a SIGTERM or SIGINT that stopped it cleanly ends with exit status 0 rather than being
    raised again once it has stopped (a ``KeyboardInterrupt`` traceback, or death by the signal)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        with super().capture_signals():
            try:
                yield
            finally:
                self._captured_signals.clear()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Drain first (the sockets closed with a reason, the process no longer ready), then stop as uvicorn does:
        the requests in flight finish."""
        app = self.config.loaded_app
        while app is not None and not isinstance(app, App):
            app = getattr(app, "app", None)
        if isinstance(app, App):
            app.drain()
        await super().shutdown(sockets)


def config(app: App, host: str, port: int) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` on ``host:port``, with the app's time limits and the size limit of an
    incoming WebSocket message (:data:`~hive.web.http.guard.WS_MAX_SIZE`, checked as each frame's header arrives)."""
    settings = app.settings
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=timed_protocol(settings.request_timeout),
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        timeout_keep_alive=settings.idle_timeout,
        proxy_headers=settings.proxy is not None,
        forwarded_allow_ips=settings.proxy,
        server_header=False,
    )


def serve(
    host: str,
    port: int,
    db: str | None,
    *,
    open_browser: bool,
    workers: int = 1,
    announce: Any = print,
    settings: Settings | None = None,
) -> None:
    """Serve the app on ``host:port`` over the database ``db`` (the user's data directory by default), answering
    to the host names :func:`~hive.web.http.guard.allowed_hosts` derives from ``host`` and those in ``settings``.

    :raises OSError: when the port cannot be used.
    :raises ~hive.web.storage.database.DatabaseError: when the database cannot be used.
    """
    check_port(host, port)
    settings = settings or Settings()
    if settings.hosts is None or "*" not in settings.hosts:
        settings = dataclasses.replace(settings, hosts=allowed_hosts(host, settings.hosts or ()))
    path = Path(db) if db else default_path()
    app = create_app(path, workers=workers, settings=settings)
    app.listening = (host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/"
    say: Callable[[str], None] = announce
    say(f"Hive is on {url}  (games kept in {path}; Ctrl+C stops)")
    server = QuietServer(config(app, host, port))
    if open_browser:

        def opener() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=opener, daemon=True).start()
    try:
        server.run()
    finally:
        app.stop()
