"""The games' views as the web app finds them: each game's plug-in (:class:`~hive.plugin.GamePlugin`) in the
registry (:mod:`hive.games`) names its view, which its own package holds (a :class:`~hive.sdk.view.View`), so that
a new game edits nothing here. Beside the lookups, what the app does with any view: a game's options from its name,
the optional capabilities asked for with a fallback, the dialogs' description, a stored game replayed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, cast

from ..game import UnknownGameError
from ..games import default_game, find_game, plugins
from ..games import plugin_of as registered
from ..plugin import GamePlugin, GameSpec, load
from ..sdk.view import JSON, Assets, Board, Explains, Named, Previews, View
from .shared.errors import BadRequest, shown

#: The kind of game a new game is when the request names none: the default game's (see :func:`hive.games.default_game`).
DEFAULT_KIND = default_game().kind


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
    "assets",
    "description",
    "game_options",
    "in_sides",
    "kinds",
    "on_page",
    "pass_note",
    "plugin_of",
    "preview",
    "replay",
    "rules_page",
    "spec_of",
    "view_for",
    "why",
]
