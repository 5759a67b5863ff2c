"""``hive.engine``: driving an external UHP engine (a fake one, ``fake_uhp_engine.py``), well- and ill-behaved."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

import hive
import hive.engine
import hive.engine.protocol
from hive.engine import (
    EngineError,
    EngineInvalidMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
    Option,
    SimpleEngine,
    popen_uhp,
)
from hive.search import Limits

FAKE = [sys.executable, str(Path(__file__).parent.parent / "fake_uhp_engine.py")]


def fake(*args: str) -> list[str]:
    return [*FAKE, *args]


def test_start_up_reads_id_capabilities_and_options() -> None:
    with SimpleEngine.popen_uhp(fake("--name", "Fakey")) as engine:
        assert engine.id == {"name": "Fakey", "version": "v1.0"}
        assert engine.name == "Fakey"
        assert engine.capabilities == ["Mosquito", "Ladybug", "Pillbug"]
        assert engine.options["Fast"] == Option("Fast", "bool", "False", "False")
        assert engine.options["Depth"] == Option("Depth", "int", "3", "3", 1.0, 10.0)
        assert engine.options["Style"].choices == ("Calm", "Wild")
        assert "Fakey" in repr(engine)


def test_a_start_up_block_that_came_before_it_was_asked_for_is_read() -> None:
    """An engine quick to start writes its info block before the client reads it: the block is the reply, not
    stray output to drop (a native engine failed to start 3 times in 5 so)."""

    async def main() -> list[str]:
        protocol = hive.engine.protocol.UHPProtocol(timeout=5.0, command="quick")
        protocol.pipe_data_received(1, b"id Quick v2.0\nMosquito;Pillbug\nok\n")
        return await protocol.communicate(None)

    assert asyncio.run(main()) == ["id Quick v2.0", "Mosquito;Pillbug"]


def test_command_line_as_a_string() -> None:
    command = " ".join(f"'{arg}'" for arg in fake("--capabilities", ""))
    with SimpleEngine.popen_uhp(command) as engine:
        assert engine.capabilities == []


def test_configure_sets_options_and_names_unknown_ones() -> None:
    with SimpleEngine.popen_uhp(fake()) as engine:
        engine.configure({"Fast": True, "depth": 7, "Style": "Wild"})
        assert engine.options["Fast"].value == "True"
        assert engine.options["Depth"].value == "7"
        assert engine.options["Style"].value == "Wild"
        with pytest.raises(EngineError, match=r"no option 'Hash'.*Fast, Depth, Style"):
            engine.configure({"Hash": 64})


def test_play_sends_the_game_and_the_limit(tmp_path: Path) -> None:
    log = tmp_path / "commands.txt"
    board = hive.Board("Base+MLP")
    expected = ["options"]
    with SimpleEngine.popen_uhp(fake("--log", str(log))) as engine:
        for limits in (Limits(depth=2), Limits(time=0.1), Limits(depth=1)):
            expected += [f"newgame {board.game_string() if board.ply else 'Base+MLP'}", limits.uhp_command()]
            result = engine.play(board, limits)
            assert result.move in board.legal_moves
            assert board.parse_uhp(result.move_string) == result.move
            board.push(result.move)
        assert set(engine.valid_moves(board)) == set(board.legal_moves)
    expected += [f"newgame {board.game_string()}", "validmoves", "exit"]
    assert log.read_text().splitlines() == expected
    assert expected[4] == "bestmove time 00:00:01"


def test_limits_commands() -> None:
    assert Limits(depth=3).uhp_command() == "bestmove depth 3"
    assert Limits(time=0.2).uhp_command() == "bestmove time 00:00:01"
    assert Limits(time=3725).uhp_command() == "bestmove time 01:02:05"
    assert Limits(time=2, depth=5).uhp_command() == "bestmove time 00:00:02"
    for bad, message in (({}, "Limits need"), ({"time": 0}, "time must be > 0"), ({"depth": 0}, "depth must be >= 1")):
        with pytest.raises(ValueError, match=message):
            Limits(**bad)


def test_option_lines() -> None:
    assert Option.parse("MaxBranchingFactor;int;500;500;1;500") == Option(
        "MaxBranchingFactor", "int", "500", "500", 1.0, 500.0
    )
    assert Option.parse("Ponder;enum;Off;Off;Off;On").choices == ("Off", "On")
    assert Option.parse("Weight;double;0.5;0.5").min is None
    for bad in ("Key;int", "Key;int;1;1;low;high"):
        with pytest.raises(ValueError, match=r"Key;int"):
            Option.parse(bad)


@pytest.mark.timing
def test_a_hang_becomes_a_timeout_naming_the_command() -> None:
    # a generous start-up (a cold start on a loaded machine takes seconds), then half a second a reply
    with SimpleEngine.popen_uhp(fake("--hang", "bestmove"), timeout=60) as engine:
        engine.protocol.timeout = 0.5
        start = time.monotonic()
        with pytest.raises(EngineTimeoutError, match=r"did not answer 'bestmove depth 1' within 0.5 s"):
            engine.play(hive.Board(), Limits(depth=1))
        assert time.monotonic() - start < 5
        with pytest.raises(EngineTerminatedError):
            engine.valid_moves(hive.Board())


def test_a_hang_at_start_up_is_a_timeout() -> None:
    with pytest.raises(EngineTimeoutError, match=r"info block") as info:
        SimpleEngine.popen_uhp(fake("--hang", "start"), timeout=0.5)
    assert isinstance(info.value, TimeoutError) and isinstance(info.value, ValueError)


def test_a_dying_engine_is_named_with_its_exit_code_and_stderr() -> None:
    with pytest.raises(EngineTerminatedError, match=r"exited with code 3.*info block.*dying on start"):
        SimpleEngine.popen_uhp(fake("--die", "start"))
    with SimpleEngine.popen_uhp(fake("--die", "validmoves")) as engine:
        with pytest.raises(EngineTerminatedError, match=r"exited with code 3 instead of answering 'validmoves'"):
            engine.valid_moves(hive.Board())
        with pytest.raises(EngineTerminatedError):
            engine.play(hive.Board(), Limits(depth=1))


def test_junk_is_an_engine_error() -> None:
    with pytest.raises(EngineError, match=r"no 'id' line.*Lorem ipsum"):
        SimpleEngine.popen_uhp(fake("--junk", "start"))
    with SimpleEngine.popen_uhp(fake("--junk", "bestmove", "--junk", "validmoves")) as engine:
        with pytest.raises(EngineError, match=r"answered 'bestmove depth 1' with 'xyzzy'.*unknown piece"):
            engine.play(hive.Board(), Limits(depth=1))
        with pytest.raises(EngineError, match=r"answered 'validmoves' with 'xyzzy'"):
            engine.valid_moves(hive.Board())


def test_an_illegal_best_move_is_an_engine_error() -> None:
    illegal = r"'wQ', not a legal move.*Queen Bee on your first turn"
    with SimpleEngine.popen_uhp(fake("--illegal")) as engine, pytest.raises(EngineError, match=illegal):
        engine.play(hive.Board("Base"), Limits(depth=1))


def test_err_and_invalidmove_replies_raise_and_the_engine_goes_on() -> None:
    with SimpleEngine.popen_uhp(fake("--err", "validmoves", "--capabilities", "Mosquito")) as engine:
        with pytest.raises(EngineError, match=r"answered 'validmoves' with an error: fake failure on validmoves"):
            engine.valid_moves(hive.Board("Base"))
        with pytest.raises(EngineError, match=r"'newgame Base\+MLP'.*unsupported game type"):
            engine.play(hive.Board("Base+MLP"), Limits(depth=1))
        engine.communicate("newgame Base")
        with pytest.raises(EngineInvalidMoveError, match=r"'play wQ'.*invalidmove"):
            engine.communicate("play wQ")
        assert engine.communicate("play wG1") == ["Base;InProgress;Black[1];wG1"]
        assert engine.play(hive.Board("Base+M"), Limits(depth=1)).move in hive.Board("Base+M").legal_moves


def test_no_move_when_the_game_is_over() -> None:
    board = hive.Board.from_game_string(
        "Base;WhiteWins;Black[8];wS1;bA1 wS1\\;wA1 \\wS1;bS1 /bA1;wQ -wA1;bS2 bA1-;wB1 \\wA1;bQ /bS2;wS2 -wQ;"
        "bA2 /bS1;wA2 /wS2;bA3 bQ-;wA2 -wB1;bB1 /bQ;wA2 /bA3"
    )
    assert board.state == "WhiteWins"
    with SimpleEngine.popen_uhp(fake()) as engine, pytest.raises(ValueError, match=r"game is over \(WhiteWins\)"):
        engine.play(board, Limits(depth=1))


@pytest.mark.timing
def test_quit_kills_an_engine_that_ignores_exit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hive.engine.protocol, "EXIT_GRACE", 0.3)
    engine = SimpleEngine.popen_uhp(fake("--ignore-exit"))
    start = time.monotonic()
    assert engine.quit() == -9
    assert time.monotonic() - start < 5
    assert engine.quit() == -9
    with pytest.raises(EngineTerminatedError, match=r"closed"):
        engine.valid_moves(hive.Board())


def test_clean_exit_code() -> None:
    engine = SimpleEngine.popen_uhp(fake())
    assert engine.quit() == 0


def test_a_missing_program_is_named() -> None:
    with pytest.raises(EngineError, match=r"cannot start engine '/no/such/engine --uhp'.*No such file"):
        SimpleEngine.popen_uhp("/no/such/engine --uhp")
    with pytest.raises(EngineError, match=r"empty command"):
        SimpleEngine.popen_uhp("")


def test_the_asyncio_api() -> None:
    async def run() -> hive.Move:
        _transport, protocol = await popen_uhp(fake())
        try:
            assert protocol.id["name"] == "FakeEngine"
            board = hive.Board("Base")
            return (await protocol.play(board, Limits(depth=1))).move
        finally:
            assert await protocol.quit() == 0

    assert asyncio.run(run()) in hive.Board("Base").legal_moves
