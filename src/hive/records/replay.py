"""What the readers share: the board a record is replayed on, its MoveStrings replayed and checked, and the
result the record ends with."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ParamSpec

from ..games.hive import Board, GameType, IllegalMoveError, InvalidGameTypeError, InvalidMoveError
from .movestring import CANONICAL, CLIMB, NUMBERED, Rewrites, rewrite
from .recorded import FINISHED, RESULTS, RecordedGame, RecordHeaders
from .text import MAX_WORD, quote

_P = ParamSpec("_P")
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


def unexpected(err: Exception) -> str:
    """The error on a game whose text made a reader fail in a way it does not foresee."""
    return f"the game could not be read ({type(err).__name__}: {quote(str(err))})"


def safe_game(read: Callable[_P, RecordedGame], *args: _P.args, **kwargs: _P.kwargs) -> RecordedGame:
    """The game ``read(*args)`` makes; any failure on hostile text becomes the game's error, so the next games are
    read."""
    try:
        return read(*args, **kwargs)
    except Exception as err:  # whatever the text does, it spoils its own game only
        return RecordedGame(headers={"Result": "InProgress"}, errors=[unexpected(err)])


def safe_headers(number: int, read: Callable[_P, RecordHeaders], *args: _P.args, **kwargs: _P.kwargs) -> RecordHeaders:
    """The headers ``read(*args)`` makes, or game ``number`` with its failure as an error (see :func:`safe_game`)."""
    try:
        return read(*args, **kwargs)
    except Exception as err:  # as in safe_game
        return RecordHeaders(number, {}, 0, [unexpected(err)])


def game_type_of(text: str) -> GameType:
    """The game type a header writes (:meth:`GameType.parse`), a text too long for one quoted only in part.

    :raises InvalidGameTypeError: for a text naming no game type.
    """
    if len(text) > MAX_WORD:
        raise InvalidGameTypeError(f"Unknown game type {quote(text)}.")
    return GameType.parse(text)


def new_board(game_type: GameType, queen_first: bool) -> Board:
    """The board a record is replayed on: the tournament opening unless a Queen is played on a first turn."""
    return Board(game_type, tournament_opening=not queen_first, repetition_draw=False)


def finish(game: RecordedGame, declared: str | None, complete: bool = True) -> RecordedGame:
    """Set the game's result: the final position's when it is over, else the record's ``declared`` one.

    :param complete: whether every move of the record was replayed; the result a record declares is not kept
        for the game read up to a bad move (it is then ``InProgress``, with a warning).
    """
    state = game.board.state
    if state in FINISHED:
        if declared in FINISHED and declared != state and not game.errors:
            game.errors.append(f"the record's result {declared} disagrees with the final position ({state})")
        game.result = state
    elif not complete and declared in FINISHED:
        game.result = "InProgress"
        game.warnings.append(
            f"the record's result {declared} is not kept: the game read stops after move {game.board.ply},"
            " so it is InProgress"
        )
    else:
        game.result = declared if declared in RESULTS else "InProgress"
    if declared in FINISHED and game.result != declared:
        game.headers.pop("SgfResult", None)  # a writer would otherwise state the record's result again
    game.headers["Result"] = game.result
    return game


def game_from_moves(headers: dict[str, str], texts: list[str], notes: list[str]) -> RecordedGame:
    """The game of a record made of headers and MoveStrings, replayed up to its first bad move.

    :param notes: errors the reader met already, kept first in :attr:`Game.errors`.
    """
    declared = normalise_result(headers["Result"]) if "Result" in headers else None
    type_text = headers.get("GameType")
    try:
        game_type = game_type_of(type_text) if type_text is not None else _infer_game_type(texts)
    except InvalidGameTypeError as err:
        game = RecordedGame(dict(headers), errors=[f"GameType header: {err}", *notes])
        return finish(game, declared, not texts)
    game = RecordedGame(
        dict(headers), game_type, [], "InProgress", new_board(game_type, _queen_first(texts[:2])), notes
    )
    complete = _replay(game, texts)
    game.headers["GameType"] = str(game_type)
    return finish(game, declared, complete)


def headers_of(number: int, headers: dict[str, str], texts: list[str], errors: list[str]) -> RecordHeaders:
    """The :class:`RecordHeaders` of a record made of headers and MoveStrings, without replaying them."""
    found = dict(headers)
    errors = list(errors)
    try:
        found["GameType"] = str(game_type_of(headers["GameType"]) if "GameType" in headers else _infer_game_type(texts))
    except InvalidGameTypeError as err:
        errors.insert(0, f"GameType header: {err}")
    declared = normalise_result(headers["Result"]) if "Result" in headers else None
    if declared is None:
        found.pop("Result", None)
    else:
        found["Result"] = declared
    return RecordHeaders(number, found, len(texts), errors)


def _queen_first(first_moves: Iterable[str]) -> bool:
    """Whether either player's first MoveString places the Queen (the original opening rule)."""
    return any(text.split()[0].lower()[1:2] == "q" for text in first_moves if text.split())


def _infer_game_type(texts: list[str]) -> GameType:
    letters = {t.split()[0][1:2].upper() for t in texts if t.split() and t.lower() != "pass"}
    return GameType("M" in letters, "L" in letters, "P" in letters)


def _replay(game: RecordedGame, texts: list[str]) -> bool:
    """Play MoveStrings on ``game.board``, stopping at the first bad one; whether all were played.

    A text the board's strict parser refuses is rewritten (see :mod:`hive.records.movestring`) and tried again;
    the moves are kept as UHP writes them, and the rewrites become warnings.
    """
    board = game.board
    rewrites = Rewrites()
    complete = True
    for number, text in enumerate(texts, start=1):
        if len(text) > MAX_WORD:
            game.errors.append(f"move {number} {quote(text)}: Invalid MoveString: far longer than any move")
            complete = False
            break
        try:
            board.push_text(text)
            if text not in CANONICAL:
                text, notes = rewrite(text)
                rewrites.add(number, notes)
        except (InvalidMoveError, IllegalMoveError) as strict:
            try:
                canonical, notes = _play_rewritten(board, text, strict)
            except (InvalidMoveError, IllegalMoveError) as err:
                game.errors.append(f"move {number} {quote(text)}: {err}")
                complete = False
                break
            rewrites.add(number, notes)
            text = canonical
        game.moves.append(text)
    game.warnings.extend(rewrites.warnings())
    return complete


def _play_rewritten(
    board: Board, text: str, strict: InvalidMoveError | IllegalMoveError
) -> tuple[str, list[tuple[str, str]]]:
    """Play ``text`` as rewritten: raises ``strict`` (the strict parser's error) when no rewrite applies, else
    the error of the rewritten move, if any."""
    canonical, notes = rewrite(text, board)
    if not any(kind in (NUMBERED, CLIMB) for kind, _ in notes):
        raise strict
    try:
        board.push_text(canonical)
    except IllegalMoveError as err:
        if any(kind == CLIMB for kind, _ in notes):
            raise IllegalMoveError(f"read as '{canonical}', on top of the piece there: {err}") from None
        raise
    return canonical, notes
