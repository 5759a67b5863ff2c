"""Move-generation speed on the shared midgame positions, and perft times.

Run: ``python -m benchmarks.movegen`` (from the project root, with the package installed).
Prints medians over several rounds; compare ratios measured in one run, not absolute times.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import hive

POSITIONS = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "positions"
NAMES = ("midgame_mlp", "midgame2_mlp", "midgame_base")


def lists_per_second(board: hive.Board, public: bool, seconds: float) -> float:
    """Full legal-move lists generated per second (core ints, or public ``Move`` objects)."""
    count = 0
    generate = board.generate
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            if public:
                list(board.legal_moves)
            else:
                generate()
        count += 50
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def perft_seconds(game: str, depth: int) -> tuple[int, float]:
    board = hive.Board(game)
    start = time.perf_counter()
    nodes = hive.perft(board, depth)
    return nodes, time.perf_counter() - start


PERFTS = (("Base+MLP", 4), ("Base", 5), ("Base+MLP", 5))


def figures(positions: Path, rounds: int, seconds: float) -> dict[str, object]:
    """Core lists/s per position and perft seconds, medians of ``rounds``, as a JSON-ready dict."""
    lists = {}
    for name in NAMES:
        board = hive.Board.from_game_string((positions / f"{name}.txt").read_text())
        lists[name] = statistics.median(lists_per_second(board, False, seconds) for _ in range(rounds))
    perft = {}
    for game, depth in PERFTS:
        perft[f"{game} {depth}"] = statistics.median(perft_seconds(game, depth)[1] for _ in range(rounds))
    return {"build": hive.BUILD, "lists": lists, "perft": perft}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5, help="rounds per figure; the median is printed")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one move-list round")
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--json", action="store_true", help="print one JSON object (used by benchmarks.compiled)")
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(figures(args.positions, args.rounds, args.seconds)))
        return 0

    print(f"Python {sys.version.split()[0]}, {args.rounds} rounds, medians")
    print(f"{'position':<14} {'moves':>5} {'lists/s (core)':>15} {'lists/s (Move)':>15}")
    for name in NAMES:
        board = hive.Board.from_game_string((args.positions / f"{name}.txt").read_text())
        core = statistics.median(lists_per_second(board, False, args.seconds) for _ in range(args.rounds))
        public = statistics.median(lists_per_second(board, True, args.seconds) for _ in range(args.rounds))
        print(f"{name:<14} {len(board.legal_moves):>5} {core:>15,.0f} {public:>15,.0f}")
    print(f"build: {hive.BUILD}")
    for game, depth in PERFTS:
        runs = [perft_seconds(game, depth) for _ in range(args.rounds)]
        nodes = runs[0][0]
        seconds = statistics.median(t for _, t in runs)
        print(f"perft {game} depth {depth}: {nodes:,} in {seconds:.3f} s ({nodes / seconds:,.0f} leaves/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
