"""Search speed (nodes per second) of the AI on the shared midgame positions.

Run: ``python -m benchmarks.search`` from the project root, with the package installed.
Each round is a fresh searcher running to a fixed depth; medians are printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import hive
from hive.games.hive import Searcher
from hive.search import Limits

from .movegen import NAMES, POSITIONS


def figures(positions: Path, depth: int, min_seconds: float) -> dict[str, object]:
    """Nodes/s per position: fresh searchers to ``depth``, repeated for at least ``min_seconds``."""
    rates = {}
    nodes = {}
    for name in NAMES:
        board = hive.Board.from_game_string((positions / f"{name}.txt").read_text())
        total = 0
        start = time.perf_counter()
        while True:
            result = Searcher().search(board, Limits(depth=depth))
            total += result.nodes
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                break
        rates[name] = total / elapsed
        nodes[name] = result.nodes
    return {"build": hive.BUILD, "nodes_per_second": rates, "nodes": nodes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="AI search speed on the shared positions.")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--json", action="store_true", help="print one JSON object (used by benchmarks.compiled)")
    parser.add_argument("--min-seconds", type=float, default=0.5, help="with --json: repeat searches this long")
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(figures(args.positions, args.depth, args.min_seconds)))
        return 0
    print(f"Python {sys.version.split()[0]}, depth {args.depth}, {args.rounds} rounds, medians")
    print(f"{'position':<14} {'nodes':>9} {'seconds':>8} {'nodes/s':>9}  best move")
    for name in NAMES:
        board = hive.Board.from_game_string((args.positions / f"{name}.txt").read_text())
        runs = [Searcher().search(board, Limits(depth=args.depth)) for _ in range(args.rounds)]
        seconds = statistics.median(r.seconds for r in runs)
        nodes = runs[0].nodes
        best = board.move_text(runs[0].move)
        print(f"{name:<14} {nodes:>9,} {seconds:>8.3f} {nodes / seconds:>9,.0f}  {best}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
