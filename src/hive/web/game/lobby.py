"""The list of stored games and what it offers beside resuming one: a game's summary, the rematch with the colours
swapped, and deleting a game (by one of its players)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ..errors import Conflict, Unavailable
from ..storage.games import GameRecord
from ..views import JSON, View, in_sides, spec_of, view_for
from . import clock
from .newgame import rematch

if TYPE_CHECKING:
    from .service import GameService, Session


def summary(record: GameRecord, view: View, length: int) -> JSON:
    """A game as the game list and the page describe it: kind, mode, options, the sides' names, the players' names,
    the number of moves, the result (``winner``: the winner's seat), the position record it started from (``start``,
    ``None`` for the start of a game), the time control's label and the dates."""
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
        "created": record.created,
        "updated": record.updated,
    }


class Lobby:
    """The games as a list, their rematches and their deletion.

    :param service: the games.
    """

    def __init__(self, service: GameService) -> None:
        self.service = service

    def games(self, limit: int = 200) -> JSON:
        """The stored games, those in progress first, then the finished ones, the latest first in each.

        :raises Unavailable: when the database cannot be read.
        """
        listed = []
        try:
            stored = self.service.storage.games(limit)
        except sqlite3.Error as err:
            raise Unavailable(f"The games could not be read: {err}") from None
        for item in stored:
            record = item.record
            live = self.service.sessions.get(record.id)
            if live is not None:  # the same as stored, and what the AI is doing
                record = live.record
            listed.append(
                {**summary(record, view_for(record.kind), item.length), "thinking": bool(live and live.thinking)}
            )
        return {"games": listed}

    def rematch(self, session: Session, token: str | None) -> tuple[Session, str]:
        """The rematch of a finished game for the holder of ``token``: started by the first player to ask, joined by
        the other; returns it and the asker's token in it (the seat of the other colour).

        :raises Forbidden: when the token holds no seat of the game.
        :raises Conflict: when the game is not over.
        """
        held = self.service.holder(session, token)
        seat = min(held)
        if not session.over:
            raise Conflict("A rematch follows a finished game: finish or resign this one first.")
        if session.record.rematch is not None:
            following = self.service.session(session.record.rematch)
            mine = following.record.tokens[1 - seat]
            if mine is None:
                raise Conflict("The rematch has no seat for you.")
            return following, mine
        game = rematch(session.record, seat)
        following = self.service.start(game)
        self.service.store(session, rematch=game.record.id)
        return following, game.token

    def delete(self, session: Session, token: str | None) -> None:
        """Delete the game, for one of its players.

        :raises Forbidden: when the token holds no seat of the game.
        """
        self.service.holder(session, token)
        self.service.forget(session)


__all__ = ["Lobby", "summary"]
