"""The arena's rules check: an external engine says how each finished game stands by its own rules, and a game
where its rules and the arena's part is named in the progress line and the summary."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from hive.arena import MatchPlan, judge_game, new_board, play_game, rules_state, run_match
from hive.cli.match import main
from hive.engine import EngineError
from hive.game import Game
from hive.games import find_game
from hive.players import EnginePlayer, Judge, RandomPlayer
from hive.search import Limits

FAKE = shlex.join([sys.executable, str(Path(__file__).parent.parent / "fake_uhp_engine.py")])
BASE = find_game("Base")


def test_the_arena_rules_state_in_uhp_words() -> None:
    board = BASE(repetition_draw=True)
    assert rules_state(board) == "NotStarted"
    board.push_text("wS1")
    assert rules_state(board) == "InProgress"
    played = play_game(RandomPlayer(BASE, 1), RandomPlayer(BASE, 2), game=BASE, max_moves=400)
    assert played.judges == () and played.disputes == ()  # random players have no rules of their own
    final = new_board(BASE)
    for move in played.record.split(";")[3:]:
        final.push_text(move)
    assert rules_state(final) == played.outcome.result


def test_an_engine_judges_each_game_and_agrees_with_the_arena() -> None:
    result = run_match(f"uhp:{FAKE}", "random", MatchPlan(games=4, game="Base", jobs=1, depth=1, seed=11))
    for game in result.games:
        assert game.judges == ("FakeEngine",)
        # the fake engine reads the record with the library's rules (no repetition draw): its one possible dispute
        repeated = game.outcome.ending is not None and game.outcome.ending.name == "repetition"
        assert game.disputes == (("FakeEngine: InProgress, the arena's rules: Draw",) if repeated else ())
    assert "Rules check (FakeEngine against the arena's rules): 4 games, " in result.summary()


def test_a_dispute_is_named_in_the_progress_line_and_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    engine = f"uhp:{FAKE} --claim Draw"
    assert main([engine, "random", "-n", "2", "--depth", "1", "--game-type", "Base", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    games = [line for line in out.splitlines() if line.startswith("Game ")]
    assert len(games) == 2
    for line in games:
        # a game stopped at the ply limit is adjudicated, and stands InProgress by the rules
        result = line.split(": ")[2].split(" ")[0]
        ours = "InProgress" if "ply limit" in line else result
        if ours == "Draw":
            assert "| rules:" not in line
        else:
            assert line.endswith(f"| rules: FakeEngine: Draw, the arena's rules: {ours}")
    disputed = [str(n) for n, line in enumerate(games, 1) if "| rules:" in line]
    verdict = (
        f"disputed in {'games' if len(disputed) > 1 else 'game'} {', '.join(disputed)}" if disputed else "no dispute"
    )
    assert f"Rules check (FakeEngine against the arena's rules): 2 games, {verdict}" in out


def test_a_judge_that_cannot_say_is_a_dispute_not_a_forfeit() -> None:
    class Mute(RandomPlayer):
        """A player with rules that never says how a game stands."""

        name = "mute"

        def judge(self, board: Game[Any]) -> str:
            raise EngineError("engine 'mute' answered newgame with nothing, not a GameString")

    board = BASE(repetition_draw=True)
    board.push_text("wS1")
    mute = Mute(BASE, 2)
    judges, disputes = judge_game(board, [mute, RandomPlayer(BASE, 1)])
    assert isinstance(mute, Judge) and not isinstance(RandomPlayer(BASE, 1), Judge)
    assert judges == ()
    assert disputes == ("mute could not say: engine 'mute' answered newgame with nothing, not a GameString",)


def test_an_engine_that_answers_newgame_with_junk_cannot_judge() -> None:
    board = BASE(repetition_draw=True)
    board.push_text("wS1")
    for command, judged in ((f"{FAKE} --junk newgame", None), (FAKE, "InProgress")):
        player = EnginePlayer(command, Limits(depth=1))
        try:
            if judged is None:
                with pytest.raises(EngineError, match="not a GameString"):
                    player.judge(board)
            else:
                assert player.judge(board) == judged
        finally:
            player.close()
