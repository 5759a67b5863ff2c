"""What a game sets for the arena (its plug-in's ``arena`` settings): the rule options, the move limit and whether
random openings are balanced."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..games import plugin_of
from ..plugin import GameSpec


@dataclass(frozen=True)
class OpeningBalance:
    """How the arena balances random openings: draw them again until a ``depth`` search scores them within
    ``margin`` of even, keeping the most balanced of ``tries`` draws if none is."""

    depth: int
    margin: int
    tries: int


@dataclass(frozen=True)
class ArenaSettings:
    """The arena's settings for one game.

    :ivar options: the rule options the arena plays with (Hive: the repetition draw on).
    :ivar max_moves: the default move limit, after which :meth:`~hive.game.Game.adjudicate` decides.
    :ivar balanced_openings: how random openings are balanced (given as the fields of :class:`OpeningBalance`), or
        ``None`` to take them as drawn.
    """

    options: Mapping[str, Any] = field(default_factory=dict)
    max_moves: int = 200
    balanced_openings: OpeningBalance | None = None

    def __post_init__(self) -> None:
        if isinstance(self.balanced_openings, Mapping):
            object.__setattr__(self, "balanced_openings", OpeningBalance(**self.balanced_openings))
        if self.max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, not {self.max_moves}")


def arena_settings(spec: GameSpec) -> ArenaSettings:
    """The arena's settings for ``spec``'s game, from its plug-in."""
    return plugin_of(spec.kind).settings_for("arena", ArenaSettings)


__all__ = ["ArenaSettings", "OpeningBalance", "arena_settings"]
