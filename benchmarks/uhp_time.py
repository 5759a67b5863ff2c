"""How long ``hive uhp`` takes to answer, against the time it is given, and how that compares with the in-process
searcher.

For each position: ``newgame <GameString>`` (timed: the replay of the game), then ``bestmove time T`` over the
pipe, timed from the line's write to the reply's read (the answer's latency is that time less T), and the same
position searched in process with ``Searcher().search(board, Limits(time=T))``. ``bestmove depth 1`` gives the
round trip of a move with next to no search in it.

    python -m benchmarks.uhp_time [--threads N] [--time T] [--rounds R] [--moves M]

``--depth D`` times ``bestmove depth D`` instead (a new engine each round, its ``newgame`` not counted) against a new
in-process searcher's ``search(board, Limits(depth=D))``, alternating, on ``--names`` (default the midgames). The
in-process boards have the engine's rules: the repetition draw on (the library's boards have it off, and the
trees differ: time-to-depth figures must say which).

``--moves`` plays M moves of self-play over UHP from each position (``newgame`` with the whole GameString before
each, as ``hive match`` does), reporting each ``bestmove``'s round trip: the later moves show what a session keeps.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import hive
from hive.games.hive import Searcher
from hive.search import Limits

from .movegen import NAMES, POSITIONS


class Engine:
    """``hive uhp`` over pipes."""

    def __init__(self, threads: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hive.uhp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        )
        self.reply()
        self.ask(f"options set Threads {threads}")

    def reply(self) -> list[str]:
        assert self.proc.stdout is not None
        lines: list[str] = []
        while not lines or lines[-1] != "ok":
            line = self.proc.stdout.readline().decode()
            if not line:
                raise RuntimeError(f"the engine ended: {lines}")
            lines.append(line.rstrip("\n"))
        return lines

    def ask(self, line: str) -> tuple[list[str], float]:
        assert self.proc.stdin is not None
        start = time.perf_counter()
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        lines = self.reply()
        return lines, time.perf_counter() - start

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"exit\n")
        self.proc.stdin.flush()
        self.proc.wait(30)


def uhp_time(seconds: float) -> str:
    return f"00:{int(seconds) // 60:02d}:{seconds % 60:06.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=0)
    parser.add_argument("--depth", type=int, default=0)
    parser.add_argument("--names", nargs="*", default=list(NAMES))
    args = parser.parse_args()
    if args.depth:
        time_to_depth(args)
        return
    print(
        f"hive {hive.__version__} ({hive.BUILD}), {args.threads} thread(s), T = {args.time:g} s, load {os.getloadavg()}"
    )
    for name in NAMES:
        record = (args.positions / f"{name}.txt").read_text().strip()
        engine = Engine(args.threads)
        newgame, depth1, timed, inside = [], [], [], []
        for _ in range(args.rounds):
            newgame.append(engine.ask(f"newgame {record}")[1])
            depth1.append(engine.ask("bestmove depth 1")[1])
            timed.append(engine.ask(f"bestmove time {uhp_time(args.time)}")[1])
            board = hive.Board.from_record(record, repetition_draw=True)  # the engine's rules
            searcher = Searcher()
            start = time.perf_counter()
            searcher.search(board, Limits(time=args.time, threads=args.threads))
            inside.append(time.perf_counter() - start)
        line = (
            f"{name}: newgame {statistics.median(newgame) * 1000:.1f} ms, bestmove depth 1 "
            f"{statistics.median(depth1) * 1000:.1f} ms, bestmove time {args.time:g}: "
            f"{statistics.median(timed):.3f} s (rounds {', '.join(f'{t:.3f}' for t in timed)}), in process "
            f"{statistics.median(inside):.3f} s"
        )
        print(line, flush=True)
        if args.moves:
            board = hive.Board.from_record(record, repetition_draw=True)  # the engine's rules
            trips = []
            for _ in range(args.moves):
                if board.is_game_over():
                    break
                engine.ask(f"newgame {board.record()}")
                lines, trip = engine.ask(f"bestmove time {uhp_time(args.time)}")
                trips.append(trip)
                board.push_text(lines[0])
            print(f"  self-play, {len(trips)} moves: " + ", ".join(f"{t:.3f}" for t in trips), flush=True)
        engine.close()


def time_to_depth(args: argparse.Namespace) -> None:
    """``bestmove depth D`` over UHP against the in-process search, alternating, a new searcher each round."""
    print(
        f"hive {hive.__version__} ({hive.BUILD}), {args.threads} thread(s), depth {args.depth}, load {os.getloadavg()}"
    )
    for name in args.names:
        record = (args.positions / f"{name}.txt").read_text().strip()
        over, inside, nodes = [], [], 0
        for _ in range(args.rounds):
            engine = Engine(args.threads)
            engine.ask(f"newgame {record}")
            over.append(engine.ask(f"bestmove depth {args.depth}")[1])
            engine.close()
            board = hive.Board.from_record(record, repetition_draw=True)  # the engine's rules
            searcher = Searcher()
            start = time.perf_counter()
            nodes = searcher.search(board, Limits(depth=args.depth, threads=args.threads)).nodes
            inside.append(time.perf_counter() - start)
            searcher.close()
        a, b = statistics.median(over), statistics.median(inside)
        print(
            f"{name}: over UHP {a:.2f} s (rounds {', '.join(f'{t:.2f}' for t in over)}), in process {b:.2f} s "
            f"(rounds {', '.join(f'{t:.2f}' for t in inside)}, {nodes:,} nodes), ratio {a / b:.2f}, load "
            f"{os.getloadavg()[0]:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
