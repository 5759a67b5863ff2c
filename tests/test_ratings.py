"""hive.ratings: Glickman's worked example of Glicko-2, the system's properties, the speeds, and refusals."""

from __future__ import annotations

import doctest
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hive.ratings
from hive.ratings import Rating, RatingError, rate, rate_game, speed

OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system" (2012): 1500 (RD 200, volatility 0.06, tau 0.5) against the three
    opponents gives 1464.06, RD 151.52, volatility 0.05999, from mu' = -0.2069 and phi' = 0.8722."""
    after = rate(Rating(1500, 200, 0.06), OPPONENTS, tau=0.5)
    assert math.isclose(after.rating, 1464.06, abs_tol=0.011)
    assert math.isclose(after.deviation, 151.52, abs_tol=0.005)
    assert math.isclose(after.volatility, 0.05999, abs_tol=1e-5)
    assert round((after.rating - 1500) / hive.ratings.SCALE, 4) == -0.2069
    assert round(after.deviation / hive.ratings.SCALE, 4) == 0.8722
    assert doctest.testmod(hive.ratings).failed == 0


def test_a_period_without_games_only_widens_the_deviation() -> None:
    before = Rating(1700, 60, 0.06)
    after = rate(before, [])
    assert after.rating == 1700 and after.volatility == 0.06
    assert math.isclose(after.deviation, math.hypot(60 / hive.ratings.SCALE, 0.06) * hive.ratings.SCALE)


@settings(max_examples=200, deadline=None)
@given(
    st.floats(800, 2600),
    st.floats(800, 2600),
    st.floats(40, 350),
    st.floats(40, 350),
    st.sampled_from([1.0, 0.5, 0.0]),
)
def test_one_game_moves_the_ratings_the_right_way(r1: float, r2: float, d1: float, d2: float, score: float) -> None:
    first, second = Rating(r1, d1), Rating(r2, d2)
    a, b = rate_game(first, second, score)
    if score == 1.0:
        assert a.rating > r1 and b.rating < r2
    elif score == 0.0:
        assert a.rating < r1 and b.rating > r2
    else:  # a draw pulls the two towards each other
        assert (a.rating - r1) * (r2 - r1) >= -1e-9 and (b.rating - r2) * (r1 - r2) >= -1e-9
    # a game makes a rating more certain than a period without one would at the new volatility (steps 6 and 7)
    assert a.deviation < rate(Rating(r1, d1, a.volatility), []).deviation
    assert b.deviation < rate(Rating(r2, d2, b.volatility), []).deviation
    assert a.volatility > 0 and b.volatility > 0


def test_new_players_are_provisional_until_their_deviation_falls() -> None:
    player, opponent = Rating(), Rating(1500, 60)
    assert player.provisional and str(player) == "1500?"
    games = 0
    while player.provisional:
        player = rate(player, [(opponent, 0.5)])
        games += 1
    assert 5 <= games <= 30 and str(player) == f"{player.rating:.0f}"


@pytest.mark.parametrize(
    ("base", "increment", "expected"),
    [(60, 0, "bullet"), (120, 2, "blitz"), (300, 0, "blitz"), (300, 5, "rapid"), (900, 10, "rapid"),
     (1800, 0, "classical"), (5400, 30, "classical"), (18000, 0, "correspondence"), (None, 0, "correspondence")],
)  # fmt: skip
def test_speeds_by_the_expected_length_of_a_game(base: float | None, increment: float, expected: str) -> None:
    assert speed(base, increment) == expected
    assert speed(600, 0, days_per_move=3) == "correspondence"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Rating(1500, 0), "above 0"),
        (lambda: Rating(float("nan")), "finite number, not nan"),
        (lambda: Rating("1500"), "not '1500'"),  # type: ignore[arg-type]
        (lambda: rate(Rating(), [(Rating(), 2)]), "1, 0.5 or 0, not 2"),
        (lambda: rate(Rating(), [(Rating(), True)]), "not True"),
        (lambda: speed(-5), "not negative"),
    ],
)
def test_bad_values_are_refused_by_name(make: object, message: str) -> None:
    with pytest.raises(RatingError, match=message):
        make()  # type: ignore[operator]
