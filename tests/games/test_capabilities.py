"""What the registry and the games tell the apps instead of the apps assuming it of Hive: the default game, and the
capabilities a game offers or not (a board that counts its own perft; parameters and record readers for
``hive tune``). The toy third game, which offers none of them: ``tests/test_third_game.py``."""

from __future__ import annotations

import inspect

import pytest

from hive.arena import MatchPlan, play_game
from hive.arena.stats import GameRecord
from hive.cli import main
from hive.cli.perft import count, perft, start
from hive.game import CountsPerft
from hive.games import DEFAULT_GAME, default_game, find_game
from hive.rl.env import HiveEnv, env, raw_env
from hive.rl.single import SingleAgentEnv
from hive.tune.capabilities import has_parameters, record_reader, replay_reader, tune_settings
from hive.tune.games import Games


def test_the_registry_names_the_default_game_and_the_apps_use_it() -> None:
    assert DEFAULT_GAME == "Base+MLP" and default_game() is find_game(DEFAULT_GAME)
    assert MatchPlan().game == Games().game == GameRecord.__dataclass_fields__["game"].default == DEFAULT_GAME
    for function in (play_game, HiveEnv.__init__, env, raw_env, SingleAgentEnv.__init__):
        assert inspect.signature(function).parameters["game"].default == DEFAULT_GAME, function


def test_hive_counts_its_own_perft_and_hivequeen_through_the_protocol() -> None:
    hive_board = start("Base+MLP")
    assert isinstance(hive_board, CountsPerft) and count(hive_board, 3) == perft(hive_board, 3)
    queen = start("HiveQueen")
    assert not isinstance(queen, CountsPerft) and count(queen, 1) == len(list(queen.legal_moves))


def test_perft_reads_a_game_string_and_a_position_record_through_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    board = start("Base;InProgress;White[2];wS1;bS1 wS1-")
    assert len(board.move_stack) == 2 and board.game_name == "Base"
    position = start(board.position_text())
    assert position.position_text() == board.position_text()
    start("Base", original_opening=True).push_text("wQ")  # the Queen Bee on the first turn
    start("Base;NotStarted;White[1]", original_opening=True).push_text("wQ")
    assert main(["perft", "Base;InProgress;White[2];wS1;bS1 wX9", "1"]) == 2
    assert "hive perft:" in capsys.readouterr().err


def test_hive_offers_tuning_and_hivequeen_does_not() -> None:
    base = find_game("Base")
    assert has_parameters(base) and record_reader(base) is not None and replay_reader(base) is not None
    queen = find_game("HiveQueen")
    assert not has_parameters(queen) and record_reader(queen) is None and replay_reader(queen) is None
    assert tune_settings(queen).records is None


@pytest.mark.parametrize("argv", [["tune", "--game", "HiveQueen"], ["tune", "--texel", "--game", "HiveQueen"]])
def test_hive_tune_says_a_game_offers_nothing_to_tune(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err == "hive tune: HiveQueen's AI has no parameters to tune\n"
