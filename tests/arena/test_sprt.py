"""The sequential probability ratio test: its statistic against hand-computed values, its bookkeeping of pairs, and
matches that it stops (``hive match --sprt``)."""

from __future__ import annotations

import math

import pytest

from hive.arena import MatchPlan, Sprt, SprtError, elo_score, log_likelihood_ratio, run_match
from hive.arena.sprt import PAIR_SCORES, SprtTracker
from hive.cli.match import main

TRINOMIAL = (0.0, 0.5, 1.0)


def test_bounds_and_scores_by_hand() -> None:
    # log(0.95 / 0.05) = log 19
    assert Sprt(0, 5).upper == pytest.approx(math.log(19)) == pytest.approx(2.944439, abs=1e-6)
    assert Sprt(0, 5).lower == pytest.approx(-2.944439, abs=1e-6)
    test = Sprt(0, 5, alpha=0.1, beta=0.2)
    assert (test.lower, test.upper) == pytest.approx((math.log(0.2 / 0.9), math.log(8)))
    assert (elo_score(0), elo_score(400), elo_score(-400)) == pytest.approx((0.5, 10 / 11, 1 / 11))


def test_two_outcomes_give_the_binomial_ratio() -> None:
    # With only wins and losses the distribution of each hypothesis is forced: P(win) = s. 4 wins, 6 losses,
    # elo 0 against 100 (s1 = 0.640065): 4 log(0.640065 / 0.5) + 6 log(0.359935 / 0.5) = 0.98774 - 1.97200.
    assert log_likelihood_ratio((6, 4), (0.0, 1.0), 0, 100) == pytest.approx(-0.984261, abs=1e-6)


def test_three_outcomes_against_the_multiplier_solved_by_hand() -> None:
    # 30/40/30 (mean 0.5): under elo 0 the data's own distribution is best (multiplier 0). Under elo 50
    # (s1 = 0.571463) the multiplier t solves 0.0175008 t^2 - 0.139786 t - 0.0714631 = 0 within (-2.333, 1.750):
    # t = -0.482130, and the ratio is 100 * -(0.3 log(1 - 0.571463 t) + 0.4 log(1 - 0.071463 t) + 0.3 log(1 +
    # 0.428537 t)).
    assert log_likelihood_ratio((30, 40, 30), TRINOMIAL, 0, 50) == pytest.approx(-1.712347, abs=1e-6)
    # 20/30/50 under elo 0: the equation is linear, -0.175 t + 0.15 = 0, so t = 6/7 and the best mean log-likelihood
    # is -(0.2 log(4/7) + 0.5 log(10/7)) = -0.0664143; under elo 100, t = 0.0642206 and it is -0.0003205.
    under0 = -(0.2 * math.log1p(-0.5 * 6 / 7) + 0.5 * math.log1p(0.5 * 6 / 7))
    assert under0 == pytest.approx(-0.0664143, abs=1e-6)
    assert log_likelihood_ratio((20, 30, 50), TRINOMIAL, 0, 100) == pytest.approx(6.609379, abs=1e-6)


def test_the_ratio_agrees_with_its_normal_approximation() -> None:
    # For close hypotheses the GSPRT is (s1 - s0)(2 s - s0 - s1) / (2 var / N), var the per-pair score's variance.
    counts = (100, 400, 1000, 450, 110)
    n = sum(counts)
    mean = sum(c * a for c, a in zip(counts, PAIR_SCORES, strict=True)) / n
    variance = sum(c * (a - mean) ** 2 for c, a in zip(counts, PAIR_SCORES, strict=True)) / n
    s0, s1 = elo_score(0), elo_score(5)
    approximation = (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance / n)
    assert log_likelihood_ratio(counts, PAIR_SCORES, 0, 5) == pytest.approx(approximation, rel=0.01)


def test_outcomes_never_seen_keep_the_ratio_finite() -> None:
    assert log_likelihood_ratio((0,) * 5, PAIR_SCORES, 0, 10) == 0.0
    ratios = [log_likelihood_ratio((0, 0, 0, 0, n), PAIR_SCORES, 0, 300) for n in range(1, 8)]
    assert all(math.isfinite(r) and r > 0 for r in ratios) and ratios == sorted(ratios)
    assert log_likelihood_ratio((5, 0, 0, 0, 0), PAIR_SCORES, 0, 300) < Sprt(0, 300).lower


def test_verdicts() -> None:
    test = Sprt(0, 100)
    assert test.test((0, 1, 2, 3, 8)).verdict == "H1"
    assert test.test((8, 3, 2, 1, 0)).verdict == "H0"
    undecided = test.test((1, 2, 3, 2, 1))
    assert undecided.verdict is None and undecided.pairs == 9
    assert "LLR" in undecided.describe() and undecided.describe().endswith("after 9 pairs [1/2/3/2/1]: no verdict")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((5, 0), "elo0 must be below its elo1, both finite, not 5 0"),
        ((0, math.inf), "both finite"),
        ((0, 5, 0.0), "alpha must be between 0 and 1, not 0"),
        ((0, 5, 0.05, 1.5), "beta must be between 0 and 1, not 1.5"),
        ((0, 5, 0.6, 0.5), "alpha \\+ beta must be below 1, not 0.6 \\+ 0.5"),
    ],
)
def test_bad_settings_are_named(arguments: tuple[float, ...], message: str) -> None:
    with pytest.raises(SprtError, match=message):
        Sprt(*arguments)


def test_pairs_are_counted_in_order_whatever_order_the_games_finish_in() -> None:
    tracker = SprtTracker(Sprt(0, 300))
    tracker.add(3, 1.0)
    tracker.add(4, 1.0)
    assert tracker.pairs == 0, "pair 2 waits for pair 1"
    tracker.add(2, 0.5)
    assert tracker.pairs == 0
    result = tracker.add(1, 1.0)
    assert tracker.pairs == 2 and result.counts == (0, 0, 0, 1, 1)
    for number in range(5, 40):
        result = tracker.add(number, 1.0)
    decided = result.pairs
    assert result.verdict == "H1" and decided < 19
    assert tracker.add(40, 1.0).pairs == decided, "no pair is counted after the verdict"


def test_a_stronger_player_is_accepted_early_in_every_runner() -> None:
    test = Sprt(0, 200)
    inline = run_match("easy", "random", MatchPlan(games=200, game="Base", seed=8, jobs=1), sprt=test)
    assert inline.sprt is not None and inline.sprt.verdict == "H1"
    assert len(inline.games) == 2 * inline.sprt.pairs < 40
    assert [g.number for g in inline.games] == list(range(1, len(inline.games) + 1))
    pooled = run_match("easy", "random", MatchPlan(games=200, game="Base", seed=8, jobs=2), sprt=test)
    assert pooled.sprt == inline.sprt and [g.record for g in pooled.games] == [g.record for g in inline.games]
    weaker = run_match("random", "easy", MatchPlan(games=200, game="Base", seed=8, jobs=2), sprt=test)
    assert weaker.sprt is not None and weaker.sprt.verdict == "H0" and len(weaker.games) < 40


def test_the_command_prints_the_ratio_and_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["easy", "random", "--game", "Base", "--seed", "8", "--sprt", "0", "200", "--alpha", "0.1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "up to 20000 games of Base" in lines[0]
    assert lines[3] == "SPRT: H0 elo 0, H1 elo 200, alpha 0.1, beta 0.05: stops when the LLR leaves (-2.89, 2.25)"
    assert all(" | LLR " in line for line in lines if line.startswith("Game "))
    verdict = next(line for line in lines if line.startswith("SPRT elo0"))
    assert verdict.startswith("SPRT elo0 0, elo1 200 (logistic), alpha 0.1, beta 0.05: LLR ")
    assert verdict.endswith(": H1 accepted")
    for argv, message in (
        (["--beta", "0.1"], "--beta 0.1 needs --sprt ELO0 ELO1"),
        (["--sprt", "10", "0"], "the SPRT's elo0 must be below its elo1"),
        (["--sprt", "0", "10", "-n", "1"], "an SPRT counts pairs of games: games must be >= 2, not 1"),
    ):
        assert main(["easy", "random", *argv]) == 2
        assert f"hive match: {message}" in capsys.readouterr().err
