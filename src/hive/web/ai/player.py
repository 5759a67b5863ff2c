"""The AI in the browser game: its own moves, taken from the queue every server process shares, and hints.

The AI's moves wait in the database (:mod:`~hive.web.ai.repository`), queued by the very transaction that stored the
move they answer. Each process takes as many as it has workers, fairly between clients (a move it takes goes before
any hint or review waiting for its workers, after at most the one running), holds each for as long as its lease lasts
(renewed while its worker thinks), and plays the answer through the game service, which stores it only if the game
is still where it was. A job whose process died is taken over by another once its lease runs out; a process that
stops gives its jobs back at once. Hints are answered by the process asked, on its own workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random

from ...periodic import every
from ...sdk.view import JSON
from ..play import GameService, Session, clock
from ..play.events import GameEvent
from ..shared.errors import GameError
from ..shared.model import AIJob
from ..shared.settings import Settings
from .pool import Workers
from .repository import MAX_TRIES, AIJobs
from .scheduler import Scheduler
from .work import analyse, choose_move

log = logging.getLogger("hive.web")


class AIPlayer:
    """Plays the AI's side of the games against it, and answers hints.

    :param service: the games.
    :param queue: the shared queue of the AI's moves.
    :param workers: the worker processes.
    :param settings: the queue's bounds and the AI's lease.
    """

    def __init__(self, service: GameService, queue: AIJobs, workers: Workers, settings: Settings | None = None) -> None:
        self.service = service
        self.queue = queue
        self.workers = workers
        self.settings = settings = settings or Settings()
        self.jobs = Scheduler(
            lambda: self.workers.executor,
            workers.count,
            settings.ai_queue,
            settings.ai_per_game,
            restart=workers.drop_broken,
        )
        self.jobs.finished = self.wake
        #: The AI moves this process is working out, by game.
        self.thinking: dict[str, AIJob] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._wake: asyncio.Event | None = None
        self._loops: list[asyncio.Task[None]] = []
        self._closed = False

    # ------------------------------------------------------------------
    # the shared queue

    def start(self) -> None:
        """Start taking the AI's moves from the queue (in the running event loop); done once."""
        if self._loops or self._closed:
            return
        loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        renewing = every(
            self.settings.ai_lease / 3, self._renew, "the AI's leases cannot be renewed", log=log, expected=(GameError,)
        )
        self._loops = [loop.create_task(self._serve()), loop.create_task(renewing)]

    def wake(self) -> None:
        """Look at the queue now (a job may be waiting, or a worker free)."""
        if self._wake is not None:
            self._wake.set()

    def changed(self, event: GameEvent) -> None:
        """Follow a change: the AI may be due to move."""
        if event.ai_due:
            self.start()
            self.wake()

    def busy(self, game_id: str) -> bool:
        """Whether this process is working out the AI's move in the game."""
        return game_id in self.thinking

    async def _serve(self) -> None:
        assert self._wake is not None
        while not self._closed:
            self._wake.clear()
            try:
                while len(self.thinking) < self.jobs.slots and not self._closed:
                    job = await self.queue.claim(self.service.origin, self.settings.ai_lease)
                    if job is None:
                        break
                    self.thinking[job.game_id] = job
                    task = asyncio.get_running_loop().create_task(self._play(job))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
            except GameError as err:  # the database is away: try again later
                log.warning("the AI's queue cannot be read: %s", err)
            except Exception:
                log.exception("the AI's queue failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.ai_lease / 3)

    async def _renew(self) -> None:
        """Renew the leases of the jobs being worked out here (every third of a lease)."""
        await self.queue.renew(self.service.origin, list(self.thinking), self.settings.ai_lease)

    async def _play(self, job: AIJob) -> None:
        try:
            session = await self.service.session(job.game_id)
            record = session.record
            if len(record.moves) != job.ply or not session.ai_due:
                return  # the game moved on: the job that answers it is another
            if job.tries > MAX_TRIES:
                await self.service.ai_failed(job, f"The AI could not move: its worker stopped {MAX_TRIES} times.")
                return
            assert record.ai_level is not None and record.ai_seat is not None
            reading = clock.reading(record.clock, record.ai_seat, self.service.now())
            work = (record.kind, record.options, record.moves[: job.ply], record.ai_level)
            seed = random.randrange(1 << 30)
            text = await self.jobs.run(
                job.game_id, choose_move, *work, seed, reading, record.start, job.game_id, client=job.client
            )
            await self.service.play_ai(job, text)  # not played when taken back, resigned or out of time
        except asyncio.CancelledError:
            raise
        except GameError as err:
            log.warning("the AI's move in game %s waits: %s", job.game_id, err)
        except Exception as err:
            log.exception("the AI failed")
            await self.service.ai_failed(job, f"The AI could not move: {err}")
        finally:
            if self.thinking.get(job.game_id) is job:
                del self.thinking[job.game_id]
            self.wake()

    async def close(self) -> None:
        """Stop thinking, give the moves being worked out back to the queue for other processes, and stop the
        workers."""
        self._closed = True
        for task in [*self._loops, *self._tasks]:
            task.cancel()
        await asyncio.gather(*self._loops, *self._tasks, return_exceptions=True)
        for game_id in list(self.thinking):
            with contextlib.suppress(GameError):
                await self.queue.release(self.service.origin, game_id)
        self.thinking.clear()
        self.jobs.close()
        self.workers.close()

    # ------------------------------------------------------------------
    # hints

    async def hint(self, session: Session, token: str | None, ply: str | None = None, client: str = "") -> JSON:
        """The AI's suggestion for the side to move, and an evaluation where the game has one (see
        :func:`~hive.web.ai.work.analyse`), in the game as it stands or after its first ``ply`` moves (a review), for
        the holder of ``token``.

        :raises Forbidden: when the engine's help is not for this token now.
        :raises Conflict: when the game is over, or moved on while the AI was thinking.
        :raises TooMany: when the AI's queue is full.
        """
        moves = self.service.engine_moves(session, token, ply)
        hint = await self.analyse(session, moves, client)
        # the game as it stands now (it may have changed while the AI was thinking)
        await self.service.check_hint(session.record.id, moves, review=ply is not None)
        return {**hint, "ply": len(moves)}

    async def analyse(self, session: Session, moves: list[str], client: str = "") -> JSON:
        """The engine's hint and evaluation after ``moves`` of the game (the same question asked twice is worked out
        once)."""
        record = session.record
        job = (record.kind, record.options, moves, record.start)
        share = (record.id, record.start, tuple(moves))
        hint: JSON = await self.jobs.run(record.id, analyse, *job, share=share, client=client or None)
        return hint


__all__ = ["AIPlayer"]
