"""HiveQueen speed: random games, make/unmake, movement lists and AI search.

Run: ``python -m benchmarks.hivequeen`` from the project root, with the package installed. Prints medians of
``--rounds`` rounds; ``--levels hard max`` also times those levels' searches on positions from self-play.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from hive.games.hivequeen import Board, Searcher
from hive.games.hivequeen.ai import LEVELS, random_move
from hive.games.hivequeen.search import search_view
from hive.search import Limits


def midgame(seed: int, turns: int) -> Board:
    """The board after ``turns`` random turns (HiveQueen's random mover, seeded)."""
    board = Board()
    rng = random.Random(seed)
    for _ in range(turns):
        if board.is_game_over():
            break
        board.push(random_move(board, rng))
    return board


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="HiveQueen speed.")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument(
        "--levels", nargs="*", default=[], choices=list(LEVELS), metavar="LEVEL", help="also time these levels"
    )
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, {args.rounds} rounds, medians")
    rates = []
    for r in range(args.rounds):
        rng = random.Random(r)
        turns = 0
        start = time.perf_counter()
        for _ in range(args.games):
            board = Board()
            mover = random.Random(rng.randrange(2**32))
            while not board.is_game_over():
                board.push(random_move(board, mover))
            turns += board.ply
        seconds = time.perf_counter() - start
        rates.append((args.games / seconds, turns / seconds))
    print(
        f"random games: {statistics.median(g for g, _ in rates):,.1f} games/s, "
        f"{statistics.median(t for _, t in rates):,.0f} turns/s (checked push)"
    )
    steps = midgame(7, 100).history
    pairs = []
    for _ in range(args.rounds):
        view = search_view(Board())
        start = time.perf_counter()
        for _ in range(200):
            for step in steps:
                view.make(step)
            for _ in steps:
                view.unmake()
        pairs.append((time.perf_counter() - start) / (200 * len(steps)))
    print(f"make + unmake: {statistics.median(pairs) * 1e9:,.0f} ns a step (the {len(steps)} steps of a random game)")
    for name, board in (("start", Board()), ("midgame (seed 7, 30 turns)", midgame(7, 30))):
        view = search_view(board)
        count = len(view.movements())
        lists = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            for _ in range(200):
                view.movements()
            lists.append(200 / (time.perf_counter() - start))
        runs = [Searcher().search_codes(search_view(board), Limits(depth=args.depth)) for _ in range(args.rounds)]
        seconds = statistics.median(r.seconds for r in runs)
        print(
            f"{name}: {count} movements, {statistics.median(lists):,.0f} movement lists/s; "
            f"search depth {args.depth}: {runs[0].nodes:,} nodes in {seconds:.3f} s, "
            f"{runs[0].nodes / seconds:,.0f} nodes/s"
        )
    if args.levels:
        positions = self_play_positions()
        for level in args.levels:
            limits = LEVELS[level]
            times = []
            cut = 0
            for board in positions:
                result = Searcher().search_codes(search_view(board), limits)
                times.append(result.seconds)
                cut += limits.time is not None and result.seconds >= limits.time
            times.sort()
            print(
                f"{level} on {len(times)} self-play positions: median {statistics.median(times):.2f} s, "
                f"90th percentile {times[(9 * len(times)) // 10]:.2f} s, slowest {times[-1]:.2f} s, "
                f"time cap cut {cut} searches short"
            )
    return 0


def self_play_positions(games: int = 6, every: int = 4, turns: int = 60) -> list[Board]:
    """Every ``every``-th position of 2-turn self-play games, each from its own 2 seeded random turns (the kind of
    position the levels face)."""
    positions = []
    searcher = Searcher()
    for game in range(games):
        board = midgame(100 + game, 2)
        for turn in range(turns):
            if board.is_game_over():
                break
            board.push(searcher.search(board, Limits(depth=2)).move)
            if turn % every == every - 1 and not board.is_game_over():
                positions.append(board.copy())
    return positions


if __name__ == "__main__":
    sys.exit(main())
