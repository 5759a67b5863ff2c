"""Reinforcement learning on every game of the project: a PettingZoo AEC environment and a Gymnasium one.

:func:`env` makes a `PettingZoo <https://pettingzoo.farama.org>`_ AEC environment for any name
:func:`hive.find_game` knows (a Hive game type or ``HiveQueen``); :func:`gym_env` makes a single-agent
`Gymnasium <https://gymnasium.farama.org>`_ environment against a built-in opponent, and :func:`vector_env` many
games at once in Gymnasium's ``VectorEnv`` shape. Each observation holds the position's planes and a mask of the
legal actions, and ``info["legal_actions"]`` their ids (arrays the environment rewrites at the next step: copy them
to keep them); the actions, planes and pictures of each kind of game are its
package's encoding, described in :mod:`hive.games.hive.encoding` and :mod:`hive.games.hivequeen.encoding`
(:class:`Encoding`, the protocol they answer, is :mod:`hive.sdk.encoding`'s). Needs the ``rl`` extra
(``pip install hive-game[rl]``); ``import hive`` alone never loads it.

>>> import hive.rl
>>> env = hive.rl.env("Base+MLP")
>>> env.reset(seed=7)
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((48, 32, 32), 7)
>>> for agent in env.agent_iter():
...     observation, reward, terminated, truncated, info = env.last()
...     mask = observation["action_mask"]
...     env.step(None if terminated or truncated else env.action_space(agent).sample(mask))
>>> print(env.moves, info["outcome"])  # random play reached the move cap: the rules' verdict there, no reward
200 Draw (adjudicated)

The single-agent environment (also ``gymnasium.make("hive/Hive-v0", game=..., opponent=..., side=...)``):

>>> single = hive.rl.gym_env("HiveQueen", opponent="random", side="North")
>>> observation, info = single.reset(seed=1)
>>> info["side"], observation["observation"].shape, single.aec.board.move_texts()
('North', (22, 9, 9), ['Dd2-e7;+Sd6'])
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # type: ignore[import-untyped]  # noqa: F401
except ImportError as _error:
    raise ImportError(
        f"hive.rl needs the optional packages PettingZoo, Gymnasium and NumPy ({_error.name} is not installed): "
        "pip install hive-game[rl]",
        name=_error.name,
    ) from None

from ..sdk.encoding import Encoding, IllegalActionError
from .env import AGENTS, HiveEnv, InvalidOptionError, ResetNeededError, env, raw_env
from .single import GYM_ID, SingleAgentEnv, gym_env
from .vector import HiveVectorEnv, vector_env

if GYM_ID not in _gymnasium.registry:
    _gymnasium.register(GYM_ID, entry_point="hive.rl.single:SingleAgentEnv")

__all__ = [
    "AGENTS",
    "GYM_ID",
    "Encoding",
    "HiveEnv",
    "HiveVectorEnv",
    "IllegalActionError",
    "InvalidOptionError",
    "ResetNeededError",
    "SingleAgentEnv",
    "env",
    "gym_env",
    "raw_env",
    "vector_env",
]
