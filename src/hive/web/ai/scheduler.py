"""The AI's work queue: a bounded number of jobs waiting, the games served in turn, the same question asked once.

The workers take one job at a time each. The AI's own moves go before hints, hints before background work (an
engine review's positions), and within each kind the waiting jobs are kept per game and the games take turns:
however many hints anyone asks, a game's move waits for the jobs already running at most. A hint asked again while
the same one is waiting or being worked out shares its answer. The AI's moves are never refused (a game has one at a
time); a hint is refused (:class:`~hive.web.errors.TooMany`) when the queue, or the game's share of it, is full. A
worker process that dies (killed, or out of memory) takes the pool down with it: new workers are started, and the
jobs it took down run once more.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from ..errors import TooMany

log = logging.getLogger("hive.web")


@dataclass(eq=False)
class _Job:
    call: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    #: whether the job was started again after its worker died
    retried: bool = False


class Scheduler:
    """Runs jobs on an executor's workers, the games taking turns.

    :param executor: gives the executor (``None``: the event loop's threads) when a job starts.
    :param slots: jobs run at once (the number of workers).
    :param queue_size: jobs that may wait, all games together.
    :param per_game: jobs that may wait for one game.
    :param restart: called when a worker process died (a broken pool refuses every job): it replaces the pool that
        ``executor`` gives. The jobs that were running or starting then are started once more.
    """

    def __init__(
        self,
        executor: Callable[[], Executor | None],
        slots: int,
        queue_size: int,
        per_game: int,
        restart: Callable[[], None] | None = None,
    ) -> None:
        self.executor = executor
        self.restart = restart
        self.slots = max(1, slots)
        self.queue_size = queue_size
        self.per_game = per_game
        self.running = 0
        #: Jobs waiting, per game: the AI's moves, then hints, then background work.
        self._lines: tuple[OrderedDict[str, deque[_Job]], ...] = (OrderedDict(), OrderedDict(), OrderedDict())
        self._shared: dict[Hashable, asyncio.Future[Any]] = {}
        #: The game served last from each line.
        self._last: list[str | None] = [None, None, None]

    @property
    def waiting(self) -> int:
        """Jobs waiting for a worker."""
        return sum(len(jobs) for line in self._lines for jobs in line.values())

    async def run(
        self, game: str, call: Callable[..., Any], *args: Any, share: Hashable | None = None, background: bool = False
    ) -> Any:
        """``call(*args)`` on a worker, in ``game``'s turn. A job with a ``share`` key (a hint) shares the answer of
        a job with the same key still to come, and is refused when the queue is full; a job without one (the AI's
        move, or ``background`` work, which waits for every other kind) is always queued, and withdrawn if its
        caller stops waiting before it starts.

        :raises TooMany: when a shared job finds the queue, or the game's share of it, full.
        """
        if share is not None and share in self._shared:
            return await asyncio.shield(self._shared[share])
        if share is not None:
            self._check_room(game)
        job = _Job(call, args, asyncio.get_running_loop().create_future())
        line = self._lines[2 if background else share is not None]
        line.setdefault(game, deque()).append(job)
        if share is not None:
            self._shared[share] = job.future
            job.future.add_done_callback(lambda _: self._shared.pop(share, None))
        self._dispatch()
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            if share is None:
                self._withdraw(line, game, job)
            raise

    def _check_room(self, game: str) -> None:
        if self.waiting >= self.queue_size:
            raise TooMany(f"The AI is busy: {self.waiting} requests are waiting for it; ask again in a moment.")
        if len(self._lines[1].get(game, ())) >= self.per_game:
            raise TooMany(
                f"This game already has {self.per_game} requests waiting for the AI; ask again once they are answered."
            )

    @staticmethod
    def _withdraw(line: OrderedDict[str, deque[_Job]], game: str, job: _Job) -> None:
        jobs = line.get(game)
        if jobs is not None and job in jobs:
            jobs.remove(job)
            if not jobs:
                del line[game]
        if not job.future.done():
            job.future.cancel()

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self.running < self.slots and any(self._lines):
            kind = next(kind for kind, line in enumerate(self._lines) if line)
            line = self._lines[kind]
            if len(line) > 1 and next(iter(line)) == self._last[kind]:
                line.move_to_end(next(iter(line)))  # the game served last waits for the others' turns
            game, jobs = next(iter(line.items()))
            self._last[kind] = game
            job = jobs.popleft()
            if jobs:
                line.move_to_end(game)  # the next game's turn
            else:
                del line[game]
            self.running += 1
            self._start(loop, job)

    def _start(self, loop: asyncio.AbstractEventLoop, job: _Job) -> None:
        try:
            work = loop.run_in_executor(self.executor(), job.call, *job.args)
        except BrokenProcessPool as err:
            if self._restarted(job):
                self._start(loop, job)
            else:
                self.running -= 1
                if not job.future.done():
                    job.future.set_exception(err)
            return
        work.add_done_callback(functools.partial(self._finished, job=job))

    def _restarted(self, job: _Job) -> bool:
        """Whether the workers were started again for ``job``, whose worker died (once a job)."""
        if self.restart is None or job.retried or job.future.done():
            return False
        job.retried = True
        log.warning("an AI worker process died; starting the workers again")
        self.restart()
        return True

    def _finished(self, done: asyncio.Future[Any], job: _Job) -> None:
        if not done.cancelled() and isinstance(done.exception(), BrokenProcessPool) and self._restarted(job):
            self._start(asyncio.get_running_loop(), job)
            self._dispatch()  # in case the job could not start again
            return
        self.running -= 1
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif done.exception() is not None:
                job.future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                job.future.set_result(done.result())
        elif not done.cancelled():
            done.exception()  # retrieved: an answer nobody waits for any more
        self._dispatch()

    def close(self) -> None:
        """Cancel every waiting job."""
        for line in self._lines:
            for jobs in line.values():
                for job in jobs:
                    job.future.cancel()
            line.clear()


__all__ = ["Scheduler"]
