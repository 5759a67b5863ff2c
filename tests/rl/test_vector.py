"""hive.rl's vector environment: Gymnasium's VectorEnv shapes, the autoreset modes, seeds, and the same games as
as many AEC environments played alike."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

import hive.rl  # noqa: E402

GAMES = ["Base+MLP", "HiveQueen"]


def random_actions(info: dict[str, Any], rng: random.Random) -> list[int]:
    """A random legal action in each game (0 where a game waits for its autoreset)."""
    return [int(legal[rng.randrange(len(legal))]) if len(legal) else 0 for legal in info["legal_actions"]]


@pytest.mark.parametrize("game", GAMES)
def test_shapes_and_spaces(game: str) -> None:
    envs = hive.rl.vector_env(game, 3)
    assert isinstance(envs, VectorEnv) and envs.num_envs == 3
    single = hive.rl.env(game)
    planes: tuple[int, ...] = single.observation_space("player_0")["observation"].shape or ()
    actions = single.action_space("player_0").n
    observations, info = envs.reset(seed=0)
    assert observations["observation"].shape == (3, *planes) and observations["observation"].dtype == np.uint8
    assert observations["action_mask"].shape == (3, actions) and observations["action_mask"].dtype == np.int8
    assert observations in envs.observation_space
    assert envs.single_action_space == single.action_space("player_0")
    assert envs.action_space.shape == (3,)
    assert info["to_act"].tolist() == [0, 0, 0] and info["_to_act"].all()
    observations, rewards, terminated, truncated, info = envs.step(random_actions(info, random.Random(0)))
    assert rewards.shape == terminated.shape == truncated.shape == (3,)
    assert rewards.dtype == np.float64 and terminated.dtype == truncated.dtype == np.bool_
    assert info["to_act"].tolist() == [hive.rl.AGENTS.index(env.agent_selection) for env in envs.envs]
    if game != "HiveQueen":  # a HiveQueen turn takes several steps of one side
        assert info["to_act"].tolist() == [1, 1, 1]
    for i in range(3):
        assert sorted(info["legal_actions"][i].tolist()) == np.flatnonzero(observations["action_mask"][i]).tolist()
    envs.close()


def play(envs: Any, steps: int, seed: int) -> list[Any]:
    """What ``steps`` random steps return, copied."""
    rng = random.Random(seed)
    observations, info = envs.reset(seed=seed)
    seen = [observations["observation"].copy()]
    for _ in range(steps):
        observations, rewards, terminated, _, info = envs.step(random_actions(info, rng))
        seen += [observations["observation"].copy(), observations["action_mask"].copy(), rewards, terminated]
    return seen


def test_the_same_seeds_and_actions_give_the_same_games() -> None:
    first = play(hive.rl.vector_env("Base+MLP", 2, random_opening=4, max_moves=20), 30, seed=3)
    second = play(hive.rl.vector_env("Base+MLP", 2, random_opening=4, max_moves=20), 30, seed=3)
    assert all((a == b).all() for a, b in zip(first, second, strict=True))
    other = play(hive.rl.vector_env("Base+MLP", 2, random_opening=4, max_moves=20), 30, seed=4)
    assert not all((a == b).all() for a, b in zip(first, other, strict=True))


@pytest.mark.parametrize("game", GAMES)
def test_the_games_are_those_of_single_environments(game: str) -> None:
    """Game i of the vector environment plays as an AEC environment reset with seed + i and given its actions."""
    count, rng = 3, random.Random(2)
    envs = hive.rl.vector_env(game, count, random_opening=2, max_moves=12)
    singles = [hive.rl.env(game, random_opening=2, max_moves=12) for _ in range(count)]
    observations, info = envs.reset(seed=10)
    for i, single in enumerate(singles):
        single.reset(seed=10 + i)
    ended = [False] * count
    for _ in range(40):
        actions = random_actions(info, rng)
        observations, rewards, terminated, truncated, info = envs.step(actions)
        for i, single in enumerate(singles):
            if ended[i]:  # next-step autoreset: the action is ignored, a new game starts
                single.reset()
                ended[i] = False
            else:
                agent = single.agent_selection
                single.step(actions[i])
                assert rewards[i] == single.rewards[agent]
                assert terminated[i] == single.terminations[agent] and truncated[i] == single.truncations[agent]
                ended[i] = bool(terminated[i] or truncated[i])
            seen = single.observe(single.agent_selection)
            assert (observations["observation"][i] == seen["observation"]).all()
            assert (observations["action_mask"][i] == seen["action_mask"]).all()


def test_next_step_autoreset() -> None:
    envs = hive.rl.vector_env("Base", 2, max_moves=3)
    _, info = envs.reset(seed=0)
    rng = random.Random(0)
    for _ in range(2):
        _, _, _, truncated, info = envs.step(random_actions(info, rng))
        assert not truncated.any()
    observations, rewards, _, truncated, info = envs.step(random_actions(info, rng))
    assert truncated.all() and not observations["action_mask"].any()
    assert all(len(legal) == 0 for legal in info["legal_actions"])
    observations, rewards, terminated, truncated, info = envs.step([0, 0])  # ignored: the games start again
    assert not (terminated.any() or truncated.any()) and not rewards.any()
    assert [cast(Any, envs.envs[i].board).ply for i in range(2)] == [0, 0]
    assert observations["action_mask"].sum(axis=1).tolist() == [len(legal) for legal in info["legal_actions"]]


def test_same_step_autoreset_and_disabled() -> None:
    envs = hive.rl.vector_env("Base", 2, max_moves=2, autoreset_mode="SameStep")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    _, info = envs.reset(seed=0)
    rng = random.Random(0)
    envs.step(random_actions(info, rng))
    _, info = envs.reset(seed=0)
    _, _, _, truncated, info = envs.step(random_actions(info, rng))
    observations, _, _, truncated, info = envs.step(random_actions(info, rng))
    assert truncated.all() and info["_final_obs"].all()
    assert info["final_info"][0]["outcome"] is not None
    assert not info["final_obs"][0]["action_mask"].any() and observations["action_mask"].any(axis=1).all()
    disabled = hive.rl.vector_env("Base", 2, max_moves=1, autoreset_mode=AutoresetMode.DISABLED)
    _, info = disabled.reset(seed=0)
    _, _, _, truncated, info = disabled.step(random_actions(info, rng))
    assert truncated.all()
    with pytest.raises(hive.rl.ResetNeededError, match="reset_mask"):
        disabled.step([0, 0])
    observations, info = disabled.reset(options={"reset_mask": np.array([True, False])})
    assert observations["action_mask"][0].any() and not observations["action_mask"][1].any()


def test_bad_options_are_named() -> None:
    with pytest.raises(hive.rl.InvalidOptionError, match="num_envs"):
        hive.rl.vector_env("Base", 0)
    with pytest.raises(hive.rl.InvalidOptionError, match="autoreset_mode"):
        hive.rl.vector_env("Base", 2, autoreset_mode="sometimes")
    envs = hive.rl.vector_env("Base", 2)
    with pytest.raises(hive.rl.ResetNeededError):
        envs.step([0, 0])
    with pytest.raises(hive.rl.InvalidOptionError, match="seeds"):
        envs.reset(seed=[1, 2, 3])
