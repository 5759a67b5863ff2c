"""A game's part of the browser game: the :class:`View` protocol its plug-in's view answers.

A view reads a game's options, records and move requests, and writes its positions as JSON for the page; the rest
of the web app (sessions, storage, turns, offers, the AI) is the same for every game. Each game package brings its
own view, written against this module and :mod:`hive.sdk.refusals` alone (the project's own are
``games/hive/view.py`` and ``games/hivequeen/view.py``), and names it in its
:class:`~hive.plugin.GamePlugin`; the web app finds it there, through the registry (:mod:`hive.web.views`).

A view has a core every game answers, and optional capabilities a game has or not: pictures for its rules page
(:class:`Figures`), turns built in steps (:class:`Previews`), reasons why a piece cannot move (:class:`Explains`),
pictures for the page (:class:`Assets`) and several games of one kind (:class:`Named`).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol, runtime_checkable

from ..game import Game, IllegalMoveError, InvalidMoveError
from .refusals import BadRequest, shown

#: A request's or an answer's JSON object.
JSON = dict[str, Any]


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


__all__ = [
    "JSON",
    "Assets",
    "Board",
    "Explains",
    "Figures",
    "Imported",
    "Named",
    "Previews",
    "View",
    "parse_move",
]
