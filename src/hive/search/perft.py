"""Perft that can be stopped: the core's own count below a few plies, a loop above them that asks whether to go on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .framework import SearchTimeout

#: Below this many plies a count runs in the core without a check (well under a second in a midgame, pure build).
SPLIT_DEPTH = 2


class PerftPosition(Protocol):
    """A core position that counts its own move tree (``perft``) and plays int moves."""

    def perft(self, depth: int) -> int: ...

    def generate(self) -> list[int]: ...

    def make(self, move: int) -> None: ...

    def unmake(self) -> int: ...


def perft(position: PerftPosition, depth: int, stop: Callable[[], bool] | None = None) -> int:
    """Count the leaves of ``position``'s legal-move tree ``depth`` plies deep, as ``position.perft`` does, asking
    ``stop`` before each count of the last :data:`SPLIT_DEPTH` plies. The position is restored on return.

    :raises SearchTimeout: when ``stop`` returns true (the position is restored first).
    """
    if stop is None or depth <= SPLIT_DEPTH:
        return position.perft(depth)
    if stop():
        raise SearchTimeout
    total = 0
    for move in position.generate():
        position.make(move)
        try:
            total += perft(position, depth - 1, stop)
        finally:
            position.unmake()
    return total
