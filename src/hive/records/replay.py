"""What the readers share: the board a record is replayed on, its MoveStrings replayed and checked, and the
result the record ends with."""

from __future__ import annotations

from collections.abc import Iterable

from ..games.hive import Board, GameType, IllegalMoveError, InvalidGameTypeError, InvalidMoveError
from .game import FINISHED, RESULTS, Game

_RESULT_TOKENS = {
    "whitewins": "WhiteWins",
    "blackwins": "BlackWins",
    "draw": "Draw",
    "inprogress": "InProgress",
    "notstarted": "InProgress",
    "1-0": "WhiteWins",
    "0-1": "BlackWins",
    "1/2-1/2": "Draw",
    "½-½": "Draw",
    "*": "InProgress",
}


def normalise_result(text: str) -> str | None:
    """The result written ``text`` (``1-0``, ``WhiteWins``, ``*``, ...) as one of ``RESULTS``, else ``None``."""
    return _RESULT_TOKENS.get(text.strip().lower().replace(" ", ""))


def new_board(game_type: GameType, queen_first: bool) -> Board:
    """The board a record is replayed on: the tournament opening unless a Queen is played on a first turn."""
    return Board(game_type, tournament_opening=not queen_first, repetition_draw=False)


def finish(game: Game, declared: str | None) -> Game:
    """Set the game's result: the final position's when it is over, else the record's ``declared`` one."""
    state = game.board.state
    if state in FINISHED:
        if declared in FINISHED and declared != state and not game.errors:
            game.errors.append(f"the record's result {declared} disagrees with the final position ({state})")
        game.result = state
    else:
        game.result = declared if declared in RESULTS else "InProgress"
    game.headers["Result"] = game.result
    return game


def game_from_moves(headers: dict[str, str], texts: list[str], notes: list[str]) -> Game:
    """The game of a record made of headers and MoveStrings, replayed up to its first bad move.

    :param notes: errors the reader met already, kept first in :attr:`Game.errors`.
    """
    declared = normalise_result(headers["Result"]) if "Result" in headers else None
    type_text = headers.get("GameType")
    try:
        game_type = GameType.parse(type_text) if type_text is not None else _infer_game_type(texts)
    except InvalidGameTypeError as err:
        game = Game(dict(headers), errors=[f"GameType header: {err}", *notes])
        return finish(game, declared)
    game = Game(dict(headers), game_type, [], "InProgress", new_board(game_type, _queen_first(texts[:2])), notes)
    _replay(game, texts)
    game.headers["GameType"] = str(game_type)
    return finish(game, declared)


def _queen_first(first_moves: Iterable[str]) -> bool:
    """Whether either player's first MoveString places the Queen (the original opening rule)."""
    return any(text.split()[0].lower()[1:2] == "q" for text in first_moves if text.split())


def _infer_game_type(texts: list[str]) -> GameType:
    letters = {t.split()[0][1:2].upper() for t in texts if t.split() and t.lower() != "pass"}
    return GameType("M" in letters, "L" in letters, "P" in letters)


def _replay(game: Game, texts: list[str]) -> None:
    """Play MoveStrings on ``game.board``, stopping at the first bad one."""
    board = game.board
    for number, text in enumerate(texts, start=1):
        try:
            board.push_text(text)
        except (InvalidMoveError, IllegalMoveError) as err:
            game.errors.append(f"move {number} '{text}': {err}")
            return
        game.moves.append(text)
