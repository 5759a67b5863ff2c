"""What one game package brings to the project: its games, its ways of ending, and its parts for each app.

A game is a plug-in: a package that builds a :class:`GamePlugin` and names it as ``PLUGIN``. The registry
(:mod:`hive.games`) finds the project's own games, the plug-ins that installed packages declare in the entry-point
group ``hive.games``, and those given to :func:`hive.games.register`, and every app asks the registry, never the
package: the browser for the view, the page module and the rules page, ``hive.rl`` for the encoding. The parts an
app owns (the browser's view, the RL encoding) are named as ``"module:attribute"`` and imported only by that app,
so a game package never imports an app.

A module of the package is compiled when a ``.pxd`` file beside its ``.py`` gives its C types: the build finds them
by that file, so a new game adds no list anywhere (:attr:`GamePlugin.compiled`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .game import Ending, GameSpec


def load(reference: str) -> Any:
    """The object ``"package.module:attribute"`` names, imported.

    :raises ImportError: naming the reference when its module or attribute does not exist.
    """
    module_name, _, attribute = reference.partition(":")
    module = importlib.import_module(module_name)
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise ImportError(f"{reference!r}: module {module_name} has no {attribute!r}") from None


@dataclass(frozen=True)
class GamePlugin:
    """One game package: the games it plays and what it brings for each app.

    :ivar kind: the package's games' family name (``hive``, ``hivequeen``): the name the apps know them by (the
        browser's page module is ``<kind>.js``).
    :ivar games: its games by name, in the order they are offered.
    :ivar find: the game a name means (``base+mlp``), or ``None``: the package's own spellings of its names.
    :ivar endings: the ways its rules end a game (see :class:`~hive.game.Ending`).
    :ivar package: the package's module name (``hive.games.hive``), where the build looks for its ``.pxd`` files.
    :ivar view: its browser view, ``"module:attribute"`` of a :class:`hive.web.views.View`; ``None``: not offered
        in the browser.
    :ivar encoding: its RL encoding, ``"module:attribute"`` of a class taking a board
        (:class:`hive.rl.encoding.Encoding`); ``None``: no RL environment.
    :ivar static: the folder holding its page module ``<kind>.js`` and the files it loads (each named
        ``<kind>.<ext>`` or ``<kind>-<name>``); ``None``: the page does not offer it (its view still answers the
        state API).
    :ivar rules: its "How to play" page, in Markdown; ``None``: none.
    """

    kind: str
    games: Mapping[str, GameSpec]
    find: Callable[[str], GameSpec | None]
    endings: tuple[Ending, ...]
    package: str
    view: str | None = None
    encoding: str | None = None
    static: Path | None = None
    rules: Path | None = None

    def __post_init__(self) -> None:
        if not self.kind.isidentifier() or not self.kind.islower():
            raise ValueError(f"A game's kind is a lower-case name, not {self.kind!r}.")
        strays = [spec.name for spec in self.games.values() if spec.kind != self.kind]
        if strays:
            raise ValueError(f"{', '.join(strays)}: not of kind {self.kind!r}, the plug-in's.")

    @property
    def compiled(self) -> tuple[str, ...]:
        """The package's modules that the build compiles: each one with a ``.pxd`` beside its ``.py``."""
        module = sys.modules.get(self.package) or importlib.import_module(self.package)
        folder = Path(module.__file__ or "").parent
        return tuple(
            f"{self.package}.{pxd.stem}" for pxd in sorted(folder.glob("*.pxd")) if pxd.with_suffix(".py").is_file()
        )

    def page_file(self, name: str) -> Path | None:
        """The file of the page module's folder called ``name``, if it is the plug-in's (named after its kind)."""
        if self.static is None or "/" in name or "\\" in name:
            return None
        stem = name.partition(".")[0]
        if stem != self.kind and not stem.startswith(f"{self.kind}-"):
            return None
        path = self.static / name
        return path if path.is_file() else None


__all__ = ["GamePlugin", "load"]
