"""Per-client rates: sliding-minute counts of what each client asked for, refused past the server's limits.

A client is known by its address (behind a trusted reverse proxy, by the address the proxy forwards). ``0`` turns a
rate limit off.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ..shared.errors import TooMany
from ..shared.settings import Settings

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


@dataclass
class OpenSockets:
    """How many sockets of one kind each client holds open, at most ``limit`` (``0``: no limit).

    :param limit: the sockets one client may hold open at once.
    """

    limit: int
    _open: Counter[str] = field(default_factory=Counter)

    def admit(self, client: str) -> bool:
        """Count one more socket of ``client``; ``False`` (and nothing counted) when it holds its limit already."""
        if self.limit and self._open[client] >= self.limit:
            return False
        self._open[client] += 1
        return True

    def release(self, client: str) -> None:
        """A socket of ``client`` that was admitted closed."""
        self._open[client] -= 1
        if self._open[client] <= 0:
            del self._open[client]

    def held(self, client: str) -> int:
        """The sockets ``client`` holds open."""
        return self._open[client]


@dataclass
class GameSockets:
    """The games' sockets each client and each seat holds open on this process, within the server's limits (see
    :class:`~hive.web.shared.settings.Settings`: ``game_sockets``, ``game_sockets_per_game``, ``spectator_sockets``,
    ``seat_sockets``; ``0``: no limit)."""

    settings: Settings
    _open: Counter[tuple[str, ...]] = field(default_factory=Counter)

    def _keys(self, client: str, game_id: str, seats: frozenset[int]) -> list[tuple[tuple[str, ...], int, str]]:
        """What one socket counts against: each key, its limit, and the refusal's words."""
        s = self.settings
        keys = [
            (("client", client), s.game_sockets, f"At most {s.game_sockets} game sockets from one address"),
            (
                ("game", client, game_id),
                s.game_sockets_per_game,
                f"At most {s.game_sockets_per_game} sockets on one game from one address",
            ),
        ]
        if not seats:
            keys.append(
                (
                    ("watching", client),
                    s.spectator_sockets,
                    f"At most {s.spectator_sockets} spectators' sockets from one address",
                )
            )
        for seat in sorted(seats):
            keys.append(
                (
                    ("seat", game_id, str(seat)),
                    s.seat_sockets,
                    f"At most {s.seat_sockets} sockets on one seat of a game",
                )
            )
        return keys

    def admit(self, client: str, game_id: str, seats: frozenset[int]) -> str | None:
        """Count one more socket of ``client`` on the game with ``seats``; why not (and nothing counted) when a limit
        is reached already, ``None`` when it is admitted."""
        keys = self._keys(client, game_id, seats)
        for key, limit, words in keys:
            if limit and self._open[key] >= limit:
                return f"{words}: close one first."
        for key, _, _ in keys:
            self._open[key] += 1
        return None

    def release(self, client: str, game_id: str, seats: frozenset[int]) -> None:
        """A socket that was admitted closed."""
        for key, _, _ in self._keys(client, game_id, seats):
            self._open[key] -= 1
            if self._open[key] <= 0:
                del self._open[key]


__all__ = ["RATES", "GameSockets", "OpenSockets", "RateLimits"]
