"""Reading speed and memory of the record readers on a generated archive.

Run: ``python -m benchmarks.records`` (from the project root, with the package installed).
Writes a 10,000-game PGN file and a 10,000-game SGF file (the shared real records, repeated) to a
temporary directory, then reads each in a fresh interpreter: every move of every game is replayed and
checked. Prints games/s, moves/s and the reader's peak resident memory above the interpreter's start,
which stays flat however long the file is (games are streamed one at a time).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import hive.records

RECORDS = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "records"


def make_archive(path: Path, fmt: str, games: int, records: Path = RECORDS) -> Path:
    """Write ``games`` games to ``path`` by repeating the shared valid records of one format."""
    pattern = "*.sgf" if fmt == "sgf" else "*.pgn"
    texts = [p.read_text(encoding="utf-8-sig") for p in sorted(records.glob(pattern)) if "invalid" not in p.name]
    if not texts:
        raise SystemExit(f"no {pattern} records in {records}")
    with open(path, "w", encoding="utf-8") as handle:
        for index in range(games):
            handle.write(texts[index % len(texts)].strip() + "\n\n")
    return path


def _rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def measure(path: Path, traced_games: int = 0) -> dict[str, float]:
    """Read every game of ``path``; return counts, seconds and memory figures (kB).

    The first ``traced_games`` games are read under tracemalloc (for the Python heap's peak) and not timed.
    """
    start_rss = _rss_kb()
    traced_peak = 0
    games = moves = failed = timed_games = timed_moves = 0
    if traced_games:
        tracemalloc.start()
    start = time.perf_counter()
    for game in hive.records.iter_games(path):
        games += 1
        moves += len(game.moves)
        failed += bool(game.errors)
        if games <= traced_games:
            if games == traced_games:
                traced_peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                start = time.perf_counter()
            continue
        timed_games += 1
        timed_moves += len(game.moves)
    seconds = time.perf_counter() - start
    if tracemalloc.is_tracing():
        traced_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return {
        "games": games,
        "moves": moves,
        "failed": failed,
        "timed_games": timed_games,
        "seconds": seconds,
        "games_per_s": timed_games / seconds if seconds else 0.0,
        "moves_per_s": timed_moves / seconds if seconds else 0.0,
        "rss_start_kb": start_rss,
        "rss_peak_kb": _rss_kb(),
        "traced_peak_kb": traced_peak / 1024,
    }


def measure_in_child(path: Path, traced_games: int = 0) -> dict[str, float]:
    """:func:`measure` in a fresh interpreter, so that its peak memory is the reader's alone."""
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.records", "--child", str(path), "--traced", str(traced_games)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10_000, help="games per generated file (default 10000)")
    parser.add_argument("--formats", nargs="+", choices=("pgn", "sgf"), default=["pgn", "sgf"])
    parser.add_argument("--traced", type=int, default=200, help="games read under tracemalloc first (0: none)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child, args.traced)))
        return 0

    print(f"Python {sys.version.split()[0]}; every move of every game replayed and checked")
    print(
        f"{'format':<6} {'games':>7} {'moves':>9} {'file MB':>8} {'seconds':>8} {'games/s':>8} {'moves/s':>8}"
        f" {'peak RSS MB':>12} {'above start':>12} {'heap peak kB':>13}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in args.formats:
            path = make_archive(Path(tmp) / f"archive.{fmt}", fmt, args.games)
            r = measure_in_child(path, args.traced)
            print(
                f"{fmt:<6} {r['games']:>7,.0f} {r['moves']:>9,.0f} {path.stat().st_size / 1e6:>8.1f}"
                f" {r['seconds']:>8.1f} {r['games_per_s']:>8,.0f} {r['moves_per_s']:>8,.0f}"
                f" {r['rss_peak_kb'] / 1024:>12.1f} {(r['rss_peak_kb'] - r['rss_start_kb']) / 1024:>12.1f}"
                f" {r['traced_peak_kb']:>13,.0f}"
            )
            if r["failed"]:
                print(f"  {r['failed']:.0f} games failed to replay", file=sys.stderr)
    print(f"heap peak: tracemalloc over the first {args.traced} games (not timed); the rest are timed without it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
