"""Moves charged to the clock, and the endings the server itself makes: a flag that falls (a loss, or a draw when the
opponent could not have won), an abort before both sides moved, a first move never made (:class:`Timed`).
"""

from __future__ import annotations

from typing import Any

from ...game import Outcome, Termination
from ...sdk.view import Board
from ..shared.errors import Conflict
from . import aborts, clock
from .cache import GameCache
from .events import FLAG, GameEvent
from .session import Session


def ended(board: Board, outcome: Outcome | None = None) -> dict[str, Any]:
    """The record's result and reason for ``outcome``, by default the rules' own on ``board``."""
    outcome = outcome or board.outcome()
    return {"result": outcome.result if outcome else None, "reason": outcome.reason if outcome else None}


class Timed(GameCache):
    """Moves on the clock and the endings on time (a part of :class:`~hive.web.play.service.GameService`)."""

    async def play(self, session: Session, move: Any, client: str = "", what: str = "move") -> GameEvent:
        """Play ``move`` (checked already) on the game, charging the clock, and store it."""
        board = session.board
        text = board.move_text(move)
        seat = board.turn
        board.push(move, text)
        result = ended(board)
        moves = [*session.record.moves, text]
        timed = clock.moved(session.record.clock, seat, len(moves), self.now(), result["result"] is not None)
        return await self.commit(
            session,
            what,
            seat,
            client=client,
            revert=board.pop,
            moves=moves,
            redo=[],
            **result,
            offer=None,
            clock=timed,
        )

    async def check_clock(self, game_id: str) -> bool:
        """End the game if its running clock's flag has fallen (see :meth:`flag`); whether it ended it now. Of
        several processes noticing the same flag, one stores it; the others find it stored."""
        try:
            async with self.lock(game_id):
                session = await self.fresh(game_id)
                return await self.flag(session)
        except Conflict:  # another process stored a change first: the flag is its to report
            return False

    async def flag(self, session: Session) -> bool:
        """End the game if the running clock's flag has fallen: the player out of time loses, or draws when the
        opponent could not win by any series of legal moves (the game's :meth:`~hive.game.Game.could_win`). A game
        between accounts is aborted instead when its flag falls before both sides moved, or its side to move made
        no first move in time (see :mod:`~hive.web.play.aborts`). Returns whether it ended the game now (for a
        caller holding the game's lock)."""
        if session.over:
            return False
        now = self.now()
        seat = clock.fallen(session.record.clock, now)
        await self.placed(session)
        if aborts.watched(session.record, session.paired):
            due = aborts.due(session.record, session.paired, self.first_move)
            if seat is not None or (due is not None and now >= due):
                await self.abort(session, None)
                return True
        if seat is None:
            return False
        if session.board.could_win(1 - seat):
            out = Outcome(Termination.FORFEIT, 1 - seat, session.board.sides, "time ran out")
        else:
            late, other = session.board.sides[seat], session.board.sides[1 - seat]
            detail = f"{late} ran out of time, and {other} could not have won"
            out = Outcome(Termination.FORFEIT, None, session.board.sides, detail)
        stopped = clock.stopped(session.record.clock, self.now(), seat)
        await self.commit(
            session, FLAG, None, detail={"flag": seat}, **ended(session.board, out), offer=None, clock=stopped
        )
        return True

    async def abort(self, session: Session, by: int | None, client: str = "") -> None:
        """Abort the game (checked abortable already): by the player of seat ``by``, or by the server (``None``) as
        its side to move made no first move in time. Its result is :data:`~hive.web.play.aborts.ABORTED`, neither a
        win nor a loss; no rating moves (for a caller holding the game's lock)."""
        board = session.board
        stopped = clock.stopped(session.record.clock, self.now())
        why = aborts.reason(board.sides, by, board.turn)
        await self.commit(
            session, "abort", by, client=client, result=aborts.ABORTED, reason=why, offer=None, clock=stopped
        )

    async def no_show(self, session: Session, after: float) -> bool:
        """End a game whose first player has not moved ``after`` seconds after it began: a loss by forfeit for the
        absent player (for a caller holding the game's lock). Returns whether it ended the game now."""
        if session.over or session.record.moves or self.now() - session.record.created < after:
            return False
        absent = session.board.turn
        out = Outcome(Termination.FORFEIT, 1 - absent, session.board.sides, "did not make a first move")
        await self.commit(session, "forfeit", None, **ended(session.board, out), offer=None)
        return True


__all__ = ["Timed", "ended"]
