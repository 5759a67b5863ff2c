"""The search trees themselves: node counts, chosen moves and scores on fixed positions of both games.

Run: ``python -m benchmarks.trees`` from the project root, with the package installed. A change that must not
change what the AI plays (a refactoring, a speed-up) leaves every line, and so the digest printed last, as it was;
``HIVE_PURE=1`` must print the same as the compiled build.

The positions: the three shared Hive midgames at depths 1 to 5, Mzinga's 24 AI puzzles at their depth, a seeded
self-play opening with opening noise and the repetition draw on, HiveQueen's start and a random midgame at depth 3,
and 27 positions of HiveQueen self-play at depth 2.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import hive
from hive.games.hive import Searcher
from hive.games.hivequeen import Board as QueenBoard
from hive.games.hivequeen import Searcher as QueenSearcher
from hive.games.hivequeen.search import search_view
from hive.search import Limits

from .hivequeen import midgame, self_play_positions
from .movegen import NAMES, POSITIONS

MZINGA = POSITIONS.parent / "mzinga"
PUZZLES = ("GameAI_BlockWinningMoveIsBestMoveTest.csv", "PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv")


def _puzzles() -> Iterator[tuple[str, str, int]]:
    for name in PUZZLES:
        with open(MZINGA / name, encoding="utf-8-sig") as handle:
            for number, line in enumerate(handle, start=1):
                if line.strip() and not line.startswith("#"):
                    game_string, depth, _ = line.rstrip("\r\n").split("\t")
                    yield f"{name[:6]}/{number}", game_string, int(depth)


def trees(positions: Path) -> dict[str, list[object]]:
    """Every search of the set: ``[nodes, move, score, depth]`` by name."""
    out: dict[str, list[object]] = {}
    for name in NAMES:
        board = hive.Board.from_game_string((positions / f"{name}.txt").read_text())
        for depth in range(1, 6):
            found = Searcher().search(board, Limits(depth=depth))
            out[f"{name}/{depth}"] = [found.nodes, board.move_text(found.move), found.score, found.depth]
    for key, game_string, depth in _puzzles():
        board = hive.Board.from_game_string(game_string)
        found = Searcher().search(board, Limits(depth=depth))
        out[key] = [found.nodes, board.move_text(found.move), found.score, found.depth]
    board = hive.Board("Base+MLP", repetition_draw=True)
    noisy = Searcher(seed=5, opening_noise=4)
    for ply in range(12):
        found = noisy.search(board, Limits(depth=3))
        out[f"selfplay/{ply}"] = [found.nodes, board.move_text(found.move), found.score, found.depth]
        board.push(found.move)
    for index, queen in enumerate(self_play_positions()):
        steps = QueenSearcher().search_codes(search_view(queen), Limits(depth=2))
        turn = QueenSearcher().search(queen, Limits(depth=2)).move
        out[f"queen/{index}"] = [steps.nodes, steps.move, steps.score, steps.depth, queen.move_text(turn)]
    for name, queen in (("start", QueenBoard()), ("mid", midgame(7, 30))):
        steps = QueenSearcher().search_codes(search_view(queen), Limits(depth=3))
        turn = QueenSearcher().search(queen, Limits(depth=3, time=10.0)).move
        out[f"queen3/{name}"] = [steps.nodes, steps.move, steps.score, steps.depth, queen.move_text(turn)]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Search trees of both games on fixed positions.")
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    found = trees(args.positions)
    text = json.dumps(found, sort_keys=True)
    if args.json:
        print(text)
        return 0
    print(f"{'search':<16} {'nodes':>9} {'score':>8}  move")
    for key, (nodes, move, score, *rest) in found.items():
        shown = rest[-1] if len(rest) > 1 else move
        print(f"{key:<16} {nodes:>9,} {score:>8}  {shown}")
    total = sum(int(str(entry[0])) for entry in found.values())
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    print(f"{len(found)} searches, {total:,} nodes, {hive.BUILD} build, digest {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
