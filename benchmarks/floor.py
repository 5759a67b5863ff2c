"""The floor of python-chess's child loop in CPython, and how close ``hive.Board`` comes to it.

Run: ``python -m benchmarks.floor`` from the project root, with the package installed, Cython, a C compiler and
valgrind on the PATH (``--no-callgrind`` leaves the instruction counts out).

The loop (``for move in board.legal_moves: board.push(move); list(board.legal_moves); board.pop()``) is run on
``midgame_mlp`` by ``hive.Board`` and by the floor: ``FloorBoard`` (``FLOOR`` below, compiled here by Cython into a
temporary folder), an extension type with python-chess's shape and no rules behind it: ``push`` keeps its move,
``legal_moves`` is a new lazy generator whose iterator hands out shared values (as many as the real child has),
``pop`` returns the last move. Whatever the floor costs, any board does that calls three methods of a C type and
lists a child's moves as values; what hive costs beyond it is the rules' work (generation, make and unmake) and the
board's own (the kept lists, its ``Move`` values).

- **Instructions a child** (callgrind, which counts them repeatably on a loaded machine): a run of the loop over the
  children ``--repeat`` times minus a run without it, divided by the children, for both boards; hive's grouped by
  what the functions do, the floor's beside them.
- **Seconds**: the two loops in two processes, timed in turn (``--rounds`` bursts of ``--burst`` seconds of each
  process's own CPU time, so that time spent descheduled on a loaded machine does not count), medians and the
  median of the rounds' ratios; child lists a second of wall time beside them. ``--against OTHER/src`` times a
  third process in turn with them, hive imported from another tree (the commit before a change, built in place).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from .movegen import POSITIONS

FLOOR = """
# cython: language_level=3, boundscheck=False, wraparound=False
cdef class Item:
    cdef readonly Py_ssize_t n


cdef class Iter:
    cdef tuple items
    cdef Py_ssize_t i, n

    def __iter__(self):
        return self

    def __next__(self):
        if self.i >= self.n:
            raise StopIteration
        item = self.items[self.i]
        self.i += 1
        return item


cdef class Gen:
    cdef FloorBoard board

    def __iter__(self):
        cdef Iter it = Iter.__new__(Iter)
        it.items = self.board.items
        it.n = self.board.n
        return it

    def __len__(self):
        return self.board.n


cdef class FloorBoard:
    cdef tuple items
    cdef Py_ssize_t n, root
    cdef Item last

    def __init__(self, counts):
        cdef Item item
        items = []
        for count in counts:
            item = Item.__new__(Item)
            item.n = count
            items.append(item)
        self.items = tuple(items) * (1 + max(counts) // len(counts))
        self.n = self.root = len(counts)

    @property
    def legal_moves(self):
        cdef Gen moves = Gen.__new__(Gen)
        moves.board = self
        return moves

    def push(self, Item move, text=None):
        self.last = move
        self.n = move.n

    def pop(self):
        self.n = self.root
        return self.last
"""

#: The loop, as a function (as ``benchmarks.speed`` runs it): ``board`` is set up before it.
LOOP = """
def children():
    for move in board.legal_moves:
        board.push(move)
        list(board.legal_moves)
        board.pop()
"""

#: What the functions of hive's loop do, by the first pattern their name matches (callgrind's names).
GROUPS = (
    (
        "core: generation",
        r"Position__(fill|placement_cells|unique|throws)|movers\.|State_find_cuts|State__(visit|first)",
    ),
    (
        "core: make and unmake",
        r"State_(make|unmake)|State__(lift|drop|unmask|remask|fits|bug_key|outcome|last)|^PyLong_",
    ),
    ("board: kept lists (has_move, _keep)", r"Position_has_move|Position__(keep|kept_here|swap_kept)"),
    (
        "values: the iterators, the table of moves",
        r"_KeptMoves|move__(kept_moves|shared|fill_slot)|LegalMove|floor_\d+(It|G)",
    ),
    ("board: legal_moves, push and pop", r"MovePosition|move__(play|take_back)|hivefloor_\d+FloorBoard"),
    ("list(): filling and freeing the list", r"^list_"),
    ("allocation", r"Malloc|Free|Alloc|GC_|_Py_NewReference|memset|_Py_Dealloc|tp_dealloc|PyLong_FromLong"),
    ("interpreter: bytecode, calls, look-ups", r""),
)


def build_floor(folder: Path) -> Path:
    """Compile ``FLOOR`` as the module ``hivefloor`` in ``folder``; return the folder."""
    (folder / "hivefloor.pyx").write_text(FLOOR, encoding="utf-8")
    setup = (
        "from setuptools import setup\nfrom Cython.Build import cythonize\n"
        "setup(ext_modules=cythonize('hivefloor.pyx', quiet=True))\n"
    )
    (folder / "setup.py").write_text(setup, encoding="utf-8")
    command = [sys.executable, "setup.py", "build_ext", "--inplace"]
    subprocess.run(command, cwd=folder, check=True, capture_output=True, text=True)
    return folder


def _script(kind: str, position: Path, repeat: int) -> str:
    """The code of one run: ``kind`` ``"hive"`` or ``"floor"``, the loop run ``repeat`` times."""
    setup = (
        "import hive\n"
        f"board = hive.Board.from_game_string(open({str(position)!r}).read())\n"
        "counts = []\n"
        "for move in board.legal_moves:\n"
        "    board.push(move); counts.append(len(board.legal_moves)); board.pop()\n"
    )
    if kind == "floor":
        setup += "from hivefloor import FloorBoard\nboard = FloorBoard(counts)\n"
    return setup + LOOP + f"list(board.legal_moves)\nfor _ in range({repeat}):\n    children()\n"


def _callgrind(code: str, folder: Path) -> dict[str, int]:
    """Instructions by function of ``python -c code`` under callgrind (``folder`` on the import path)."""
    out = folder / "callgrind.out"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")])))
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", code]
    run = subprocess.run(command, capture_output=True, text=True, env=env)
    if run.returncode != 0:
        raise RuntimeError(run.stderr[-2000:])
    annotated = subprocess.run(
        ["callgrind_annotate", "--auto=no", "--threshold=100", str(out)], capture_output=True, text=True, check=True
    ).stdout
    functions: dict[str, int] = {}
    for line in annotated.splitlines():
        found = re.match(r"\s*([\d,]+) \([^)]*\)\s+(\S.*?)(?: \[.*\])?$", line)
        if found and "PROGRAM TOTALS" not in line:
            name = re.sub(r"'\d+$", "", found.group(2).rsplit(":", 1)[-1])
            name = re.sub(r"__pyx_(pw|pf|f|tp)_4hive_5games_4hive_\d+(\w+?)_\d+", r"\2.", name)
            functions[name] = functions.get(name, 0) + int(found.group(1).replace(",", ""))
    return functions


def instructions(position: Path, folder: Path, repeat: int, children: int) -> dict[str, dict[str, float]]:
    """Instructions a child by function, for both boards: a run with the loop minus one without."""
    found = {}
    for kind in ("floor", "hive"):
        work = _callgrind(_script(kind, position, repeat), folder)
        base = _callgrind(_script(kind, position, 0), folder)
        found[kind] = {
            name: (work.get(name, 0) - base.get(name, 0)) / (repeat * children) for name in set(work) | set(base)
        }
    return found


def grouped(functions: dict[str, float]) -> dict[str, float]:
    """Instructions by :data:`GROUPS`."""
    totals = dict.fromkeys((label for label, _ in GROUPS), 0.0)
    for name, count in functions.items():
        label = next(label for label, pattern in GROUPS if re.search(pattern, name))
        totals[label] += count
    return totals


WORKER = """
import json, sys, time
exec(sys.argv[1])
n = len(board.legal_moves)
for _ in range(50):
    children()
print(n, flush=True)
for line in sys.stdin:
    seconds = float(line)
    count = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        for _ in range(20):
            children()
        count += 20
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(json.dumps([count * n / cpu, count * n / wall]), flush=True)
"""


def seconds(
    position: Path, folder: Path, rounds: int, burst: float, against: Path | None = None
) -> dict[str, dict[str, list[float]]]:
    """Child lists a second of CPU time and of wall time, the boards timed in turn, ``rounds`` bursts each: the
    floor, hive and, with ``against`` (another tree's ``src``), hive imported from there."""
    path = os.environ.get("PYTHONPATH")
    runs = {"floor": ("floor", path), "hive": ("hive", path)}
    if against is not None:
        runs["against"] = ("hive", str(against))
    workers = {}
    for label, (kind, source) in runs.items():
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(folder), source])))
        command = [sys.executable, "-c", WORKER, _script(kind, position, 0)]
        workers[label] = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        workers[label].stdout.readline()  # type: ignore[union-attr]
    rates: dict[str, dict[str, list[float]]] = {label: {"cpu": [], "wall": []} for label in workers}
    for index in range(rounds):
        for label in workers if index % 2 == 0 else reversed(workers):
            worker = workers[label]
            worker.stdin.write(f"{burst}\n")  # type: ignore[union-attr]
            worker.stdin.flush()  # type: ignore[union-attr]
            cpu, wall = json.loads(worker.stdout.readline())  # type: ignore[union-attr]
            rates[label]["cpu"].append(cpu)
            rates[label]["wall"].append(wall)
    for worker in workers.values():
        worker.stdin.close()  # type: ignore[union-attr]
        worker.wait()
    return rates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The floor of python-chess's child loop, and hive's distance to it.")
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--repeat", type=int, default=100, help="loops over the children counted by callgrind")
    parser.add_argument("--rounds", type=int, default=30, help="timed bursts of each board")
    parser.add_argument("--burst", type=float, default=0.2, help="CPU seconds of one burst")
    parser.add_argument("--no-callgrind", action="store_true", help="time the loops only")
    parser.add_argument("--against", type=Path, help="another tree's src: time its hive.Board in turn with these")
    args = parser.parse_args(argv)
    import hive

    position = args.positions / "midgame_mlp.txt"
    board = hive.Board.from_game_string(position.read_text())
    children = len(board.legal_moves)
    print(f"Python {sys.version.split()[0]}, hive {hive.BUILD} build; midgame_mlp, {children} children")
    with tempfile.TemporaryDirectory() as name:
        folder = build_floor(Path(name))
        if not args.no_callgrind:
            found = instructions(position, folder, args.repeat, children)
            floor, ours = grouped(found["floor"]), grouped(found["hive"])
            print(f"\ninstructions a child (callgrind){'':16} {'hive':>8} {'floor':>8}")
            for label, _ in GROUPS:
                print(f"{label:<47} {ours[label]:>8,.0f} {floor[label]:>8,.0f}")
            print(f"{'total':<47} {sum(ours.values()):>8,.0f} {sum(floor.values()):>8,.0f}")
            print("\nhive's functions of 100 or more instructions a child:")
            for name, count in sorted(found["hive"].items(), key=lambda item: -item[1]):
                if count >= 100:
                    print(f"{count:>8,.0f}  {name}")
        rates = seconds(position, folder, args.rounds, args.burst, args.against)
    print(f"\nchild lists a second ({args.rounds} bursts of {args.burst} s of CPU time each, in turn; medians)")
    for clock in ("cpu", "wall"):
        line = f"{clock:>4} time:"
        for label in rates:
            line += f" {label} {statistics.median(rates[label][clock]):>11,.0f}"
        for label in ("floor", "against")[: len(rates) - 1]:
            ratio = statistics.median(h / o for h, o in zip(rates["hive"][clock], rates[label][clock], strict=True))
            line += f"  hive/{label} {ratio:.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
