"""Nodes to a fixed depth over self-play positions: the move ordering's and the pruning's measure, free of the clock.

Run: ``python -m benchmarks.ordering --depth 6 --positions 30`` from the project root, with the package installed;
``--values '{"late_moves": 3}'`` searches with those search parameters (the others as shipped). A fresh searcher
searches each position, so the node counts repeat exactly from run to run and machine to machine; the digest of the
moves chosen tells whether the change also changed what the search plays.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time

import hive
from hive.games.hive import Searcher
from hive.games.hive.ai import random_move, searcher_with
from hive.search import Limits


def self_play(count: int, seed: int) -> list[str]:
    """GameStrings of ``count`` positions 14 to 49 plies into games of a depth-1 search (White) against a random
    mover, seeded."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        board = hive.Board("Base+MLP")
        searcher = Searcher()
        mover = random.Random(rng.randrange(2**32))
        for ply in range(rng.randrange(14, 50)):
            if board.is_game_over():
                break
            board.push(random_move(board, mover) if ply % 2 else searcher.search(board, Limits(depth=1)).move)
        if not board.is_game_over():
            found.append(board.game_string())
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Nodes to a fixed depth over self-play positions.")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--values", type=json.loads, default={}, help="search parameters, as a JSON object")
    args = parser.parse_args(argv)
    nodes = 0
    moves: list[str] = []
    seconds = 0.0
    for game_string in self_play(args.positions, args.seed):
        board = hive.Board.from_game_string(game_string)
        searcher = searcher_with(None, 0, args.values)
        start = time.process_time()
        found = searcher.search(board, Limits(depth=args.depth))
        seconds += time.process_time() - start
        nodes += found.nodes
        moves.append(board.move_text(found.move))
    digest = hashlib.sha256(" ".join(moves).encode()).hexdigest()[:8]
    print(
        f"{hive.BUILD} build, {args.values or 'as shipped'}: depth {args.depth}, {args.positions} positions, "
        f"{nodes:,} nodes, {seconds:.1f} s of CPU, moves digest {digest}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
