"""A search team's helper process: its life from its fork to the team's close (see :mod:`hive.search.parallel`)."""

from __future__ import annotations

import os
import select
import time
from typing import TYPE_CHECKING

from .framework import SearchTimeout
from .slots import AGE, BATCH, DRAW_SCORE, LENGTH, LINE_LENGTH, NODES, PATH, POLL, QUIT, SEARCH, SIDE, STOP

if TYPE_CHECKING:
    from .parallel import Team

# how long a helper sleeps between searches before it looks whether its parent lives, in seconds
_IDLE = 1.0


def help_team(team: Team, helper: int, wake: int) -> None:  # pragma: no cover - runs in the helper
    """A helper's life: take the tasks of each search, bringing its root to the search's first, and sleep
    between searches, until the parent closes the team (or dies)."""
    slots, s, p = team.slots, team.searcher, team.position
    parent = team.parent
    current = [0]

    def stop() -> bool:
        return slots[STOP] != 0 or slots[BATCH] != current[0] or os.getppid() != parent

    s.stop = stop
    s.deadline = float("inf")  # a search's end is the parent's to say
    s.nodes = 0
    line = list(team.line[1]) if team.line is not None else []
    synced = slots[SEARCH]
    plies = len(p.history)
    while slots[QUIT] == 0 and os.getppid() == parent:
        sync: tuple[int, list[int], int, int, int] | None = None
        idle = False
        task = None
        with team.lock:
            search = slots[SEARCH]
            if search != synced:
                moves = [slots[team.lines + index] for index in range(slots[LINE_LENGTH])]
                sync = search, moves, slots[DRAW_SCORE], slots[SIDE], slots[AGE]
            elif slots[STOP]:
                idle = True
            else:
                current[0] = slots[BATCH]
                path = [slots[PATH + index] for index in range(slots[LENGTH])]
                task = team.claim(helper)
        if sync is not None:
            synced, moves, s.draw_score, s.root_side, s.tt.age = sync
            common = 0
            while common < min(len(line), len(moves)) and line[common] == moves[common]:
                common += 1
            for _ in range(len(line) - common):
                p.unmake()
            for move in moves[common:]:
                p.make(move)
            line, plies = moves, len(p.history)
            s.reset_ordering()
            s.begin_root(p)
            s.nodes = 0
            continue
        if idle:
            if not _sleep(wake, parent):
                return
            continue
        if task is None:
            time.sleep(POLL)
            continue
        try:
            for move in path:
                p.make(move)
            team.run_task(current[0], task)
        except SearchTimeout:
            pass
        while len(p.history) > plies:
            p.unmake()
        if slots[SEARCH] == synced:
            slots[NODES + helper] = s.nodes


def _sleep(wake: int, parent: int) -> bool:  # pragma: no cover - runs in the helper
    """Sleep until the parent writes to the ``wake`` pipe; ``False`` when the parent closed it or died."""
    while True:
        ready = select.select([wake], [], [], _IDLE)[0]
        if os.getppid() != parent:
            return False
        if ready:
            return bool(os.read(wake, 4096))
