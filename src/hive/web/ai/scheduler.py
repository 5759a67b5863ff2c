"""The AI's work queue in one process: a bounded number of jobs waiting, the clients served in turn, the same question
asked once.

The workers take one job at a time each. The AI's own moves go before hints, hints before background work (an
engine review's positions), and within each kind the waiting jobs are kept per client (the address that asked; a
game when no client is given) and the clients take turns: however many hints or games one client has, another
client's job waits for the jobs already running at most. A hint asked again while
the same one is waiting or being worked out shares its answer. The AI's moves are never refused (a game has one at a
time); a hint is refused (:class:`~hive.web.shared.errors.TooMany`) when the queue, or the game's share of it, is full.
A
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

from ..shared.errors import TooMany

log = logging.getLogger("hive.web")


@dataclass(eq=False)
class _Job:
    game: str
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
    :param per_game: hints that may wait for one game.
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
        #: Jobs waiting, per client: the AI's moves, then hints, then background work.
        self._lines: tuple[OrderedDict[str, deque[_Job]], ...] = (OrderedDict(), OrderedDict(), OrderedDict())
        self._shared: dict[Hashable, asyncio.Future[Any]] = {}
        #: The client served last from each line.
        self._last: list[str | None] = [None, None, None]
        #: Called whenever a job ends (a worker may be free for an AI move from the shared queue).
        self.finished: Callable[[], None] = lambda: None

    @property
    def waiting(self) -> int:
        """Jobs waiting for a worker."""
        return sum(len(jobs) for line in self._lines for jobs in line.values())

    async def run(
        self,
        game: str,
        call: Callable[..., Any],
        *args: Any,
        share: Hashable | None = None,
        background: bool = False,
        client: str | None = None,
    ) -> Any:
        """``call(*args)`` on a worker for ``game``, in ``client``'s turn (by default the game's own). A job with a
        ``share`` key (a hint) shares the answer of a job with the same key still to come, and is refused when the
        queue is full; a job without one (the AI's move, or ``background`` work, which waits for every other kind)
        is always queued, and withdrawn if its caller stops waiting before it starts.

        :raises TooMany: when a shared job finds the queue, or the game's share of it, full.
        """
        if share is not None and share in self._shared:
            return await asyncio.shield(self._shared[share])
        if share is not None:
            self._check_room(game)
        job = _Job(game, call, args, asyncio.get_running_loop().create_future())
        line = self._lines[2 if background else share is not None]
        owner = client if client is not None else game
        line.setdefault(owner, deque()).append(job)
        if share is not None:
            self._shared[share] = job.future
            job.future.add_done_callback(lambda _: self._shared.pop(share, None))
        self._dispatch()
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            if share is None:
                self._withdraw(line, owner, job)
            raise

    def _check_room(self, game: str) -> None:
        if self.waiting >= self.queue_size:
            raise TooMany(f"The AI is busy: {self.waiting} requests are waiting for it; ask again in a moment.")
        if sum(job.game == game for jobs in self._lines[1].values() for job in jobs) >= self.per_game:
            raise TooMany(
                f"This game already has {self.per_game} requests waiting for the AI; ask again once they are answered."
            )

    @staticmethod
    def _withdraw(line: OrderedDict[str, deque[_Job]], owner: str, job: _Job) -> None:
        jobs = line.get(owner)
        if jobs is not None and job in jobs:
            jobs.remove(job)
            if not jobs:
                del line[owner]
        if not job.future.done():
            job.future.cancel()

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self.running < self.slots and any(self._lines):
            kind = next(kind for kind, line in enumerate(self._lines) if line)
            line = self._lines[kind]
            if len(line) > 1 and next(iter(line)) == self._last[kind]:
                line.move_to_end(next(iter(line)))  # the client served last waits for the others' turns
            owner, jobs = next(iter(line.items()))
            self._last[kind] = owner
            job = jobs.popleft()
            if jobs:
                line.move_to_end(owner)  # the next client's turn
            else:
                del line[owner]
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
        self.finished()

    def close(self) -> None:
        """Cancel every waiting job."""
        for line in self._lines:
            for jobs in line.values():
                for job in jobs:
                    job.future.cancel()
            line.clear()


__all__ = ["Scheduler"]
