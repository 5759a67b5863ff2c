"""Speed where users feel it, in one run: the compiled build against the plain Python build and against the peer
figures of ``reference-figures.md`` (nokamute, Rust, one thread), each line marked "target met" or "not met".

Run: ``python -m benchmarks.speed`` from the project root, with the package installed (``--rounds 3`` by default).
Each round runs one subprocess per build (``HIVE_PURE=1`` for plain Python), alternating builds so that both see
the same machine load; the medians over rounds are printed.

- **Public lists/s**: ``list(board.legal_moves)`` on ``midgame_mlp``. The board keeps the legal moves of the
  position it is in (every check of ``is_legal``, ``parse_uhp`` and ``push`` uses them), so each list would
  otherwise be a copy: before every list the loop forgets the kept moves (``board._kept_ply = -1``, a store of
  about 25 ns that is counted in the figure), as if the position had changed since the last list.
- **Child lists/s**: python-chess's loop over the children of ``midgame_mlp``: every legal move pushed, the
  child's ``list(board.legal_moves)``, popped, all through the public API (each list a new position); nokamute's
  same loop (apply, generate, undo) runs 3.47 million a second (``reference-figures.md``). ``python -m
  benchmarks.floor`` runs the same loop on an extension type that does no work (the floor of any board driven from
  Python) and counts where hive's instructions a child go.
- **Core lists/s**: ``board.count_moves()``, the same generation into the core's C buffer that the search and
  perft read, without a Python list; ``board.generate()`` (a list of int codes) is printed beside it.
- **Perft** Base+MLP from the start: depth 6 compiled (the plain build would take minutes; it runs depth 5).
- **Time to depth**: a fresh searcher to depth 7 (the plain build: ``--pure-depth``) on ``midgame2_mlp`` and
  ``midgame_base``, in process; the effective branching factor is the nodes of depth 7 over the nodes of a separate
  depth-6 search. nokamute's figures were measured over UHP (``bestmove depth 7``), which adds a few milliseconds.
  The same search on two processes (``Limits(threads=2)``) follows, with its speed-up over one process (the ratio
  of the medians) and whether it found the same score; it needs two cores free of other work to mean anything.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .movegen import POSITIONS

#: nokamute 1.0.3, one thread, from ``../shared/docs/reference-figures.md`` (the lower end where it gives a range).
REFERENCE = {
    "lists": 1_730_000.0,
    "children": 3_470_000.0,
    "perft Base+MLP 6": 0.50,
    "depth 7 midgame2_mlp": 6.5,
    "depth 7 midgame_base": 1.35,
    "branching": 7.5,
}
#: What issue 18 asks for.
TARGETS = {"public": 700_000.0, "children": 900_000.0, "core": 1_700_000.0, "perft": 1.0, "threads": 1.6}
SEARCHES = ("midgame2_mlp", "midgame_base")
BUILDS = (("compiled", ""), ("pure", "1"))


def _rate(step: Callable[[], object], seconds: float) -> float:
    """Calls of ``step`` per second, over at least ``seconds``."""
    count = 0
    start = time.perf_counter()
    while True:
        for _ in range(100):
            step()
        count += 100
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


def measure(positions: Path, seconds: float, perft_depth: int, search_depth: int) -> dict[str, Any]:
    """One round of every figure in the running build, as a JSON-ready dict."""
    import hive
    from hive.games.hive import Searcher
    from hive.search import Limits

    board = hive.Board.from_game_string((positions / "midgame_mlp.txt").read_text())

    def public() -> None:
        board._kept_ply = -1
        list(board.legal_moves)

    def children() -> None:  # python-chess's loop: every child pushed, listed and popped through the public API
        for move in board.legal_moves:
            board.push(move)
            list(board.legal_moves)
            board.pop()

    out: dict[str, Any] = {
        "build": hive.BUILD,
        "moves": len(board.legal_moves),
        "public": _rate(public, seconds),
        "children": _rate(children, seconds) * len(board.legal_moves),
        "core": _rate(board.count_moves, seconds),
        "ints": _rate(board.generate, seconds),
    }
    start = time.perf_counter()
    leaves = hive.perft(hive.Board("Base+MLP"), perft_depth)
    out["perft"] = {"depth": perft_depth, "leaves": leaves, "seconds": time.perf_counter() - start}
    out["search"] = {}
    for name in SEARCHES:
        position = hive.Board.from_game_string((positions / f"{name}.txt").read_text())
        before = Searcher().search(position, Limits(depth=search_depth - 1))
        start = time.perf_counter()
        found = Searcher().search(position, Limits(depth=search_depth))
        seconds_taken = time.perf_counter() - start
        start = time.perf_counter()
        shared = Searcher().search(position, Limits(depth=search_depth, threads=2))
        out["search"][name] = {
            "depth": found.depth,
            "seconds": seconds_taken,
            "nodes": found.nodes,
            "previous": before.nodes,
            "move": position.move_text(found.move),
            "two": time.perf_counter() - start,
            "two nodes": shared.nodes,
            "same score": shared.score == found.score and shared.depth == found.depth,
        }
    return out


def _child(pure: str, args: argparse.Namespace, search_depth: int, perft_depth: int) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.speed", "--json", "--seconds", str(args.seconds)]
    command += ["--positions", str(args.positions), "--search-depth", str(search_depth)]
    command += ["--perft-depth", str(perft_depth)]
    run = subprocess.run(
        command, env=dict(os.environ, HIVE_PURE=pure), capture_output=True, text=True, timeout=3600, check=False
    )
    if run.returncode != 0:
        raise RuntimeError(f"the {'pure' if pure else 'compiled'} run failed:\n{run.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(run.stdout)
    return result


def _verdict(met: bool) -> str:
    return "target met" if met else "not met"


def report(runs: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The lines printed for the rounds of both builds."""

    def median(build: str, *path: str) -> float:
        """The median over ``build``'s rounds of the figure at ``path`` in each round's dict."""
        values = []
        for found in runs[build]:
            for key in path:
                found = found[key]
            values.append(float(found))  # type: ignore[arg-type]
        return float(statistics.median(values))

    lines = []
    rows = (
        ("public", "list(board.legal_moves) lists/s", TARGETS["public"]),
        ("children", "push, list, pop of each child lists/s", TARGETS["children"]),
        ("core", "core generator lists/s (C buffer)", TARGETS["core"]),
        ("ints", "generate() int lists/s", None),
    )
    moves = runs["compiled"][0]["moves"]
    lines.append(f"midgame_mlp ({moves} moves)          {'compiled':>12} {'pure':>10} {'ratio':>7}  reference")
    for key, label, target in rows:
        compiled, pure = median("compiled", key), median("pure", key)
        line = f"{label:<36} {compiled:>12,.0f} {pure:>10,.0f} {compiled / pure:>6.1f}x"
        line += f"  {compiled / REFERENCE['children' if key == 'children' else 'lists']:.2f}x nokamute"
        if target is not None:
            line += f"  >= {target:,.0f}: {_verdict(compiled >= target)}"
        lines.append(line)
    perft, pure_perft = runs["compiled"][0]["perft"], runs["pure"][0]["perft"]
    seconds = median("compiled", "perft", "seconds")
    pure_seconds = median("pure", "perft", "seconds")
    lines.append(
        f"perft Base+MLP {perft['depth']} ({perft['leaves']:,}): compiled {seconds:.3f} s"
        f" ({perft['leaves'] / seconds:,.0f} leaves/s), pure depth {pure_perft['depth']} {pure_seconds:.2f} s"
        f" ({pure_perft['leaves'] / pure_seconds:,.0f} leaves/s)"
    )
    if perft["depth"] == 6:
        lines.append(
            f"  {seconds / REFERENCE['perft Base+MLP 6']:.2f}x nokamute's {REFERENCE['perft Base+MLP 6']} s;"
            f" <= {TARGETS['perft']} s: {_verdict(seconds <= TARGETS['perft'])}"
        )
    for name in SEARCHES:
        found = runs["compiled"][0]["search"][name]
        pure_found = runs["pure"][0]["search"][name]
        seconds = median("compiled", "search", name, "seconds")
        pure_seconds = median("pure", "search", name, "seconds")
        branching = found["nodes"] / found["previous"]
        line = (
            f"depth {found['depth']} {name}: compiled {seconds:.2f} s, {found['nodes']:,} nodes"
            f" ({found['nodes'] / seconds:,.0f}/s), branching {branching:.2f} (nokamute ~{REFERENCE['branching']});"
            f" pure depth {pure_found['depth']} {pure_seconds:.2f} s ({pure_found['nodes']:,} nodes)"
        )
        reference = REFERENCE.get(f"depth {found['depth']} {name}")
        if reference is not None:
            ratio = seconds / reference
            line += f"\n  {ratio:.2f}x nokamute's {reference} s; <= 1.0x: {_verdict(ratio <= 1.0)}"
        two = median("compiled", "search", name, "two")
        same = all(run["search"][name]["same score"] for build in runs.values() for run in build)
        line += (
            f"\n  two processes: {two:.2f} s, {found['two nodes']:,} nodes, speed-up {seconds / two:.2f}x"
            f" (pure {pure_seconds / median('pure', 'search', name, 'two'):.2f}x);"
            f" >= {TARGETS['threads']}x: {_verdict(seconds / two >= TARGETS['threads'])};"
            f" {'the same score' if same else 'a DIFFERENT score'} as one process"
        )
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Public API, generator, perft and search speed, both builds.")
    parser.add_argument("--rounds", type=int, default=3, help="subprocess rounds per build; medians are printed")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one lists/s measurement")
    parser.add_argument("--search-depth", type=int, default=7, help="search depth of the compiled build")
    parser.add_argument("--pure-depth", type=int, default=5, help="search depth of the plain Python build")
    parser.add_argument("--perft-depth", type=int, default=6, help="perft depth of the compiled build")
    parser.add_argument("--pure-perft-depth", type=int, default=5, help="perft depth of the plain Python build")
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--json", action="store_true", help="measure one round in this process, print JSON")
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(measure(args.positions, args.seconds, args.perft_depth, args.search_depth)))
        return 0
    runs: dict[str, list[dict[str, Any]]] = {"compiled": [], "pure": []}
    for _ in range(args.rounds):
        for name, pure in BUILDS:
            depths = (args.pure_depth, args.pure_perft_depth) if pure else (args.search_depth, args.perft_depth)
            result = _child(pure, args, *depths)
            if (result["build"] == "compiled") != (name == "compiled"):
                print(f"error: the {name} run got the {result['build']} build", file=sys.stderr)
                return 1
            runs[name].append(result)
    print(f"Python {sys.version.split()[0]}, medians of {args.rounds} alternating rounds per build")
    print("\n".join(report(runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
