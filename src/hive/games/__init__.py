"""The games the project plays, found by name: ``find_game("Base+MLP")``, ``find_game("hivequeen")``.

Each game is a package of the same shape beside the others (:mod:`hive.games.hive`, :mod:`hive.games.hivequeen`)
that describes itself with a :class:`~hive.plugin.GamePlugin` named ``PLUGIN``. This registry is the one place the
apps learn of the games: the project's own, those that installed packages declare in the entry-point group
``hive.games`` (``name = "package:PLUGIN"``), and those given to :func:`register`.

The installed packages are looked for once, the first time the whole list is asked for (:func:`plugins`,
:func:`games`) or a name is not among the games known: reading every package's metadata costs more than
``import hive`` itself.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

from ..game import UnknownGameError
from ..plugin import GamePlugin, GameSpec, load

#: The project's own games.
BUILT_IN = ("hive.games.hive:PLUGIN", "hive.games.hivequeen:PLUGIN")
#: The entry-point group where installed packages declare their games.
ENTRY_POINT_GROUP = "hive.games"
#: The name of the game the apps play when none is named (see :func:`default_game`).
DEFAULT_GAME = "Base+MLP"

#: The game packages loaded so far, by kind, in the order they were found (all of them: :func:`plugins`).
PLUGINS: dict[str, GamePlugin] = {}
#: The games loaded so far, by name, Hive's game types first (all of them: :func:`games`).
GAMES: dict[str, GameSpec] = {}
_installed: list[bool] = []  # not empty once the installed packages were looked for


def register(plugin: GamePlugin) -> None:
    """Add ``plugin``'s games to the registry (in this process: worker processes find the entry points only).

    :raises ValueError: when its kind or one of its games' names is taken by another package.
    """
    if not isinstance(plugin, GamePlugin):
        raise TypeError(f"Expected a GamePlugin, not {type(plugin).__name__}.")
    if PLUGINS.get(plugin.kind, plugin) is not plugin:
        raise ValueError(f"A game package of kind {plugin.kind!r} is registered already.")
    taken = [name for name in plugin.games if GAMES.get(name, plugin.games[name]) is not plugin.games[name]]
    if taken:
        raise ValueError(f"The game names {', '.join(taken)} are taken by another package.")
    PLUGINS[plugin.kind] = plugin
    GAMES.update(plugin.games)


def unregister(kind: str) -> None:
    """Take the package of ``kind`` and its games out of the registry (a test's third game, for one)."""
    plugin = PLUGINS.pop(kind, None)
    if plugin is not None:
        for name in plugin.games:
            GAMES.pop(name, None)


def plugins() -> Mapping[str, GamePlugin]:
    """Every game package, by kind: the project's own, then the installed ones."""
    _load_installed()
    return PLUGINS


def games() -> Mapping[str, GameSpec]:
    """Every game, by name: the project's own, then the installed packages'."""
    _load_installed()
    return GAMES


def plugin_of(kind: object) -> GamePlugin:
    """The game package of ``kind``.

    :raises UnknownGameError: naming ``kind`` and the kinds there are.
    """
    if isinstance(kind, str) and kind not in PLUGINS:
        _load_installed()
    if isinstance(kind, str) and kind in PLUGINS:
        return PLUGINS[kind]
    raise UnknownGameError(f"Unknown kind of game {kind!r}: expected one of {', '.join(PLUGINS)}.")


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
        spec = _known(name)
        if spec is None and not _installed:  # perhaps an installed package's game
            _load_installed()
            spec = _known(name)
        if spec is not None:
            return spec
    raise UnknownGameError(f"Unknown game {name!r}: expected one of {', '.join(GAMES)}.")


def default_game() -> GameSpec:
    """The game the apps play when none is named: :data:`DEFAULT_GAME`, Hive with its three expansions.

    >>> from hive.games import default_game
    >>> default_game().name
    'Base+MLP'
    """
    return find_game(DEFAULT_GAME)


def _known(name: str) -> GameSpec | None:
    """The game of the packages loaded so far that ``name`` means, or ``None``."""
    return next((spec for plugin in PLUGINS.values() if (spec := plugin.find(name)) is not None), None)


def _load_installed() -> None:
    """Register the plug-ins that installed packages declare (once)."""
    if _installed:
        return
    _installed.append(True)
    from importlib.metadata import entry_points  # costly: only when the whole list is asked for

    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            register(point.load())
        except Exception as err:  # a broken third-party package must not take the project's own games down
            warnings.warn(f"Game package {point.value!r} ({point.name}) was not loaded: {err}", stacklevel=2)


for _reference in BUILT_IN:
    register(load(_reference))

__all__ = [
    "BUILT_IN",
    "DEFAULT_GAME",
    "ENTRY_POINT_GROUP",
    "GAMES",
    "PLUGINS",
    "default_game",
    "find_game",
    "games",
    "plugin_of",
    "plugins",
    "register",
    "unregister",
]
