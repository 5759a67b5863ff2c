"""The sequential probability ratio test of a match (``hive match --sprt``): stop as soon as the games decide
between two Elo differences.

Games come in pairs (same opening, sides swapped), so the test counts pairs by PLAYER1's score in them, 0, ½, 1, 1½
or 2 points: the pentanomial model, which removes the openings' share of the noise. Its statistic is the
generalized log-likelihood ratio (GSPRT) in logistic Elo: for each hypothesis, the most likely distribution of the
five outcomes whose expected score is the hypothesis's, and the log of the ratio of their likelihoods. The test
accepts H1 (PLAYER1 is ``elo1`` stronger) when the ratio reaches ``log((1 - beta) / alpha)`` and H0 (``elo0``) when
it falls to ``log(beta / (1 - alpha))``.

>>> from hive.arena import Sprt
>>> test = Sprt(0, 100)
>>> round(test.upper, 3), round(test.lower, 3)
(2.944, -2.944)
>>> result = test.test((0, 1, 2, 3, 8))
>>> round(result.llr, 2), result.verdict
(3.46, 'H1')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

#: PLAYER1's score in a pair of games, as a fraction of the pair's 2 points, by pentanomial outcome.
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
# the count given to an outcome not yet seen, so that every expected score in (0, 1) stays reachable
_PRIOR = 1e-3


class SprtError(ValueError):
    """Bad settings of a sequential probability ratio test; the message names the value and the rule."""


def elo_score(elo: float) -> float:
    """The expected score of a player ``elo`` logistic Elo stronger than its opponent."""
    return 1 / (1 + 10 ** (-elo / 400))


def log_likelihood_ratio(counts: Sequence[float], scores: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of ``elo1`` against ``elo0`` for ``counts`` of outcomes whose scores
    (fractions of the points at stake) are ``scores``: ``max log L(s1) - max log L(s0)``, each maximum taken over
    the distributions of the outcomes with that hypothesis's expected score. Outcomes never seen count as a
    thousandth.
    """
    if len(counts) != len(scores) or min(counts, default=0) < 0:
        raise SprtError(f"expected {len(scores)} outcome counts >= 0, not {list(counts)}")
    total = sum(counts)
    if total == 0:
        return 0.0
    weights = [count if count > 0 else _PRIOR for count in counts]
    frequencies = [weight / sum(weights) for weight in weights]
    return total * (_best_log_likelihood(frequencies, scores, elo1) - _best_log_likelihood(frequencies, scores, elo0))


def _best_log_likelihood(frequencies: Sequence[float], scores: Sequence[float], elo: float) -> float:
    """The largest mean log-likelihood (relative to the observed frequencies) of a distribution with the expected
    score of ``elo``: it is ``p_i = f_i / (1 + t (a_i - s))`` with ``t`` the root of ``sum f_i (a_i - s) /
    (1 + t (a_i - s)) = 0``, a decreasing function of ``t``, found by bisection where every ``p_i`` is positive."""
    mean = elo_score(elo)
    gaps = [score - mean for score in scores]
    low = -1 / max(gaps) if max(gaps) > 0 else -math.inf
    high = -1 / min(gaps) if min(gaps) < 0 else math.inf
    for _ in range(200):
        middle = (low + high) / 2
        if not low < middle < high:
            break
        slope = sum(f * gap / (1 + middle * gap) for f, gap in zip(frequencies, gaps, strict=True))
        low, high = (middle, high) if slope > 0 else (low, middle)
    root = (low + high) / 2
    return -sum(f * math.log1p(root * gap) for f, gap in zip(frequencies, gaps, strict=True))


@dataclass(frozen=True)
class SprtResult:
    """Where a test stands after some pairs.

    :ivar counts: the pairs by PLAYER1's points in them: 0, ½, 1, 1½, 2.
    :ivar llr: the log-likelihood ratio.
    :ivar verdict: ``"H1"`` (``elo1`` accepted), ``"H0"`` (``elo0`` accepted) or ``None`` (not decided).
    """

    sprt: Sprt
    counts: tuple[int, ...]
    llr: float
    verdict: str | None

    @property
    def pairs(self) -> int:
        """How many pairs of games the test has counted."""
        return sum(self.counts)

    def describe(self) -> str:
        """The test, its ratio and bounds, the pairs counted and the verdict, on one line."""
        test = self.sprt
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no verdict"}[self.verdict]
        return (
            f"SPRT elo0 {test.elo0:g}, elo1 {test.elo1:g} (logistic), alpha {test.alpha:g}, beta {test.beta:g}: "
            f"LLR {self.llr:.2f} ({test.lower:.2f}, {test.upper:.2f}) after {self.pairs} pair{'s' * (self.pairs != 1)} "
            f"[{'/'.join(map(str, self.counts))}]: {verdict}"
        )


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0 "PLAYER1 is ``elo0`` stronger" against H1 "``elo1`` stronger"
    (logistic Elo), with ``alpha`` the chance of accepting H1 when H0 holds and ``beta`` the converse.

    :raises SprtError: unless ``elo0 < elo1`` (finite) and ``alpha``, ``beta`` and their sum are in (0, 1).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1) and self.elo0 < self.elo1):
            raise SprtError(f"the SPRT's elo0 must be below its elo1, both finite, not {self.elo0:g} {self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 1:
                raise SprtError(f"the SPRT's {name} must be between 0 and 1, not {value:g}")
        if self.alpha + self.beta >= 1:
            raise SprtError(f"the SPRT's alpha + beta must be below 1, not {self.alpha:g} + {self.beta:g}")

    @property
    def lower(self) -> float:
        """The ratio at or below which H0 is accepted: ``log(beta / (1 - alpha))``."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The ratio at or above which H1 is accepted: ``log((1 - beta) / alpha)``."""
        return math.log((1 - self.beta) / self.alpha)

    def describe(self) -> str:
        """The hypotheses, the chances of error and the bounds, on one line."""
        return (
            f"H0 elo {self.elo0:g}, H1 elo {self.elo1:g}, alpha {self.alpha:g}, beta {self.beta:g}: "
            f"stops when the LLR leaves ({self.lower:.2f}, {self.upper:.2f})"
        )

    def test(self, counts: Sequence[int]) -> SprtResult:
        """The test after pairs counted by PLAYER1's points in them (0, ½, 1, 1½, 2)."""
        llr = log_likelihood_ratio(counts, PAIR_SCORES, self.elo0, self.elo1)
        verdict = "H1" if llr >= self.upper else "H0" if llr <= self.lower else None
        return SprtResult(self, tuple(counts), llr, verdict)


@dataclass
class SprtTracker:
    """Runs a test over a match's games as they finish, in any order, one pair at a time in the pairs' order.

    Testing the pairs in order makes the verdict, and the game it comes after, the same however the games are
    scheduled. :attr:`result` is the test after the first :attr:`pairs` pairs, or after the pair that decided it.
    """

    sprt: Sprt
    result: SprtResult = field(init=False)
    _scores: dict[int, float] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.result = self.sprt.test((0,) * len(PAIR_SCORES))

    @property
    def pairs(self) -> int:
        """The pairs counted: games 1 to ``2 * pairs``."""
        return self.result.pairs

    def add(self, number: int, player1_score: float) -> SprtResult:
        """Count game ``number`` (PLAYER1 scored ``player1_score`` in it) and test each pair it completes."""
        self._scores[number] = player1_score
        while self.result.verdict is None:
            first, second = 2 * self.pairs + 1, 2 * self.pairs + 2
            if first not in self._scores or second not in self._scores:
                break
            counts = list(self.result.counts)
            counts[round(2 * (self._scores.pop(first) + self._scores.pop(second)))] += 1
            self.result = self.sprt.test(counts)
        return self.result


__all__ = ["PAIR_SCORES", "Sprt", "SprtError", "SprtResult", "SprtTracker", "elo_score", "log_likelihood_ratio"]
