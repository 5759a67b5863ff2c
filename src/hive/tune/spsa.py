"""Simultaneous perturbation stochastic approximation (SPSA, Spall 1992), for maximising a noisy score.

Iteration ``k`` (from 0) draws a random sign ``delta_i`` (+1 or -1) for every parameter and sets two players apart
by ``c_k = c / (k + 1) ** gamma`` in every parameter at once: ``plus = theta + c_k delta`` and ``minus = theta - c_k
delta`` (each within its bounds). They play each other; with ``result`` the score of ``plus`` minus the score of
``minus`` (from -1 to 1: a pair of games won twice by ``plus`` is 1), the gradient's estimate is ``result / (2 c_k
delta_i)`` and ``theta_i`` takes a step of ``a_k`` times it, ``a_k = a / (A + k + 1) ** alpha``, clipped to its
bounds. Each iteration's signs and games' seed depend only on the run's seed and ``k``, so a run resumed after
iteration ``k`` goes on as it would have.

>>> from hive.tune.spec import Gains, Parameter, Spec
>>> from hive.tune.spsa import perturb, update
>>> spec = Spec((Parameter("x", start=0, min=-10, max=10, c=1, a=4),), Gains(A=10))
>>> theta = {"x": 0.0}
>>> for k in range(200):  # a noiseless objective: the closer x is to 3, the better
...     step = perturb(spec, theta, k, seed=1)
...     result = 0.5 if abs(step.plus["x"] - 3) < abs(step.minus["x"] - 3) else -0.5
...     theta = update(spec, theta, step, result)
>>> round(theta["x"])
3
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .spec import Parameter, Spec


@dataclass(frozen=True)
class Perturbation:
    """What iteration :attr:`iteration` plays: the two players' values, the signs and steps that set them apart,
    and the seed of its games.

    :ivar signs: ``delta_i`` by name: +1 or -1.
    :ivar steps: ``c_k`` by name.
    :ivar plus: ``theta + c_k delta``, within the bounds.
    :ivar minus: ``theta - c_k delta``, within the bounds.
    """

    iteration: int
    signs: dict[str, int]
    steps: dict[str, float]
    plus: dict[str, float]
    minus: dict[str, float]
    seed: int

    @property
    def sign_text(self) -> str:
        """The signs as ``+`` and ``-``, in the spec's order."""
        return "".join("+" if sign > 0 else "-" for sign in self.signs.values())


def step_size(spec: Spec, parameter: Parameter, k: int) -> float:
    """``c_k`` of ``parameter`` at iteration ``k``."""
    return parameter.c / math.pow(k + 1, spec.gains.gamma)


def learning_rate(spec: Spec, parameter: Parameter, k: int) -> float:
    """``a_k`` of ``parameter`` at iteration ``k``."""
    return parameter.a / math.pow(spec.gains.A + k + 1, spec.gains.alpha)


def iteration_random(seed: int, k: int, purpose: str = "spsa") -> random.Random:
    """The random generator of iteration ``k`` of the run seeded ``seed`` (``purpose`` keeps apart the draws of
    other things done at ``k``): the same in every process and every run."""
    return random.Random(f"hive-tune:{purpose}:{seed}:{k}")


def perturb(spec: Spec, theta: Mapping[str, float], k: int, seed: int) -> Perturbation:
    """The players of iteration ``k`` of the run seeded ``seed`` from ``theta``."""
    rng = iteration_random(seed, k)
    signs = {p.name: rng.choice((-1, 1)) for p in spec.parameters}
    steps = {p.name: step_size(spec, p, k) for p in spec.parameters}
    plus = {p.name: p.clip(theta[p.name] + steps[p.name] * signs[p.name]) for p in spec.parameters}
    minus = {p.name: p.clip(theta[p.name] - steps[p.name] * signs[p.name]) for p in spec.parameters}
    return Perturbation(k, signs, steps, plus, minus, rng.randrange(2**32))


def update(spec: Spec, theta: Mapping[str, float], step: Perturbation, result: float) -> dict[str, float]:
    """``theta`` after iteration ``step.iteration``, whose ``plus`` scored ``result`` more than its ``minus`` (from
    -1 to 1)."""
    k = step.iteration
    return {
        p.name: p.clip(
            theta[p.name] + learning_rate(spec, p, k) * result / (2 * step.steps[p.name] * step.signs[p.name])
        )
        for p in spec.parameters
    }


def maximise(
    spec: Spec,
    play: Callable[[Perturbation], float],
    iterations: int,
    seed: int,
    theta: Mapping[str, float] | None = None,
    start: int = 0,
) -> dict[str, float]:
    """Run iterations ``start`` to ``iterations - 1`` from ``theta`` (default: the spec's start values): ``play``
    gives each perturbation's result (plus's score minus minus's, -1 to 1). Returns the last ``theta``."""
    current = dict(spec.start() if theta is None else theta)
    for k in range(start, iterations):
        step = perturb(spec, current, k, seed)
        current = update(spec, current, step, play(step))
    return current


__all__ = ["Perturbation", "iteration_random", "learning_rate", "maximise", "perturb", "step_size", "update"]
