"""Reading UHP GameStrings, one game per line; a line may be a position record followed by the moves played from it
(``Position;Base+MLP;Black[4];...;move;...``, see :mod:`hive.games.hive.position_record`)."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator

from ..game import InvalidPositionError
from ..games.hive import Board, GameStringWarning, InvalidGameStringError, InvalidGameTypeError, position_record
from ..position_records import is_position_record
from .recorded import FINISHED, RecordedGame, RecordHeaders, Where
from .replay import _replay, finish, game_from_moves, headers_of, normalise_result, safe_game, safe_headers
from .text import MAX_WORD, LongLine, bounded_lines, quote


def read_game_strings(handle: Iterable[str], where: Where | None = None) -> Iterator[RecordedGame]:
    """Read UHP GameStrings, one game per line (blank lines and ``#`` comments are skipped).

    :param where: a filter on each game's headers, read first (see :func:`hive.records.iter_headers`): only the
        games it accepts are replayed and yielded.
    """
    for number, tokens in enumerate(_lines(handle), start=1):
        if isinstance(tokens, LongLine):
            if where is None or where(_long(number, tokens)):
                yield RecordedGame(headers={"Result": "InProgress"}, errors=[f"GameString {tokens.error()}"])
            continue
        texts = [t for t in tokens[3:] if t]
        if where is not None and not where(safe_headers(number, _headers, number, tokens, texts)):
            continue
        yield safe_game(_game, tokens, texts)


def _position_game(tokens: list[str]) -> RecordedGame:
    """The game of a position record and the moves after it: the position set up, the moves replayed up to the
    first bad one."""
    line = ";".join(tokens)
    try:
        found, moves = position_record.read(line)
    except InvalidPositionError as err:
        return RecordedGame(headers={"Result": "InProgress"}, errors=[str(err)])
    board = Board.from_position(";".join(tokens[: len(tokens) - len(moves)]))
    headers = {"GameType": str(found.game_type), "Position": board.position_text()}
    game = RecordedGame(headers, found.game_type, [], "InProgress", board, [])
    return finish(game, None, _replay(game, [t for t in moves if t]))


def _game(tokens: list[str], texts: list[str]) -> RecordedGame:
    """The game of one GameString's tokens."""
    if is_position_record(tokens[0]):
        return _position_game(tokens)
    error = _header_error(tokens)
    if error is not None:
        game = RecordedGame(errors=[error])
        game.headers.update({"GameType": str(game.game_type), "Result": "InProgress"})
        return game
    game = game_from_moves({"GameType": tokens[0]}, texts, [])
    declared = normalise_result(tokens[1]) if len(tokens) > 1 else None
    if game.result == "InProgress" and declared in FINISHED and not game.errors:
        game.errors.append(f"state {quote(tokens[1])} disagrees with the position after the moves (InProgress)")
    return game


def read_game_string_headers(handle: Iterable[str]) -> Iterator[RecordHeaders]:
    """The game type, state and number of moves of each GameString, without replaying the moves."""
    for number, tokens in enumerate(_lines(handle), start=1):
        if isinstance(tokens, LongLine):
            yield _long(number, tokens)
        else:
            yield safe_headers(number, _headers, number, tokens, [t for t in tokens[3:] if t])


def _lines(handle: Iterable[str]) -> Iterator[list[str] | LongLine]:
    """The tokens of each GameString line (a line too long to read as it is)."""
    for raw in bounded_lines(handle):
        if isinstance(raw, LongLine):
            yield raw
            continue
        line = raw.strip().lstrip("\ufeff")
        if line and not line.startswith("#"):
            yield [t.strip() for t in line.split(";")]


def _header_error(tokens: list[str]) -> str | None:
    """What is wrong with a GameString's game type, state or turn, if anything."""
    for place, token in enumerate(tokens[:3], start=1):
        if len(token) > MAX_WORD:
            return f"Invalid GameString: token {place} {quote(token)} is far longer than a game type, state or turn"
    try:
        # the header tokens only, for their form: the moves are replayed apart
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", GameStringWarning)
            Board.from_record(";".join(tokens[:3]), strict=False)
    except (InvalidGameStringError, InvalidGameTypeError) as err:
        return str(err)
    return None


def _long(number: int, line: LongLine) -> RecordHeaders:
    """The headers of a GameString line too long to read: its error alone."""
    return RecordHeaders(number, {"Result": "InProgress"}, 0, [f"GameString {line.error()}"])


def _headers(number: int, tokens: list[str], texts: list[str]) -> RecordHeaders:
    """A GameString's headers: ``GameType`` and its state as ``Result`` (a position record's game type alone)."""
    if is_position_record(tokens[0]):
        try:
            moves = len([t for t in position_record.read(";".join(tokens))[1] if t])
        except InvalidPositionError as err:
            return RecordHeaders(number, {}, 0, [str(err)])
        return RecordHeaders(number, {"GameType": tokens[1]}, moves)
    headers = {"GameType": tokens[0]}
    if len(tokens) > 1:
        headers["Result"] = tokens[1]
    error = _header_error(tokens)
    found = headers_of(number, headers, texts, [])
    if error is not None:
        found.errors = [error]
    return found
