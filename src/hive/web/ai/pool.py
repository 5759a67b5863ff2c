"""The AI's worker processes: started at first use (or at once, to warm up), started again when one of them dies,
stopped with the server even in the middle of a search."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from .work import start_worker


class Workers:
    """A pool of worker processes (spawned, so that they share nothing with the server's threads).

    :param count: processes; ``0`` thinks in the event loop's threads instead (for tests).
    """

    def __init__(self, count: int) -> None:
        self.count = count
        self._executor: ProcessPoolExecutor | None = None

    @property
    def executor(self) -> Executor | None:
        """The worker processes, started at first use (``None``: the event loop's threads)."""
        if self._executor is None and self.count > 0:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.count, mp_context=context, initializer=start_worker)
        return self._executor

    def drop_broken(self) -> None:
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
        """Stop the workers, even in the middle of a search."""
        if self._executor is None:
            return
        processes = list(getattr(self._executor, "_processes", {}).values())
        for process in processes:
            process.terminate()
        self._executor.shutdown(wait=True, cancel_futures=True)
        for process in processes:
            process.join(5)
        self._executor = None


__all__ = ["Workers"]
