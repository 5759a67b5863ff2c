"""Many games at once in Gymnasium's :class:`~gymnasium.vector.VectorEnv` shape, for training by self-play.

Each of the ``num_envs`` games is a :class:`~hive.rl.env.HiveEnv`; a step plays one action in every game, for the
side to act there, and returns batched arrays: the planes and the mask of the side to act next (as that side sees
them), each game's reward for the side that acted (+1 when its action won the game, -1 when it lost it or was
illegal, else 0; the other side's is its negative), and whether each game ended (terminated by the rules or
truncated at the move cap). ``info["to_act"]`` gives the seat to act in each game and ``info["legal_actions"]`` its
legal actions' ids (an object array of int64 arrays, as Gymnasium batches ragged values).

The observation arrays are the environment's own, rewritten in place by the next :meth:`HiveVectorEnv.step` or
:meth:`HiveVectorEnv.reset`, as Gymnasium's vector environments with ``copy=False`` return theirs: copy them to
keep them. A game that ended is started again as :attr:`HiveVectorEnv.metadata`'s ``autoreset_mode`` says:
``NEXT_STEP`` (the default: the next step's action for that game is ignored and its new first observation
returned, reward 0), ``SAME_STEP`` (the new game's observation at once, the last one in ``info["final_obs"]``), or
``DISABLED`` (the caller resets games with ``reset(options={"reset_mask": ...})``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ..games import DEFAULT_GAME
from .env import AGENTS, HiveEnv, InvalidOptionError, Observation, ResetNeededError

Infos = dict[str, Any]
_SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}


class HiveVectorEnv(VectorEnv[Observation, Any, NDArray[Any]]):
    """``num_envs`` games of ``game`` stepped together (see :mod:`hive.rl.vector`).

    :param game: any name :func:`hive.find_game` knows.
    :param num_envs: how many games.
    :param autoreset_mode: when a game that ended starts again (an :class:`~gymnasium.vector.AutoresetMode` or its
        value).
    :param kwargs: :class:`~hive.rl.env.HiveEnv`'s options (``max_moves``, ``random_opening``...) and the game's
        rule options, the same for every game.
    :raises InvalidOptionError: for ``num_envs`` below 1 or an unknown ``autoreset_mode``.
    """

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        num_envs: int = 8,
        *,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **kwargs: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise InvalidOptionError(f"num_envs must be an int >= 1, not {num_envs!r}")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            names = ", ".join(m.value for m in AutoresetMode)
            raise InvalidOptionError(f"autoreset_mode must be one of {names}, not {autoreset_mode!r}") from None
        self.envs = [HiveEnv(game, **kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.autoreset_mode = mode
        self.single_observation_space: spaces.Dict = first.observation_space(AGENTS[0])
        self.single_action_space: spaces.Discrete = first.action_space(AGENTS[0])
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        shape: tuple[int, ...] = self.single_observation_space["observation"].shape or ()
        self._planes = np.zeros((num_envs, *shape), np.uint8)
        self._masks = np.zeros((num_envs, int(self.single_action_space.n)), np.int8)
        self._observations: Observation = {"observation": self._planes, "action_mask": self._masks}
        self._shown: list[NDArray[np.int64]] = [np.zeros(0, np.int64) for _ in range(num_envs)]
        self._rows: list[Any] = [None] * num_envs
        self._legal = np.empty(num_envs, object)
        self._to_act = np.zeros(num_envs, np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)
        self._ended = np.zeros(num_envs, np.bool_)
        self._everywhere = np.ones(num_envs, np.bool_)
        self._started = False

    @property
    def game(self) -> Any:
        """The game's :class:`~hive.plugin.GameSpec`."""
        return self.envs[0].game

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, Infos]:
        """Start every game (or those ``options["reset_mask"]`` marks) again.

        :param seed: ``None``, an int (game ``i`` gets ``seed + i``) or one seed (or ``None``) for each game.
        :param options: ``reset_mask``: a bool array of the games to reset; the rest goes to each
            :meth:`~hive.rl.env.HiveEnv.reset`.
        """
        seeds = self._seeds(seed)
        options = dict(options or {})
        chosen = options.pop("reset_mask", None)
        if chosen is None:
            chosen = self._everywhere
        elif not isinstance(chosen, np.ndarray) or chosen.shape != (self.num_envs,) or chosen.dtype != np.bool_:
            raise InvalidOptionError(f"reset_mask must be a bool array of shape ({self.num_envs},)")
        elif not self._started and not chosen.all():
            raise ResetNeededError("the first reset starts every game: give no reset_mask")
        for i in np.flatnonzero(chosen).tolist():
            self.envs[i].reset(seed=seeds[i], options=options or None)
            self._rewards[i] = 0.0
            self._terminations[i] = self._truncations[i] = self._ended[i] = False
            self._show(i)
        self._started = True
        return self._observations, self._infos()

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int | np.integer):
            return [int(seed) + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise InvalidOptionError(f"{len(seeds)} seeds for {self.num_envs} games")
        return seeds

    def step(
        self, actions: Any
    ) -> tuple[Observation, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], Infos]:
        """Play ``actions[i]`` in game ``i`` for its side to act (see :mod:`hive.rl.vector` for the rewards and
        the autoreset).

        :raises ResetNeededError: before the first :meth:`reset`, or (``DISABLED``) stepping a game that ended.
        :raises IllegalActionError: for an action outside the space, or one not legal with ``illegal_reward=None``.
        """
        if not self._started:
            raise ResetNeededError("the games have not started: call reset() first")
        mode = self.autoreset_mode
        if len(actions) != self.num_envs:
            raise InvalidOptionError(f"{len(actions)} actions for {self.num_envs} games")
        finals: list[int] = []
        final_obs: list[Observation] = []
        final_infos: list[dict[str, Any]] = []
        for i, action in enumerate(actions):
            env = self.envs[i]
            if self._ended[i]:
                if mode is AutoresetMode.DISABLED:
                    raise ResetNeededError(f"game {i} is over: reset it with options={{'reset_mask': ...}}")
                env.reset()
                self._rewards[i] = 0.0
                self._terminations[i] = self._truncations[i] = self._ended[i] = False
                self._show(i)
                continue
            agent = env.agent_selection
            env.step(int(action))
            self._rewards[i] = env.rewards[agent]
            terminated = self._terminations[i] = env.terminations[agent]
            truncated = self._truncations[i] = env.truncations[agent]
            self._show(i)
            if terminated or truncated:
                self._ended[i] = True
                if mode is AutoresetMode.SAME_STEP:
                    finals.append(i)
                    final_obs.append({name: array[i].copy() for name, array in self._observations.items()})
                    final_infos.append(dict(env.infos[env.agent_selection]))
                    env.reset()
                    self._ended[i] = False
                    self._show(i)
        infos = self._infos()
        if finals:
            marked = np.zeros(self.num_envs, np.bool_)
            marked[finals] = True
            for key, values in (("final_obs", final_obs), ("final_info", final_infos)):
                column = np.empty(self.num_envs, object)
                for i, value in zip(finals, values, strict=True):
                    column[i] = value
                infos[key] = column
                infos["_" + key] = marked
        return self._observations, self._rewards.copy(), self._terminations.copy(), self._truncations.copy(), infos

    def _show(self, i: int) -> None:
        """Game ``i``'s planes and mask for its side to act, in the batch's rows ``i``: written there by the
        encoding's row writer where it has one (``rows``), else copied."""
        env = self.envs[i]
        agent = env.agent_selection
        seat = _SEATS[agent]
        encoding = env.encoding
        rows = self._rows[i]
        if rows is None and hasattr(encoding, "rows"):
            rows = self._rows[i] = encoding.rows(self._planes[i], self._masks[i])
        if rows is not None:
            self._legal[i] = rows.write(encoding, seat, not (env.terminations[agent] or env.truncations[agent]))
        else:
            np.copyto(self._planes[i], encoding.planes(seat))
            legal: NDArray[np.int64] = env.infos[agent]["legal_actions"]
            mask = self._masks[i]
            mask[self._shown[i]] = 0
            mask[legal] = 1
            self._shown[i] = self._legal[i] = legal.copy()
        self._to_act[i] = seat

    def _infos(self) -> Infos:
        return {
            "to_act": self._to_act.copy(),
            "_to_act": self._everywhere,
            "legal_actions": self._legal.copy(),
            "_legal_actions": self._everywhere,
        }

    def close_extras(self, **kwargs: Any) -> None:
        """Close every game."""
        for env in self.envs:
            env.close()


def vector_env(game: str = DEFAULT_GAME, num_envs: int = 8, **kwargs: Any) -> HiveVectorEnv:
    """:class:`HiveVectorEnv`: ``num_envs`` games of ``game`` stepped together."""
    return HiveVectorEnv(game, num_envs, **kwargs)


__all__ = ["HiveVectorEnv", "vector_env"]
