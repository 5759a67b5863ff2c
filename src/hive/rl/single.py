"""A Gymnasium environment: one side of a game against a built-in opponent, on top of :class:`~hive.rl.env.HiveEnv`.

The agent's observations, actions and rewards are those of its seat in the AEC environment; the opponent's moves
(a level of the game's AI, the random mover, or for Hive a UHP engine: any player :func:`hive.players.make_player`
knows) are played between two of the agent's steps and their rewards added to the agent's.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from numpy.typing import NDArray

from ..games import DEFAULT_GAME
from ..players import Player, check_player, make_player
from .env import AGENTS, RENDER_MODES, HiveEnv, InvalidOptionError, Observation, ResetNeededError

#: The id :func:`gymnasium.make` knows :class:`SingleAgentEnv` by, with its arguments as keywords:
#: ``gymnasium.make("hive/Hive-v0", game="HiveQueen", opponent="random")``.
GYM_ID = "hive/Hive-v0"


class SingleAgentEnv(gymnasium.Env[Observation, np.int64]):
    """``game`` played by the agent on ``side`` against ``opponent`` (see :mod:`hive.rl`).

    :param game: any name :func:`hive.find_game` knows.
    :param opponent: a level of the game's AI (``easy`` ... ``max``, the spec's ``ai.levels``), ``random``, or for
        Hive ``uhp:<engine command line>``.
    :param side: the side the agent plays: 0 or 1, or its name (``White``, ``north``...); ``None`` draws it at each
        reset.
    :param render_mode: as :class:`~hive.rl.env.HiveEnv` takes it.
    :param kwargs: the rest of :class:`~hive.rl.env.HiveEnv`'s options, and the game's rule options.
    :raises InvalidPlayerError: naming an opponent the game cannot have.
    :raises InvalidOptionError: naming a side the game does not have.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012 (Env's own)

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        opponent: str = "easy",
        side: int | str | None = 0,
        *,
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        self.aec = HiveEnv(game, render_mode=render_mode, **kwargs)
        spec = self.aec.game
        self.opponent = check_player(opponent, spec)
        self.side = self._side(side, spec.sides)
        self.render_mode = render_mode
        self.observation_space: gymnasium.spaces.Dict = self.aec.observation_space(AGENTS[0])  # type: ignore[assignment]
        self.action_space: gymnasium.spaces.Discrete = self.aec.action_space(AGENTS[0])
        self._opponent: Player | None = None
        self._seat = 0

    @staticmethod
    def _side(side: int | str | None, sides: tuple[str, str]) -> int | None:
        if side is None or (side in (0, 1) and not isinstance(side, bool)):
            return side
        if isinstance(side, str) and side.lower() in (name.lower() for name in sides):
            return [name.lower() for name in sides].index(side.lower())
        raise InvalidOptionError(f"side must be 0, 1, {sides[0]!r}, {sides[1]!r} or None (drawn), not {side!r}")

    @property
    def seat(self) -> int:
        """The side the agent plays in this game: 0 (first) or 1."""
        return self._seat

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game (the AEC environment's reset, seeded alike), played on to the agent's first action.

        :param seed: seeds the side drawn, the opponent's choices and the random opening.
        """
        super().reset(seed=seed)
        self.aec.reset(seed=None if seed is None else int(self.np_random.integers(2**31)), options=options)
        self._seat = int(self.np_random.integers(2)) if self.side is None else self.side
        if seed is not None or self._opponent is None:
            if self._opponent is not None:
                self._opponent.close()
            self._opponent = make_player(self.opponent, self.aec.game, seed=int(self.np_random.integers(2**31)))
        self._answer(self._opponent)
        observation, _, _, info = self._last()
        return observation, info

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the agent's ``action``, then the opponent's moves until the agent is to act again or the game ends.

        :raises IllegalActionError: as :meth:`HiveEnv.step` does.
        :raises ResetNeededError: before the first reset, or once the game is over.
        """
        aec = self.aec
        if self._opponent is None:
            raise ResetNeededError("the environment has no game yet: call reset() first")
        if aec.terminations[AGENTS[self._seat]] or aec.truncations[AGENTS[self._seat]]:
            raise ResetNeededError("the game is over: call reset() before the next step")
        aec.step(action)
        reward = self._answer(self._opponent)
        observation, terminated, truncated, info = self._last()
        return observation, reward, terminated, truncated, info

    def _answer(self, opponent: Player) -> float:
        """``opponent``'s moves while it is to act; returns what the agent earned since its action."""
        aec = self.aec
        me = AGENTS[self._seat]
        reward = aec.rewards.get(me, 0.0)
        while aec.agent_selection != me and not (aec.terminations[me] or aec.truncations[me]):
            move = opponent.choose(aec.board)
            for action in aec.encoding.encode(move):
                aec.step(action)
                reward += aec.rewards.get(me, 0.0)
        return reward

    def _last(self) -> tuple[Observation, bool, bool, dict[str, Any]]:
        """The agent's observation, termination, truncation and info: copies of the AEC environment's arrays, which
        its next step rewrites (a Gymnasium environment returns new data at every call)."""
        aec = self.aec
        me = AGENTS[self._seat]
        info = {"side": aec.game.sides[self._seat], **aec.infos[me]}
        info["legal_actions"] = info["legal_actions"].copy()
        observation = {name: array.copy() for name, array in aec.observe(me).items()}
        return observation, aec.terminations[me], aec.truncations[me], info

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of the agent as booleans (what maskable learners such as ``MaskablePPO`` ask for)."""
        return self.aec.observe(AGENTS[self._seat])["action_mask"].astype(bool)

    def render(self) -> str | NDArray[np.uint8] | None:
        """The position, as :meth:`HiveEnv.render` draws it."""
        return self.aec.render()

    def close(self) -> None:
        """Close the opponent (an engine's process)."""
        if self._opponent is not None:
            self._opponent.close()
            self._opponent = None


def gym_env(
    game: str = DEFAULT_GAME, opponent: str = "easy", side: int | str | None = 0, **kwargs: Any
) -> SingleAgentEnv:
    """The single-agent Gymnasium environment of ``game`` against ``opponent`` (see :class:`SingleAgentEnv`)."""
    return SingleAgentEnv(game, opponent, side, **kwargs)


__all__ = ["GYM_ID", "SingleAgentEnv", "gym_env"]
