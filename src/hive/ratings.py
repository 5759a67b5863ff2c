"""Ratings: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012), and the speeds ratings are kept by.

A rating is kept per game and per speed, as hivegame.com keeps them. A rating period here is one game: after each
rated game both players' ratings are updated from the other's rating before it (:func:`rate_game`).

Glickman's worked example: a player rated 1500 (deviation 200) beats a 1400 and loses to a 1550 and a 1700. The
paper's steps give, on Glicko-2's scale, mu' = -0.2069 and phi' = 0.8722, so 1464.06 and 151.52 (it rounds mu'
first; unrounded, 1464.05), and a volatility of 0.05999:

>>> from hive.ratings import SCALE, Rating, rate
>>> player = Rating(1500, 200, 0.06)
>>> after = rate(player, [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
>>> round((after.rating - 1500) / SCALE, 4), round(after.deviation / SCALE, 4), f"{after.volatility:.6f}"
(-0.2069, 0.8722, '0.059996')
>>> round(1500 + SCALE * -0.2069, 2), round(after.deviation, 2), round(after.rating, 2)
(1464.06, 151.52, 1464.05)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glicko-2's scale: a rating of 1500 and a deviation of 350 are 0 and 2.0147 on it.
SCALE = 173.7178
#: A new player's rating, deviation and volatility.
DEFAULT_RATING, DEFAULT_DEVIATION, DEFAULT_VOLATILITY = 1500.0, 350.0, 0.06
#: The system's constraint on how fast the volatility changes (Glickman suggests 0.3 to 1.2).
TAU = 0.5
#: A rating whose deviation is above this is provisional (shown with a "?"): too few games to trust it yet.
PROVISIONAL_DEVIATION = 110.0
#: The speeds, fastest first.
SPEEDS = ("bullet", "blitz", "rapid", "classical", "correspondence")
_CONVERGENCE = 1e-6


class RatingError(ValueError):
    """A rating or a result out of range; the message names it."""


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: the estimate, its deviation (how uncertain), and the volatility (how erratic the player)."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        for name, value in (("rating", self.rating), ("deviation", self.deviation), ("volatility", self.volatility)):
            if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
                raise RatingError(f"A rating's {name} is a finite number, not {value!r}.")
        if self.deviation <= 0 or self.volatility <= 0:
            raise RatingError(
                f"A rating's deviation and volatility are above 0, not {self.deviation}, {self.volatility}."
            )

    @property
    def provisional(self) -> bool:
        """Whether the deviation is still above :data:`PROVISIONAL_DEVIATION`."""
        return self.deviation > PROVISIONAL_DEVIATION

    def __str__(self) -> str:
        return f"{self.rating:.0f}{'?' if self.provisional else ''}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period with ``results``: each opponent's rating before the period and
    ``player``'s score against it (1, ½ or 0). With no results only the deviation grows, as time without games
    makes a rating less certain.

    :raises RatingError: for a score other than 1, ½ or 0.
    """
    mu, phi, sigma = (player.rating - DEFAULT_RATING) / SCALE, player.deviation / SCALE, player.volatility
    if not results:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in results:
        if isinstance(score, bool) or score not in (0, 0.5, 1):
            raise RatingError(f"A score is 1, 0.5 or 0, not {score!r}.")
        mu_j, phi_j = (opponent.rating - DEFAULT_RATING) / SCALE, opponent.deviation / SCALE
        expected = _expected(mu, mu_j, phi_j)
        inverse_v += _g(phi_j) ** 2 * expected * (1.0 - expected)
        improvement += _g(phi_j) * (score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu += phi * phi * improvement
    return Rating(SCALE * mu + DEFAULT_RATING, SCALE * phi, sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _CONVERGENCE:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


def rate_game(first: Rating, second: Rating, first_score: float, tau: float = TAU) -> tuple[Rating, Rating]:
    """Both players' ratings after one rated game between them (``first_score``: the first player's 1, ½ or 0),
    each from the other's rating before it.

    :raises RatingError: for a score other than 1, ½ or 0.
    """
    return rate(first, [(second, first_score)], tau), rate(second, [(first, 1.0 - first_score)], tau)


def games_to_establish(player: Rating, tau: float = TAU) -> int:
    """About how many more rated games settle ``player``'s rating (its deviation at or below
    :data:`PROVISIONAL_DEVIATION`; 0 once it is): the games, each a draw against a peer as uncertain as the player
    (same rating and deviation, as two new players are), that bring it there. An estimate: games against established
    opponents settle it a little sooner.

    >>> from hive.ratings import Rating, games_to_establish
    >>> games_to_establish(Rating()), games_to_establish(Rating(1600, 100))
    (13, 0)
    """
    count = 0
    while player.provisional and count < 100:
        peer = Rating(player.rating, player.deviation, player.volatility)
        player = rate(player, [(peer, 0.5)], tau)
        count += 1
    return count


#: About how many rated games a new player's rating needs before it is established (see :func:`games_to_establish`).
ESTABLISHED_AFTER = games_to_establish(Rating())


def speed(base_seconds: float | None, increment_seconds: float = 0.0, *, days_per_move: float | None = None) -> str:
    """The speed a time control is rated in, by the game's expected length, ``base + 40 * increment`` seconds (as
    hivegame.com reckons it): under 3 minutes bullet, under 8 blitz, under 25 rapid, under 5 hours classical, else
    correspondence; a game of days per move, or with no clock, is correspondence.

    :raises RatingError: for a negative time.
    """
    if days_per_move is not None or base_seconds is None:
        return "correspondence"
    if base_seconds < 0 or increment_seconds < 0:
        raise RatingError(f"A clock's times are not negative: {base_seconds} + {increment_seconds}.")
    total = base_seconds + 40 * increment_seconds
    for limit, name in ((180, "bullet"), (480, "blitz"), (1500, "rapid"), (18000, "classical")):
        if total < limit:
            return name
    return "correspondence"


__all__ = [
    "DEFAULT_DEVIATION",
    "DEFAULT_RATING",
    "DEFAULT_VOLATILITY",
    "ESTABLISHED_AFTER",
    "PROVISIONAL_DEVIATION",
    "SPEEDS",
    "TAU",
    "Rating",
    "RatingError",
    "games_to_establish",
    "rate",
    "rate_game",
    "speed",
]
