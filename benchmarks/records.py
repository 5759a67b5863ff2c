"""Reading speed and memory of the record readers on a generated archive.

Run: ``python -m benchmarks.records`` (from the project root, with the package installed).
Writes a 10,000-game PGN file and a 10,000-game SGF file (the shared real records, repeated) to a
temporary directory, then reads each in a fresh interpreter: every move of every game is replayed and
checked. Prints games/s, moves/s and the reader's peak resident memory above the interpreter's start,
which stays flat however long the file is (games are streamed one at a time); then the headers alone
(``iter_headers``, no move replayed), and the shared records themselves read again and again. Speeds are per
CPU second of the reading process; with ``--repeat N`` each row is the run of median speed of N.

``--hostile 1 2 4 8`` reads hostile records instead: one SGF property value and one PGN header line of that many
MB, each followed by a good game, and prints the time, the peak memory above the start and what the reader made
of them (the reader should stay linear in time and bounded in memory, and go on to the good game).

To compare with another version of the package, put its ``hive`` directory first on ``PYTHONPATH``:
the children inherit it (a version without ``iter_headers`` prints ``-`` for the header scan).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
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


def _read(path: Path, mode: str) -> Iterator[tuple[int, bool]]:
    """Each game's number of moves and whether it failed: every move replayed, or the headers alone."""
    if mode == "headers":
        for found in hive.records.iter_headers(path):
            yield found.moves, bool(found.errors)
    elif mode == "shared":
        for record in sorted(Path(path).iterdir()):
            for game in hive.records.iter_games(record):
                yield len(game.moves), "invalid" not in record.name and bool(game.errors)
    else:
        for game in hive.records.iter_games(path):
            yield len(game.moves), bool(game.errors)


def measure(path: Path, traced_games: int = 0, mode: str = "games") -> dict[str, float]:
    """Read every game of ``path``; return counts, seconds and memory figures (kB).

    The first ``traced_games`` games are read under tracemalloc (for the Python heap's peak) and not timed.

    :param mode: ``games`` (every move replayed), ``headers`` (:func:`hive.records.iter_headers`), or ``shared``
        (``path`` is a directory of records, every file read).
    """
    start_rss = _rss_kb()
    traced_peak = 0
    games = moves = failed = timed_games = timed_moves = 0
    if traced_games:
        tracemalloc.start()
    start, cpu = time.perf_counter(), time.process_time()
    for count, bad in _read(path, mode):
        games += 1
        moves += count
        failed += bad
        if games <= traced_games:
            if games == traced_games:
                traced_peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                start, cpu = time.perf_counter(), time.process_time()
            continue
        timed_games += 1
        timed_moves += count
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    if tracemalloc.is_tracing():
        traced_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return {
        "games": games,
        "moves": moves,
        "failed": failed,
        "timed_games": timed_games,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "games_per_cpu_s": timed_games / cpu if cpu else 0.0,
        "games_per_s": timed_games / seconds if seconds else 0.0,
        "moves_per_s": timed_moves / seconds if seconds else 0.0,
        "moves_per_cpu_s": timed_moves / cpu if cpu else 0.0,
        "rss_start_kb": start_rss,
        "rss_peak_kb": _rss_kb(),
        "traced_peak_kb": traced_peak / 1024,
    }


def measure_in_child(path: Path, traced_games: int = 0, mode: str = "games") -> dict[str, float] | None:
    """:func:`measure` in a fresh interpreter, so that its peak memory is the reader's alone; ``None`` when the
    package read has no header scan."""
    argv = [sys.executable, "-m", "benchmarks.records", "--child", str(path), "--traced", str(traced_games)]
    out = subprocess.run(
        [*argv, "--mode", mode], capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parent.parent
    )
    result: dict[str, float] | None = json.loads(out.stdout)
    return result


def median_in_child(path: Path, repeat: int, traced_games: int = 0, mode: str = "games") -> dict[str, float] | None:
    """:func:`measure_in_child` ``repeat`` times: the run of median speed."""
    runs = [measure_in_child(path, traced_games, mode) for _ in range(repeat)]
    timed = [r for r in runs if r is not None]
    if not timed:
        return None
    speed = statistics.median_low(r["games_per_cpu_s"] for r in timed)
    return next(r for r in timed if r["games_per_cpu_s"] == speed)


def hostile_record(path: Path, fmt: str, size: int) -> Path:
    """Write a record of one hostile value of ``size`` characters (an SGF comment, a PGN header), then a good game."""
    good = RECORDS / "HV-Dumbot-Kaur50-2023-01-17-0059"
    with open(path, "w", encoding="utf-8") as handle:
        if fmt == "sgf":
            handle.write("(;GM[27]SU[hive]C[" + "x" * size + "])\n")
        else:
            handle.write('[Event "' + "x" * size + '"]\n\n1. wA1\n\n')
        handle.write(good.with_suffix(f".{fmt}").read_text(encoding="utf-8-sig"))
    return path


def hostile(sizes: list[float]) -> int:
    """Time and memory of reading a hostile value of each size (MB) in SGF and PGN."""
    print(f"Python {sys.version.split()[0]}; {hive.records.__file__}")
    print(f"{'read':<6} {'MB':>5} {'seconds':>8} {'CPU s':>7} {'above start MB':>15} {'games':>6} {'failed':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in ("sgf", "pgn"):
            for mb in sizes:
                path = hostile_record(Path(tmp) / f"hostile.{fmt}", fmt, int(mb * 1_000_000))
                r = measure_in_child(path)
                assert r is not None
                print(
                    f"{fmt:<6} {mb:>5g} {r['seconds']:>8.2f} {r['cpu_seconds']:>7.2f}"
                    f" {(r['rss_peak_kb'] - r['rss_start_kb']) / 1024:>15.1f} {r['games']:>6.0f} {r['failed']:>7.0f}",
                    flush=True,
                )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10_000, help="games per generated file (default 10000)")
    parser.add_argument("--formats", nargs="+", choices=("pgn", "sgf"), default=["pgn", "sgf"])
    parser.add_argument("--traced", type=int, default=200, help="games read under tracemalloc first (0: none)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure; the median is shown (default 1)")
    parser.add_argument("--rounds", type=int, default=100, help="times the shared records are read (default 100)")
    parser.add_argument("--hostile", nargs="+", type=float, metavar="MB", help="read hostile records of these sizes")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="games", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        if args.mode == "headers" and not hasattr(hive.records, "iter_headers"):
            print("null")
        else:
            print(json.dumps(measure(args.child, args.traced, args.mode)))
        return 0
    if args.hostile:
        return hostile(args.hostile)

    print(f"Python {sys.version.split()[0]}; {hive.records.__file__}; median of {args.repeat} run(s)")
    print(
        f"{'read':<12} {'games':>7} {'moves':>9} {'file MB':>8} {'seconds':>8} {'CPU s':>7} {'games/s':>8}"
        f" {'moves/s':>9} {'peak RSS MB':>12} {'above start':>12} {'heap peak kB':>13}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in args.formats:
            path = make_archive(Path(tmp) / f"archive.{fmt}", fmt, args.games)
            size = path.stat().st_size / 1e6
            _row(f"{fmt} games", median_in_child(path, args.repeat, args.traced), size)
            _row(f"{fmt} headers", median_in_child(path, args.repeat, args.traced, "headers"), size)
        shared = Path(tmp) / "shared"
        shared.mkdir()
        for index in range(args.rounds):
            for record in sorted(RECORDS.iterdir()):
                (shared / f"{index:04d}-{record.name}").write_bytes(record.read_bytes())
        _row("shared", median_in_child(shared, args.repeat, 0, "shared"), 0.0)
    print("games/s and moves/s per CPU second of the reading process (steadier than wall time on a shared machine)")
    print(f"heap peak: tracemalloc over the first {args.traced} games (not timed); the rest are timed without it")
    print(f"shared: the {len(list(RECORDS.iterdir()))} shared record files, each read {args.rounds} times")
    return 0


def _row(label: str, r: dict[str, float] | None, size: float) -> None:
    if r is None:
        print(f"{label:<12} {'-':>7}")
        return
    print(
        f"{label:<12} {r['games']:>7,.0f} {r['moves']:>9,.0f} {size:>8.1f} {r['seconds']:>8.2f}"
        f" {r['cpu_seconds']:>7.2f} {r['games_per_cpu_s']:>8,.0f} {r['moves_per_cpu_s']:>9,.0f}"
        f" {r['rss_peak_kb'] / 1024:>12.1f}"
        f" {(r['rss_peak_kb'] - r['rss_start_kb']) / 1024:>12.1f} {r['traced_peak_kb']:>13,.0f}"
    )
    if r["failed"]:
        print(f"  {r['failed']:.0f} games failed to replay", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
