"""Each game's part of the browser game: a :class:`View` for each kind of game, named by the game's plug-in.

A view reads a game's options, records and move requests, and writes its positions as JSON for the page; the rest
of the web app (sessions, storage, turns, offers, the AI) is the same for every game. The web app finds a game's
view, page module and rules page through its :class:`~hive.plugin.GamePlugin` in the registry
(:mod:`hive.games`), so that a new game edits nothing here: the project's own views are ``views/hive.py`` and
``views/hivequeen.py``, another package's live in that package.

A view has a core every game answers, and optional capabilities a game has or not: pictures for its rules page
(:class:`Figures`), turns built in steps (:class:`Previews`), reasons why a piece cannot move (:class:`Explains`)
and pictures for the page (:class:`Assets`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, NamedTuple, Protocol, cast, runtime_checkable

from ...game import Game, IllegalMoveError, InvalidMoveError, UnknownGameError
from ...games import find_game, plugins
from ...games import plugin_of as registered
from ...plugin import GamePlugin, GameSpec, load
from ..shared.errors import BadRequest, shown

JSON = dict[str, Any]

#: The kind of game a new game is when the request names none.
DEFAULT_KIND = "hive"


class Board(Game[Any], Protocol):
    """A game's board as the web app uses it: the protocol's verbs, and the texts of the moves played."""

    def move_texts(self) -> list[str]:
        """The notation of every move played, oldest first."""
        ...


class Imported(NamedTuple):
    """A record a view read: the game's options, the board at the record's end (every move checked), and what the
    record's reader accepted with a warning."""

    options: JSON
    board: Board
    warnings: tuple[str, ...] = ()


class View(Protocol):
    """What the web app needs to know of one kind of game. Boards are the game's own (see :class:`~hive.game.Game`).

    :ivar kind: the kind's name (the module's and the page module's).
    :ivar record_example: how the game's record is written, for messages (``a GameString such as ...``).
    :ivar summary: one line under the game's title in the New game dialog.
    :ivar first_note: what follows the first side's name in "You play", in brackets (``White (first)``).
    :ivar import_label: what follows the title among the games to import, in brackets (``Hive (a GameString)``).
    :ivar import_example: a record, shown in the empty import box.
    :ivar import_empty: the message when the import box is left empty.
    """

    kind: str
    record_example: str
    summary: str
    first_note: str
    import_label: str
    import_example: str
    import_empty: str

    def sides(self, options: JSON) -> list[str]:
        """The names the page calls the two sides by in a game with ``options``, first player first (the notation's
        are the spec's ``sides``; an edition of the set may name them otherwise)."""
        ...

    def options(self, raw: JSON) -> JSON:
        """Check and complete the options of a new game.

        :raises BadRequest: naming the bad option.
        """
        ...

    def new_board(self, options: JSON) -> Board:
        """A board at the start of a game with ``options``."""
        ...

    def import_record(self, text: str, options: JSON) -> Imported:
        """Read a record into the game's options and the board at its end (every move checked), with the reader's
        warnings.

        :raises BadRequest: naming the part of the record that failed.
        """
        ...

    def from_position(self, text: str, options: JSON) -> tuple[JSON, Board]:
        """Read a position record (``Position;...``) into the game's options and a board at that position.

        :raises BadRequest: quoting the part of the record that failed and naming the rule it breaks.
        """
        ...

    def move(self, board: Any, request: JSON) -> Any:
        """The legal move a request names (in notation, ``{"move": text}``, or in the game's own fields).

        :raises BadRequest: saying what is malformed, or which rule the move breaks.
        """
        ...

    def position(self, board: Any) -> JSON:
        """The position as JSON for the page: the pieces, whose turn, the legal moves, the last move."""
        ...


@runtime_checkable
class Figures(Protocol):
    """A view that draws pictures for its game's rules page."""

    def figure(self, spec: str) -> str:
        """A picture for the game's rules page, as SVG, from a position written as the game's rules page writes it.

        :raises BadRequest: when ``spec`` names no position.
        """
        ...


@runtime_checkable
class Previews(Protocol):
    """A view of a game whose turns are built in steps."""

    def preview(self, board: Any, request: JSON) -> JSON:
        """What part of a turn leads to.

        :raises BadRequest: when the part is malformed or illegal.
        """
        ...


@runtime_checkable
class Explains(Protocol):
    """A view that says why a piece cannot move."""

    def why(self, board: Any, piece: object) -> str | None:
        """Why ``piece`` has no legal move here, in the rules' words (``None`` when it has one).

        :raises BadRequest: when ``piece`` names no piece of the game.
        """
        ...


@runtime_checkable
class Assets(Protocol):
    """A view that sends the page pictures or themes to draw the game with, beyond the positions."""

    def assets(self) -> JSON:
        """What the page draws the game with (pictures, themes)."""
        ...


@runtime_checkable
class Named(Protocol):
    """A view of a kind with several games, told apart by its options (Hive's game types)."""

    def options_of(self, game: str) -> JSON:
        """The options of a game of this kind named ``game`` (a name :func:`hive.find_game` knows)."""
        ...


def game_options(name: object) -> tuple[View, JSON]:
    """The view and the options (checked and completed) of the game named ``name``, for a request that names a
    game rather than a kind and options (a seek's ``game``).

    :raises BadRequest: naming the unknown game.
    """
    if not isinstance(name, str):
        raise BadRequest(f"'game' is a game's name, not {shown(name)}.")
    try:
        spec = find_game(name)
    except UnknownGameError as err:
        raise BadRequest(str(err)) from None
    if spec.kind not in kinds():
        raise BadRequest(f"{spec.name} is not played on this server.")
    view = view_for(spec.kind)
    options = view.options(view.options_of(spec.name) if isinstance(view, Named) else {})
    return view, options


def preview(view: View, board: Any, request: JSON) -> JSON:
    """What part of a turn leads to (:class:`Previews`).

    :raises BadRequest: when the game's turns are single moves, or the part is malformed or illegal.
    """
    if not isinstance(view, Previews):
        raise BadRequest(f"A {spec_of(view.kind).title} turn is a single move: there is nothing to preview.")
    return view.preview(board, request)


def why(view: View, board: Any, piece: object) -> str | None:
    """Why ``piece`` has no legal move here (:class:`Explains`); ``None`` when it has one or the game cannot say.

    :raises BadRequest: when ``piece`` names no piece of the game.
    """
    return view.why(board, piece) if isinstance(view, Explains) else None


def assets(view: View) -> JSON:
    """What the page draws the game with beyond the positions (:class:`Assets`); may be empty."""
    return view.assets() if isinstance(view, Assets) else {}


def kinds() -> list[str]:
    """The kinds of game with a view, in the order of the registry (:func:`hive.games.plugins`)."""
    return [kind for kind, plugin in plugins().items() if plugin.view is not None]


def on_page() -> list[str]:
    """The kinds of game the page offers: those with a view and a page module."""
    return [kind for kind in kinds() if registered(kind).page_file(f"{kind}.js") is not None]


def plugin_of(kind: str) -> GamePlugin:
    """The game package of ``kind``."""
    return registered(kind)


def spec_of(kind: str) -> GameSpec:
    """The first game of the package of ``kind`` (its title, sides and record are those of every game of the
    kind)."""
    return next(iter(registered(kind).games.values()))


def rules_page(kind: str) -> str | None:
    """The address of the rules of the games of ``kind``, or ``None`` when the package has none to show."""
    rules = registered(kind).rules
    return f"/how-to-play/{kind}" if rules is not None and rules.is_file() else None


def description(view: View) -> JSON:
    """A kind of game as the page's New game and Import dialogs offer it: the view's texts, with the title, the side
    names (first player first: ``first`` is always 0) and the record's name of the registry, and the rules page when
    the package has the rules (:func:`rules_page`)."""
    spec = spec_of(view.kind)
    return {
        "kind": view.kind,
        "title": spec.title,
        "summary": view.summary,
        "sides": list(spec.sides),
        "first": 0,
        "first_note": view.first_note,
        "record": spec.record_noun,
        "import": {"label": view.import_label, "placeholder": view.import_example, "empty": view.import_empty},
        "rules": rules_page(view.kind),
    }


def view_for(kind: object) -> View:
    """The view of the games of ``kind``.

    :raises BadRequest: naming the unknown kind.
    """
    known = kinds()
    if not isinstance(kind, str) or kind not in known:
        raise BadRequest(f"Unknown game kind {shown(kind)}: expected one of {', '.join(known)}.")
    return _load(kind)


def _load(kind: str) -> View:
    reference = registered(kind).view
    assert reference is not None  # kinds() lists only the plug-ins with a view
    return cast(View, load(reference))


def parse_move(board: Board, text: object, notation: str) -> Any:
    """The legal move a request's ``move`` names, as the game reads and checks it.

    :raises BadRequest: when ``text`` is not a text (saying it should be ``notation``), or the game's reason.
    """
    if not isinstance(text, str):
        raise BadRequest(f"'move' must be {notation}, not {shown(text)}.")
    try:
        return board.parse_move(text)
    except (InvalidMoveError, IllegalMoveError) as err:
        raise BadRequest(str(err)) from None


def in_sides(text: str, notation: tuple[str, ...], names: list[str]) -> str:
    """``text`` with each side's name in the notation (``White``) replaced by the page's (``Warm``)."""
    mapping = {old: new for old, new in zip(notation, names, strict=True) if old != new}
    if not mapping:
        return text
    return re.sub(r"\b(" + "|".join(mapping) + r")\b", lambda m: mapping[m.group()], text)


def pass_note(position: JSON, sides: list[str]) -> str | None:
    """Why the side to move can only pass, or why the other side just passed (a position's ``pass`` and
    ``passed``), in the page's names for the sides; ``None`` when neither is so."""
    turn = position.get("turn", 0)
    if position.get("pass"):
        return f"{sides[turn]} has no legal move: no piece can be placed or moved, so {sides[turn]} must pass."
    if position.get("passed"):
        return f"{sides[1 - turn]} had no legal move and passed."
    return None


def replay(view: View, options: JSON, texts: Iterable[str], start: str | None = None) -> Board:
    """The board of a stored game: its moves played again from their texts (as ``move_text`` wrote them), each
    checked, each text kept, from the position record ``start`` when the game was set up from one."""
    board = view.new_board(options) if start is None else view.from_position(start, options)[1]
    for text in texts:
        board.push(board.parse_move(text), text)
    return board


__all__ = [
    "DEFAULT_KIND",
    "JSON",
    "Assets",
    "Board",
    "Explains",
    "Figures",
    "Imported",
    "Named",
    "Previews",
    "View",
    "assets",
    "description",
    "game_options",
    "in_sides",
    "kinds",
    "on_page",
    "parse_move",
    "pass_note",
    "plugin_of",
    "preview",
    "replay",
    "rules_page",
    "spec_of",
    "view_for",
    "why",
]
