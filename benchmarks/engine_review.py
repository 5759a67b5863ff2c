"""Engine review speed: the time one position of a game takes to analyse (the browser's review works them out one
at a time on the AI's workers), and so a whole game's review, per game and level.

Run: ``python -m benchmarks.engine_review`` from the project root, with the package installed (``HIVE_PURE=1`` for
the plain Python build). Plays a seeded game of ``--plies`` moves with each game's random mover, then analyses
every position at each ``--levels`` level; prints the median and the slowest position and the whole review.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from hive.games import find_game
from hive.sdk.view import JSON
from hive.web.ai.work import evaluate
from hive.web.play.newgame import new_game
from hive.web.views import kinds


def game_moves(kind: str, plies: int, seed: int) -> tuple[JSON, list[str]]:
    """A new browser game of ``kind``'s options (as the New game dialog's defaults make it) and the move texts of a
    seeded random game of ``plies`` moves from its start, stopped early if it ends."""
    game = new_game({"kind": kind, "mode": "local"})
    board = game.board
    spec = find_game(board.game_name)
    rng = random.Random(seed)
    moves: list[str] = []
    while len(moves) < plies and not board.is_game_over():
        text = board.move_text(spec.ai.random_move(board, rng))
        board.push_text(text)
        moves.append(text)
    return game.record.options, moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Engine review speed.")
    parser.add_argument("--plies", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", nargs="*", default=["easy", "medium"])
    args = parser.parse_args(argv)
    for kind in kinds():
        options, moves = game_moves(kind, args.plies, args.seed)
        for level in args.levels:
            times = []
            for ply in range(len(moves) + 1):
                start = time.perf_counter()
                evaluate(kind, options, moves[:ply], level)
                times.append(time.perf_counter() - start)
            print(
                f"{kind:9} {level:7} {len(times)} positions: median {statistics.median(times) * 1000:8.1f} ms,"
                f" slowest {max(times) * 1000:8.1f} ms, whole review {sum(times):6.2f} s"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
