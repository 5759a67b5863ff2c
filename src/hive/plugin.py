"""What one game package brings to the project: its games (:class:`GameSpec`, with its AI: :class:`GameAI`), its
ways of ending, and its parts and settings for each app (:class:`GamePlugin`).

A game is a plug-in: a package that builds a :class:`GamePlugin` and names it as ``PLUGIN``. The registry
(:mod:`hive.games`) finds the project's own games, the plug-ins that installed packages declare in the entry-point
group ``hive.games``, and those given to :func:`hive.games.register`, and every app asks the registry, never the
package: the browser for the view, the page module and the rules page, ``hive.rl`` for the encoding. The parts a
game brings an app (its browser view, its RL encoding) live in its own package (``view.py``, ``encoding.py``),
written against the SDK (:mod:`hive.sdk`), never an app; the plug-in names them as ``"module:attribute"``, imported
only by the app that uses them (an encoding needs NumPy, which ``import hive`` never loads). What an app may set per
game (the arena's move limit, the browser's hint level...) is the plug-in's ``settings`` for that app, read by the
app into its own settings type (:meth:`GamePlugin.settings_for`).

A module of the package is compiled when a ``.pxd`` file beside its ``.py`` gives its C types: the build finds them
by that file, so a new game adds no list anywhere (:attr:`GamePlugin.compiled`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .game import Ending, Game, InvalidPositionError, InvalidRecordError, UnknownGameError

if TYPE_CHECKING:
    import random

    from .search.limits import Limits, SearchResult

M = TypeVar("M")
T = TypeVar("T")


@dataclass(frozen=True)
class GameAI:
    """What a game brings for its players: named levels, a searcher and a random mover.

    :ivar levels: the named strength levels (``easy`` ... ``max``) as search limits.
    :ivar searcher: ``searcher(seed, opening_noise)`` makes a searcher whose ``search(board, limits)`` returns a
        :class:`~hive.search.SearchResult` of the game's own move type.
    :ivar random_move: a random legal move (the game's own random mover: uniform for Hive, a random movement
        then random production steps for HiveQueen).
    :ivar win_chance: the first player's winning chance (0..1) for a score of the searcher's, from the first
        player's point of view; ``None`` where the scores are not calibrated.
    :ivar parameters: the AI's tunable parameters (its evaluation's weights, its search's numbers) by name, as
        shipped; empty where it has none (``hive tune`` tunes them).
    :ivar searcher_with: ``searcher_with(seed, opening_noise, values)`` makes a searcher playing with ``values``
        (some of :attr:`parameters`; the others as shipped), raising ``ValueError`` for a name or value it refuses;
        ``None`` where there are no parameters.
    """

    levels: Mapping[str, Limits]
    searcher: Callable[[int | None, int], Any]
    random_move: Callable[[Any, random.Random], Any]
    win_chance: Callable[[int], float] | None = None
    parameters: Mapping[str, float] = field(default_factory=dict)
    searcher_with: Callable[[int | None, int, Mapping[str, float]], Any] | None = None

    def search(self, board: Game[M], limits: Limits, seed: int | None = None, noise: int = 0) -> SearchResult[M]:
        """Search ``board`` with a new searcher of this game."""
        result: SearchResult[M] = self.searcher(seed, noise).search(board, limits)
        return result


@dataclass(frozen=True)
class GameSpec:
    """A game the project plays, as :func:`hive.find_game` returns it: call it for a new board at the start.

    :ivar name: the game's name (``Base+MLP``, ``HiveQueen``).
    :ivar kind: its package's kind (``hive``, ``hivequeen``): see :class:`GamePlugin`.
    :ivar title: the game's title for people (``Hive``, ``HiveQueen``).
    :ivar sides: the two sides' names, first player first.
    :ivar new: makes a new board at the start, with the rule options it is given (see ``options``).
    :ivar ai: the game's players (levels, searcher, random mover).
    :ivar options: the names of the game's rule options, as keyword arguments of ``new`` (Hive:
        ``tournament_opening``, ``repetition_draw``).
    :ivar move_noun: what one entry of the move list is called (``ply``, ``turn``).
    :ivar record_noun: what one game's record is called (``GameString``, ``HiveQueen record``).
    """

    name: str
    kind: str
    title: str
    sides: tuple[str, str]
    new: Callable[..., Game[Any]]
    ai: GameAI
    options: tuple[str, ...] = ()
    move_noun: str = "move"
    record_noun: str = "record"

    def __call__(self, **options: Any) -> Game[Any]:
        """A new board at the start, with rule ``options`` (keyword arguments among :attr:`options`).

        :raises UnknownGameError: naming an option the game does not have.
        """
        self._check_options(options)
        return self.new(**options)

    def from_position(self, text: str, **options: Any) -> Game[Any]:
        """A new board at the position ``text`` records (see :meth:`Game.from_position`), with rule ``options``.

        :raises InvalidPositionError: naming the rule the position breaks, or a position of another game.
        :raises UnknownGameError: naming an option the game does not have.
        """
        self._check_options(options)
        board: Game[Any] = type(self.new(**options)).from_position(text, **options)
        if board.game_name != self.name:
            from .position_records import quoted  # position_records builds on the protocol

            raise InvalidPositionError(
                f"Invalid position: {quoted(text)} is a position of {board.game_name}, not of {self.name}."
            )
        return board

    def from_record(self, text: str, **options: Any) -> Game[Any]:
        """A new board replaying the record ``text`` (see :meth:`Game.from_record`), with rule ``options``.

        :raises InvalidRecordError: naming the part that failed, or a record of another game.
        :raises UnknownGameError: naming an option the game does not have.
        """
        self._check_options(options)
        board: Game[Any] = type(self.new(**options)).from_record(text, **options)
        if board.game_name != self.name:
            raise InvalidRecordError(f"Invalid record: a record of {board.game_name}, not of {self.name}.")
        return board

    def _check_options(self, options: Mapping[str, Any]) -> None:
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(self.options) or "none"
            raise UnknownGameError(f"{self.name} has no rule option {', '.join(unknown)} (its options: {known}).")


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
    :ivar view: its browser view, ``"module:attribute"`` of a :class:`hive.sdk.view.View` (the project's games':
        ``hive.games.<kind>.view:VIEW``); ``None``: not offered in the browser.
    :ivar encoding: its RL encoding, ``"module:attribute"`` of a class taking a board
        (:class:`hive.sdk.encoding.Encoding`; the project's games': ``hive.games.<kind>.encoding:ENCODING``);
        ``None``: no RL environment.
    :ivar static: the folder holding its page module ``<kind>.js`` and the files it loads (each named
        ``<kind>.<ext>`` or ``<kind>-<name>``); ``None``: the page does not offer it (its view still answers the
        state API).
    :ivar rules: its "How to play" page, in Markdown (English); ``None``: none.
    :ivar locales: its translations: a folder of ``<lang>/`` folders, each holding its page's texts
        (``page.po``: the piece names, its page module's texts, keys starting with its kind), its refusals
        (``messages.po``) and its "How to play" page in that language (``rules.md``); ``None``: English only.
    :ivar settings: what it sets for each app, by the app's name (``arena``, ``cli``, ``web``, ``players``,
        ``tune``): each app reads its part into its own settings type, with defaults for what is not set; a
        capability an app asks for and the game may lack is one of these (``tune``'s readers of records, see
        :mod:`hive.tune.capabilities`).
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
    locales: Path | None = None
    settings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

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

    def settings_for(self, app: str, kind: type[T]) -> T:
        """The plug-in's settings for ``app``, as the app's settings type ``kind`` (a dataclass whose fields have
        defaults).

        :raises ValueError: naming the plug-in, the app and what its settings got wrong.
        """
        given = self.settings.get(app, {})
        try:
            return kind(**given)
        except (TypeError, ValueError) as err:
            raise ValueError(f"Game package {self.kind!r} has bad {app} settings {dict(given)!r}: {err}") from None

    def page_file(self, name: str) -> Path | None:
        """The file of the page module's folder called ``name``, if it is the plug-in's (named after its kind)."""
        if self.static is None or "/" in name or "\\" in name:
            return None
        stem = name.partition(".")[0]
        if stem != self.kind and not stem.startswith(f"{self.kind}-"):
            return None
        path = self.static / name
        return path if path.is_file() else None

    def rules_in(self, lang: str) -> Path | None:
        """Its "How to play" page in ``lang`` (``locales/<lang>/rules.md``), or in English where it has none."""
        if self.rules is None:
            return None
        translated = self.locales / lang / "rules.md" if self.locales is not None else None
        return translated if translated is not None and translated.is_file() else self.rules


__all__ = ["GameAI", "GamePlugin", "GameSpec", "load"]
