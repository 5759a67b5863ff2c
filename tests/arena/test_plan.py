"""One plan and one set of SPRT options for every command that plays matches: :class:`hive.arena.MatchPlan` as
``hive match``, ``hive tournament``, ``hive tune`` and the Python API build it, and ``--sprt``/``--alpha``/``--beta``
read alike by ``hive match`` and ``hive tune``."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from hive.arena import MatchPlan, Sprt, SprtError, run_match
from hive.arena.tournament import run_tournament
from hive.cli import build_parser
from hive.cli.match import plan_from, ready
from hive.cli.sprt import sprt_from
from hive.games import DEFAULT_GAME, find_game
from hive.players import parse_player
from hive.tune.games import Confirmation, Games


def parsed(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def test_a_plan_s_defaults_and_what_it_gives_the_games() -> None:
    plan = MatchPlan()
    assert plan.game == DEFAULT_GAME and plan.spec is find_game(DEFAULT_GAME)
    assert (plan.games, plan.openings, plan.seed, plan.jobs, plan.ray, plan.engine_timeout) == (
        2,
        2,
        None,
        None,
        False,
        60,
    )
    assert plan.check() is plan.spec and plan.move_limit == 200
    hivequeen = MatchPlan(game="hivequeen", depth=2)
    assert hivequeen.move_limit == 400 and hivequeen.settings() == hivequeen.settings()
    settings = MatchPlan(game="Base", depth=1, max_moves=30, engine_timeout=None).settings()
    assert (settings.game, settings.max_moves, settings.time, settings.depth, settings.engine_timeout) == (
        "Base",
        30,
        None,
        1,
        None,
    )
    assert MatchPlan(seed=4).seeded().seed == 4 and MatchPlan().seeded().seed is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.games = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("plan", "error"),
    [
        (MatchPlan(game="Chess"), "Unknown game 'Chess'"),
        (MatchPlan(games=0), "games must be >= 1, not 0"),
        (MatchPlan(openings=-1), "openings must be >= 0"),
        (MatchPlan(max_moves=0), "max plies must be >= 1"),
        (MatchPlan(jobs=0), "jobs must be >= 1"),
        (MatchPlan(time=1, depth=2), "a time or a depth, not both"),
        (MatchPlan(engine_timeout=0), "engine timeout must be > 0"),
    ],
)
def test_a_plan_names_what_is_wrong(plan: MatchPlan, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        plan.check()
    with pytest.raises(ValueError, match=error):
        run_match("random", "random", plan)
    with pytest.raises(ValueError, match=error):
        run_tournament(["random", "random", "random"], plan)


def test_the_plan_of_hive_match_is_the_one_hive_tune_builds_for_the_same_options() -> None:
    options = ("--game", "Base", "--depth", "3", "--openings", "4", "--seed", "5")
    match = plan_from(parsed("match", "easy", "random", "-n", "2", *options))
    tournament = plan_from(parsed("tournament", "easy", "random", "-n", "2", *options))
    tune = Games(game="Base", depth=3, openings=4).plan(2, 5)
    assert match == tournament == tune == MatchPlan(game="Base", games=2, depth=3, openings=4, seed=5)
    timed = plan_from(parsed("match", "a", "b", "-n", "2", "--time", "0.5", "--max-moves", "80", "--openings", "4"))
    assert timed == Games(depth=None, time=0.5, max_moves=80).plan(2)


def test_a_plan_is_made_ready_to_play_with_its_defaults_filled_in() -> None:
    args = parsed("match", "easy", "random", "-n", "6", "--game", "Base", "--jobs", "4", "--seed", "2")
    plan = ready(plan_from(args), [parse_player("easy"), parse_player("random")])
    assert plan.game is find_game("Base") and plan.max_moves == 200 and plan.jobs == 4 and plan.seed == 2
    assert ready(dataclasses.replace(plan, jobs=9), [], total=3).jobs == 3
    assert ready(dataclasses.replace(plan, seed=None), []).seed is not None
    with pytest.raises(ValueError, match="UHP engines play Hive only"):
        ready(MatchPlan(game="HiveQueen"), [parse_player("uhp:nokamute")])


def test_the_sprt_options_are_read_alike_by_hive_match_and_hive_tune() -> None:
    match = sprt_from(parsed("match", "a", "b", "--sprt", "0", "40", "--alpha", "0.1"))
    tune = sprt_from(parsed("tune", "--confirm-sprt", "0", "40", "--confirm-alpha", "0.1"), "confirm-", Sprt(1, 2))
    assert match == tune == Sprt(0, 40, alpha=0.1, beta=0.05)
    assert sprt_from(parsed("match", "a", "b")) is None
    defaults = Confirmation().sprt
    assert sprt_from(parsed("tune"), "confirm-", defaults) == defaults
    assert sprt_from(parsed("tune", "--confirm-beta", "0.2"), "confirm-", defaults) == Sprt(0, 40, 0.05, 0.2)
    with pytest.raises(ValueError, match=r"--alpha 0\.1 needs --sprt ELO0 ELO1"):
        sprt_from(parsed("match", "a", "b", "--alpha", "0.1"))
    for argv, prefix in (
        (("match", "a", "b", "--sprt", "5", "5"), ""),
        (("tune", "--confirm-sprt", "5", "5"), "confirm-"),
    ):
        with pytest.raises(SprtError, match="elo0 must be below its elo1"):
            sprt_from(parsed(*argv), prefix, None if not prefix else defaults)
