"""How long a search may think, and what it found."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Generic, TypeVar

M = TypeVar("M")

#: The most processes one search may use.
MAX_THREADS = 16
#: The named strength levels every game defines, weakest first.
LEVEL_NAMES = ("easy", "medium", "hard", "max")


@dataclass(frozen=True)
class Limits:
    """How long to think: a depth, a time in seconds, or both (whichever ends first), and on how many cores.

    The built-in searchers take both; a UHP engine takes one per ``bestmove`` (:meth:`uhp_command`). ``threads``
    above 1 (at most :data:`MAX_THREADS`) has the built-in searchers fork helper processes for the search (where the
    platform can fork): the same scores at a given depth, reached sooner.
    """

    depth: int | None = None
    time: float | None = None
    threads: int = 1

    def __post_init__(self) -> None:
        if self.depth is None and self.time is None:
            raise ValueError("Limits need a depth or a time")
        if self.depth is not None and self.depth < 1:
            raise ValueError(f"search depth must be >= 1, not {self.depth}")
        if self.time is not None and not self.time > 0:
            raise ValueError(f"search time must be > 0 seconds, not {self.time}")
        if not 1 <= self.threads <= MAX_THREADS:
            raise ValueError(f"search threads must be 1 to {MAX_THREADS}, not {self.threads}")

    def describe(self) -> str:
        """``1 s per move, depth 4``, ``depth 3``..."""
        parts = []
        if self.time is not None:
            parts.append(f"{self.time:g} s per move")
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        if self.threads > 1:
            parts.append(f"{self.threads} threads")
        return ", ".join(parts)

    def seconds(self) -> int:
        """The whole seconds a UHP engine is given (UHP times are whole seconds; 0 for a depth limit)."""
        return max(1, math.ceil(self.time)) if self.time is not None else 0

    def uhp_command(self) -> str:
        """The UHP ``bestmove`` command: ``bestmove time 00:00:05`` (the time, rounded up, when both are given) or
        ``bestmove depth 3``."""
        if self.time is not None:
            seconds = self.seconds()
            return f"bestmove time {seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        return f"bestmove depth {self.depth}"


@dataclass(frozen=True)
class SearchResult(Generic[M]):
    """What a search found: the best move, its score for the side to move, the depth completed, the nodes
    searched and the seconds taken."""

    move: M
    score: int
    depth: int
    nodes: int
    seconds: float
