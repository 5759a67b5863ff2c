"""RL environment speed: random play through ``hive.rl.env`` with action masks, per game.

Run: ``python -m benchmarks.rl`` from the project root, with the ``rl`` extra installed (``HIVE_PURE=1`` for the
plain Python build). Each round plays whole random games through the AEC loop a learner runs (``env.last()``,
which builds the observation planes and the action mask, a random action among the mask's legal ones,
``env.step``) until ``--steps`` steps are done, and prints the median steps per second of ``--rounds`` rounds.
``--sampler gymnasium`` draws the action with ``env.action_space(agent).sample(mask)`` instead of indexing the
mask's nonzero entries.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import hive
import hive.rl

GAMES = ("Base", "Base+MLP", "HiveQueen")


def play(env: hive.rl.HiveEnv, steps: int, seed: int, sampler: str) -> tuple[int, int, float, float]:
    """Random games through ``env`` until ``steps`` steps are made; returns steps, games, and the seconds taken
    on the clock and by this process on the CPU (the machine may be shared)."""
    rng = random.Random(seed)
    draw = rng.random
    done = games = 0
    env.reset(seed=seed)
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        env.reset()
        games += 1
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            action: Any = None
            if not (terminated or truncated):
                mask = observation["action_mask"]
                if sampler == "gymnasium":
                    action = env.action_space(agent).sample(mask)
                else:
                    legal = mask.view(bool).nonzero()[0]
                    action = int(legal[int(draw() * len(legal))])
            env.step(action)
            done += 1
    return done, games, time.perf_counter() - start, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Random-play steps/s through hive.rl's AEC environment.")
    parser.add_argument("games", nargs="*", default=list(GAMES), help=f"games to time (default: {' '.join(GAMES)})")
    parser.add_argument("--steps", type=int, default=20_000, help="steps per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sampler", choices=("mask", "gymnasium"), default="mask")
    args = parser.parse_args(argv)
    print(
        f"hive {hive.__version__} ({hive.BUILD}), {args.rounds} rounds of {args.steps:,} steps, {args.sampler} sampler"
    )
    for name in args.games:
        env = hive.rl.env(name)
        rates = []
        cpu_rates = []
        lengths = []
        for round_ in range(args.rounds):
            steps, games, seconds, cpu = play(env, args.steps, round_, args.sampler)
            rates.append(steps / seconds)
            cpu_rates.append(steps / cpu)
            lengths.append(steps / games)
        print(
            f"{env.game.name:10s} {statistics.median(rates):9,.0f} steps/s median "
            f"(min {min(rates):,.0f}, max {max(rates):,.0f}), {statistics.median(cpu_rates):,.0f} steps per CPU "
            f"second, {statistics.median(lengths):.0f} steps a game"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
