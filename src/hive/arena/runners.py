"""Who plays a match's games: this process, a pool of processes, or a Ray cluster (:mod:`~hive.arena.cluster`),
behind one small interface, and the loop that keeps them busy and hands back each game once."""

from __future__ import annotations

import itertools
import multiprocessing
import queue
import signal
import threading
from collections import deque
from collections.abc import Iterator
from typing import Protocol

from .stats import GameRecord
from .tasks import GameTask, play_task


class Runner(Protocol):
    """Plays games: tasks go in with :meth:`submit`, records come out of :meth:`next` as the games finish."""

    #: How many games to keep submitted at once.
    slots: int

    def submit(self, task: GameTask) -> None:
        """Start ``task``'s game (or queue it)."""
        ...

    def next(self) -> GameRecord:
        """The record of a submitted game, waiting for one to finish."""
        ...

    def close(self) -> None:
        """Stop the games still running and release the workers."""
        ...


class InlineRunner:
    """Plays each game in this process when its record is asked for."""

    slots = 1

    def __init__(self) -> None:
        self._tasks: deque[GameTask] = deque()

    def submit(self, task: GameTask) -> None:
        self._tasks.append(task)

    def next(self) -> GameRecord:
        return play_task(self._tasks.popleft())

    def close(self) -> None:
        self._tasks.clear()


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class PoolRunner:
    """Plays the games in ``jobs`` worker processes (started fresh: ``spawn``), which ignore Ctrl-C.

    :ivar stop_timeout: seconds :meth:`close` waits for the pool to stop.
    """

    stop_timeout = 10.0

    def __init__(self, jobs: int) -> None:
        self.slots = 2 * jobs
        self._done: queue.SimpleQueue[GameRecord | BaseException] = queue.SimpleQueue()
        self._pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_ignore_sigint)

    def submit(self, task: GameTask) -> None:
        self._pool.apply_async(play_task, (task,), callback=self._done.put, error_callback=self._done.put)

    def next(self) -> GameRecord:
        done = self._done.get()
        if isinstance(done, BaseException):
            raise done
        return done

    def close(self) -> None:
        # Pool.terminate hangs for good when a worker it kills held the results queue's lock (CPython gh-96995); by
        # then the workers are killed, and the pool's stuck threads are daemons, so the pool is given up on.
        stopping = threading.Thread(target=self._pool.terminate, name="hive-pool-terminate", daemon=True)
        stopping.start()
        stopping.join(self.stop_timeout)
        if not stopping.is_alive():
            self._pool.join()


def finished_games(tasks: Iterator[GameTask], runner: Runner) -> Iterator[GameRecord]:
    """The games of ``tasks`` as they finish, each game once (by its number), with ``runner.slots`` of them in
    play; tasks are taken from ``tasks`` only as slots free up."""
    running = 0
    seen: set[int] = set()
    for task in itertools.islice(tasks, runner.slots):
        runner.submit(task)
        running += 1
    while running:
        record = runner.next()
        running -= 1
        for task in itertools.islice(tasks, 1):
            runner.submit(task)
            running += 1
        if record.number not in seen:
            seen.add(record.number)
            yield record


__all__ = ["InlineRunner", "PoolRunner", "Runner", "finished_games"]
