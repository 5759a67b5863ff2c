"""The PettingZoo AEC environment of every game, written once against :class:`~hive.sdk.encoding.Encoding`: each
game's own encoding, which its plug-in names (:func:`encoding_for`).

Two agents, ``player_0`` (the game's first side: White, South) and ``player_1``, act in turn; a Hive move is one
action, a HiveQueen turn one action per step (see :mod:`hive.games.hivequeen.encoding`). Rewards come only with the
outcome: +1 to the winner, -1 to the loser, 0 to both for a draw. A game longer than ``max_moves`` whole moves
(the game's ``rl`` setting unless given: 200 Hive plies, 400 HiveQueen turns) is truncated, both rewards 0, with the
outcome the rules would give it (:meth:`~hive.game.Game.adjudicate`) in the agents' ``info["outcome"]``.
``info["legal_actions"]`` holds the legal actions' ids of the agent to act (empty for the other one). The
observations' arrays and those ids are the encoding's own, rewritten in place at the next step where the encoding
keeps them (Hive's does).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ..game import Game, UnknownGameError
from ..games import DEFAULT_GAME, find_game, plugin_of
from ..plugin import GameSpec, load
from ..sdk.encoding import Encoding, IllegalActionError, Mask

#: The agents' names; ``AGENTS[i]`` plays the game's side ``i`` (``env.game.sides[i]``).
AGENTS = ("player_0", "player_1")
#: How :meth:`HiveEnv.render` draws, as ``render_mode`` names it.
RENDER_MODES = ("svg", "rgb_array")

Observation = dict[str, NDArray[Any]]


def encoding_for(spec: GameSpec, board: Game[Any]) -> Encoding:
    """The encoding of ``spec``'s kind of game on ``board``, as its game package names it (its plug-in's
    ``encoding``).

    :raises UnknownGameError: when the package has none.
    """
    reference = plugin_of(spec.kind).encoding
    if reference is None:
        raise UnknownGameError(f"hive.rl has no encoding for {spec.name}: its game package names none.")
    encoding: Encoding = load(reference)(board)
    return encoding


@dataclass(frozen=True)
class RlSettings:
    """What a game sets for the environments (its plug-in's ``rl`` settings).

    :ivar max_moves: the whole moves after which a game is truncated.
    """

    max_moves: int = 200


class InvalidOptionError(ValueError):
    """An option of the environment that is out of its range; the message names the option and its values."""


class ResetNeededError(ValueError):
    """A call that needs a game under way: before the first reset, or after the game ended."""


_SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}


def _seat(agent: str) -> int:
    seat = _SEATS.get(agent)
    if seat is None:
        raise InvalidOptionError(f"{agent!r} is not an agent: expected {' or '.join(AGENTS)}")
    return seat


def _count(name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
        raise InvalidOptionError(f"{name} must be an int >= {low}, not {value!r}")
    return int(value)


class HiveEnv(AECEnv):  # type: ignore[misc]
    """A game of ``game`` as a PettingZoo AEC environment (see :mod:`hive.rl` and the game's module).

    :param game: any name :func:`hive.find_game` knows: ``Base`` ... ``Base+MLP``, ``HiveQueen``.
    :param render_mode: ``"svg"`` (:meth:`render` returns an SVG document) or ``"rgb_array"`` (an
        ``(render_size, render_size, 3)`` uint8 array); ``None`` draws nothing.
    :param max_moves: the whole moves after which a game is truncated (default: the game's, :class:`RlSettings`).
    :param opening: move texts in the game's notation, played from the start at each reset.
    :param random_opening: random moves (the game's own random mover) played after ``opening`` at each reset, from
        the generator :meth:`reset` seeds; openings that end the game are drawn again.
    :param illegal_reward: what an agent gets for an action that is in the space but not legal now: the game ends,
        the other agent gets 0 and ``info["illegal_action"]`` says why. ``None`` raises
        :class:`~hive.sdk.encoding.IllegalActionError` instead.
    :param render_size: the side of the ``rgb_array`` picture, in pixels.
    :param options: the game's rule options (``tournament_opening=False`` ...).
    :raises UnknownGameError: naming an unknown game or rule option.
    :raises InvalidOptionError: naming any other option out of its range.

    :ivar game: the game's :class:`~hive.plugin.GameSpec` (its ``sides``, ``ai``...).
    :ivar rng: the generator of the random openings, seeded by :meth:`reset`.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "hive_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        *,
        render_mode: str | None = None,
        max_moves: int | None = None,
        opening: Sequence[str] = (),
        random_opening: int = 0,
        illegal_reward: float | None = -1.0,
        render_size: int = 512,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game: GameSpec = find_game(game)
        self._options = options
        encoding = encoding_for(self.game, self._new())
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidOptionError(f"render_mode {render_mode!r} is not one of {', '.join(RENDER_MODES)} or None")
        self.render_mode = render_mode
        self.render_size = _count("render_size", render_size, 16)
        default = plugin_of(self.game.kind).settings_for("rl", RlSettings).max_moves
        self.max_moves = default if max_moves is None else _count("max_moves", max_moves, 1)
        self.random_opening = _count("random_opening", random_opening, 0)
        self.opening = self._opening(opening)
        if illegal_reward is not None and not isinstance(illegal_reward, int | float):
            raise InvalidOptionError(f"illegal_reward must be a number or None, not {illegal_reward!r}")
        self.illegal_reward = illegal_reward
        self.possible_agents = list(AGENTS)
        high = encoding.plane_high
        planes = spaces.Box(0, high, high.shape, np.uint8)
        self._spaces = {
            agent: (
                spaces.Dict({"observation": planes, "action_mask": spaces.Box(0, 1, (encoding.actions,), np.int8)}),
                spaces.Discrete(encoding.actions),
            )
            for agent in AGENTS
        }
        self._none: Mask = np.zeros(encoding.actions, np.int8)
        self._no_actions: NDArray[np.int64] = np.zeros(0, np.int64)
        self.rng = random.Random()
        self._encoding: Encoding | None = None
        self._moves = 0

    def _new(self) -> Game[Any]:
        """A new board of the game with its rule options."""
        return self.game(**self._options)

    def _opening(self, opening: Sequence[str]) -> tuple[str, ...]:
        """``opening`` checked: every move legal in turn from the start, the game not over after it, and room
        left for the random opening and one more move before the move cap."""
        if isinstance(opening, str) or not all(isinstance(text, str) for text in opening):
            raise InvalidOptionError(f"opening must be a sequence of move texts, not {opening!r}")
        board = self._new()
        for number, text in enumerate(opening, start=1):
            if board.is_game_over():
                raise InvalidOptionError(f"opening move {number} {text!r} comes after the end of the game")
            try:
                board.push_text(text)
            except ValueError as err:
                raise InvalidOptionError(f"opening move {number} {text!r}: {err}") from None
        if board.is_game_over():
            raise InvalidOptionError(f"the opening ends the game ({board.outcome()}): nothing would be left to play")
        if len(opening) + self.random_opening >= self.max_moves:
            raise InvalidOptionError(
                f"an opening of {len(opening)} moves and random_opening={self.random_opening} leave no move before "
                f"max_moves={self.max_moves}"
            )
        return tuple(opening)

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observations of ``agent``: ``observation`` (the planes), ``action_mask`` (1 on each legal action)."""
        return self._spaces[AGENTS[_seat(agent)]][0]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The actions, the same for both agents (see the game's module)."""
        return self._spaces[AGENTS[_seat(agent)]][1]

    @property
    def encoding(self) -> Encoding:
        """The game's actions and planes on the board played (to decode an action, encode a move).

        :raises ResetNeededError: before the first :meth:`reset`.
        """
        if self._encoding is None:
            raise ResetNeededError("the environment has no game yet: call reset() first")
        return self._encoding

    @property
    def board(self) -> Game[Any]:
        """The game's board (between two steps of a HiveQueen turn: as it was when the turn began)."""
        return self.encoding.board

    @property
    def moves(self) -> int:
        """The whole moves played since the reset (the opening's included)."""
        return self._moves

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``opening`` then ``random_opening`` random moves; ``player_0`` or ``player_1`` to act.

        :param seed: seeds the random opening and both action spaces (``seed`` and ``seed + 1``).
        :param options: ``{"opening": [...]}`` replaces the opening for this game; other keys are ignored with a
            warning.
        """
        if seed is not None:
            self.rng.seed(seed)
            for i, agent in enumerate(AGENTS):
                self._spaces[agent][1].seed(seed + i)
        opening = self.opening
        if options:
            unknown = sorted(set(options) - {"opening"})
            if unknown:
                warnings.warn(f"hive.rl ignores the reset options {', '.join(map(repr, unknown))}", stacklevel=2)
            if "opening" in options:
                opening = self._opening(options["opening"])
        self._encoding = self._start(opening)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self._encoding.to_act()]
        self._settle()
        self._offer()

    def _start(self, opening: Sequence[str]) -> Encoding:
        for _ in range(100):
            board = self._new()
            for text in opening:
                board.push_text(text)
            for _ in range(self.random_opening):
                if board.is_game_over():
                    break
                board.push(self.game.ai.random_move(board, self.rng))
            if not board.is_game_over() or not self.random_opening:
                self._moves = len(board.move_stack)
                return encoding_for(self.game, board)
        raise InvalidOptionError(f"random_opening={self.random_opening}: 100 random openings all ended the game")

    def observe(self, agent: str) -> Observation:
        """``agent``'s planes, and the mask of its legal actions (all 0 when it is not to act or the game is over).

        The arrays are the environment's own, rewritten in place by the next step (see :mod:`hive.rl`): copy them
        to keep them.
        """
        encoding = self.encoding
        seat = _seat(agent)
        acting = agent == self.agent_selection and not self.terminations[agent] and not self.truncations[agent]
        return {
            "observation": encoding.planes(seat),
            "action_mask": encoding.mask() if acting else self._none,
        }

    def _offer(self) -> None:
        """Each agent's ``info["legal_actions"]``: the ids of the legal actions for the agent to act, none for the
        other or once the game is over."""
        agent = self.agent_selection
        over = self.terminations[agent] or self.truncations[agent]
        for other in self.agents:
            legal = self._no_actions if over or other != agent else self._legal_actions()
            self.infos[other]["legal_actions"] = legal

    def _legal_actions(self) -> NDArray[np.int64]:
        """The encoding's legal actions, or the mask's where it has no faster way (see :class:`Encoding`)."""
        encoding = self.encoding
        legal_actions = getattr(encoding, "legal_actions", None)
        if legal_actions is None:
            return np.flatnonzero(encoding.mask()).astype(np.int64, copy=False)
        legal: NDArray[np.int64] = legal_actions()
        return legal

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to act (``None`` once it is terminated or truncated).

        :raises IllegalActionError: for an action outside the space, or (with ``illegal_reward=None``) not legal.
        """
        encoding = self.encoding
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, bool) or not isinstance(action, int | np.integer) or not 0 <= action < encoding.actions:
            raise IllegalActionError(f"{action!r} is not an action: expected an int from 0 to {encoding.actions - 1}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        try:
            whole = encoding.play(int(action))
        except IllegalActionError as err:
            if self.illegal_reward is None:
                raise
            self.rewards[agent] = float(self.illegal_reward)
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {other: {"illegal_action": f"{agent}: {err}"} for other in self.agents}
            whole = False
        if whole:
            self._moves += 1
            self._settle()
        self.agent_selection = AGENTS[encoding.to_act()]
        self._accumulate_rewards()
        self._offer()

    def _settle(self) -> None:
        """After a whole move: the outcome's rewards, or the truncation at the move cap."""
        board = self.encoding.board
        outcome = board.outcome()
        if outcome is not None:
            self.terminations = dict.fromkeys(self.agents, True)
            if outcome.winner is not None:
                self.rewards[AGENTS[outcome.winner]] = 1.0
                self.rewards[AGENTS[1 - outcome.winner]] = -1.0
        elif self._moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
            outcome = board.adjudicate()
        else:
            return
        for agent in self.agents:
            self.infos[agent] = {"outcome": outcome}

    def render(self) -> str | NDArray[np.uint8] | None:
        """The position as ``render_mode`` asks (the HiveQueen turn under way included); ``None`` without one."""
        if self.render_mode is None:
            warnings.warn("render() needs a render_mode: 'svg' or 'rgb_array'", stacklevel=2)
            return None
        if self.render_mode == "svg":
            return self.encoding.svg()
        return self.encoding.rgb(self.render_size)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game: str = DEFAULT_GAME, **kwargs: Any) -> HiveEnv:
    """:class:`HiveEnv` of ``game`` (PettingZoo's name for the environment without wrappers)."""
    return HiveEnv(game, **kwargs)


def env(game: str = DEFAULT_GAME, **kwargs: Any) -> HiveEnv:
    """The AEC environment of ``game``, PettingZoo's way: ``hive.rl.env("Base+MLP")`` (any name
    :func:`hive.find_game` knows; ``kwargs`` as :class:`HiveEnv` takes them).

    The environment checks its own actions and order, so no PettingZoo wrapper is added: it is :func:`raw_env`.
    """
    return HiveEnv(game, **kwargs)


__all__ = [
    "AGENTS",
    "RENDER_MODES",
    "HiveEnv",
    "InvalidOptionError",
    "Observation",
    "ResetNeededError",
    "encoding_for",
    "env",
    "raw_env",
]
