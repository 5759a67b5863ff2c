"""The compiled build against the plain Python build, side by side in one run.

Run: ``python -m benchmarks.compiled`` from the project root after ``pip install -e .``.
Each round runs ``benchmarks.movegen --json`` and ``benchmarks.search --json`` in a subprocess for each
build (``HIVE_PURE=1`` for plain Python), alternating builds so that both see the same machine load;
the medians over rounds and the compiled/pure ratios are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from typing import Any

BUILDS = (("pure", "1"), ("compiled", ""))


def run(module: str, pure: str, args: list[str]) -> dict[str, Any]:
    env = dict(os.environ, HIVE_PURE=pure)
    out = subprocess.run(
        [sys.executable, "-m", module, "--json", *args], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compiled vs plain Python build, side by side.")
    parser.add_argument("--rounds", type=int, default=5, help="subprocess rounds per build; medians are printed")
    parser.add_argument("--depth", type=int, default=4, help="search depth")
    args = parser.parse_args(argv)
    runs: dict[str, list[dict[str, Any]]] = {"pure": [], "compiled": []}
    for _ in range(args.rounds):
        for name, pure_env in BUILDS:
            movegen = run("benchmarks.movegen", pure_env, ["--rounds", "1", "--seconds", "1"])
            search = run("benchmarks.search", pure_env, ["--depth", str(args.depth)])
            if movegen["build"] != ("pure Python" if pure_env else "compiled"):
                print(f"error: the {name} run got the {movegen['build']} build", file=sys.stderr)
                return 1
            runs[name].append({**movegen, **search})

    def median(build: str, table: str, key: str) -> float:
        return float(statistics.median(r[table][key] for r in runs[build]))

    print(f"Python {sys.version.split()[0]}, medians of {args.rounds} alternating rounds per build")
    print(f"{'legal-move lists/s':<26} {'pure':>12} {'compiled':>12} {'ratio':>7}")
    for name in runs["pure"][0]["lists"]:
        pure, compiled = median("pure", "lists", name), median("compiled", "lists", name)
        print(f"{name:<26} {pure:>12,.0f} {compiled:>12,.0f} {compiled / pure:>6.1f}x")
    print(f"{'perft seconds':<26} {'pure':>12} {'compiled':>12} {'ratio':>7}")
    for perft in runs["pure"][0]["perft"]:
        pure, compiled = median("pure", "perft", perft), median("compiled", "perft", perft)
        print(f"{perft:<26} {pure:>12.3f} {compiled:>12.4f} {pure / compiled:>6.1f}x")
    print(f"{f'search nodes/s, depth {args.depth}':<26} {'pure':>12} {'compiled':>12} {'ratio':>7}  nodes")
    for position in runs["pure"][0]["nodes_per_second"]:
        pure = median("pure", "nodes_per_second", position)
        compiled = median("compiled", "nodes_per_second", position)
        nodes = f"{runs['pure'][0]['nodes'][position]:,} / {runs['compiled'][0]['nodes'][position]:,}"
        print(f"{position:<26} {pure:>12,.0f} {compiled:>12,.0f} {compiled / pure:>6.1f}x  {nodes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
