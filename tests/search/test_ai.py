"""Hive's AI: Mzinga's puzzles (testdata/mzinga, MIT, jonthysell/Mzinga), time limits, determinism, both builds."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import hive
from hive.games.hive import Move, Searcher
from hive.games.hive.ai import LEVELS, random_move, searcher_with
from hive.games.hive.evaluation import evaluate
from hive.search import Limits, SearchResult
from hive.uhp.server import ANSWER_MARGIN

from ..shared import mzinga_rows

PUZZLES = [
    (f"{name[:6]}-line{number}", game_string, int(depth), best)
    for name in ("GameAI_BlockWinningMoveIsBestMoveTest.csv", "PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv")
    for _, number, (game_string, depth, best) in mzinga_rows(name)
]


def puzzles(shallow: bool) -> list[object]:
    chosen = [(ident, gs, depth, best) for ident, gs, depth, best in PUZZLES if (depth <= 4) == shallow]
    return [
        # the plain-Python build solves the first deep puzzle (see the sample marker)
        pytest.param(gs, depth, best, id=f"{ident}-depth{depth}", marks=[pytest.mark.sample] if i == 0 else [])
        for i, (ident, gs, depth, best) in enumerate(chosen)
    ]


#: The null move as the puzzles search with it: tried from 3 plies left, so that it cuts at depths 4 and 5.
NULL_MOVE = {"null_move": 2, "null_move_depth": 3}
#: The searches the puzzles are solved with: as shipped (the null move from 4 plies left), without the null move,
#: with it from 3 plies left, and with late-move reductions from the fourth move.
SEARCHES = [
    pytest.param({}, id=""),
    pytest.param({"null_move": 0}, id="no-null-move"),
    pytest.param(NULL_MOVE, id="null-move"),
    pytest.param({"late_moves": 3}, id="late-moves"),
]


def solve(game_string: str, depth: int, values: dict[str, int]) -> tuple[hive.Board, SearchResult[Move]]:
    board = hive.Board.from_game_string(game_string)
    before = board.game_string()
    result = searcher_with(None, 0, values).search(board, Limits(depth=depth))
    assert board.game_string() == before
    return board, result


@pytest.mark.parametrize("values", SEARCHES)
@pytest.mark.parametrize(("game_string", "depth", "best"), puzzles(shallow=True))
def test_puzzle(game_string: str, depth: int, best: str, values: dict[str, int]) -> None:
    """The one move that wins (or blocks a win) within the given depth is found within that depth, with the null
    move and without."""
    board, result = solve(game_string, depth, values)
    assert result.move == board.parse_uhp(best)


@pytest.mark.slow
@pytest.mark.parametrize("values", SEARCHES)
@pytest.mark.parametrize(("game_string", "depth", "best"), puzzles(shallow=False))
def test_puzzle_deep(game_string: str, depth: int, best: str, values: dict[str, int]) -> None:
    board, result = solve(game_string, depth, values)
    assert result.move == board.parse_uhp(best)


def test_the_null_move_is_not_tried_where_a_pass_is_the_only_move() -> None:
    """Black can only pass while White wins in five plies: a null move searched shallower in Black's stead (the
    pass it must play anyway) cut the winning line off, and the search took a move that does not win."""
    game_string, depth, best = next((gs, d, b) for ident, gs, d, b in PUZZLES if ident == "Puzzle-line25")
    assert depth == 5
    board, result = solve(game_string, depth, {"null_move": 2, "null_move_depth": 4})
    assert result.move == board.parse_uhp(best) and result.score >= 1_000_000 - 5


def test_all_puzzles_are_collected() -> None:
    assert len(PUZZLES) == 24


def self_play_positions(count: int, seed: int) -> list[str]:
    """Positions from quick games between a random mover and a depth-1 searcher."""
    rng = random.Random(seed)
    positions: list[str] = []
    while len(positions) < count:
        board = hive.Board("Base+MLP", repetition_draw=True)
        searcher = Searcher()
        mover = random.Random(rng.randrange(2**32))
        for ply in range(rng.randrange(6, 60)):
            if board.is_game_over():
                break
            if ply % 2:
                board.push(random_move(board, mover))
            else:
                board.push(searcher.search(board, Limits(depth=1)).move)
        if not board.is_game_over():
            positions.append(board.game_string())
    return positions


def check_time_limit(positions: list[str], budget: float, allowed: float, clock: Callable[[], float]) -> None:
    searcher = Searcher()
    for game_string in positions:
        board = hive.Board.from_game_string(game_string, repetition_draw=True)
        start = clock()
        result = searcher.search(board, Limits(time=budget))
        elapsed = clock() - start
        assert elapsed <= allowed, (game_string, elapsed)
        assert result.move in board.legal_moves
        assert board.game_string() == game_string


@pytest.mark.timing(alone=False)
def test_answers_within_the_time_given() -> None:
    """The search stops within its budget and the time between two looks at the clock, counted in the CPU time this
    process spent (a machine busy with other work makes the wall-clock time longer, not the search)."""
    check_time_limit(self_play_positions(8, seed=1), budget=0.2, allowed=0.3, clock=time.process_time)


def own_time() -> float:
    """Wall-clock seconds less those this thread spent waiting for a core (Linux's ``schedstat``; none where it is
    not kept): the time a search takes on a machine that other work keeps busy, as it would take on an idle one."""
    try:
        waited = int(Path("/proc/thread-self/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        waited = 0.0
    return time.perf_counter() - waited


@pytest.mark.timing(alone=False)
@pytest.mark.slow
def test_one_second_on_200_self_play_positions() -> None:
    """The UHP engine passes ``bestmove time 00:00:01`` less its answer's margin to the search; all answer within
    1.2 s of the wall clock, less the time other work kept the search from a core."""
    check_time_limit(self_play_positions(200, seed=2), budget=1 - ANSWER_MARGIN, allowed=1.2, clock=own_time)


def test_deterministic_without_seed() -> None:
    board = hive.Board.from_game_string("Base+MLP;InProgress;White[3];wG1;bS1 wG1-;wA1 \\wG1;bA1 bS1-")
    first = Searcher().search(board, Limits(depth=2)).move
    assert all(Searcher().search(board, Limits(depth=2)).move == first for _ in range(3))


def test_opening_noise_varies_games_and_is_seeded() -> None:
    board = hive.Board("Base+MLP")
    picks = {Searcher(seed=s, opening_noise=4).search(board, Limits(depth=1)).move for s in range(12)}
    assert len(picks) > 1
    again = [Searcher(seed=5, opening_noise=4).search(board, Limits(depth=1)).move for _ in range(3)]
    assert len(set(again)) == 1


def test_levels() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard", "max"]
    with pytest.raises(ValueError, match="depth"):
        Limits()
    with pytest.raises(ValueError, match="depth must be >= 1"):
        Limits(depth=0)


def test_search_of_a_finished_game_is_an_error() -> None:
    board = hive.Board.from_game_string(
        "Base;BlackWins;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;"
        "wA2 \\wQ;bA2 \\bG1;wG2 wQ/;bG1 wG2\\"
    )
    with pytest.raises(ValueError, match="game is over"):
        Searcher().search(board, Limits(depth=1))


def test_evaluation_prefers_pressure_on_the_enemy_queen() -> None:
    calm = hive.Board.from_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    assert evaluate(calm) == 0  # symmetric position, white to move
    pressed = hive.Board.from_game_string(
        "Base;InProgress;Black[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 /wS1;bA1 bQ/;wA1 bQ\\"
    )
    assert evaluate(pressed) < 0  # black to move, its queen has one more neighbour


def test_search_is_compiled_with_the_core() -> None:
    search_is_compiled = type(Searcher.search_codes).__name__ != "function"
    assert search_is_compiled == hive.COMPILED


def test_every_hot_module_runs_the_build_that_hive_names() -> None:
    import importlib

    from hive._build import compiled_modules

    for name in compiled_modules():
        module = importlib.import_module(name)
        assert getattr(module, "_COMPILED", getattr(module, "COMPILED", None)) is hive.COMPILED, name


_SEARCH_BOTH_GAMES = """
import random
import hive
from hive.search import Limits

board = hive.find_game("Base+MLP")()
for move in ["wL", "bM wL-", "wA1 /wL", "bA1 bM-", "wQ -wL", "bQ bM/", "wP /wA1", "bL bA1/"]:
    board.push_text(move)
queen_game = hive.find_game("HiveQueen")
queen = queen_game()
mover = random.Random(11)
for _ in range(6):
    queen.push(queen_game.ai.random_move(queen, mover))
results = [hive.find_game(b.game_name).ai.search(b, Limits(depth=d)) for b, d in ((board, 3), (queen, 2))]
print(hive.COMPILED, [(b.move_text(r.move), r.score, r.depth, r.nodes) for b, r in zip((board, queen), results)])
# the null move on, where it cuts (from 3 plies left, at depth 4)
from hive.games.hive.ai import searcher_with
found = [searcher_with(None, 0, {"null_move": n, "null_move_depth": 3}).search(board, Limits(depth=4)) for n in (0, 2)]
assert found[1].nodes < found[0].nodes, found
print([(board.move_text(r.move), r.score, r.depth, r.nodes) for r in found])
"""


@pytest.mark.skipif(not hive.COMPILED, reason="compares the compiled build with the pure one")
def test_compiled_and_pure_builds_search_the_same_trees() -> None:
    import os
    import subprocess
    import sys

    def run(pure: str) -> str:
        env = dict(os.environ, HIVE_PURE=pure)
        out = subprocess.run([sys.executable, "-c", _SEARCH_BOTH_GAMES], env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout

    compiled, pure = run(""), run("1")
    assert compiled.startswith("True ") and pure.startswith("False ")
    assert compiled.split(" ", 1)[1] == pure.split(" ", 1)[1]


#: From a game of the AI at blitz: Black is far ahead and White can only pass, and Black had begun to move its Ant
#: back and forth (``bA1 \wP``, ``bA1 wP/``), which without the repetition draw it went on doing for 2,700 plies.
SHUFFLING = (
    r"Base+MLP;InProgress;Black[28];wS1;bP wS1\;wM -wS1;bQ bP-;wQ /wM;bA1 bQ/;wA1 /wQ;bA1 -wA1;wG1 wA1\;bA2 /bP;"
    r"wS2 /wG1;bA1 -wS2;wL wS2\;bA1 -wQ;wG2 \wS1;bA2 wG1-;wB1 wS1/;bA3 bA2\;wG3 /wL;bA3 \wG2;wB2 wG3\;bM -bA1;"
    r"wB2 wG3-;bM wB1-;wA2 wB2-;bA3 wA2/;wP -wG2;bM wB1;wA3 /wA2;bA2 /wA3;wG2 /wS1;bL bM/;wG2 /wP;bA1 -wG2;"
    r"wG3 wA2-;bM wS1;wP \wG2;bM wM;wG3 /wL;bA1 -wP;wG3 wA2-;bB1 /bA1;wG3 \bA3;bM wQ;wG3 wA2-;bS1 /bB1;wG3 /wL;"
    r"bS1 /wG2;wG3 wL/;bS2 /bP;wS2 -bS1;bA1 \wP;pass;bA1 wP/;pass"
)


@pytest.mark.parametrize("depth", [2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_a_side_ahead_never_goes_back_to_an_earlier_position_and_wins(depth: int) -> None:
    """Without the repetition draw, a move back to a position the game has had scores as a draw: the side ahead
    makes progress (before, it shuffled at every depth for as long as the game went on)."""
    board = hive.Board.from_game_string(SHUFFLING)
    assert not board.repetition_draw and board.turn == 1
    had = {board.hash}
    searcher = Searcher()
    for _ in range(40):
        if board.is_game_over():
            break
        if board.turn == 1:
            board.push(searcher.search(board, Limits(depth=depth)).move)
            assert board.hash not in had, "Black went back to an earlier position"
        else:
            board.push(next(iter(board.legal_moves)))  # White passes while it must, then plays its first move
        had.add(board.hash)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == 1, f"Black had not won after 40 plies at depth {depth}"
