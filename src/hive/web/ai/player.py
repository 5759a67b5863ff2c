"""The browser game's AI: its moves and its hints, worked out in worker processes so that the server stays free.

Everything about a game's players comes from its :class:`~hive.game.GameSpec` (levels, searcher, random mover,
hint level, winning chances). A worker gets plain data (the game's kind, options and move texts) and rebuilds the
position from it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import multiprocessing
import random
import signal
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from ...games import find_game
from ...search.timing import ClockReading
from ..game import clock
from ..game.newgame import RANDOM
from ..game.service import GameService, Session
from ..settings import Settings
from ..views import JSON, replay, view_for
from .scheduler import Scheduler

log = logging.getLogger("hive.web")


def choose_move(
    kind: str,
    options: JSON,
    moves: list[str],
    level: str,
    seed: int | None = None,
    clock: ClockReading | None = None,
    start: str | None = None,
) -> str:
    """The AI's move after ``moves``, in the game's notation, at ``level`` (:data:`~hive.web.game.newgame.RANDOM` for
    the random mover), in a game started from the position record ``start`` if it has one. In a timed game the AI
    thinks for its share (:meth:`~hive.search.timing.ClockReading.budget`) of what its ``clock`` has left when the
    search begins. Runs in a worker process."""
    board = replay(view_for(kind), options, moves, start)
    ai = find_game(board.game_name).ai
    if level == RANDOM:
        move = ai.random_move(board, random.Random(seed))
    else:
        limits = ai.levels[level]
        if clock is not None:
            budget = clock.budget()
            limits = dataclasses.replace(limits, time=min(budget, limits.time or budget))
        move = ai.searcher(seed, ai.play_noise).search(board, limits).move
    return board.move_text(move)


def analyse(kind: str, options: JSON, moves: list[str], start: str | None = None) -> JSON:
    """A hint after ``moves``: the AI's move at the game's hint level and, where the game's scores are calibrated,
    the score, the first player's winning chance (``white``, 0..1) and the depth; ``start`` is the position record
    the game started from, if any. Runs in a worker process."""
    board = replay(view_for(kind), options, moves, start)
    ai = find_game(board.game_name).ai
    result = ai.searcher(None, 0).search(board, ai.levels[ai.hint_level])
    hint: JSON = {"move": board.move_text(result.move)}
    if ai.win_chance is not None:
        score = result.score if board.turn == 0 else -result.score
        hint.update(score=score, white=round(ai.win_chance(score), 3), depth=result.depth)
    hint["level"] = ai.hint_level
    return hint


def _worker_start() -> None:
    """A worker leaves Ctrl+C to the server, which stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class _Turn:
    task: asyncio.Task[None]
    moves: list[str]


class AIPlayer:
    """Plays the AI's side of the games against it, and answers hints.

    :param service: the games.
    :param broadcast: sends a game's state to everyone watching it.
    :param workers: processes for the AI; ``0`` thinks in a thread of this process instead (for tests).
    :param settings: the AI queue's bounds.
    """

    def __init__(
        self,
        service: GameService,
        broadcast: Callable[[Session], Awaitable[None]],
        workers: int,
        settings: Settings | None = None,
    ) -> None:
        self.service = service
        self.broadcast = broadcast
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._turns: dict[str, _Turn] = {}
        settings = settings or Settings()
        self.jobs = Scheduler(
            lambda: self.executor, workers, settings.ai_queue, settings.ai_per_game, restart=self._drop_broken
        )

    @property
    def executor(self) -> Executor | None:
        """The worker processes, started at first use (``None``: the event loop's threads)."""
        if self._executor is None and self.workers > 0:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_worker_start)
        return self._executor

    def _drop_broken(self) -> None:
        """Let the next job start new workers if one of these died (a broken pool refuses every job)."""
        executor = self._executor
        if executor is None:
            return
        try:
            executor.submit(int)
        except BrokenProcessPool:
            executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def warm_up(self) -> None:
        """Start the workers now rather than at the AI's first move."""
        if self.executor is not None:
            self.executor.submit(int)

    def close(self) -> None:
        """Stop thinking and stop the workers, even in the middle of a search."""
        for turn in self._turns.values():
            turn.task.cancel()
        self._turns.clear()
        self.jobs.close()
        if self._executor is not None:
            processes = list(getattr(self._executor, "_processes", {}).values())
            for process in processes:
                process.terminate()
            self._executor.shutdown(wait=True, cancel_futures=True)
            for process in processes:
                process.join(5)
            self._executor = None

    def stop(self, game_id: str) -> None:
        """Stop thinking about a game (it was deleted)."""
        turn = self._turns.pop(game_id, None)
        if turn is not None:
            turn.task.cancel()

    def busy(self, game_id: str) -> bool:
        """Whether the AI is thinking about its move in the game."""
        return game_id in self._turns

    def follow(self, session: Session) -> None:
        """Bring the AI in line with the game after a change: stop thinking about a position that is gone, and
        start when the AI is due to move."""
        due = self.service.ai_to_move(session)
        game_id = session.record.id
        turn = self._turns.get(game_id)
        if turn is not None:
            if due and turn.moves == session.record.moves:
                return  # still thinking about this position
            turn.task.cancel()
            del self._turns[game_id]
            session.thinking = False
        if due:
            session.thinking = True
            session.ai_error = None
            moves = list(session.record.moves)
            task = asyncio.get_running_loop().create_task(self._play(session, moves))
            self._turns[game_id] = _Turn(task, moves)

    async def _play(self, session: Session, moves: list[str]) -> None:
        record = session.record
        await self.broadcast(session)
        try:
            assert record.ai_level is not None
            seed = random.randrange(1 << 30)
            assert record.ai_seat is not None
            reading = clock.reading(record.clock, record.ai_seat, self.service.now())
            job = (record.kind, record.options, moves, record.ai_level, seed, reading, record.start)
            text = await self.jobs.run(record.id, choose_move, *job)
            self.service.play_ai(session, moves, text)  # not played when taken back, resigned or out of time
        except asyncio.CancelledError:
            raise
        except Exception as err:
            log.exception("the AI failed")
            session.ai_error = f"The AI could not move: {err}"
        finally:
            turn = self._turns.get(record.id)
            if turn is not None and turn.task is asyncio.current_task():
                session.thinking = False
                del self._turns[record.id]
        await self.broadcast(session)

    async def hint(self, session: Session, token: str | None, ply: str | None = None) -> JSON:
        """The AI's suggestion for the side to move, and an evaluation where the game has one (see :func:`analyse`),
        in the game as it stands or after its first ``ply`` moves (a review), for the holder of ``token``.

        :raises Forbidden: when the engine's help is not for this token now.
        :raises Conflict: when the game is over, or moved on while the AI was thinking.
        :raises TooMany: when the AI's queue is full.
        """
        moves = self.service.engine_moves(session, token, ply)
        record = session.record
        job = (record.kind, record.options, moves, record.start)
        hint: JSON = await self.jobs.run(record.id, analyse, *job, share=(record.id, tuple(moves)))
        # the game as it stands now (it may have left memory and come back while the AI was thinking)
        self.service.check_hint(self.service.session(record.id), moves, review=ply is not None)
        return {**hint, "ply": len(moves)}


__all__ = ["AIPlayer", "analyse", "choose_move"]
