"""Searching on more than one core: principal-variation splitting over forked processes.

The compiled search holds the GIL, so more cores mean more processes. At the start of a search with ``threads``
above 1, :class:`Team` forks ``threads - 1`` helpers, each with a copy of the searcher (its history and killers)
and of the root position, all sharing its transposition table (:mod:`hive.search.table`). The parent then walks
down the principal variation: at each node on it, the first (best-ordered) child is searched first, recursively in
the same way, and once its score is known the other children become a batch of tasks in shared memory that every
process takes one at a time, each searched with the game's negamax against the best score known when it starts
(the shared alpha). A child that reaches beta cancels the rest of its batch. Near the leaves (below
:data:`SPLIT_DEPTH`) a node is searched whole by one process.

Every task is searched with a window that alpha-beta could have given it, so the scores are those of alpha-beta
at that depth; only the choice between moves of equal score may differ (the first in the ordering that *proved*
the best score is chosen). What one process stores in the table the others find there, so a task is ordered and
cut off as one process would. The helpers stop with the parent (its deadline, its ``stop`` function or its death)
and are reaped before :meth:`~hive.search.framework.SearchBase.search_codes` returns.
"""

from __future__ import annotations

import fcntl
import mmap
import os
import tempfile
import time
from typing import TYPE_CHECKING

from ..game import DRAW
from .framework import MAX_DEPTH, NO_CUTOFF, WIN, SearchTimeout

if TYPE_CHECKING:
    from .framework import SearchBase, SearchPosition

#: The least depth left at which a node of the principal variation is shared out.
SPLIT_DEPTH = 3
# how long an idle process sleeps between looks at the queue, in seconds
_POLL = 0.0002
# the header: the batch's number, the stop, quit and beta-reached flags, the batch's alpha, beta, depth, ply, task
# count and path length, then the path from the root, and per helper its node count
_BATCH, _STOP, _QUIT, _CUT, _ALPHA, _BETA, _DEPTH, _PLY, _COUNT, _LENGTH, _PATH = range(11)
_LONGEST = 4 * MAX_DEPTH
_NODES = _PATH + _LONGEST
# a task's state: pending, done, or taken by process k (``_TAKEN + k``, the parent being 0)
_PENDING, _DONE, _TAKEN = 0, 1, 2


def can_fork() -> bool:
    """Whether this platform can start helper processes (it needs ``os.fork``)."""
    return hasattr(os, "fork")


class ProcessLock:
    """A lock between the processes of a team that the kernel releases when its holder dies: a POSIX record lock
    on an unlinked file. (A semaphore held by a helper killed inside its critical section would block the parent
    for ever.) Record locks belong to a process, so each process of the team holds or waits for it on its own."""

    def __init__(self) -> None:
        self._fd, path = tempfile.mkstemp(prefix="hive-search-")
        os.unlink(path)

    def __enter__(self) -> None:
        fcntl.lockf(self._fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        fcntl.lockf(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        """Release the file (the lock must not be held)."""
        os.close(self._fd)


class Team:
    """The helper processes of one search and the shared table they work from (see the module's docstring).

    :param searcher: the parent's searcher, already set up for the search (deadline, draw score).
    :param position: the root position.
    :param width: the root's move count (a wider node further down is searched whole, by one process).
    :param threads: processes in all, the parent included.
    """

    def __init__(self, searcher: SearchBase, position: SearchPosition, width: int, threads: int) -> None:
        self.searcher = searcher
        self.position = position
        self.width = max(width, 512)
        self.threads = threads
        self.base = _NODES + threads
        self.lock = ProcessLock()
        self.memory = mmap.mmap(-1, 8 * (self.base + 4 * self.width))
        self.slots = memoryview(self.memory).cast("q")
        self.path: list[int] = []
        self.pids: dict[int, int] = {}
        self.parent = os.getpid()
        for helper in range(1, threads):
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the helper never returns
                code = 1
                try:
                    self._help(helper)
                    code = 0
                finally:
                    os._exit(code)
            self.pids[helper] = pid

    # four slots per task after the header: its move, its state, its score and the alpha it was searched against
    def _slot(self, index: int, field: int) -> int:
        return self.base + 4 * index + field

    def root(self, moves: list[int], depth: int) -> tuple[int, int]:
        """One iteration at ``depth`` over the root's ``moves`` (best first): the best score and move, as
        :meth:`~hive.search.framework.SearchBase._root` returns them.

        :raises SearchTimeout: when the parent's deadline passes or its ``stop`` says so (the helpers stop too).
        """
        score, move = self._split(moves, depth, -WIN - 1, WIN + 1, 0)
        return score, move

    def _node(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score of the position the parent is at (on the principal variation), as the negamax returns it."""
        s, p = self.searcher, self.position
        if depth < SPLIT_DEPTH or len(self.path) >= _LONGEST or p.status >= DRAW or s.repeated(p, ply):
            return s.score_node(p, depth, alpha, beta, ply)
        score = s.probe(p.hash, depth, alpha, beta)
        if score != NO_CUTOFF:
            return score
        moves = s.node_moves(p, ply)
        if len(moves) > self.width:
            return s.score_node(p, depth, alpha, beta, ply)
        return self._split(moves, depth, alpha, beta, ply)[0]

    def _split(self, moves: list[int], depth: int, alpha: int, beta: int, ply: int) -> tuple[int, int]:
        """Search the first of ``moves`` down the principal variation, then the rest as a batch."""
        s, p = self.searcher, self.position
        side = p.ply & 1
        p.make(moves[0])
        self.path.append(moves[0])
        if p.ply & 1 == side:
            best = self._node(depth, alpha, beta, ply + 1)
        else:
            best = -self._node(depth - 1, -beta, -alpha, ply + 1)
        self.path.pop()
        p.unmake()
        best_move = moves[0]
        if best < beta and len(moves) > 1:
            best, best_move = self._batch(moves, depth, max(alpha, best), beta, ply, best)
        if ply == 0:
            s.store(p.hash, best, best - 1, best + 1, depth, best_move)  # exact, as the one-process root stores
        else:
            s.store(p.hash, best, alpha, beta, depth, best_move)
        return best, best_move

    def _batch(self, moves: list[int], depth: int, alpha: int, beta: int, ply: int, first: int) -> tuple[int, int]:
        """Share out ``moves[1:]`` (``first`` the score of ``moves[0]``) and gather the best score and move."""
        slots = self.slots
        count = len(moves) - 1
        with self.lock:
            slots[_ALPHA], slots[_BETA], slots[_DEPTH], slots[_PLY] = alpha, beta, depth, ply
            slots[_COUNT], slots[_LENGTH], slots[_CUT] = count, len(self.path), 0
            for index, move in enumerate(self.path):
                slots[_PATH + index] = move
            for index in range(count):
                slots[self._slot(index, 0)] = moves[index + 1]
                slots[self._slot(index, 1)] = _PENDING
            slots[_BATCH] += 1
            batch = slots[_BATCH]
        try:
            self._wait(batch)
        finally:
            with self.lock:
                slots[_BATCH] += 1  # cancels what is left of this batch
        # a score that beat the alpha it was searched against is proved; one at or below it is only a bound
        scores = [first] + [slots[self._slot(index, 2)] for index in range(count)]
        proved = [True] + [slots[self._slot(index, 2)] > slots[self._slot(index, 3)] for index in range(count)]
        done = [True] + [slots[self._slot(index, 1)] == _DONE for index in range(count)]
        best = max(score for score, finished in zip(scores, done, strict=True) if finished)
        chosen = [i for i in range(len(moves)) if done[i] and proved[i] and scores[i] == best]
        if not chosen:  # every move failed low: the highest bound, as the negamax keeps it
            chosen = [i for i in range(len(moves)) if done[i] and scores[i] == best]
        return best, moves[chosen[0]]

    def _claim(self, process: int) -> tuple[int, int, int, int, int, int] | None:
        """Under the lock: the next pending task of the batch, taken by ``process``, as its index, move, alpha, beta,
        depth and ply."""
        slots = self.slots
        if slots[_STOP] or slots[_CUT]:
            return None
        for index in range(slots[_COUNT]):
            if slots[self._slot(index, 1)] == _PENDING:
                slots[self._slot(index, 1)] = _TAKEN + process
                return index, slots[self._slot(index, 0)], slots[_ALPHA], slots[_BETA], slots[_DEPTH], slots[_PLY]
        return None

    def _run(self, batch: int, task: tuple[int, int, int, int, int, int]) -> None:
        """Search ``task`` of ``batch`` and publish its score (raising the shared alpha, ending the batch at
        beta)."""
        index, move, alpha, beta, depth, ply = task
        slots = self.slots
        # as the one-process negamax does: prove the move no better than alpha, search it fully only if it is
        score = self.searcher.score_child(self.position, move, depth, alpha, alpha + 1, ply)
        if alpha < score < beta:
            score = self.searcher.score_child(self.position, move, depth, alpha, beta, ply)
        with self.lock:
            if slots[_BATCH] != batch:
                return
            slots[self._slot(index, 2)] = score
            slots[self._slot(index, 3)] = alpha
            slots[self._slot(index, 1)] = _DONE
            if score > slots[_ALPHA]:
                slots[_ALPHA] = score
            if score >= beta:
                slots[_CUT] = 1

    def _wait(self, batch: int) -> None:
        """Take tasks of ``batch`` and wait for the helpers' until every task is done or one reached beta, polling
        the parent's clock and ``stop``; the task of a helper that died goes back to the queue."""
        slots, s = self.slots, self.searcher
        while True:
            with self.lock:
                task = self._claim(0)
            if task is not None:
                self._run(batch, task)
                continue
            if slots[_CUT] or all(slots[self._slot(index, 1)] == _DONE for index in range(slots[_COUNT])):
                return
            if time.perf_counter() > s.deadline or (s.stop is not None and s.stop()):
                slots[_STOP] = 1
                raise SearchTimeout
            for helper, pid in list(self.pids.items()):
                if os.waitpid(pid, os.WNOHANG)[0]:
                    del self.pids[helper]
                    with self.lock:
                        for index in range(slots[_COUNT]):
                            if slots[self._slot(index, 1)] == _TAKEN + helper:
                                slots[self._slot(index, 1)] = _PENDING
            time.sleep(_POLL)

    def _help(self, helper: int) -> None:  # pragma: no cover - runs in the helper
        """A helper's life: take tasks until the parent quits (or dies)."""
        slots, s, p = self.slots, self.searcher, self.position
        parent = self.parent
        current = [0]

        def stop() -> bool:
            return slots[_STOP] != 0 or slots[_BATCH] != current[0] or os.getppid() != parent

        s.stop = stop
        s.nodes = 0
        plies = len(p.history)
        while slots[_QUIT] == 0 and os.getppid() == parent:
            with self.lock:
                current[0] = slots[_BATCH]
                path = [slots[_PATH + index] for index in range(slots[_LENGTH])]
                task = self._claim(helper)
            if task is None:
                time.sleep(_POLL)
                continue
            try:
                for move in path:
                    p.make(move)
                self._run(current[0], task)
            except SearchTimeout:
                pass
            while len(p.history) > plies:
                p.unmake()
            slots[_NODES + helper] = s.nodes

    def close(self) -> int:
        """Stop and reap the helpers; returns the nodes they searched."""
        self.slots[_STOP] = 1
        self.slots[_QUIT] = 1
        for pid in self.pids.values():
            os.waitpid(pid, 0)
        self.pids.clear()
        nodes = sum(self.slots[_NODES + helper] for helper in range(1, self.threads))
        self.slots.release()
        self.memory.close()
        self.lock.close()
        return nodes
