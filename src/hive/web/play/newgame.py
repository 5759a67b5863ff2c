"""A new game as a request asks for it: its kind, mode, options, seats, AI, the creator's name and choice of engine
help, or a record to go on from, or a position to start from; and the rematch of a game, with the colours swapped.

Nothing is stored here: :func:`new_game` and :func:`rematch` read and check the request and deal the seat tokens;
the service keeps the result.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from ...games import find_game, games
from ...sdk.view import JSON, Board, View
from ..shared.errors import BadRequest, shown
from ..shared.model import GameRecord
from ..shared.values import check_text
from ..views import DEFAULT_KIND, replay, view_for
from . import clock, setup

MODES = ("ai", "local", "online")
#: The AI level that plays random moves; the others are the game's own.
RANDOM = "random"


#: The colour a new game's creator asks for, by any game's side names: the first player's seat or the second's.
def seats() -> dict[str, int]:
    """The seat each side's name asks for, in any game (``white`` and ``south`` are the first player's)."""
    return {side.lower(): seat for spec in games().values() for seat, side in enumerate(spec.sides)}


#: The longest display name a player may give.
NAME_LIMIT = 24
#: The longest record a new game may go on from (a GameString, PGN or SGF), in characters: a request's body.
RECORD_LIMIT = 64 * 1024


def ai_levels(name: str) -> tuple[str, ...]:
    """The AI levels of the game called ``name``: the random mover and the game's own levels."""
    return (RANDOM, *find_game(name).ai.levels)


def all_ai_levels() -> list[str]:
    """The AI levels of every game, in order."""
    levels: list[str] = []
    for spec in games().values():
        levels += [level for level in ai_levels(spec.name) if level not in levels]
    return levels


def display_name(value: object) -> str | None:
    """A player's display name as given: its white space tidied, ``None`` when empty.

    :raises BadRequest: when it is not a text, too long, or holds control or format characters (see
        :func:`~hive.web.shared.values.check_text`).
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadRequest(f"'name' must be a text, not {shown(value)}.")
    name = check_text(" ".join(value.split()), "'name'", NAME_LIMIT, empty=True)
    return name or None


@dataclass(frozen=True)
class NewGame:
    """A game to start: its record (moves and result included), view and board, the creator's seat token, the
    other seat's token for an online game, and what the reader of an imported record warned of."""

    record: GameRecord
    view: View
    board: Board
    token: str
    invite: str | None
    warnings: tuple[str, ...] = ()


def _tokens(mode: str, seat: int) -> tuple[str, str, tuple[str | None, str | None]]:
    """The creator's token, the other seat's, and the tokens by seat (``seat`` is the creator's)."""
    token, other = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    if mode == "local":
        return token, token, (token, token)
    if mode == "ai":
        return token, other, ((token, None) if seat == 0 else (None, token))
    return token, other, ((token, other) if seat == 0 else (other, token))


def new_game(data: JSON) -> NewGame:
    """Read a request for a new game: ``kind``, ``mode`` (``ai``, ``local``, ``online``), ``options``, ``colour``
    (a side's name or ``random``), ``ai_level``, ``name`` (the creator's), ``help`` (online: the creator asks for a
    casual game with engine help, which needs the other player's yes too), ``game_string`` (a record to go on
    from), ``position`` (a position record to start from, see :mod:`~hive.web.play.setup`) and ``time_control``
    (see :func:`~hive.web.play.clock.control`; untimed by default).

    :raises BadRequest: naming the field at fault.
    """
    view = view_for(data.get("kind", DEFAULT_KIND))
    mode = data.get("mode", "ai")
    if mode not in MODES:
        raise BadRequest(f"Unknown mode {shown(mode)}: expected one of {', '.join(MODES)}.")
    raw = data.get("options", {})
    if not isinstance(raw, dict):
        raise BadRequest(f"'options' must be an object, not {shown(raw)}.")
    options = view.options(raw)
    colour = data.get("colour", "white")
    named = seats()
    if colour != "random" and (not isinstance(colour, str) or colour not in named):
        raise BadRequest(f"Unknown colour {shown(colour)}: expected {', '.join(named)} or random.")
    seat = secrets.randbelow(2) if colour == "random" else named[colour]
    board = view.new_board(options)
    level = data.get("ai_level", "easy")
    levels = ai_levels(board.game_name)
    if mode == "ai" and level not in levels:
        raise BadRequest(f"Unknown AI level {shown(level)}: expected one of {', '.join(levels)}.")
    name = display_name(data.get("name"))
    wants_help = data.get("help", False)
    if not isinstance(wants_help, bool):
        raise BadRequest(f"'help' must be true or false, not {shown(wants_help)}.")
    timing = clock.control(data.get("time_control"))
    if timing is not None and mode == "local":
        raise BadRequest("'time_control' is for games against the AI or between two browsers, not on one screen.")
    text = data.get("game_string")
    start = None
    warnings: tuple[str, ...] = ()
    if text is not None:
        if not isinstance(text, str) or not text.strip():
            raise BadRequest(f"'game_string' must be {view.record_example}.")
        check_text(text, "'game_string'", RECORD_LIMIT, multiline=True)
        options, board, warnings = view.import_record(text, options)
        start = setup.start_of(view, board, options)
    if data.get("position") is not None:
        if text is not None:
            raise BadRequest("Give 'position' (a position to start from) or 'game_string' (a game), not both.")
        options, board, start = setup.set_up(view, data["position"], options)
    token, other, tokens = _tokens(mode, seat)
    outcome = board.outcome()
    names: list[str | None] = [None, None]
    helps: list[bool | None] = [None, None]
    if mode != "local":
        names[seat] = name
    if mode == "online":
        helps[seat] = wants_help
    record = GameRecord(
        id=secrets.token_urlsafe(6),
        kind=view.kind,
        options=options,
        mode=mode,
        ai_level=level if mode == "ai" else None,
        ai_seat=1 - seat if mode == "ai" else None,
        tokens=tokens,
        moves=board.move_texts(),
        result=outcome.result if outcome else None,
        reason=outcome.reason if outcome else None,
        names=(names[0], names[1]),
        help=(helps[0], helps[1]),
        joined=1 << seat if mode == "online" else 3,
        clock=clock.new(timing),
        start=start,
    )
    return NewGame(record, view, board, token, other if mode == "online" else None, warnings)


def rematch(old: GameRecord, seat: int) -> NewGame:
    """The next game after ``old``, asked for by the holder of ``seat``: the same kind, options, mode, AI and time
    control, from the start (or the position the game started from), each player in the other colour with their
    name and choice of help; the asker's seat is dealt its token, the other seat its own (``invite``). A game between
    accounts is not rematched so: its rematch is a challenge the opponent accepts (see
    :meth:`~hive.web.lobby.service.Seeks.rematch`), each seat's token going to its own account alone."""
    view = view_for(old.kind)
    mine = 1 - seat
    token, other, tokens = _tokens(old.mode, mine)
    record = GameRecord(
        id=secrets.token_urlsafe(6),
        kind=old.kind,
        options=dict(old.options),
        mode=old.mode,
        ai_level=old.ai_level,
        ai_seat=None if old.ai_seat is None else 1 - old.ai_seat,
        tokens=tokens,
        names=(old.names[1], old.names[0]),
        help=(old.help[1], old.help[0]),
        joined=1 << mine if old.mode == "online" else 3,
        clock=clock.new(old.clock["control"]) if old.clock else None,
        start=old.start,
        accounts=(old.accounts[1], old.accounts[0]),
        rated=old.rated,
    )
    board = replay(view, record.options, [], old.start)
    return NewGame(record, view, board, token, other if old.mode == "online" else None)


__all__ = [
    "MODES",
    "NAME_LIMIT",
    "RANDOM",
    "NewGame",
    "ai_levels",
    "all_ai_levels",
    "display_name",
    "new_game",
    "rematch",
    "seats",
]
