"""Searching on more than one core: principal-variation splitting over forked processes.

The compiled search holds the GIL, so more cores mean more processes. At the first search with ``threads``
above 1, :class:`Team` forks ``threads - 1`` helpers, each with a copy of the searcher (its history and killers)
and of the root position, all sharing its transposition table (:mod:`hive.search.table`). The team is then the
searcher's for the searches that follow (:func:`team_for`): at each one the helpers bring their copy of the root
to the new root by the moves that differ (the game's line from its start, see :func:`root_line`) and take the
search's draw score, table age and a cleared history; between searches they sleep on a pipe. A search whose root
is on another line (another game, other rules, a game whose searcher cannot tell its rules) or whose table changed
starts a new team.

In a search, the parent walks down the principal variation: at each node on it, the first (best-ordered) child is
searched first, recursively in the same way, and once its score is known the other children become a batch of
tasks in shared memory that every process takes one at a time, each searched with the game's negamax against the
best score known when it starts (the shared alpha). A child that reaches beta cancels the rest of its batch. Near
the leaves (below :data:`SPLIT_DEPTH`) a node is searched whole by one process.

Every task is searched with a window that alpha-beta could have given it, so the scores are those of alpha-beta
at that depth; only the choice between moves of equal score may differ (the first in the ordering that *proved*
the best score is chosen). What one process stores in the table the others find there, so a task is ordered and
cut off as one process would. A search's tasks stop with the parent's (its deadline or its ``stop`` function);
the helpers end when the team is closed (:meth:`Team.close`, :meth:`~hive.search.framework.SearchBase.close`),
when the searcher is dropped, at the interpreter's exit, or when the parent dies (their wake pipe's end, and a
look at the parent at least every second).
"""

from __future__ import annotations

import contextlib
import fcntl
import mmap
import os
import tempfile
import time
import weakref
from typing import TYPE_CHECKING, Any

from ..game import DRAW
from .framework import NO_CUTOFF, WIN, SearchTimeout
from .helper import help_team
from .slots import (
    AGE,
    ALPHA,
    BATCH,
    BETA,
    COUNT,
    CUT,
    DEPTH,
    DONE,
    DRAW_SCORE,
    LENGTH,
    LINE_LENGTH,
    LONGEST_PATH,
    NODES,
    PATH,
    PENDING,
    PLY,
    POLL,
    QUIT,
    SEARCH,
    SIDE,
    STOP,
    TAKEN,
)

if TYPE_CHECKING:
    from .framework import SearchBase, SearchPosition

#: The least depth left at which a node of the principal variation is shared out.
SPLIT_DEPTH = 3
#: The longest root line a team follows (a longer game starts a new team at each search).
LONGEST_LINE = 2048
# the write ends of every team's wake pipes in this process: a helper forked later closes them, so that a team's
# helpers see their parent's end when it dies
_WAKE_ENDS: set[int] = set()


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


def root_line(searcher: SearchBase, position: SearchPosition) -> tuple[object, list[int]] | None:
    """The line of ``position``: what its game started from (the searcher's :meth:`rules_of
    <hive.search.framework.SearchBase.rules_of>` it, the start's hash and ply) and the moves played since, or
    ``None`` where the searcher cannot tell its rules. ``position`` is unmade to its start and made again."""
    rules = searcher.rules_of(position)
    if rules is None:
        return None
    moves = []
    while len(position.history):
        moves.append(position.unmake())
    start = (rules, position.hash, position.ply)
    moves.reverse()
    for move in moves:
        position.make(move)
    return start, moves


def team_for(searcher: SearchBase, position: SearchPosition, width: int, threads: int) -> Team:
    """The searcher's team (:attr:`~hive.search.framework.SearchBase.team`) set up for a search of ``position``
    (``width`` root moves) on ``threads`` processes: the one it has where that can follow, else a new one."""
    team = searcher.team
    if team is not None:
        if team.begin(searcher, position, width, threads):
            return team
        team.close()
        searcher.team = None
    team = Team(searcher, position, width, threads)
    searcher.team = team
    return team


def _shut(
    owner: int, slots: memoryview, memory: mmap.mmap, pids: dict[int, int], wakes: dict[int, int], lock: ProcessLock
) -> None:
    """End a team's helpers and release what it holds (a team's close, or its finalizer)."""
    if os.getpid() != owner:  # a copy of the team in a process forked from its owner
        return
    slots[STOP] = 1
    slots[QUIT] = 1
    for fd in wakes.values():
        _WAKE_ENDS.discard(fd)
        os.close(fd)  # an idle helper wakes to the pipe's end
    wakes.clear()
    for pid in pids.values():
        with contextlib.suppress(ChildProcessError):  # reaped already, by a search that found it dead
            os.waitpid(pid, 0)
    pids.clear()
    slots.release()
    memory.close()
    lock.close()


class Team:
    """The helper processes of a searcher and the shared memory they work from (see the module's docstring); set up
    for its first search.

    :param searcher: the parent's searcher, already set up for the search (deadline, draw score, table).
    :param position: the root position.
    :param width: the root's move count (a wider node further down is searched whole, by one process).
    :param threads: processes in all, the parent included.
    """

    def __init__(self, searcher: SearchBase, position: SearchPosition, width: int, threads: int) -> None:
        self.searcher: Any = searcher
        self.position: Any = position
        self.width = max(width, 512)
        self.threads = threads
        self.table = searcher.tt
        self.table_memory = searcher.tt.memory
        self.line = root_line(searcher, position)
        self.lines = NODES + threads
        self.base = self.lines + LONGEST_LINE
        self.lock = ProcessLock()
        self.memory = mmap.mmap(-1, 8 * (self.base + 4 * self.width))
        self.slots = memoryview(self.memory).cast("q")
        self.slots[SEARCH] = 1
        self.path: list[int] = []
        self.pids: dict[int, int] = {}
        self.wakes: dict[int, int] = {}
        self.parent = os.getpid()
        reads: dict[int, int] = {}
        for helper in range(1, threads):
            reads[helper], self.wakes[helper] = os.pipe()
        for helper in range(1, threads):
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the helper never returns
                code = 1
                try:
                    for fd in (*_WAKE_ENDS, *self.wakes.values(), *(r for h, r in reads.items() if h != helper)):
                        os.close(fd)
                    help_team(self, helper, reads[helper])
                    code = 0
                finally:
                    os._exit(code)
            self.pids[helper] = pid
        for fd in reads.values():
            os.close(fd)
        _WAKE_ENDS.update(self.wakes.values())
        self._finalizer = weakref.finalize(
            self, _shut, self.parent, self.slots, self.memory, self.pids, self.wakes, self.lock
        )

    def begin(self, searcher: SearchBase, position: SearchPosition, width: int, threads: int) -> bool:
        """Set the team up for a new search of ``position`` by ``searcher`` (set up for it: draw score, table age,
        history) and wake the helpers; ``False`` (and nothing done) where this team cannot search it: another number
        of processes, a wider root, another table, a dead helper, or a root that is not on the team's line."""
        if threads != self.threads or max(width, 512) > self.width or not self._finalizer.alive:
            return False
        if searcher.tt is not self.table or searcher.tt.memory is not self.table_memory:
            return False
        if any(os.waitpid(pid, os.WNOHANG)[0] for pid in self.pids.values()) or len(self.pids) != threads - 1:
            return False
        line = root_line(searcher, position)
        if line is None or self.line is None or line[0] != self.line[0] or len(line[1]) > LONGEST_LINE:
            return False
        self.searcher, self.position, self.path = searcher, position, []
        slots = self.slots
        with self.lock:
            for index, move in enumerate(line[1]):
                slots[self.lines + index] = move
            slots[LINE_LENGTH] = len(line[1])
            slots[DRAW_SCORE], slots[SIDE], slots[AGE] = searcher.draw_score, searcher.root_side, searcher.tt.age
            for helper in range(1, threads):
                slots[NODES + helper] = 0
            slots[COUNT], slots[CUT] = 0, 0
            slots[BATCH] += 1
            slots[SEARCH] += 1
            slots[STOP] = 0
        try:
            for fd in self.wakes.values():
                os.write(fd, b"!")
        except BlockingIOError:  # pragma: no cover - a pipe full of wake-ups the helper will read
            pass
        except BrokenPipeError:
            slots[STOP] = 1
            return False
        return True

    def finish(self) -> int:
        """End the search (the helpers go back to sleep); returns the nodes the helpers searched in it."""
        self.slots[STOP] = 1
        self.searcher = self.position = None
        return sum(self.slots[NODES + helper] for helper in range(1, self.threads))

    def close(self) -> None:
        """Stop and reap the helpers and release the shared memory (harmless when called twice)."""
        self.searcher = self.position = None
        self._finalizer()

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
        s: SearchBase = self.searcher
        p: SearchPosition = self.position
        if depth < SPLIT_DEPTH or len(self.path) >= LONGEST_PATH or p.status >= DRAW or s.repeated(p, ply):
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
            slots[ALPHA], slots[BETA], slots[DEPTH], slots[PLY] = alpha, beta, depth, ply
            slots[COUNT], slots[LENGTH], slots[CUT] = count, len(self.path), 0
            for index, move in enumerate(self.path):
                slots[PATH + index] = move
            for index in range(count):
                slots[self._slot(index, 0)] = moves[index + 1]
                slots[self._slot(index, 1)] = PENDING
            slots[BATCH] += 1
            batch = slots[BATCH]
        try:
            self._wait(batch)
        finally:
            with self.lock:
                slots[BATCH] += 1  # cancels what is left of this batch
        # a score that beat the alpha it was searched against is proved; one at or below it is only a bound
        scores = [first] + [slots[self._slot(index, 2)] for index in range(count)]
        proved = [True] + [slots[self._slot(index, 2)] > slots[self._slot(index, 3)] for index in range(count)]
        done = [True] + [slots[self._slot(index, 1)] == DONE for index in range(count)]
        best = max(score for score, finished in zip(scores, done, strict=True) if finished)
        chosen = [i for i in range(len(moves)) if done[i] and proved[i] and scores[i] == best]
        if not chosen:  # every move failed low: the highest bound, as the negamax keeps it
            chosen = [i for i in range(len(moves)) if done[i] and scores[i] == best]
        return best, moves[chosen[0]]

    def claim(self, process: int) -> tuple[int, int, int, int, int, int] | None:
        """Under the lock: the next pending task of the batch, taken by ``process``, as its index, move, alpha, beta,
        depth and ply."""
        slots = self.slots
        if slots[STOP] or slots[CUT]:
            return None
        for index in range(slots[COUNT]):
            if slots[self._slot(index, 1)] == PENDING:
                slots[self._slot(index, 1)] = TAKEN + process
                return index, slots[self._slot(index, 0)], slots[ALPHA], slots[BETA], slots[DEPTH], slots[PLY]
        return None

    def run_task(self, batch: int, task: tuple[int, int, int, int, int, int]) -> None:
        """Search ``task`` of ``batch`` and publish its score (raising the shared alpha, ending the batch at
        beta)."""
        index, move, alpha, beta, depth, ply = task
        slots = self.slots
        # as the one-process negamax does: prove the move no better than alpha, search it fully only if it is
        score = self.searcher.score_child(self.position, move, depth, alpha, alpha + 1, ply)
        if alpha < score < beta:
            score = self.searcher.score_child(self.position, move, depth, alpha, beta, ply)
        with self.lock:
            if slots[BATCH] != batch:
                return
            slots[self._slot(index, 2)] = score
            slots[self._slot(index, 3)] = alpha
            slots[self._slot(index, 1)] = DONE
            if score > slots[ALPHA]:
                slots[ALPHA] = score
            if score >= beta:
                slots[CUT] = 1

    def _wait(self, batch: int) -> None:
        """Take tasks of ``batch`` and wait for the helpers' until every task is done or one reached beta, polling
        the parent's clock and ``stop``; the task of a helper that died goes back to the queue."""
        slots, s = self.slots, self.searcher
        while True:
            with self.lock:
                task = self.claim(0)
            if task is not None:
                self.run_task(batch, task)
                continue
            if slots[CUT] or all(slots[self._slot(index, 1)] == DONE for index in range(slots[COUNT])):
                return
            if time.perf_counter() > s.deadline or (s.stop is not None and s.stop()):
                slots[STOP] = 1
                raise SearchTimeout
            for helper, pid in list(self.pids.items()):
                if os.waitpid(pid, os.WNOHANG)[0]:
                    del self.pids[helper]
                    with self.lock:
                        for index in range(slots[COUNT]):
                            if slots[self._slot(index, 1)] == TAKEN + helper:
                                slots[self._slot(index, 1)] = PENDING
            time.sleep(POLL)
