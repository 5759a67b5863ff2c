"""Running the app with uvicorn: ``hive play`` (one process on a SQLite file: check the port, print the URL, open a
browser once it answers, stop cleanly) and ``hive serve`` (a club's server: one process, or several behind one port
sharing a PostgreSQL database, each started again if it dies, all drained on SIGTERM)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import tempfile
import threading
import time
import webbrowser
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..shared.database import Database, DatabaseError, default_path
from ..shared.processes import die_with_parent
from ..shared.settings import Settings
from . import logs
from .app import App, create_app
from .guard import WS_MAX_SIZE, allowed_hosts
from .sockets import AbortableWebSockets

#: Seconds a stopping process lets its requests in flight finish.
DRAIN = 30
log = logging.getLogger("hive.web")


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
            await app.drain()
        await super().shutdown(sockets)


def config(app: App, host: str, port: int, *, logged: bool = False) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` on ``host:port``, with the app's time limits and the size limit of an
    incoming WebSocket message (:data:`~hive.web.http.guard.WS_MAX_SIZE`, checked as each frame's header arrives);
    ``logged``: the log is set up already (see :mod:`~hive.web.http.logs`), uvicorn leaves it alone."""
    settings = app.settings
    logging: dict[str, Any] = {"log_config": None} if logged else {"log_level": "warning"}
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        **logging,
        http=timed_protocol(settings.request_timeout),
        ws=AbortableWebSockets,
        ws_max_size=WS_MAX_SIZE,
        timeout_keep_alive=settings.idle_timeout,
        proxy_headers=settings.proxy is not None,
        forwarded_allow_ips=settings.proxy,
        server_header=False,
        timeout_graceful_shutdown=DRAIN,
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
    :raises ~hive.web.shared.database.DatabaseError: when the database cannot be used.
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


@dataclass(frozen=True)
class ServeOptions:
    """What ``hive serve`` runs: where it listens, its database, how many processes, and their settings.

    :ivar database: a PostgreSQL URL, or a SQLite file (its path or ``sqlite:///PATH``).
    :ivar processes: server processes behind the one port (several only on PostgreSQL).
    :ivar ai_workers: processes for the AI, per server process.
    :ivar redis: a Redis URL to carry changes between processes instead of PostgreSQL's ``NOTIFY``.
    :ivar log_format: ``text`` or ``json``.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    database: str = ""
    processes: int = 1
    ai_workers: int = 1
    redis: str | None = None
    log_format: str = "text"
    settings: Settings = field(default_factory=Settings)


def serve_club(options: ServeOptions, announce: Any = print) -> None:
    """Run ``hive serve`` until it is stopped (SIGTERM or Ctrl+C drain it).

    :raises OSError: when the port cannot be used.
    :raises ~hive.web.shared.database.DatabaseError: when the database cannot be used (checked before any process
        starts), or several processes are asked for on a SQLite file.
    """
    check_port(options.host, options.port)
    settings = options.settings
    if settings.hosts is None or "*" not in settings.hosts:
        settings = dataclasses.replace(settings, hosts=allowed_hosts(options.host, settings.hosts or ()))
    options = dataclasses.replace(options, settings=settings, database=options.database or str(default_path()))
    logs.configure(options.log_format)
    database = Database(options.database, exclusive=False)  # checked once, before any process starts
    where, sqlite = database.shown, database.sqlite
    database.close()
    if sqlite and options.processes > 1:
        raise DatabaseError(
            f"{options.processes} processes cannot share the SQLite file {where}: several processes share a"
            " PostgreSQL database (--database postgresql://USER@HOST/DB)"
        )
    shown = f"[{options.host}]" if ":" in options.host else options.host
    say: Callable[[str], None] = announce
    processes = f"{options.processes} processes" if options.processes > 1 else "one process"
    say(f"Hive server on http://{shown}:{options.port}/  ({processes}; database {where}; SIGTERM or Ctrl+C stops)")
    if options.processes == 1:
        _serve_one(options)
    else:
        _supervise(options)


def _serve_one(options: ServeOptions, sockets: list[socket.socket] | None = None) -> None:
    """One server process, on its own port or on the supervisor's socket."""
    app = create_app(
        options.database,
        workers=options.ai_workers,
        settings=options.settings,
        redis=options.redis,
        hold_clocks=False,  # another process, or this one started again, carries the games on in real time
    )
    app.listening = (options.host, options.port)
    server = QuietServer(config(app, options.host, options.port, logged=True))
    try:
        server.run(sockets=sockets)
    finally:
        app.stop()


def _child(options: ServeOptions, listening: socket.socket) -> None:
    """A server process under the supervisor: it drains and stops if the supervisor dies."""
    die_with_parent(signal.SIGTERM)
    logs.configure(options.log_format)
    _serve_one(options, [listening])


def _supervise(options: ServeOptions) -> None:
    """Start ``options.processes`` server processes on one socket, start each again if it dies, and stop them all
    (draining) on SIGTERM or Ctrl+C."""
    family = socket.AF_INET6 if ":" in options.host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind((options.host, options.port))
    listening.listen(2048)
    listening.set_inheritable(True)
    own_metrics = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
    if own_metrics:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="hive-metrics-")
    context = multiprocessing.get_context("spawn")
    stopping = threading.Event()

    def start() -> multiprocessing.process.BaseProcess:
        process = context.Process(target=_child, args=(options, listening), name="hive-serve")
        process.start()
        return process

    def stop(signum: int, frame: object) -> None:
        stopping.set()

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    processes = [start() for _ in range(options.processes)]
    restarts: deque[float] = deque(maxlen=10)
    try:
        while not stopping.wait(0.5):
            for index, process in enumerate(processes):
                if process.is_alive():
                    continue
                log.warning("server process %s stopped (exit code %s); starting another", process.pid, process.exitcode)
                _forget_metrics(process.pid)
                restarts.append(time.monotonic())
                if len(restarts) == restarts.maxlen and restarts[-1] - restarts[0] < 60:
                    log.error("server processes keep stopping (10 in a minute): giving up")
                    stopping.set()
                    break
                processes[index] = start()
    finally:
        for process in processes:
            if process.is_alive() and process.pid is not None:
                os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + DRAIN + 10
        for process in processes:
            process.join(max(0.1, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(5)
            _forget_metrics(process.pid)
        listening.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if own_metrics:
            shutil.rmtree(os.environ.pop("PROMETHEUS_MULTIPROC_DIR"), ignore_errors=True)


def _forget_metrics(pid: int | None) -> None:
    """Let the metrics of a process that stopped go (its gauges; its counters stay summed)."""
    if pid is not None and "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]
