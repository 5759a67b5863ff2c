"""Texel tuning: positions measured by the evaluation's weights (linear), labelled by their games' results, from
real records and from self-play; the fit of K and of the weights, on made-up positions whose answer is known."""

from __future__ import annotations

import math
import random

import pytest

import hive
from hive.games.hive.ai import PARAMETERS
from hive.games.hive.evaluation import evaluate
from hive.tune.positions import (
    Features,
    LabelledGame,
    PositionsError,
    Sample,
    recorded_games,
    samples,
    self_play,
    split,
)
from hive.tune.spec import Parameter, Spec
from hive.tune.texel import fit

from ..shared import POSITIONS, TESTDATA

BASE = hive.find_game("Base+MLP")


def test_features_sum_to_the_evaluation_from_the_first_players_side() -> None:
    features = Features(BASE)
    assert features.names == list(PARAMETERS)
    for name in ("midgame_mlp", "midgame2_mlp", "midgame_base"):
        board = hive.Board.from_game_string((POSITIONS / f"{name}.txt").read_text())
        found = features.of(board)
        sign = 1 if board.turn == 0 else -1
        assert sum(PARAMETERS[n] * f for n, f in zip(features.names, found, strict=True)) == sign * evaluate(board)
        assert found[features.names.index("contempt")] == found[features.names.index("draw_aversion")] == 0


def test_positions_of_a_game_are_labelled_with_its_result() -> None:
    board = hive.Board("Base+MLP")
    for text in ("wS1", "bG1 -wS1", "wQ wS1/", "bQ /bG1", "wA1 wQ\\", "bA1 \\bQ"):
        board.push_text(text)
    found = list(samples([LabelledGame("test", board, 0.0)], Features(BASE), skip=2, start=7))
    assert len(found) == 5  # plies 6 down to 2
    assert {s.result for s in found} == {0.0} and {s.game for s in found} == {7}
    assert len(board.move_stack) == 6  # the game's board is left as it was


def test_real_records_each_game_once_with_a_result() -> None:
    games, skipped = recorded_games([TESTDATA / "records"], BASE)
    assert len(games) == 7
    assert {g.result for g in games} <= {0.0, 0.5, 1.0}
    assert sum("the same game as one read before" in line for line in skipped) == 4  # each SGF beside its PGN
    assert sum("no result" in line for line in skipped) == 2  # the two hivegame.com records with an illegal move
    with pytest.raises(PositionsError, match="no records at"):
        recorded_games([TESTDATA / "nothing here"], BASE)
    with pytest.raises(PositionsError, match="HiveQueen offers no reader of its records"):
        recorded_games([TESTDATA / "records"], hive.find_game("HiveQueen"))
    with pytest.raises(PositionsError, match="HiveQueen offers no reader of the arena's records"):
        self_play(hive.find_game("HiveQueen"), 2, depth=1, jobs=1)


def test_self_play_games_each_from_its_own_opening() -> None:
    games = self_play(BASE, 4, depth=1, openings=6, seed=3, jobs=1)
    assert len(games) == 4
    assert len({tuple(str(m) for m in g.board.move_stack[:6]) for g in games}) == 4
    assert all(g.result in (0.0, 0.5, 1.0) for g in games)
    assert [g.source for g in self_play(BASE, 4, depth=1, openings=6, seed=3, jobs=1)] == [g.source for g in games]


def test_held_out_games_are_a_seeded_share() -> None:
    assert split(10, 0.2, 1) == split(10, 0.2, 1) and len(split(10, 0.2, 1)) == 2
    assert split(10, 0.0, 1) == set()
    with pytest.raises(ValueError, match="held-out share"):
        split(10, 1.0, 1)


def made_up(count: int, seed: int) -> list[Sample]:
    """Positions of 3 features whose results are drawn with the chance sigmoid((30 a - 10 b + 5 c) / 100)."""
    rng = random.Random(seed)
    found = []
    for i in range(count):
        f = (rng.randint(-3, 3), rng.randint(-5, 5), rng.randint(0, 10))
        chance = 1 / (1 + math.exp(-(30 * f[0] - 10 * f[1] + 5 * f[2]) / 100))
        found.append(Sample(f, 1.0 if rng.random() < chance else 0.0, i // 20))
    return found


@pytest.mark.parametrize("loss", ["log", "mse"])
def test_the_fit_finds_the_weights_that_made_the_results(loss: str) -> None:
    spec = Spec((Parameter("a", 30, -100, 100, 1, 1), Parameter("b", 0, -100, 100, 1, 1)))
    found = fit(made_up(6000, 1), ["a", "b", "c"], spec, {"a": 30, "b": 0, "c": 5}, split(300, 0.2, 2), loss)
    assert found.names == ["a", "b"] and found.left_out == []
    assert found.positions == {"train": 4800, "holdout": 1200} and found.games == {"train": 240, "holdout": 60}
    # a and c are right: K is about 1/100 from the start; b is found near -10
    assert found.k == pytest.approx(0.01, rel=0.3)
    assert found.values["a"] == pytest.approx(30, abs=8) and found.values["b"] == pytest.approx(-10, abs=4)
    for part in ("train", "holdout"):
        assert found.after[part].log < found.before[part].log and found.after[part].mse < found.before[part].mse
    assert "held-out positions: log-loss" in found.summary()


def test_the_fit_keeps_within_bounds_and_leaves_out_what_changes_no_score() -> None:
    spec = Spec((Parameter("b", 0, -4, 100, 1, 1), Parameter("d", 7, 0, 10, 1, 1)))
    data = [Sample((*s.features, 0), s.result, s.game) for s in made_up(3000, 3)]
    found = fit(data, ["a", "b", "c", "d"], spec, {"a": 30, "b": 0, "c": 5, "d": 7})
    assert found.values == {"b": -4} and found.left_out == ["d"] and found.positions["holdout"] == 0
    assert found.to_dict()["before"]["holdout"] == {"log": None, "mse": None}  # type: ignore[index]
    with pytest.raises(ValueError, match="nothing to fit"):
        fit(data, ["a", "b", "c", "d"], Spec((Parameter("d", 7, 0, 10, 1, 1),)), {"a": 30, "b": 0, "c": 5, "d": 7})
    with pytest.raises(ValueError, match="unknown loss"):
        fit(data, ["a", "b", "c", "d"], spec, {}, loss="hinge")
