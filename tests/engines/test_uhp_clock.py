"""The UHP engine's ``Threads`` option and its ``bestmove clock`` extension: a client's clock is never lost on."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

import hive
from hive.games.hive import Searcher
from hive.search import Limits
from hive.search.parallel import can_fork
from hive.search.timing import MOVE_OVERHEAD, move_budget
from hive.uhp.server import UHPEngine

from ..positions import MIDGAME
from ..processes import Engine, children
from .recording import Recording


@pytest.fixture
def engine() -> Iterator[Engine]:
    running = Engine()
    yield running
    running.close()


def ask(engine: UHPEngine, line: str) -> list[str]:
    reply = engine.handle(line)
    assert reply[-1] == "ok"
    return reply[:-1]


def clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600:02d}:{whole // 60 % 60:02d}:{seconds % 60:06.3f}"


@pytest.mark.parametrize(
    ("line", "remaining", "increment"),
    [("clock 00:05:00 00:00:03", 300, 3), ("clock 00:00:01.5", 1.5, 0), ("clock 1:00:00 00:00:30", 3600, 30)],
)
def test_bestmove_clock_thinks_for_the_shared_budget(line: str, remaining: float, increment: float) -> None:
    searcher = Recording()
    engine = UHPEngine(searcher)
    engine.clock = lambda: 100.0  # no time passes between the command's arrival and the search
    ask(engine, "newgame Base+MLP")
    ask(engine, "options set Threads 2")
    assert ask(engine, "bestmove " + line)[0] in ("wS1", "wB1", "wG1", "wA1", "wM", "wL", "wP")
    assert searcher.seen == [Limits(time=move_budget(remaining, increment), threads=2)]


def test_the_budget_is_the_browsers() -> None:
    assert move_budget(300, 3) == pytest.approx(300 / 30 + 0.7 * 3 - MOVE_OVERHEAD)
    assert move_budget(300, 3, overhead=0) == pytest.approx(300 / 30 + 0.7 * 3)
    assert move_budget(10, 60) == pytest.approx(4.0 - MOVE_OVERHEAD)  # never above 40 % of what is left
    assert move_budget(0.3) == 0.02 and move_budget(0.01, overhead=0) == pytest.approx(0.004)
    assert move_budget(0.1) == move_budget(0) == 0.001
    with pytest.raises(ValueError, match="remaining time must be a finite number of seconds >= 0, not -1"):
        move_budget(-1)
    with pytest.raises(ValueError, match="increment time must be a finite number of seconds >= 0, not nan"):
        move_budget(1, float("nan"))


def test_a_small_increment_keeps_a_reserve_against_the_cost_of_each_move() -> None:
    """On 6 s + 60 ms (blitz scaled down 50 times), with each move costing 40 ms beyond its search, the clock
    settles well above zero: the overhead kept back from each budget pays for it."""
    remaining = 6.0
    for _ in range(500):
        remaining += 0.06 - move_budget(remaining, 0.06) - 0.04
        assert remaining > 0.5
    assert remaining == pytest.approx(30 * (0.3 * 0.06 + MOVE_OVERHEAD - 0.04), abs=0.01)


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("bestmove clock", "err Invalid bestmove arguments 'clock'"),
        ("bestmove clock 00:00:01 00:00:01 00:00:01", "err Invalid bestmove arguments 'clock 00:00:01 00:00:01 "),
        ("bestmove clock 5", "err Invalid time '5': expected hh:mm:ss (minutes and seconds below 60)."),
        ("bestmove clock 00:00:05 00:61:00", "err Invalid time '00:61:00': expected hh:mm:ss"),
    ],
)
def test_bad_clocks_are_refused(line: str, error: str) -> None:
    engine = UHPEngine()
    ask(engine, "newgame Base")
    reply = engine.handle(line)
    assert reply[0].startswith(error) and reply[-1] == "ok"


@pytest.mark.parametrize("threads", [1, 2] if can_fork() else [1])
def test_a_tiny_clock_is_never_lost(engine: Engine, threads: int) -> None:
    """Self-play over UHP on 1.5 s a side and 50 ms a move, 40 plies (the plain Python build, 50 times slower
    between its clock checks: 3 s and 150 ms, 16 plies): every answer arrives within the time left."""
    engine.send(f"options set Threads {threads}")
    engine.reply()
    engine.send("newgame Base+MLP")
    state = engine.reply()[0]
    compiled = hive.BUILD == "compiled"
    remaining = [1.5, 1.5] if compiled else [3.0, 3.0]
    increment = 0.05 if compiled else 0.15
    for ply in range(40 if compiled else 16):
        if state.split(";")[1] not in ("NotStarted", "InProgress"):
            break
        side = ply % 2
        start = time.perf_counter()
        engine.send(f"bestmove clock {clock(remaining[side])} {clock(increment)}")
        move = engine.reply(timeout=30)[0]
        remaining[side] -= time.perf_counter() - start
        assert remaining[side] > 0, f"lost on time at ply {ply}"
        remaining[side] += increment
        engine.send(f"play {move}")
        state = engine.reply()[0]
        assert not state.startswith(("err", "invalidmove")), state


@pytest.mark.timing
@pytest.mark.skipif(not can_fork(), reason="searches on more than one process need os.fork")
def test_threads_search_the_same_and_stop_on_a_new_line(engine: Engine) -> None:
    engine.send(f"newgame {MIDGAME}")
    engine.reply()
    engine.send("bestmove depth 3")
    one = engine.reply()
    engine.send("options set Threads 2")
    assert engine.reply() == ["Threads;int;2;1;1;16", "ok"]
    engine.send("bestmove depth 3")
    assert engine.reply()[-1] == "ok"
    board = hive.Board.from_game_string(MIDGAME)
    assert Searcher().search(board, Limits(depth=3)).move == board.parse_move(one[0])
    helpers = children(engine.proc.pid)
    assert len(helpers) == 1, "the helper is kept after the search"
    engine.send("bestmove depth 60")
    time.sleep(1.0)
    assert children(engine.proc.pid) == helpers, "the search runs on the same helper"
    start = time.monotonic()
    engine.send("info")
    assert engine.reply(timeout=30)[-1] == "ok"
    assert time.monotonic() - start < 5
    assert engine.reply(timeout=30)[0].startswith("id hive")
    assert children(engine.proc.pid) == helpers
