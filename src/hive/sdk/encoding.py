"""What one kind of game brings to the RL environment: its actions, its observation planes and its pictures.

Each game package holds its own :class:`Encoding` class, written against this module (and :mod:`hive.sdk.raster` for
its pictures), and names it in its plug-in (:attr:`hive.plugin.GamePlugin.encoding`: the project's own are
``hive.games.<kind>.encoding:ENCODING``); the environment (:mod:`hive.rl.env`) is written once against this interface,
finds a game's encoding through its plug-in, and never asks which game it plays. Needs NumPy (the ``rl`` extra).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from ..game import Game

#: An action mask: 1 for each legal action, as :class:`gymnasium.spaces.Discrete` samples with it.
Mask = NDArray[np.int8]
#: Observation planes, ``(planes, rows, columns)``.
Planes = NDArray[np.uint8]


class IllegalActionError(ValueError):
    """An action that is not an action of the game's space, or not legal now; the message names the action and the
    rule it breaks."""


class Encoding(Protocol):
    """One game's actions and observations, on a board of the game (the environment's own).

    An action is an int in ``0 .. actions - 1``. Where a game's move is made in steps (HiveQueen: a movement, then
    productions), each step is an action of the same player, and the steps chosen so far are kept here until the
    move is whole and pushed on the board through the game protocol; the board never holds half a move.

    :ivar actions: the size of the action space.
    :ivar plane_names: what each observation plane holds, in order.
    :ivar plane_high: the largest value of each plane, shaped like the planes (the observation space's ``high``).

    An encoding may also have ``legal_actions()``: the ids of the actions :meth:`mask` marks, as an int64 array (new
    or kept, as the mask), found faster than by scanning the mask (:class:`EncodingBase` scans it); the environment
    reads the mask where an encoding has none.
    """

    actions: int
    plane_names: tuple[str, ...]
    plane_high: Planes

    @property
    def board(self) -> Game[Any]:
        """The board the encoding reads and plays on."""
        ...

    def to_act(self) -> int:
        """The seat (0 the first player, 1 the second) whose action is next."""
        ...

    def mask(self) -> Mask:
        """The legal actions of the seat to act: a new array, or one the encoding keeps and rewrites in place
        for the next position (a caller copies it to keep it)."""
        ...

    def planes(self, seat: int) -> Planes:
        """The position as ``seat`` sees it: a new array, or one the encoding keeps for ``seat`` and rewrites in
        place for the next position (a caller copies it to keep it)."""
        ...

    def play(self, action: int) -> bool:
        """Play ``action`` (an int in range) for the seat to act; returns whether a whole move was pushed.

        :raises IllegalActionError: naming the action and the rule, with nothing played.
        """
        ...

    def push(self, move: Any) -> None:
        """Push a whole move of the game's own type (the opponent's, say) between two moves.

        :raises IllegalActionError: when a move is under way.
        :raises ~hive.game.IllegalMoveError: naming the rule, when ``move`` is not legal.
        """
        ...

    def decode(self, action: int) -> Any:
        """What ``action`` means now, as a value of the game (see the game's module).

        :raises IllegalActionError: when it means nothing in this position.
        """
        ...

    def encode(self, move: Any) -> list[int]:
        """The actions that play the whole move ``move`` from here, in order.

        :raises IllegalActionError: when a move is under way or ``move`` is not legal.
        """
        ...

    def svg(self) -> str:
        """The position as an SVG document, the move under way included."""
        ...

    def rgb(self, size: int) -> NDArray[np.uint8]:
        """The position as a ``size`` x ``size`` RGB picture, the move under way included."""
        ...


class EncodingBase:
    """What an :class:`Encoding` may inherit: :meth:`legal_actions` read from its mask, for an encoding that has no
    faster way."""

    def mask(self) -> Mask:
        """The legal actions of the seat to act (each encoding's own)."""
        raise NotImplementedError

    def legal_actions(self) -> NDArray[np.int64]:
        """The ids of the actions :meth:`mask` marks, in increasing order (a new array)."""
        legal: NDArray[np.int64] = np.flatnonzero(self.mask()).astype(np.int64, copy=False)
        return legal


__all__ = ["Encoding", "EncodingBase", "IllegalActionError", "Mask", "Planes"]
