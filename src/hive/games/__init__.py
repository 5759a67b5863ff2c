"""The games the project plays, found by name: ``find_game("Base+MLP")``, ``find_game("hivequeen")``.

Each game is a package of the same shape beside the others (:mod:`hive.games.hive`, :mod:`hive.games.hivequeen`)
and describes itself with a :class:`~hive.game.GameSpec`. This module is the only place that lists them: a new
game adds its package to ``_PACKAGES`` here.
"""

from __future__ import annotations

from ..game import GameSpec, UnknownGameError
from . import hive, hivequeen

_PACKAGES = (hive, hivequeen)

#: Every game by name, Hive's game types first.
GAMES: dict[str, GameSpec] = {name: spec for package in _PACKAGES for name, spec in package.GAMES.items()}


def find_game(name: str) -> GameSpec:
    """The game called ``name``: a Hive game type (``Base``, ``Base+M`` ... ``Base+MLP``, any case and order of the
    letters) or ``HiveQueen``. Call the result for a new board at the start.

    >>> from hive.games import find_game
    >>> board = find_game("Base+MLP")()
    >>> board.game_name
    'Base+MLP'

    :raises UnknownGameError: naming ``name`` and the games there are.
    """
    if isinstance(name, str):
        for package in _PACKAGES:
            spec: GameSpec | None = package.find(name)
            if spec is not None:
                return spec
    raise UnknownGameError(f"Unknown game {name!r}: expected one of {', '.join(GAMES)}.")


__all__ = ["GAMES", "find_game"]
