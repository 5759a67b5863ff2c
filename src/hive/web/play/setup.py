"""Games set up from a position: the board editor's check of a position being edited, and the start of a new game
from a position record (``Position;<game>;<turn>;...``, each game's own, read by its view).

A game started from a position keeps that record as its start (:attr:`~hive.web.play.repository.GameRecord.start`): its
moves are played from it after a restart, undone back to it, and written after it in the game's record.
"""

from __future__ import annotations

from ...position_records import is_position_record
from ...sdk.view import JSON, Board, View
from ..shared.errors import BadRequest, shown
from ..shared.values import check_text
from ..views import DEFAULT_KIND, view_for

#: The longest position record read (the largest Hive position with every expansion is under 300 characters).
TEXT_LIMIT = 2_000


def position_text(value: object, field: str = "position") -> str:
    """A request's position record, checked for form: a text that starts with ``Position;``.

    :raises BadRequest: naming ``field`` and what it holds instead.
    """
    if not isinstance(value, str) or not value.strip():
        raise BadRequest(f"{field!r} must be a position record such as 'Position;Base;White[1];', not {shown(value)}.")
    if len(value) > TEXT_LIMIT:
        raise BadRequest(f"{field!r} has {len(value):,} characters; a position record has at most {TEXT_LIMIT:,}.")
    check_text(value, repr(field), TEXT_LIMIT, multiline=True)
    if not is_position_record(value):
        raise BadRequest(f"{field!r} must start with 'Position;' (a position record), not {shown(value[:40])}.")
    return value.strip()


def set_up(view: View, value: object, options: JSON) -> tuple[JSON, Board, str]:
    """The options, board and canonical record of the position a request gives.

    :raises BadRequest: quoting the part that failed and naming the rule it breaks.
    """
    options, board = view.from_position(position_text(value), options)
    return options, board, board.position_text()


def start_of(view: View, board: Board, options: JSON) -> str | None:
    """The position record an imported game started from, or ``None`` when it started at the start of a game."""
    first = board.copy()
    while first.move_stack:
        first.pop()
    text = first.position_text()
    return None if text == view.new_board(options).position_text() else text


def check(data: JSON) -> JSON:
    """The board editor's question: is the position ``data["position"]`` legal in a game of ``data["kind"]`` with
    ``data["options"]``? Without a position, the start of such a game is checked.

    :returns: ``kind``, ``options`` (completed, Hive's game type from the record), ``valid``, ``error`` (the rule
        broken, ``None`` when valid), ``position`` (the canonical record, ``None`` when not valid), ``view`` (the
        position as a game shows it, legal moves included, ``None`` when not valid) and ``over`` (why the game is
        over when the position is the end of one, else ``None``).
    :raises BadRequest: when the kind or options are unknown, or ``position`` is not a position record at all.
    """
    view = view_for(data.get("kind", DEFAULT_KIND))
    raw = data.get("options", {})
    if not isinstance(raw, dict):
        raise BadRequest(f"'options' must be an object, not {shown(raw)}.")
    options = view.options(raw)
    value = data.get("position")
    answer: JSON = {"kind": view.kind, "options": options}
    if value is None:
        board = view.new_board(options)
        return {**answer, **_shown(view, board), "position": board.position_text()}
    text = position_text(value)
    try:
        options, board, record = set_up(view, text, options)
    except BadRequest as err:
        return {**answer, "valid": False, "error": str(err), "position": None, "view": None, "over": None}
    return {**answer, **_shown(view, board), "options": options, "position": record}


def _shown(view: View, board: Board) -> JSON:
    """A legal position's part of the answer: its view, and how the game ended when it is the end of one."""
    position = view.position(board)
    outcome = board.outcome()
    if outcome is not None:
        position["legal"], position["pass"] = {}, False
    return {"valid": True, "error": None, "view": position, "over": outcome.reason if outcome else None}


__all__ = ["TEXT_LIMIT", "check", "position_text", "set_up", "start_of"]
