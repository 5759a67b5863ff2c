"""Review with the engine: every position of a game analysed in the background, the first player's winning chance after
each move, and the moves that lost most of the mover's chance marked as inaccuracies, mistakes or blunders.

The positions are analysed one at a time on the AI's workers as background work
(:class:`~hive.web.ai.scheduler.Scheduler`: after every AI move and hint waiting, the games taking turns), so that a
review never holds up a game's AI. A game has one review at a time; asking again while it runs answers its progress.
Each position is stored as soon as it is analysed (:mod:`~hive.web.analysis.review_repository`): a finished review is
shown at once after a reload or a restart, and one interrupted by a restart goes on where it stopped the next time
anyone looks at it.

The winning chance comes from the game's :attr:`~hive.plugin.GameAI.win_chance`. A game whose scores are not
calibrated as chances has only the results its AI sees forced: a won line counts 100 %, a lost one 0 %, anything else
50 %, so that its review marks the moves that walked into a forced loss.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from ...games import find_game
from ...sdk.view import JSON
from ..ai.scheduler import Scheduler
from ..ai.settings import web_settings
from ..ai.work import evaluate
from ..play import GameService, Session, access
from ..shared.errors import BadRequest, Conflict, Damaged, GameError, NotFound, TooMany, shown
from ..shared.model import DONE, FAILED, RUNNING, StoredReview
from .review_repository import ReviewRepository

log = logging.getLogger("hive.web")

#: The marks, worst first, each with the winning chance the move lost at least (0..1, the mover's point of view).
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 0.30), ("mistake", 0.20), ("inaccuracy", 0.10))
#: Reviews worked out at once on one server; a further one is refused until one finishes.
MAX_RUNNING = 8


def marks(moves: list[str], positions: list[JSON]) -> list[JSON]:
    """The moves that lost the mover at least an inaccuracy's share of the winning chance (see :data:`THRESHOLDS`),
    from the positions analysed so far; the AI's own choice is never marked. Each mark names its ``ply`` (the
    position after the move), ``move``, ``side``, ``kind``, the chance lost (``drop``) and the AI's choice (``best``).
    """
    found: list[JSON] = []
    for ply in range(1, min(len(moves), len(positions) - 1) + 1):
        before, after = positions[ply - 1], positions[ply]
        side = before["turn"]
        drop = before["white"] - after["white"] if side == 0 else after["white"] - before["white"]
        kind = next((name for name, least in THRESHOLDS if drop >= least - 1e-9), None)
        if kind is not None and moves[ply - 1] != before["best"]:
            mark = {"ply": ply, "move": moves[ply - 1], "side": side, "kind": kind, "drop": round(drop, 3)}
            found.append({**mark, "best": before["best"]})
    return found


class Reviews:
    """The games' engine reviews: started on request, worked out in the background, stored as they go.

    :param service: the games.
    :param jobs: the AI's work queue.
    :param store: where the reviews are kept.
    :param max_running: reviews worked out at once.
    """

    def __init__(
        self, service: GameService, jobs: Scheduler, store: ReviewRepository, max_running: int = MAX_RUNNING
    ) -> None:
        self.service = service
        self.jobs = jobs
        self.store = store
        self.max_running = max_running
        self._tasks: dict[str, asyncio.Task[None]] = {}
        #: Called with each position analysed (for tests: the game's id and the positions done).
        self.progressed: Callable[[str, int], None] = lambda game_id, done: None

    async def start(self, session: Session, token: str | None, data: JSON, client: str = "") -> JSON:
        """Review the game as it stands for the holder of ``token`` (``data``'s optional ``level``: one of the game's
        AI levels, by default its hint level): returns the review's report (see :meth:`report`). A review already
        running goes on; a stored one is extended to the moves played since, or started again at another level.

        :raises Forbidden: when the engine's help is not for this token now (see
            :func:`~hive.web.play.access.check_engine`).
        :raises BadRequest: for an unknown level.
        :raises Conflict: when no move has been played.
        :raises TooMany: when as many reviews as the server works out at once are running.
        """
        record = session.record
        access.check_engine(record, self.service.seats(record, token))
        game_id = record.id
        if game_id in self._tasks and await self._current(session) is not None:
            return await self.report(session, token)
        self.stop(game_id)  # a review of moves since taken back
        spec = find_game(session.board.game_name)
        ai = spec.ai
        level = data.get("level", web_settings(spec).hint_level)
        if not isinstance(level, str) or level not in ai.levels:
            raise BadRequest(f"'level' must be one of {', '.join(ai.levels)}, not {shown(level)}.")
        if not record.moves:
            raise Conflict("No move has been played yet: there is nothing to review.")
        stored = await self._current(session)
        if stored is not None and stored.status == DONE and (stored.level, stored.moves) == (level, record.moves):
            return await self.report(session, token)
        if len(self._tasks) >= self.max_running:
            raise TooMany(f"{len(self._tasks)} reviews are being worked out; ask again once one has finished.")
        positions = stored.positions if stored is not None and stored.level == level else []
        review = StoredReview(level, list(record.moves), positions[: len(record.moves) + 1])
        await self.store.save(game_id, review)
        self._launch(session, review, client)
        return await self.report(session, token)

    async def report(self, session: Session, token: str | None) -> JSON:
        """The game's review for the holder of ``token``: ``status`` (``none``, ``running``, ``done``, ``failed``),
        ``level``, the ``moves`` it covers and ``total`` positions, the ``positions`` analysed so far (``white``,
        ``turn``, ``best``, ``depth``) and ``done`` (their number), the ``marks`` (see :func:`marks`), the
        ``thresholds`` of the marks, whether the chances are ``calibrated``, the ``error`` of a failed review, and the
        game's AI ``levels`` with the ``default_level``. A review interrupted by a restart goes on from its last
        stored position.

        :raises Forbidden: when the engine's help is not for this token now.
        """
        record = session.record
        access.check_engine(record, self.service.seats(record, token))
        spec = find_game(session.board.game_name)
        about = {"calibrated": spec.ai.win_chance is not None, "thresholds": dict(THRESHOLDS)}
        about.update(levels=list(spec.ai.levels), default_level=web_settings(spec).hint_level)
        stored = await self._current(session)
        if stored is None:
            return {"status": "none", **about}
        if stored.status == RUNNING and record.id not in self._tasks and len(self._tasks) < self.max_running:
            self._launch(session, stored)
        return {
            "status": stored.status,
            "level": stored.level,
            "moves": len(stored.moves),
            "total": len(stored.moves) + 1,
            "done": len(stored.positions),
            "positions": stored.positions,
            "marks": marks(stored.moves, stored.positions),
            "error": stored.error,
            **about,
        }

    def running(self, game_id: str) -> bool:
        """Whether the game's review is being worked out."""
        return game_id in self._tasks

    def stop(self, game_id: str) -> None:
        """Stop working out the game's review (the game was deleted)."""
        task = self._tasks.pop(game_id, None)
        if task is not None:
            task.cancel()

    def close(self) -> None:
        """Stop every review; each goes on from its stored positions once the server is back."""
        for game_id in list(self._tasks):
            self.stop(game_id)

    async def _current(self, session: Session) -> StoredReview | None:
        """The game's stored review if it still reviews the game's moves (an undo may have taken some back)."""
        stored = await self.store.load(session.record.id)
        if stored is None or session.record.moves[: len(stored.moves)] != stored.moves:
            return None
        return stored

    async def _covers(self, game_id: str, moves: list[str]) -> bool:
        """Whether the game as stored still has ``moves`` (a review of moves taken back stops)."""
        try:
            session = await self.service.session(game_id)
        except (NotFound, Damaged):
            return False
        return session.record.moves[: len(moves)] == moves

    def _launch(self, session: Session, review: StoredReview, client: str = "") -> None:
        record = session.record
        job = (record.kind, record.options, record.start)
        task = asyncio.get_running_loop().create_task(self._work(record.id, job, review, client))
        self._tasks[record.id] = task

    async def _work(self, game_id: str, game: tuple[str, JSON, str | None], review: StoredReview, client: str) -> None:
        kind, options, start = game
        try:
            while len(review.positions) <= len(review.moves) and await self._covers(game_id, review.moves):
                moves = review.moves[: len(review.positions)]
                job = (kind, options, moves, review.level, start)
                found = await self.jobs.run(game_id, evaluate, *job, background=True, client=client or None)
                review.positions.append(found)
                review.status = DONE if len(review.positions) > len(review.moves) else RUNNING
                await self.store.save(game_id, review)
                self.progressed(game_id, len(review.positions))
        except asyncio.CancelledError:
            raise
        except GameError as err:  # the database is away: the review goes on from its stored positions later
            log.warning("the engine review of game %s stopped: %s", game_id, err)
        except Exception as err:
            log.exception("the engine review failed")
            review.status, review.error = FAILED, f"The review stopped: {err}"
            with contextlib.suppress(GameError):
                await self.store.save(game_id, review)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]


__all__ = ["MAX_RUNNING", "THRESHOLDS", "Reviews", "marks"]
