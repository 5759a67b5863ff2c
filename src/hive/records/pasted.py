"""A Hive game pasted as text, read liberally: a GameString whose header must agree with its moves, a position record
followed by the moves played from it, a bare list of moves (one a line, or separated by ``;``) played with the rules
given, or one game of the records other sites write, the same ones ``hive replay`` reads (hivegame.com's and Mzinga's
PGN, Boardspace's SGF). The browser's Import dialog reads what players paste through it.

>>> from hive.records.pasted import read_pasted
>>> read_pasted("wS1; bS1 wS1-", game_type="Base").board.move_texts()
['wS1', 'bS1 wS1-']
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..game import IllegalMoveError, InvalidMoveError, InvalidRecordError
from ..games.hive import Board, GameType, InvalidGameTypeError
from ..position_records import is_position_record, quoted
from .detect import read_string

#: The first word of a move: a piece (``wS1``, ``bQ``) or ``pass``.
_MOVE = re.compile(r"(?i)^(?:[wb][QSBGAMLP][1-3]?|pass)(?:\s|$)")
#: An expansion bug named in a move.
_EXPANSION = re.compile(r"(?i)(?<![A-Za-z])[wb]([MLP])(?![A-Za-z0-9])")


def _game_type(token: str) -> GameType | None:
    try:
        return GameType.parse(token)
    except InvalidGameTypeError:
        return None


class Pasted(NamedTuple):
    """What a pasted record holds: the board at its end, and what its reader accepted with a warning (as
    :attr:`~hive.records.recorded.RecordedGame.warnings` says, for the records of other sites)."""

    board: Board
    warnings: tuple[str, ...] = ()


def read_pasted(
    text: str, game_type: str = "Base+MLP", *, tournament_opening: bool = True, repetition_draw: bool = False
) -> Pasted:
    """The board at the end of ``text``, every move checked, with the rules given (a GameString or a position
    record names its own game type), and what the reader of a PGN or SGF record warned of (as ``hive replay``
    prints it).

    A GameString's state and turn must be what its moves lead to. A list of moves is played with ``game_type``,
    widened to the expansion bugs the moves name.

    :raises InvalidRecordError: naming the token that failed, or the header that contradicts the moves (the move
        errors name a move that failed).
    """
    tokens = [t.strip() for t in re.split(r"[;\n]", text.strip()) if t.strip()]
    if not tokens:
        raise InvalidRecordError(
            "There is nothing to import: paste a GameString, a list of moves or a PGN or SGF record."
        )
    rules = {"tournament_opening": tournament_opening, "repetition_draw": repetition_draw}
    start = text.lstrip("\ufeff \t\r\n")
    if start.startswith(("(", "[")):
        return _other_site(start, "sgf" if start.startswith("(") else "pgn", repetition_draw)
    if is_position_record(text):  # a game set up from a position: the position, then the moves from it
        return Pasted(Board.from_record(";".join(tokens), **rules))
    if _game_type(tokens[0]) is not None:  # a GameString: its state and turn must be where its moves lead
        return Pasted(Board.from_record(";".join(tokens), **rules))
    if not _MOVE.match(tokens[0]):
        raise InvalidRecordError(
            f"Not a GameString, a list of moves or a PGN or SGF record: it starts with {quoted(tokens[0])}, which is"
            " neither a game type such as 'Base+MLP', a move such as 'wS1', a PGN tag nor an SGF tree."
        )
    chosen = _game_type(game_type) or GameType.parse("Base+MLP")
    letters = set(str(chosen).partition("+")[2]) | {m.upper() for m in _EXPANSION.findall(text)}
    board = Board("Base" + _plus(letters), **rules)
    for index, token in enumerate(tokens, start=1):
        try:
            board.push_text(token)
        except (InvalidMoveError, IllegalMoveError) as err:
            raise type(err)(f"Move {index} {quoted(token)}: {err}") from None
    return Pasted(board)


def _other_site(text: str, fmt: str, repetition_draw: bool) -> Pasted:
    """The board at the end of the one game of an SGF or PGN record, read as ``hive replay`` reads it (its opening
    rule is the record's); the repetition draw as given."""
    name = fmt.upper()
    games = read_string(text, fmt)
    if len(games) != 1:
        found = "no game" if not games else f"{len(games)} games"
        raise InvalidRecordError(f"This {name} record holds {found}: paste one game.")
    game = games[0]
    if game.errors:
        raise InvalidRecordError(f"{name} record: {game.errors[0]}")
    rules = {"tournament_opening": game.board.tournament_opening, "repetition_draw": repetition_draw}
    return Pasted(Board.from_record(game.game_string(), **rules), tuple(game.warnings))


def _plus(letters: set[str]) -> str:
    found = "".join(b for b in "MLP" if b in letters)
    return "+" + found if found else ""


__all__ = ["Pasted", "read_pasted"]
