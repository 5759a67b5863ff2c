"""What a game sets for the browser's AI (its plug-in's ``web`` settings): the hint level and the opening noise."""

from __future__ import annotations

from dataclasses import dataclass

from ...games import plugin_of
from ...plugin import GameSpec


@dataclass(frozen=True)
class WebSettings:
    """The browser's settings for one game's AI.

    :ivar hint_level: the level that answers hints and reviews by default.
    :ivar play_noise: plies from the start during which the AI opponent varies its choices.
    """

    hint_level: str = "medium"
    play_noise: int = 0


def web_settings(spec: GameSpec) -> WebSettings:
    """The browser's settings for ``spec``'s game, from its plug-in.

    :raises ValueError: when the hint level is not one of the game's levels.
    """
    settings = plugin_of(spec.kind).settings_for("web", WebSettings)
    if settings.hint_level not in spec.ai.levels:
        raise ValueError(f"{spec.name}'s hint level {settings.hint_level!r} is not one of its levels")
    return settings


__all__ = ["WebSettings", "web_settings"]
