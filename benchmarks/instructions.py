"""Instructions executed by the hot paths, counted by valgrind's callgrind: repeatable where seconds are not.

Run: ``python -m benchmarks.instructions`` from the project root, with the package installed and valgrind on the
PATH. Each workload runs in a fresh interpreter under callgrind, once as it is and once with ``--base`` (the same
imports and set-up, no work); the difference is the work's own instruction count. The counts do not move with the
machine's load, so a change to the core can be judged by them on a shared machine (``HIVE_PURE=1`` counts the
plain Python build).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from .movegen import POSITIONS

_SEARCH_5 = (
    "board2 = hive.Board.from_record(open(r'{{positions}}/midgame2_mlp.txt').read().strip(), repetition_draw={draw})\n"
    "from hive.games.hive import Searcher\nSearcher().search(board2, Limits(depth=5))"
)

#: The workloads: a name and its Python code (``board`` is set up from ``{position}`` before it runs).
WORKLOADS: dict[str, str] = {
    "generate x3000, midgame_mlp": "for _ in range(3000): board.generate()",
    "count_moves x3000, midgame_mlp": "for _ in range(3000): board.count_moves()",
    # the board keeps the legal moves of the position it is in: forget them, so that every list is generated
    "list(legal_moves) x3000, midgame_mlp": (
        "for _ in range(3000):\n    board._kept_ply = -1\n    list(board.legal_moves)"
    ),
    # python-chess's loop over the children: a new position a list, each pushed and popped by the public API
    "push + list(legal_moves) + pop, each child x20, midgame_mlp": (
        "for _ in range(20):\n    for move in board.legal_moves:\n        board.push(move)\n"
        "        list(board.legal_moves)\n        board.pop()"
    ),
    "push + pop x3000, midgame_mlp": (
        "move = next(iter(board.legal_moves))\nfor _ in range(3000):\n    board.push(move)\n    board.pop()"
    ),
    "parse_uhp + uhp x3000, midgame_mlp": (
        "text = board.uhp(next(iter(board.legal_moves)))\nfor _ in range(3000): board.uhp(board.parse_uhp(text))"
    ),
    "move_text + push_text + pop x3000": (
        "move = next(iter(board.legal_moves))\n"
        "for _ in range(3000):\n    board.push_text(board.move_text(move))\n    board.pop()"
    ),
    # a record read and written again: the texts are kept as they are pushed, or written by record()
    "push_text a midgame's moves + record() x30": (
        "texts = open(r'{positions}/midgame_mlp.txt').read().strip().split(';')[3:]\n"
        "for _ in range(30):\n    game = hive.Board('Base+MLP')\n"
        "    for text in texts: game.push_text(text)\n    game.record()"
    ),
    "30 random games of 60 plies": (
        "import random\nrng = random.Random(1)\nfor _ in range(30):\n    game = hive.Board('Base+MLP')\n"
        "    for _ in range(60):\n        moves = list(game.legal_moves)\n        if not moves: break\n"
        "        game.push(rng.choice(moves))\n    game.outcome()\n    game.copy()"
    ),
    "perft Base+MLP 4": "hive.perft(hive.Board('Base+MLP'), 4)",
    "search depth 4 x3, midgame2_mlp": (
        "spec = hive.find_game('Base+MLP')\n"
        "board2 = hive.Board.from_game_string(open(r'{positions}/midgame2_mlp.txt').read())\n"
        "for _ in range(3): spec.ai.search(board2, Limits(depth=4))"
    ),
    # the engine's rules (UHP's RepetitionDraw is on) against the library's default: nodes 216,683 and 248,726
    "search depth 5, midgame2_mlp, repetition draw on": _SEARCH_5.format(draw=True),
    "search depth 5, midgame2_mlp, repetition draw off": _SEARCH_5.format(draw=False),
    "HiveQueen search depth 3, start": ("spec = hive.find_game('HiveQueen')\nspec.ai.search(spec(), Limits(depth=3))"),
    # a new board for each list: the board keeps the list of its position
    "HiveQueen list(legal_moves) x20, start (1,303 turns)": (
        "spec = hive.find_game('HiveQueen')\nfor _ in range(20): list(spec().legal_moves)"
    ),
}

_SETUP = (
    "import hive\nfrom hive.search import Limits\n"
    "board = hive.Board.from_game_string(open(r'{positions}/midgame_mlp.txt').read())\n"
)


def count(code: str) -> int:
    """Instructions executed by ``python -c code`` under callgrind."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env=os.environ,
        )
        if run.returncode != 0:
            raise RuntimeError(run.stderr[-2000:])
        found = re.search(r"Collected : (\d+)", run.stderr)
        if found is None:
            raise RuntimeError("callgrind printed no total")
        return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Instruction counts of the hot paths (valgrind callgrind).")
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("names", nargs="*", help="workloads to count (default: all)")
    args = parser.parse_args(argv)
    setup = _SETUP.format(positions=args.positions)
    base = count(setup)
    build = "plain Python" if os.environ.get("HIVE_PURE", "") not in ("", "0") else "installed"
    print(f"Python {sys.version.split()[0]}, {build} build; instructions beyond the {base:,} of start-up and set-up")
    for name, work in WORKLOADS.items():
        if args.names and not any(n in name for n in args.names):
            continue
        total = count(setup + work.format(positions=args.positions))
        print(f"{name:<40} {total - base:>15,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
