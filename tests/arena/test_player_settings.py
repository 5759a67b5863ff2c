"""Each player's own settings in a match: a time or a depth of its own (time odds), a thread count, and a UHP
engine's options, sent with ``options set`` before its games."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from hive.cli.match import main
from hive.games import find_game
from hive.players import InvalidPlayerError, SearchPlayer, check_player, describe, make_player, parse_player
from hive.search import Limits

FAKE = shlex.join([sys.executable, str(Path(__file__).parent.parent / "fake_uhp_engine.py")])
BASE = find_game("Base")


def test_each_player_plays_with_its_own_time_threads_and_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "engine.log"
    engine = f"uhp:{FAKE} --threads-option NumThreads --log {log}"
    args = [engine, "easy", "--time1", "2", "--depth2", "1", "--threads1", "3", "--option1", "Style=Wild"]
    assert main([*args, "-n", "2", "--game-type", "Base", "--max-moves", "6", "--seed", "3", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "'bestmove time 00:00:02', 3 threads, options Style=Wild" in out
    assert "Player 2 easy: built-in AI, depth 1\n" in out
    assert "Result of FakeEngine vs easy after 2 games" in out
    sent = log.read_text().splitlines()
    # once to check the engine before the match, then once for each game's engine
    assert sent.count("options set NumThreads 3") == 3 and sent.count("options set Style Wild") == 3
    assert "bestmove time 00:00:02" in sent and not any(line.startswith("bestmove depth") for line in sent)


def test_a_level_searches_on_its_own_limits_and_threads() -> None:
    spec = parse_player("hard").own(time=0.5, threads=2)
    player = make_player(spec, BASE, depth=3)
    assert isinstance(player, SearchPlayer)
    assert player.limits == Limits(time=0.5, threads=2)
    assert describe(spec, BASE, depth=3) == "built-in AI, 0.5 s per move, 2 threads"
    # without limits of its own, the match's apply, on its threads
    threads_only = make_player(parse_player("hard").own(threads=2), BASE, depth=3)
    assert isinstance(threads_only, SearchPlayer) and threads_only.limits == Limits(depth=3, threads=2)


def test_the_match_wide_thread_count_leaves_the_random_mover_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["random", "easy", "--threads", "2", "--depth", "1", "--game", "Base", "--max-moves", "4"]) == 0
    out = capsys.readouterr().out
    assert "Player 1 random: random mover\n" in out and "Player 2 easy: built-in AI, depth 1, 2 threads\n" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["easy", "easy", "--threads2", "0"], "bad player 'easy': search threads must be 1 to 16, not 0"),
        (["easy", "easy", "--time1", "0"], "bad player 'easy': search time must be > 0 seconds, not 0.0"),
        (["easy", "easy", "--time1", "1", "--depth1", "2"], "bad player 'easy': give it a time or a depth, not both"),
        (["random", "easy", "--threads1", "2"], "bad player 'random': the random mover takes no time, depth"),
        (["easy", "easy", "--option1", "Threads=2"], "bad player 'easy': engine options are for UHP engines"),
        (["easy", "easy", "--option2", "Threads"], "--option2 'Threads': expected NAME=VALUE, e.g. NumThreads=2"),
        (
            [f"uhp:{FAKE}", "easy", "--threads1", "2"],
            "has no thread count option (Threads or NumThreads",
        ),
        ([f"uhp:{FAKE}", "easy", "--option1", "Speed=9"], "engine 'FakeEngine' has no option 'Speed' (its options: "),
    ],
)
def test_bad_settings_are_named_before_any_game(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*args, "--game", "Base", "-n", "2"]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert "Game 1/2" not in captured.out


def test_check_player_checks_settings_given_through_the_library() -> None:
    with pytest.raises(InvalidPlayerError, match="bad engine option"):
        check_player(parse_player(f"uhp:{FAKE}").own(options={"Two words": "1"}), BASE)
    assert check_player(parse_player("max").own(depth=2, threads=4), BASE).threads == 4
