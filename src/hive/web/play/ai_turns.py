"""The AI's part in a game: its moves played (or its failure shown) when they are still for the game as it stands,
and the moves the engine is asked to look after for a hint or a review, for those who may ask (:class:`AITurns`).
"""

from __future__ import annotations

from ..shared.errors import Conflict, NotFound
from ..shared.model import AIJob
from . import access
from .events import AI_ERROR, AI_MOVE
from .page_state import ply_of
from .session import Session
from .timed import Timed


class AITurns(Timed):
    """The AI's moves and hints on a game (a part of :class:`~hive.web.play.service.GameService`)."""

    async def play_ai(self, job: AIJob, text: str) -> bool:
        """Play the AI's move ``text``, worked out for the position of ``job``; ``False`` (and nothing played) when
        the game has moved on since, or the AI is no longer due."""
        try:
            async with self.lock(job.game_id):
                session = await self.fresh(job.game_id)
                if len(session.record.moves) != job.ply or await self.flag(session) or not session.ai_due:
                    return False
                await self.play(session, session.board.parse_move(text), what=AI_MOVE)
                return True
        except (NotFound, Conflict):
            return False

    async def ai_failed(self, job: AIJob, message: str) -> None:
        """Say on the game that the AI could not move in the position of ``job`` (the error shows until the game
        changes again)."""
        try:
            async with self.lock(job.game_id):
                session = await self.fresh(job.game_id)
                if len(session.record.moves) == job.ply and session.ai_due:
                    await self.commit(session, AI_ERROR, None, ai_error=message)
        except (NotFound, Conflict):
            pass

    def engine_moves(self, session: Session, token: str | None, ply: str | None = None) -> list[str]:
        """The moves the engine is asked to look after, for the holder of ``token``: the game's, or its first
        ``ply`` (a review).

        :raises Forbidden: when the engine's help is not for this token now (see
            :func:`~hive.web.play.access.check_engine`).
        :raises BadRequest: for a ``ply`` that is not a number of moves played.
        :raises Conflict: when the position asked about is the end of the game: there is nothing to suggest.
        """
        held = access.seats(session.record, token)
        access.check_engine(session.record, held)
        moves = session.record.moves[: ply_of(session, ply)] if ply is not None else session.record.moves
        if session.over and len(moves) == len(session.record.moves):
            raise Conflict("The game is over: there is nothing to suggest.")
        return list(moves)

    async def check_hint(self, game_id: str, moves: list[str], review: bool = False) -> None:
        """Make sure a hint worked out after ``moves`` is still for the game as it stands (for a ``review`` of an
        earlier position, that the game still has it).

        :raises Conflict: when the game has moved on.
        """
        played = (await self.session(game_id)).record.moves
        if (played[: len(moves)] if review else played) != moves:
            raise Conflict("The game moved on while the AI was thinking; ask again.")


__all__ = ["AITurns"]
