"""What a UHP session keeps between moves, as the in-process player does: the time it is given (counted from the
command's arrival, less only the answer's margin), its helper processes, and its transposition table within a
game."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest

import hive
from hive.players import SearchPlayer
from hive.search import Limits
from hive.search.parallel import can_fork
from hive.uhp.server import ANSWER_MARGIN, UHPEngine

from ..positions import MIDGAME
from ..processes import Engine, children
from .recording import Recording


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def ask(engine: UHPEngine, line: str, received: float | None = None) -> list[str]:
    reply = engine.handle(line, received)
    assert reply[-1] == "ok", reply
    return reply[:-1]


@pytest.fixture
def engine() -> Iterator[Engine]:
    running = Engine()
    yield running
    running.close()


@pytest.mark.parametrize(("line", "seconds"), [("00:00:01", 1.0), ("00:00:10", 10.0), ("00:01:00.5", 60.5)])
def test_bestmove_time_searches_all_but_the_answers_margin(line: str, seconds: float) -> None:
    searcher = Recording()
    engine = UHPEngine(searcher)
    engine.clock = FakeClock()
    ask(engine, "newgame Base+MLP")
    ask(engine, f"bestmove time {line}")
    (limits,) = searcher.seen
    assert limits.time is not None
    assert limits.time == pytest.approx(seconds - ANSWER_MARGIN)
    assert limits.time / seconds >= 0.98  # not the 0.85 of a 0.9 share less 50 ms


def test_the_time_counts_from_the_commands_arrival() -> None:
    """What the engine does between reading ``bestmove`` and searching comes out of the move's time."""
    searcher = Recording()
    engine = UHPEngine(searcher)
    clock = engine.clock = FakeClock()
    ask(engine, "newgame Base+MLP")
    received = clock.now
    clock.now += 0.3  # the command waited, or the engine was busy, for 0.3 s since it was read
    ask(engine, "bestmove time 00:00:01", received)
    ask(engine, "bestmove clock 00:05:00", received)
    clock.now += 60  # a command read a minute ago: the least search, not a negative time
    ask(engine, "bestmove time 00:00:01", received)
    first, second, late = (limits.time for limits in searcher.seen)
    assert first == pytest.approx(1 - ANSWER_MARGIN - 0.3)
    assert second == pytest.approx(300 / 30 - 0.05 - 0.3)
    assert late is not None and 0 < late <= 0.001


def test_a_tiny_time_keeps_half_of_it() -> None:
    searcher = Recording()
    engine = UHPEngine(searcher)
    engine.clock = FakeClock()
    ask(engine, "newgame Base")
    ask(engine, "bestmove time 00:00:00.03")
    assert searcher.seen[0].time == pytest.approx(0.015)


def test_the_table_is_kept_within_a_game_and_wiped_for_another() -> None:
    """Clients send ``newgame`` with the whole game before each ``bestmove``: that keeps the table, as the
    in-process player keeps it between moves; a new game starts with an empty one, as a new player would."""
    engine = UHPEngine()
    board = hive.Board.from_game_string(MIDGAME)
    ask(engine, f"newgame {board.record()}")
    move = board.parse_move(ask(engine, "bestmove depth 3")[0])
    table = engine.searcher.tt
    stored = len(table)
    assert stored > 0
    board.push(move)
    ask(engine, f"newgame {board.record()}")  # the game goes on
    assert engine.searcher.tt is table and len(table) == stored
    ask(engine, "undo")
    ask(engine, f"newgame {board.record()}")  # and back
    assert len(table) == stored
    ask(engine, "newgame Base+MLP;InProgress;White[2];wG1;bG1 wG1-")  # another game of the same rules
    assert engine.searcher.tt is table and len(table) == 0  # the table is wiped, its memory kept
    ask(engine, "bestmove depth 2")
    assert len(table) > 0
    ask(engine, "newgame Base+MLP")  # a new game
    assert engine.searcher.tt is table and len(table) == 0
    ask(engine, "bestmove depth 2")
    ask(engine, "newgame Base")  # other rules: another table
    assert len(engine.searcher.tt) == 0


def test_the_engine_plays_the_in_process_players_moves() -> None:
    """A game at a fixed depth, each move asked of one UHP session (``newgame`` with the whole game, then
    ``bestmove depth``) and of one in-process player: the same move at every ply, as both keep the same table and
    start each search's history afresh."""
    engine = UHPEngine()
    spec = hive.find_game("Base+MLP")
    player = SearchPlayer(spec, Limits(depth=3))
    board = hive.Board("Base+MLP")
    for _ in range(16):
        if board.is_game_over():
            break
        ask(engine, f"newgame {board.record()}" if board.move_stack else "newgame Base+MLP")
        text = ask(engine, "bestmove depth 3")[0]
        assert board.parse_move(text) == player.choose(board), board.record()
        board.push_text(text)
    player.close()


@pytest.mark.skipif(not can_fork(), reason="searches on more than one process need os.fork")
def test_helpers_are_kept_for_the_session_and_end_with_it(engine: Engine) -> None:
    engine.send("options set Threads 2")
    engine.reply()
    board = hive.Board.from_game_string(MIDGAME)
    helpers: set[int] = set()
    for _ in range(3):
        engine.send(f"newgame {board.record()}")
        engine.reply()
        engine.send("bestmove depth 2")
        board.push_text(engine.reply()[0])
        if not helpers:
            helpers = children(engine.proc.pid)
            assert len(helpers) == 1
        assert children(engine.proc.pid) == helpers, "one helper for every move"
    engine.send("options set Threads 3")  # another count: the old helper ends, two start at the next search
    engine.reply()
    assert _ended(helpers)
    engine.send("bestmove depth 2")
    engine.reply()
    helpers = children(engine.proc.pid)
    assert len(helpers) == 2
    engine.send("newgame Base")  # other rules: another table, other helpers
    engine.reply()
    assert _ended(helpers)
    engine.send("bestmove depth 2")
    engine.reply()
    helpers = children(engine.proc.pid)
    assert len(helpers) == 2
    engine.send("exit")
    assert engine.proc.wait(timeout=30) == 0
    assert _ended(helpers), "a helper outlived the engine's exit"


@pytest.mark.skipif(not can_fork(), reason="searches on more than one process need os.fork")
@pytest.mark.parametrize("how", ["end of input", "killed"])
def test_helpers_end_with_the_engine(engine: Engine, how: str) -> None:
    engine.send("options set Threads 2")
    engine.reply()
    engine.send(f"newgame {MIDGAME}")
    engine.reply()
    engine.send("bestmove depth 2")
    engine.reply()
    helpers = children(engine.proc.pid)
    assert len(helpers) == 1
    if how == "killed":
        os.kill(engine.proc.pid, signal.SIGKILL)
    else:
        assert engine.proc.stdin is not None
        engine.proc.stdin.close()
    engine.proc.wait(timeout=30)
    assert _ended(helpers), "a helper outlived the engine"


def _ended(pids: set[int], within: float = 10.0) -> bool:
    """Whether every process of ``pids`` is gone (or a zombie) within ``within`` seconds (a bound for a loaded
    machine: they end within milliseconds)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        living = set()
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat") as handle:
                    if handle.read().rsplit(")", 1)[1].split()[0] != "Z":
                        living.add(pid)
            except OSError:
                pass
        if not living:
            return True
        time.sleep(0.05)
    return False
