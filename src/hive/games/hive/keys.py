"""The random keys Hive's positions are hashed with (:mod:`hive.games.hive.state`): drawn from fixed seeds, so
that hashes are the same in every run, on every machine and in both builds."""

from __future__ import annotations

import random
import sys
from array import array

from .geometry import CELLS
from .pieces import KINDS, PIECES

#: The stack levels a key is drawn for (a piece at level L > 0 adds a level key).
KEY_LEVELS = 8


def zobrist_keys() -> tuple[list[int], list[int], list[int], int]:
    """The keys of :attr:`State.hash`: a piece on a cell, a piece at a level above the ground, the piece moved last,
    and Black to move."""
    rng = random.Random(0x48495645)  # fixed: hashes are stable across runs
    cell_keys = [rng.getrandbits(64) for _ in range(PIECES * CELLS)]
    # A piece at level L > 0 adds a level key: position = where each piece is and how high.
    level_keys = [0 if lvl == 0 else rng.getrandbits(64) for _ in range(PIECES) for lvl in range(KEY_LEVELS)]
    last_keys = [rng.getrandbits(64) for _ in range(PIECES)]
    return cell_keys, level_keys, last_keys, rng.getrandbits(64)


def table_keys() -> tuple[list[int], list[int], list[int], list[int]]:
    """The keys of :attr:`State.key`: a bug (colour and kind) on a cell; a bug at a level above the ground, and a
    level on a cell (their sum with the cell's key sets apart which bug tops a stack, and two bugs of one kind at
    different heights); the cell of the piece moved last, where it matters."""
    rng = random.Random(0x5441424C)

    def keys(count: int) -> list[int]:  # drawn as bytes at once: a call a key would cost import time
        drawn = array("Q", rng.randbytes(8 * count))
        if sys.byteorder == "big":
            drawn.byteswap()  # the same keys on every machine
        return drawn.tolist()

    bugs = 2 * KINDS
    bug_levels = keys(bugs * KEY_LEVELS)
    cell_levels = keys(KEY_LEVELS * CELLS)
    for i in range(0, bugs * KEY_LEVELS, KEY_LEVELS):
        bug_levels[i] = 0  # the ground: the cell's key alone
    cell_levels[:CELLS] = [0] * CELLS
    return keys(bugs * CELLS), bug_levels, cell_levels, keys(CELLS)


def occupancy_keys() -> list[int]:
    """A key per cell, for the hash of the occupied cells (the hive's shape)."""
    return [random.Random(0x43555453 + cell).getrandbits(64) for cell in range(CELLS)]
