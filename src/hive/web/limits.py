"""What one server allows: its limits (each with a default and a ``hive play`` option) and the per-client rates.

A client is known by its address (behind a trusted reverse proxy, by the address the proxy forwards). Rates are
counted over a sliding minute; ``0`` turns a rate limit off.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import TooMany


@dataclass(frozen=True)
class Settings:
    """A server's limits and who may reach it.

    :ivar hosts: the names the ``Host`` header may carry (``None``: any, for a server placed behind another that
        checks them; ``*`` in the tuple also allows any).
    :ivar origins: origins allowed besides the server's own (``scheme://host:port``), e.g. a reverse proxy's.
    :ivar proxy: the reverse proxy's addresses (comma-separated, ``*`` for any) whose ``X-Forwarded-For`` and
        ``X-Forwarded-Proto`` are trusted; ``None``: no proxy, a client is the peer.
    """

    hosts: tuple[str, ...] | None = None
    origins: tuple[str, ...] = ()
    proxy: str | None = None
    games_per_minute: int = 30
    hints_per_minute: int = 60
    ai_per_minute: int = 120
    ai_queue: int = 64
    ai_per_game: int = 4
    live_games: int = 256
    body_bytes: int = 64 * 1024
    json_depth: int = 32
    request_timeout: float = 15.0
    idle_timeout: int = 5
    send_queue: int = 32
    send_timeout: float = 5.0

    def __post_init__(self) -> None:
        for name in ("games_per_minute", "hints_per_minute", "ai_per_minute"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 (no limit) or more, not {getattr(self, name)}")
        for name in ("ai_queue", "ai_per_game", "live_games", "body_bytes", "json_depth", "send_queue"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        for name in ("request_timeout", "idle_timeout", "send_timeout"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be more than 0 seconds, not {getattr(self, name)}")


#: What each rate counts, as a 429's message names it.
RATES = {"games": "new games", "hints": "hints", "ai": "moves asking the AI"}


@dataclass
class RateLimits:
    """Sliding-minute counts of what each client asked for.

    :param settings: the rates per minute.
    :param clock: seconds (monotonic), replaceable in tests.
    """

    settings: Settings
    clock: Callable[[], float] = time.monotonic
    _seen: dict[tuple[str, str], deque[float]] = field(default_factory=dict)

    def limit(self, what: str) -> int:
        """The rate of ``what`` (a key of :data:`RATES`) per minute, ``0`` for none."""
        rate: int = getattr(self.settings, f"{what}_per_minute")
        return rate

    def charge(self, what: str, client: str) -> None:
        """Count one ``what`` for ``client``.

        :raises TooMany: when the client already asked for its rate within the last minute.
        """
        rate = self.limit(what)
        if rate == 0:
            return
        now = self.clock()
        times = self._seen.setdefault((what, client), deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= rate:
            wait = max(1, round(times[0] + 60 - now))
            raise TooMany(f"Too many {RATES[what]}: at most {rate} a minute from one address; try again in {wait} s.")
        times.append(now)
        if len(self._seen) > 4096:
            self._sweep(now)

    def _sweep(self, now: float) -> None:
        """Forget the clients with nothing in the last minute (so that the counts stay bounded too)."""
        for key in [key for key, times in self._seen.items() if not times or times[-1] <= now - 60]:
            del self._seen[key]


__all__ = ["RATES", "RateLimits", "Settings"]
