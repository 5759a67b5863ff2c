"""Searching on two processes (``Limits(threads=2)``): the scores of one process at every depth, in both games,
with its clock, its ``stop``, its table bound and its helpers' lives kept."""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator

import pytest

import hive
from hive.games.hive import Searcher
from hive.games.hivequeen import Board as QueenBoard
from hive.games.hivequeen import Searcher as QueenSearcher
from hive.games.hivequeen.search import search_view
from hive.players import SearchPlayer
from hive.search import Limits, parallel

from ..processes import children
from ..shared import POSITIONS, mzinga_rows

MIDGAMES = ("midgame_mlp", "midgame2_mlp", "midgame_base")
COMPILED = hive.BUILD == "compiled"
# the plain Python build searches about 50 times slower
DEEP = 4 if COMPILED else 3
PUZZLES = [
    (game_string, int(depth))
    for name in ("GameAI_BlockWinningMoveIsBestMoveTest.csv", "PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv")
    for _, _, (game_string, depth, _) in mzinga_rows(name)
]

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="searches on more than one process need os.fork")


def midgame(name: str) -> hive.Board:
    return hive.Board.from_game_string((POSITIONS / f"{name}.txt").read_text())


def self_play(plies: int, seed: int) -> Iterator[hive.Board]:
    """Every third position of a seeded self-play game of Base+MLP with the repetition draw."""
    board = hive.Board("Base+MLP", repetition_draw=True)
    player = Searcher(seed=seed, opening_noise=plies)
    for ply in range(plies):
        if board.is_game_over():
            return
        board.push(player.search(board, Limits(depth=1)).move)
        if ply % 3 == 2:
            yield board.copy()


@pytest.fixture(autouse=True)
def no_helper_left() -> Iterator[None]:
    before = children()
    yield
    assert children() <= before, "a helper process outlived its search"


def same_scores(boards: list[tuple[hive.Board, int]]) -> None:
    for board, depth in boards:
        before = board.game_string()
        one = Searcher().search(board, Limits(depth=depth))
        two = Searcher().search(board, Limits(depth=depth, threads=2))
        assert board.game_string() == before
        assert (two.score, two.depth) == (one.score, one.depth), (board.game_string(), depth)
        assert two.move in board.legal_moves


@pytest.mark.parametrize("split", [parallel.SPLIT_DEPTH, 1])
def test_two_processes_score_every_midgame_depth_as_one(monkeypatch: pytest.MonkeyPatch, split: int) -> None:
    monkeypatch.setattr(parallel, "SPLIT_DEPTH", split)
    same_scores([(midgame(name), depth) for name in MIDGAMES for depth in range(1, DEEP + 1)])


def test_two_processes_solve_mzinga_puzzles_as_one() -> None:
    same_scores([(hive.Board.from_game_string(gs), depth) for gs, depth in PUZZLES if depth <= DEEP])


@pytest.mark.parametrize("split", [parallel.SPLIT_DEPTH, 1])
def test_two_processes_score_self_play_positions_as_one(monkeypatch: pytest.MonkeyPatch, split: int) -> None:
    monkeypatch.setattr(parallel, "SPLIT_DEPTH", split)
    same_scores([(board, DEEP - 1) for board in self_play(36, seed=7)])


@pytest.mark.slow
def test_two_processes_score_deeper_searches_as_one() -> None:
    boards = [(midgame(name), 5) for name in MIDGAMES] + [(board, 4) for board in self_play(60, seed=11)]
    same_scores(boards + [(hive.Board.from_game_string(gs), depth) for gs, depth in PUZZLES])


def test_hivequeen_steps_score_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "SPLIT_DEPTH", 1)
    rng = random.Random(3)
    board = QueenBoard()
    for turn in range(12):
        if board.is_game_over():
            break
        if turn % 3 == 2:
            one = QueenSearcher().search_codes(search_view(board), Limits(depth=2))
            two = QueenSearcher().search_codes(search_view(board), Limits(depth=2, threads=2))
            assert two.score == one.score, board.record()
        board.push(rng.choice(list(board.legal_moves)))


@pytest.mark.timing
def test_the_deadline_holds_for_the_team() -> None:
    board = midgame("midgame2_mlp")
    start = time.perf_counter()
    result = Searcher().search(board, Limits(depth=60, time=0.5, threads=2))
    assert time.perf_counter() - start < 2.0
    assert result.move in board.legal_moves and 1 <= result.depth < 60


@pytest.mark.timing
def test_stop_ends_the_team_with_the_best_move_so_far() -> None:
    searcher = Searcher()
    start = time.perf_counter()
    searcher.stop = lambda: time.perf_counter() - start > 0.4
    board = midgame("midgame_mlp")
    result = searcher.search(board, Limits(depth=60, threads=2))
    assert time.perf_counter() - start < 2.0
    assert result.move in board.legal_moves and result.depth < 60


def test_the_team_shares_one_table_within_its_bound() -> None:
    searcher = Searcher()
    searcher.tt_limit = 1_000
    board = midgame("midgame2_mlp")
    result = searcher.search(board, Limits(depth=DEEP, threads=2))
    assert result.move in board.legal_moves and result.nodes > 3 * searcher.tt_limit  # the table was filled
    assert searcher.tt_limit == 1_000 and searcher.tt.entries == 1_000
    assert 0 < len(searcher.tt) <= 1_000


def test_helpers_write_into_the_parents_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # the parent takes no task: it searches only the first root move of each depth, the helper all the others
    searcher = Searcher()
    board = midgame("midgame_base")
    monkeypatch.setattr(parallel.Team, "claim", _helpers_only(parallel.Team.claim))
    result = searcher.search(board, Limits(depth=DEEP, threads=2))
    assert result.move in board.legal_moves
    found = 0
    for move in board.legal_moves:
        board.push(move)
        found += searcher.known_move(board.hash) != -1
        board.pop()
    assert found >= len(board.legal_moves) - DEEP


def _helpers_only(claim: Callable[..., object]) -> Callable[..., object]:
    def helpers_only(team: parallel.Team, process: int) -> object:
        return None if process == 0 else claim(team, process)

    return helpers_only


def test_a_helper_that_dies_leaves_its_work_to_the_parent() -> None:
    board = midgame("midgame_base")
    expected = Searcher().search(board, Limits(depth=DEEP)).score
    searcher = Searcher()
    before = children()
    killed: list[int] = []

    def kill_one() -> bool:
        for pid in children() - before:
            if not killed:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
        return False

    searcher.stop = kill_one
    assert searcher.search(board, Limits(depth=DEEP, threads=2)).score == expected
    assert killed


def test_a_helper_killed_holding_the_lock_leaves_it_to_the_parent() -> None:
    lock = parallel.ProcessLock()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the helper
        try:
            with lock:
                os.kill(os.getpid(), signal.SIGKILL)
        finally:
            os._exit(1)
    os.waitpid(pid, 0)
    taken: list[bool] = []

    def take() -> None:
        with lock:
            taken.append(True)

    thread = threading.Thread(target=take, daemon=True)
    thread.start()
    thread.join(30)
    assert taken, "the lock of a killed helper was never released"
    lock.close()


def test_the_opening_noise_plies_search_on_one_process() -> None:
    board = hive.Board("Base+MLP")
    one = Searcher(seed=4, opening_noise=6).search(board, Limits(depth=2))
    two = Searcher(seed=4, opening_noise=6).search(board, Limits(depth=2, threads=2))
    assert (two.move, two.score, two.nodes) == (one.move, one.score, one.nodes)


@pytest.mark.parametrize("threads", [0, 17, -1])
def test_threads_out_of_range_are_refused(threads: int) -> None:
    with pytest.raises(ValueError, match=f"search threads must be 1 to 16, not {threads}"):
        Limits(depth=1, threads=threads)


def test_limits_describe_their_threads() -> None:
    assert Limits(depth=7, threads=2).describe() == "depth 7, 2 threads"
    assert Limits(time=1).describe() == "1 s per move"


def test_the_team_is_kept_for_the_searches_of_a_game() -> None:
    """A searcher keeps its helper for the next search of the same game (later, or earlier after an undo), each
    scoring as one process would; a position of another game, other rules or another thread count starts a new
    team; ``close`` stops it."""
    board = midgame("midgame_base")
    searcher = Searcher()
    before = children()
    positions = []
    for _ in range(3):
        positions.append(board.copy())
        result = searcher.search(board, Limits(depth=DEEP, threads=2))
        assert result.score == Searcher().search(board, Limits(depth=DEEP)).score
        helpers = children() - before
        assert len(helpers) == 1
        if len(positions) == 1:
            first = helpers
        assert helpers == first, "the helper of the first search searches the later ones"
        board.push(result.move)
    for earlier in reversed(positions):  # undo: back along the game
        searcher.search(earlier, Limits(depth=DEEP - 1, threads=2))
        assert children() - before == first
    other = midgame("midgame2_mlp")
    assert searcher.search(other, Limits(depth=DEEP - 1, threads=2)).score == (
        Searcher().search(other, Limits(depth=DEEP - 1)).score
    )
    second = children() - before
    assert len(second) == 1 and second != first, "another game: a new helper"
    assert not first & children()
    searcher.search(other, Limits(depth=2, threads=3))
    assert len(children() - before) == 2
    searcher.close()
    assert children() <= before
    searcher.close()  # twice is harmless


def test_the_team_follows_a_new_table() -> None:
    board = midgame("midgame_base")
    searcher = Searcher()
    before = children()
    searcher.search(board, Limits(depth=2, threads=2))
    first = children() - before
    searcher.tt_limit = 1_000  # a table of another size: the helpers must share the new one
    assert (
        searcher.search(board, Limits(depth=DEEP, threads=2)).score
        == Searcher().search(board, Limits(depth=DEEP)).score
    )
    assert len(children() - before) == 1 and children() - before != first
    searcher.close()


def test_helpers_end_with_the_searcher_dropped() -> None:
    before = children()
    searcher = Searcher()
    searcher.search(midgame("midgame_base"), Limits(depth=2, threads=2))
    assert len(children() - before) == 1
    del searcher
    assert children() <= before


def test_helpers_sleep_between_searches() -> None:
    """An idle helper takes no processor time: it waits on its pipe."""
    before = children()
    searcher = Searcher()
    searcher.search(midgame("midgame_base"), Limits(depth=2, threads=2))
    (helper,) = children() - before
    time.sleep(0.3)
    ticks = _cpu_ticks(helper)
    time.sleep(1.0)
    assert _cpu_ticks(helper) - ticks <= 2  # clock ticks of 10 ms
    searcher.close()


def _cpu_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def test_helpers_end_when_the_parent_dies() -> None:
    """A process that searched on two processes and was killed leaves no helper behind."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the parent to be killed
        try:
            os.close(read)
            searcher = Searcher()
            searcher.search(midgame("midgame_base"), Limits(depth=2, threads=2))
            os.write(write, b"%d\n" % next(iter(children())))
            time.sleep(60)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as lines:
        helper = int(lines.readline())
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    assert _ends(helper, within=10.0), "the helper outlived its parent"


def _ends(pid: int, within: float) -> bool:
    """Whether process ``pid`` is gone (or a zombie) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def test_the_in_process_player_keeps_its_helper_until_closed() -> None:
    before = children()
    player = SearchPlayer(hive.find_game("Base+MLP"), Limits(depth=2, threads=2))
    board = midgame("midgame_base")
    board.push(player.choose(board))
    helpers = children() - before
    board.push(player.choose(board))
    assert len(helpers) == 1 and children() - before == helpers
    player.close()
    assert children() <= before
