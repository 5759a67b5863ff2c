"""SPSA: the gains, the perturbations (seeded, within bounds), the update, and convergence on a noisy objective
whose games are drawn like real ones."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from hive.tune.spec import Gains, Parameter, Spec
from hive.tune.spsa import Perturbation, learning_rate, maximise, perturb, step_size, update

TARGET = {"x": 30.0, "y": -12.0, "z": 5.0}
SCALE = {"x": 10.0, "y": 10.0, "z": 4.0}
SPEC = Spec(
    (Parameter("x", 0, -100, 100, 4, 80), Parameter("y", 0, -100, 100, 4, 80), Parameter("z", 0, -50, 50, 2, 20)),
    Gains(A=20),
)


def noisy_games(seed: int) -> Callable[[Perturbation], float]:
    """A pair of games a perturbation's players play: each game won by ``plus`` with the logistic chance of its
    strength over ``minus``'s, the strength falling away quadratically from :data:`TARGET`."""
    rng = random.Random(seed)

    def strength(values: dict[str, float]) -> float:
        return -sum(((values[n] - TARGET[n]) / SCALE[n]) ** 2 for n in TARGET)

    def play(step: Perturbation) -> float:
        chance = 1 / (1 + math.exp(strength(step.minus) - strength(step.plus)))
        return sum(1.0 if rng.random() < chance else 0.0 for _ in range(2)) - 1.0

    return play


def test_gains_follow_spalls_schedule() -> None:
    x = SPEC.parameters[0]
    assert step_size(SPEC, x, 0) == 4 and step_size(SPEC, x, 99) == pytest.approx(4 / 100**0.101)
    assert learning_rate(SPEC, x, 0) == pytest.approx(80 / 21**0.602)
    assert learning_rate(SPEC, x, 79) == pytest.approx(80 / 100**0.602)


def test_perturbations_are_seeded_signed_and_within_bounds() -> None:
    theta = {"x": 99.0, "y": 0.0, "z": -50.0}
    step = perturb(SPEC, theta, 3, seed=11)
    assert step == perturb(SPEC, theta, 3, seed=11)
    assert step.seed != perturb(SPEC, theta, 4, seed=11).seed != perturb(SPEC, theta, 3, seed=12).seed
    assert set(step.signs.values()) <= {-1, 1} and len(step.sign_text) == 3
    for p in SPEC.parameters:
        c = step_size(SPEC, p, 3)
        assert step.plus[p.name] == p.clip(theta[p.name] + c * step.signs[p.name])
        assert step.minus[p.name] == p.clip(theta[p.name] - c * step.signs[p.name])
        assert p.min <= step.minus[p.name] <= p.max and p.min <= step.plus[p.name] <= p.max


def test_an_update_moves_toward_the_side_that_scored() -> None:
    theta = {"x": 0.0, "y": 0.0, "z": 0.0}
    step = perturb(SPEC, theta, 0, seed=1)
    won = update(SPEC, theta, step, 1.0)
    lost = update(SPEC, theta, step, -1.0)
    for p in SPEC.parameters:
        expected = learning_rate(SPEC, p, 0) / (2 * step_size(SPEC, p, 0))
        assert won[p.name] == pytest.approx(expected * step.signs[p.name])
        assert lost[p.name] == pytest.approx(-expected * step.signs[p.name])
    assert update(SPEC, theta, step, 0.0) == theta
    far = {"x": 100.0, "y": 100.0, "z": 50.0}
    assert all(
        v <= p.max
        for v, p in zip(update(SPEC, far, perturb(SPEC, far, 0, 1), 1.0).values(), SPEC.parameters, strict=True)
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_spsa_converges_on_a_noisy_objective(seed: int) -> None:
    theta = maximise(SPEC, noisy_games(seed), 3000, seed)
    for name, target in TARGET.items():
        assert theta[name] == pytest.approx(target, abs=0.4 * SCALE[name]), theta


def test_a_run_in_two_parts_is_the_run_in_one() -> None:
    whole = maximise(SPEC, noisy_games(5), 400, seed=9)
    play = noisy_games(5)  # the objective's own noise goes on from where it was
    half = maximise(SPEC, play, 150, seed=9)
    assert maximise(SPEC, play, 400, seed=9, theta=half, start=150) == whole
