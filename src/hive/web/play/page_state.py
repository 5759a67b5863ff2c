"""A game as the page shows it: its summary (the game list's and the page's), the board's view worked out once a
version, the whole state a seat's holder or a spectator is sent, and a position of its past (:class:`PageState`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...sdk.view import JSON, View
from ..shared.errors import BadRequest, shown
from ..shared.model import GameRecord
from ..views import in_sides, pass_note, spec_of
from . import aborts, access, clock
from .session import Session


def summary(record: GameRecord, view: View, length: int) -> JSON:
    """A game as the game list and the page describe it: kind, mode, options, the sides' names, the players' names,
    the number of moves, the result (``winner``: the winner's seat), the position record it started from (``start``,
    ``None`` for the start of a game), the time control's label, whether it is rated, which seats accounts hold
    (``seat_accounts``: a game from a seek, a challenge or a tournament; their names are the accounts'), and the
    dates."""
    sides = view.sides(record.options)
    notation = spec_of(record.kind).sides
    winner = next((seat for seat, side in enumerate(notation) if record.result == f"{side}Wins"), None)
    return {
        "id": record.id,
        "kind": record.kind,
        "mode": record.mode,
        "options": record.options,
        "ai": {"level": record.ai_level, "seat": record.ai_seat} if record.mode == "ai" else None,
        "sides": sides,
        "names": list(record.names),
        "length": length,
        "result": record.result,
        "winner": winner,
        "reason": in_sides(record.reason, notation, sides) if record.reason else None,
        "rematch": record.rematch,
        "start": record.start,
        "time_control": clock.label(record.clock["control"] if record.clock else None),
        "rated": record.rated,
        "seat_accounts": [account is not None for account in record.accounts],
        "created": record.created,
        "updated": record.updated,
    }


def ply_of(session: Session, ply: str) -> int:
    """A number of moves played, read from a URL's text.

    :raises BadRequest: when ``ply`` is not a number from 0 to the number of moves played.
    """
    played = len(session.record.moves)
    if not re.fullmatch(r"[0-9]{1,6}", ply) or int(ply) > played:
        raise BadRequest(f"'ply' must be a number from 0 to {played}, not {shown(ply)}.")
    return int(ply)


class PageState:
    """The page's state of a game (a part of :class:`~hive.web.play.service.GameService`)."""

    #: the clock's time source, seconds since the epoch
    now: Callable[[], float]

    def view_of(self, session: Session) -> JSON:
        """The board's view for the page (its legal moves none once the game is over), worked out once a version."""
        version = session.record.version
        if session.shown_view is None or session.shown_view[0] != version:
            position = session.view.position(session.board)
            if session.over:
                position["legal"], position["pass"] = {}, False
            session.shown_view = (version, position)
        return session.shown_view[1]

    def state(
        self, session: Session, seats: frozenset[int] = frozenset(), present: tuple[bool, bool] = (False, False)
    ) -> JSON:
        """The game as the page shows it to the holder of ``seats``; ``present`` tells which seats are watching it
        now."""
        record = session.record
        position = self.view_of(session)
        return {
            **summary(record, session.view, len(record.moves)),
            "moves": record.moves,
            "redo": len(record.redo),
            "reason": session.shown(record.reason) if record.reason else None,
            "offer": record.offer,
            "thinking": session.ai_due,
            "ai_error": record.ai_error,
            "seats": sorted(seats),
            "help": {"on": access.help_on(record), "choices": list(record.help)},
            "abortable": aborts.abortable(record, session.paired),
            "joined": access.joined(record),
            "present": list(present),
            "note": None if session.over else pass_note(position, session.sides),
            "game_string": session.board.record(),
            "clock": clock.report(record.clock, self.now()),
            "view": position,
            "event": session.last.shown() if session.last is not None else None,
            "version": record.version,
        }

    def position(self, session: Session, ply: str) -> JSON:
        """The position after the first ``ply`` moves (a number in text, as in a URL).

        :raises BadRequest: when ``ply`` is not a number of moves played.
        """
        wanted = self.ply(session, ply)
        board = session.board.copy()
        for _ in range(len(session.record.moves) - wanted):
            board.pop()
        return {"ply": wanted, "view": session.view.position(board)}

    ply = staticmethod(ply_of)
    seats = staticmethod(access.seats)


__all__ = ["PageState", "ply_of", "summary"]
