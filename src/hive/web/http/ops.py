"""What an operator watches: ``/healthz`` (the process answers), ``/readyz`` (it can serve: the database answers with
the current schema, changes from other processes reach it, it is not stopping), ``/metrics`` (Prometheus), and one
access-log line per request.

The metrics: requests by route and status and their latency, sockets open, games in memory and in progress, the AI's
queue (the moves waiting in the shared queue, the hints and review positions waiting here), moves stored and flags
fallen. The access log's path has its control characters escaped (:func:`~hive.web.http.logs.clean`). With several
processes behind one port (``hive serve --workers``), each process's figures are summed
(prometheus-client's multiprocess mode, in the directory ``PROMETHEUS_MULTIPROC_DIR`` names).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..play import games_in_progress
from ..play.events import AI_MOVE, FLAG, MOVE, GameEvent
from ..shared.settings import Settings
from .logs import clean

if TYPE_CHECKING:
    from .app import App

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]
access = logging.getLogger("hive.access")
#: The latency buckets of requests, in seconds.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


def multiprocess_dir() -> str | None:
    """The directory where the processes behind one port keep their figures, if they share one."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


class Metrics:
    """One process's metrics.

    :param app: the server process.
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self.registry = CollectorRegistry(auto_describe=True)
        shared = multiprocess_dir() is not None
        live = {"multiprocess_mode": "livesum"} if shared else {}
        self.requests = Counter(
            "hive_http_requests", "HTTP requests answered", ["method", "route", "status"], registry=self.registry
        )
        self.latency = Histogram(
            "hive_http_request_seconds",
            "Time to answer an HTTP request",
            ["method", "route"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.sockets = Gauge("hive_websockets", "WebSockets open", registry=self.registry, **live)  # type: ignore[arg-type]
        self.in_memory = Gauge("hive_games_in_memory", "Games held in memory", registry=self.registry, **live)  # type: ignore[arg-type]
        self.hints_waiting = Gauge(
            "hive_ai_jobs_waiting_here",
            "Hints and review positions waiting for this process's AI workers",
            registry=self.registry,
            **live,  # type: ignore[arg-type]
        )
        self.flag_falls = Counter(
            "hive_flag_falls", "Flags that fell (games lost or drawn on time)", registry=self.registry
        )
        self.moves = Counter("hive_moves", "Moves stored", registry=self.registry)

    def stored(self, event: GameEvent) -> None:
        """Count a change stored here: a move (the AI's too) or a flag that fell."""
        if event.what == FLAG:
            self.flag_falls.inc()
        elif event.what in (MOVE, AI_MOVE):
            self.moves.inc()

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one request."""
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)

    async def exposition(self) -> bytes:
        """The metrics in Prometheus's text format: this process's (or every process's, when they share a
        directory), and the database's figures of the whole server."""
        app = self.app
        self.in_memory.set(len(app.service.sessions))
        self.hints_waiting.set(app.ai.jobs.waiting)
        found = await app.store.database.run(_whole_server, app.store.database.engine)
        found["ai_moves_waiting"] = await app.store.jobs.waiting()
        registry = self.registry
        shared = multiprocess_dir()
        if shared is not None:
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry, path=shared)  # type: ignore[no-untyped-call]
        registry_text = generate_latest(registry)
        extra = CollectorRegistry()
        extra.register(_Figures(found))
        return registry_text + generate_latest(extra)


def _whole_server(engine: sa.Engine) -> dict[str, int]:
    with engine.begin() as connection:
        return {"games_in_progress": games_in_progress(connection)}


class _Figures(Collector):
    """The figures of the whole server, read from the database at each scrape."""

    def __init__(self, figures: dict[str, int]) -> None:
        self.figures = figures

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily(
            "hive_live_games", "Games in progress on the whole server", value=self.figures["games_in_progress"]
        )
        yield GaugeMetricFamily(
            "hive_ai_queue_depth", "AI moves waiting in the shared queue", value=self.figures["ai_moves_waiting"]
        )


class Observed:
    """The middleware that counts and logs every request (around everything else, the front door included).

    :param app: the application it wraps.
    :param metrics: where the requests are counted.
    :param settings: the server's settings.
    """

    def __init__(self, app: ASGIApp, metrics: Metrics, settings: Settings) -> None:
        self.app = app
        self.metrics = metrics
        self.settings = settings
        self._paths: dict[Any, str] | None = None

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def sent(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sent)
        finally:
            seconds = time.perf_counter() - started
            route = self.route(scope)
            self.metrics.observe(scope["method"], route, status, seconds)
            client = scope.get("client")
            path = clean(scope.get("path", ""))  # a %0a in a path would forge a line of its own
            access.info(
                "%s %s %s %d %.1f ms",
                client[0] if client else "-",
                scope["method"],
                path,
                status,
                seconds * 1000,
                extra={
                    "client": client[0] if client else None,
                    "method": scope["method"],
                    "path": path,
                    "route": route,
                    "status": status,
                    "ms": round(seconds * 1000, 2),
                },
            )

    def route(self, scope: Scope) -> str:
        """The route a request matched, as its template (``/api/games/{id}/{action}``), so that the metrics have few
        labels (the router left the endpoint it chose in the scope); ``other`` for none."""
        if self._paths is None:
            self._paths = {
                route.endpoint: route.path for route in self.metrics.app.asgi.routes if isinstance(route, Route)
            }
        endpoint = scope.get("endpoint")
        return self._paths.get(endpoint, "other") if endpoint is not None else "other"


async def healthz(request: Request) -> Response:
    """The process is up."""
    app: App = request.app.state.hive
    return JSONResponse({"status": "ok", "process": app.origin})


async def readyz(request: Request) -> Response:
    """The process can serve: not stopping, the database answers with the current schema, and (with several
    processes) it hears the others' changes; 503 naming what is wrong otherwise."""
    app: App = request.app.state.hive
    problems = []
    if app.draining:
        problems.append("stopping")
    if not await app.store.database.run(app.store.database.schema_current):
        problems.append("the database does not answer, or its schema is not current")
    if not app.bus.listening:
        problems.append("not hearing the other processes' changes")
    if problems:
        return JSONResponse(
            {"status": "unavailable", "problems": problems}, status_code=503, headers={"retry-after": "5"}
        )
    return JSONResponse({"status": "ready", "process": app.origin})


async def metrics(request: Request) -> Response:
    """The metrics, in Prometheus's text format."""
    app: App = request.app.state.hive
    return Response(await app.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)


__all__ = ["BUCKETS", "Metrics", "Observed", "healthz", "metrics", "multiprocess_dir", "readyz"]
