"""Hive records as the browser's Import reads them: a GameString whose header must agree with its moves, a position
record followed by the moves played from it, or a bare list of moves (one a line, or separated by ``;``) played with
the New game dialog's rules."""

from __future__ import annotations

import re

from ...game import InvalidRecordError
from ...games.hive import (
    Board,
    GameType,
    IllegalMoveError,
    InvalidGameStringError,
    InvalidGameTypeError,
    InvalidMoveError,
)
from ...positions import is_position_record
from ..errors import BadRequest, shown
from . import JSON

#: The first word of a move: a piece (``wS1``, ``bQ``) or ``pass``.
_MOVE = re.compile(r"(?i)^(?:[wb][QSBGAMLP][1-3]?|pass)(?:\s|$)")
#: An expansion bug named in a move.
_EXPANSION = re.compile(r"(?i)(?<![A-Za-z])[wb]([MLP])(?![A-Za-z0-9])")


def _game_type(token: str) -> GameType | None:
    try:
        return GameType.parse(token)
    except InvalidGameTypeError:
        return None


def read_game(text: str, options: JSON) -> Board:
    """The board at the end of ``text``, every move checked; the rules other than the game type from ``options``.

    A GameString's state and turn must be what its moves lead to. A list of moves is played with ``options``' game
    type, widened to the expansion bugs the moves name.

    :raises BadRequest: naming the token that failed, or the header that contradicts the moves.
    """
    tokens = [t.strip() for t in re.split(r"[;\n]", text.strip()) if t.strip()]
    if not tokens:
        raise BadRequest("There is nothing to import: paste a GameString or a list of moves.")
    rules = {
        "tournament_opening": bool(options.get("tournament_opening", True)),
        "repetition_draw": bool(options.get("repetition_draw", False)),
    }
    if is_position_record(text):  # a game set up from a position: the position, then the moves from it
        try:
            return Board.from_record(";".join(tokens), **rules)
        except (InvalidRecordError, InvalidMoveError, IllegalMoveError) as err:
            raise BadRequest(str(err)) from None
    if _game_type(tokens[0]) is not None:
        try:
            board = Board.from_record(";".join(tokens), **rules)
        except (InvalidGameStringError, InvalidMoveError, IllegalMoveError) as err:
            raise BadRequest(str(err)) from None
        _check_header(tokens, board)
        return board
    if not _MOVE.match(tokens[0]):
        raise BadRequest(
            f"Not a GameString or a list of moves: it starts with {shown(tokens[0])}, which is neither a game type"
            " such as 'Base+MLP' nor a move such as 'wS1'."
        )
    chosen = _game_type(str(options.get("game_type", "Base+MLP"))) or GameType.parse("Base+MLP")
    letters = set(str(chosen).partition("+")[2]) | {m.upper() for m in _EXPANSION.findall(text)}
    board = Board("Base" + _plus(letters), **rules)
    for index, token in enumerate(tokens, start=1):
        try:
            board.push_text(token)
        except (InvalidMoveError, IllegalMoveError) as err:
            raise BadRequest(f"Move {index} {shown(token)}: {err}") from None
    return board


def _plus(letters: set[str]) -> str:
    found = "".join(b for b in "MLP" if b in letters)
    return "+" + found if found else ""


def _moves(n: int) -> str:
    return f"{n} move" if n == 1 else f"{n} moves"


def _check_header(tokens: list[str], board: Board) -> None:
    """Refuse a GameString whose state or turn is not where its moves lead."""
    if len(tokens) > 1 and tokens[1] != board.state:
        raise BadRequest(
            f"The GameString says the game is {tokens[1]}, but its moves leave it {board.state} "
            f"({board.turn_string}); correct or remove token 2."
        )
    if len(tokens) > 2 and tokens[2].lower() != board.turn_string.lower():
        raise BadRequest(
            f"The GameString says {tokens[2]}, but after its {_moves(len(board.history))} it is"
            f" {board.turn_string}; correct token 3."
        )


__all__ = ["read_game"]
