"""RL environment speed: random play through ``hive.rl`` beside OpenSpiel's ``hive``, and the vector environment.

Run: ``python -m benchmarks.rl`` from the project root, with the ``rl`` extra installed (``HIVE_PURE=1`` for the
plain Python build; ``pip install open-spiel`` for OpenSpiel's loop, which is left out without it). Each round
times, one after the other on the same machine, the same number of random-play steps through:

- ``openspiel``: OpenSpiel's ``hive`` (its default game: the Mosquito, the Ladybug and the Pillbug, as Base+MLP),
  each step ``np.asarray(state.observation_tensor())``, ``state.legal_actions()`` and ``state.apply_action``;
- ``legal_actions``: our AEC loop, each step ``env.last()`` (the planes and the mask) and a random action from
  ``info["legal_actions"]``, then ``env.step``;
- ``mask``: the same loop taking the legal actions from ``np.flatnonzero(observation["action_mask"])``;
- ``vector``: :func:`hive.rl.vector_env` with ``--envs`` games, a random legal action in each game per step
  (the steps counted are the games' steps).

A step is one action played: the steps that only close a finished game (``env.step(None)``) cost time but are not
counted. The loops run in turn each round, so a change in the machine's load touches them alike; the lines printed
are the medians over ``--rounds`` rounds of the steps per second on the clock and per CPU second of this process
(a core's pace on a shared machine), and the medians over the rounds of each loop's ratio to OpenSpiel's in that
round, on the clock and per CPU second (the steadier of the two where other jobs share the cores).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import hive
import hive.rl

GAME = "Base+MLP"
#: OpenSpiel's hive plays every expansion piece by default, on its own board of 8 rings around the first piece.
OPENSPIEL_GAME = "hive"

Loop = Callable[[int, int], tuple[int, float, float]]


def _timed(run: Callable[[], int]) -> tuple[int, float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    steps = run()
    return steps, time.perf_counter() - start, time.process_time() - cpu


def openspiel_loop(steps: int, seed: int) -> tuple[int, float, float]:
    """OpenSpiel's hive played at random for ``steps`` steps; returns the steps and the clock and CPU seconds."""
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game(OPENSPIEL_GAME)
    draw = random.Random(seed).random

    def run() -> int:
        done = 0
        while done < steps:
            state = game.new_initial_state()
            while not state.is_terminal() and done < steps:
                np.asarray(state.observation_tensor())
                legal = state.legal_actions()
                state.apply_action(legal[int(draw() * len(legal))])
                done += 1
        return done

    return _timed(run)


def aec_loop(game: str, use_mask: bool) -> Loop:
    """Our AEC loop on ``game``, reading the legal actions from ``info`` or (``use_mask``) from the mask."""
    env = hive.rl.env(game)

    def loop(steps: int, seed: int) -> tuple[int, float, float]:
        draw = random.Random(seed).random
        env.reset(seed=seed)

        def run() -> int:
            done = 0
            while done < steps:
                env.reset()
                for _ in env.agent_iter():
                    observation, _, terminated, truncated, info = env.last()
                    if terminated or truncated:
                        env.step(None)
                        continue
                    legal = np.flatnonzero(observation["action_mask"]) if use_mask else info["legal_actions"]
                    env.step(int(legal[int(draw() * len(legal))]))
                    done += 1
                    if done == steps:
                        break
            return done

        return _timed(run)

    return loop


def vector_loop(game: str, envs: int) -> Loop:
    """:func:`hive.rl.vector_env` with ``envs`` games, random legal actions."""
    vector = hive.rl.vector_env(game, envs)

    def loop(steps: int, seed: int) -> tuple[int, float, float]:
        draw = random.Random(seed).random
        _, info = vector.reset(seed=seed)

        def run() -> int:
            nonlocal info
            done = 0
            while done < steps:
                actions = [int(legal[int(draw() * len(legal))]) if len(legal) else 0 for legal in info["legal_actions"]]
                _, _, _, _, info = vector.step(actions)
                done += envs
            return done

        return _timed(run)

    return loop


def has_openspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def measure(loops: dict[str, Loop], steps: int, rounds: int) -> dict[str, list[tuple[float, float]]]:
    """Each loop's (steps per second, steps per CPU second) in each round, the loops in turn within a round."""
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in loops}
    for round_ in range(rounds):
        for name, loop in loops.items():
            done, seconds, cpu = loop(steps, round_)
            rates[name].append((done / seconds, done / max(cpu, 1e-9)))
    return rates


def report(rates: dict[str, list[tuple[float, float]]], envs: int) -> list[str]:
    """The lines printed: each loop's medians, and its median ratio to OpenSpiel's."""
    lines = []
    base = rates.get("openspiel")
    for name, values in rates.items():
        clock = statistics.median(rate for rate, _ in values)
        cpu = statistics.median(rate for _, rate in values)
        label = f"vector ({envs} games)" if name == "vector" else name
        line = f"{label:20s} {clock:9,.0f} steps/s (min {min(r for r, _ in values):,.0f}), {cpu:9,.0f} per CPU second"
        if base is not None and name != "openspiel":
            ratios = [ours / theirs for (ours, _), (theirs, _) in zip(values, base, strict=True)]
            cpu_ratios = [ours / theirs for (_, ours), (_, theirs) in zip(values, base, strict=True)]
            line += (
                f"; {statistics.median(ratios):.2f}x OpenSpiel on the clock (rounds {min(ratios):.2f}-"
                f"{max(ratios):.2f}), {statistics.median(cpu_ratios):.2f}x per CPU second"
            )
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Random-play steps/s through hive.rl beside OpenSpiel's hive.")
    parser.add_argument("--game", default=GAME, help=f"our game (default {GAME}, OpenSpiel's hive's pieces)")
    parser.add_argument("--steps", type=int, default=20_000, help="steps per loop and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--envs", type=int, default=64, help="games in the vector environment")
    parser.add_argument("--no-openspiel", action="store_true", help="leave OpenSpiel's loop out")
    args = parser.parse_args(argv)
    loops: dict[str, Loop] = {}
    openspiel = not args.no_openspiel and has_openspiel() and args.game == GAME
    if openspiel:
        loops["openspiel"] = openspiel_loop
    loops["legal_actions"] = aec_loop(args.game, use_mask=False)
    loops["mask"] = aec_loop(args.game, use_mask=True)
    loops["vector"] = vector_loop(args.game, args.envs)
    note = "" if openspiel else " (OpenSpiel's loop left out: pip install open-spiel)"
    print(
        f"hive {hive.__version__} ({hive.BUILD}), numpy {np.__version__}, {args.game}: "
        f"{args.rounds} rounds of {args.steps:,} steps a loop{note}"
    )
    for line in report(measure(loops, args.steps, args.rounds), args.envs):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
