"""How long the players of a match thought over their moves, and how deep a built-in search got: each move timed by
the arena, and each player's moves summed up in the match's report."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..game import Game
from ..players import Player, Reporting


@dataclass(frozen=True)
class Thinking:
    """One move a player chose.

    :ivar seconds: how long the arena waited for the move (for an engine, the protocol's round trip included).
    :ivar depth: the depth a built-in search completed, ``None`` for other players.
    :ivar nodes: the nodes that search visited, ``None`` for other players.
    """

    seconds: float
    depth: int | None = None
    nodes: int | None = None


def timed_choice(player: Player, board: Game[Any]) -> tuple[Any, Thinking]:
    """``player``'s move in ``board``, and how it was chosen.

    :raises ~hive.engine.EngineError: when the player is an engine that fails.
    """
    start = time.perf_counter()
    move = player.choose(board)
    seconds = time.perf_counter() - start
    found = player.last_search if isinstance(player, Reporting) else None
    if found is None:
        return move, Thinking(seconds)
    return move, Thinking(seconds, found.depth, found.nodes)


def _seconds(seconds: float) -> str:
    if seconds >= 0.1:
        return f"{seconds:.2f} s"
    return f"{1000 * seconds:.1f} ms" if seconds >= 0.001 else f"{1e6 * seconds:.0f} µs"


def _count(number: float) -> str:
    if number >= 1e6:
        return f"{number / 1e6:.2f} M"
    if number >= 1e3:
        return f"{number / 1e3:.1f} k"
    return f"{number:.0f}"


def describe_thinking(name: str, moves: Sequence[Thinking]) -> str:
    """One line of the report: the median and longest time of ``name``'s moves, and for a built-in search the median
    depth with its range and the nodes a second.

    >>> from hive.arena.thinking import Thinking, describe_thinking
    >>> describe_thinking("max", [Thinking(1.0, 6, 900_000), Thinking(1.02, 7, 1_300_000), Thinking(0.08, 4, 1000)])
    'max: 1.00 s a move (median of 3 moves; longest 1.02 s), depth 6 (median; 4 to 7), 1.05 M nodes a second'
    >>> describe_thinking("nokamute", [Thinking(0.05)])
    'nokamute: 50.0 ms a move (median of 1 move; longest 50.0 ms)'
    """
    if not moves:
        return f"{name}: no moves chosen"
    seconds = [move.seconds for move in moves]
    noun = "move" if len(moves) == 1 else "moves"
    median, longest = _seconds(statistics.median(seconds)), _seconds(max(seconds))
    line = f"{name}: {median} a move (median of {len(moves):,} {noun}; longest {longest})"
    searched = [move for move in moves if move.depth is not None and move.nodes is not None]
    if not searched:
        return line
    depths = [move.depth for move in searched if move.depth is not None]
    nodes = sum(move.nodes for move in searched if move.nodes is not None)
    spent = sum(move.seconds for move in searched)
    line += f", depth {statistics.median_low(depths)} (median; {min(depths)} to {max(depths)})"
    return line + (f", {_count(nodes / spent)} nodes a second" if spent > 0 else "")


def thinking_report(
    games: Iterable[tuple[Sequence[str], Sequence[Sequence[Thinking]]]], players: Sequence[str] = ()
) -> list[str]:
    """A :func:`describe_thinking` line for each player that chose a move, ``players`` first and the others in the
    order they are met, from each game's players (their names, first mover first) and their moves (the first
    mover's first)."""
    moves: dict[str, list[Thinking]] = {name: [] for name in players}
    for names, sides in games:
        for name, chosen in zip(names, sides, strict=False):
            moves.setdefault(name, []).extend(chosen)
    return [describe_thinking(name, chosen) for name, chosen in moves.items() if chosen]


__all__ = ["Thinking", "describe_thinking", "thinking_report", "timed_choice"]
