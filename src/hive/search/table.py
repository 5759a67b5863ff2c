"""The transposition table: a fixed number of entries in shared memory, read and written by every process of a
search.

An entry is two 64-bit words: the packed data (``score << 41 | age << 37 | depth << 30 | flag << 28 | move``) and a
check word, the position's key (its low 63 bits) XOR the data. Entries go in buckets of two, indexed by the key
modulo the bucket count: the first keeps the deeper search (unless it is from an earlier search), the second takes
what the first turns away. The memory is an anonymous shared mapping, so the helpers that a search on more than one
process forks (:mod:`hive.search.parallel`) share the table with it. Two processes writing one entry at once can
leave it torn, data from one and check from the other; a torn entry fails its check and reads as absent.

Plain typed Python; Cython compiles it with the C types in ``table.pxd``.
"""

from __future__ import annotations

import mmap

from .._build import is_compiled

#: What :meth:`TranspositionTable.probe` returns when the table does not settle a node (outside every score).
NO_CUTOFF = -2_000_000
EXACT = 0
LOWER = 1
UPPER = 2
#: The bytes one entry takes.
ENTRY_BYTES = 16
_MOVE_MASK = (1 << 28) - 1
_FLAG_SHIFT = 28
_DEPTH_SHIFT = 30
_DEPTH_MASK = 127
_AGE_SHIFT = 37
_AGE_MASK = 15
_SCORE_SHIFT = 41
_KEY_MASK = (1 << 63) - 1


class TableTooLarge(ValueError):
    """The memory for a transposition table of the size asked for could not be had."""


def table_entries(limit: int) -> int:
    """The entries of a table asked to hold at most ``limit``: an even number, at least 2."""
    return max(2, limit - limit % 2)


class TranspositionTable:
    """Scores, bounds and best moves of searched positions, by their 64-bit keys (see the module's docstring).

    :param entries: how many entries the table holds (:func:`table_entries` of it). The memory is mapped at the
        first :meth:`prepare` or :meth:`store` and pages in as entries are written. A process forked after that
        shares the table; :meth:`clear` in either gives that one a table of its own.
    """

    def __init__(self, entries: int) -> None:
        self.entries = table_entries(entries)
        #: the search the entries being written belong to (an earlier search's deep entries give way)
        self.age = 0
        #: the best move of the entry the last :meth:`probe` found, or 0
        self.move = 0
        self._buckets = self.entries // 2
        #: the shared mapping that holds the entries (``None`` until the table is first used or after :meth:`clear`)
        self.memory: mmap.mmap | None = None
        self._words = _EMPTY

    def _map(self, populate: bool = False) -> None:
        size = self.entries * ENTRY_BYTES
        try:
            if populate and hasattr(mmap, "MAP_POPULATE"):
                # (Linux) the kernel supplies every page now rather than at its first write
                self.memory = mmap.mmap(-1, size, flags=mmap.MAP_SHARED | mmap.MAP_POPULATE)
            else:
                self.memory = mmap.mmap(-1, size)
        except (OSError, OverflowError, MemoryError) as err:
            raise TableTooLarge(
                f"A transposition table of {self.entries:,} entries ({self.entries * ENTRY_BYTES:,} bytes) "
                f"does not fit in memory ({err})."
            ) from None
        self._words = memoryview(self.memory).cast("q")

    def prepare(self) -> None:
        """Map the table's memory now (before a search forks its helpers, so that they share it) and begin a new
        search: entries written from now on are of a new age.

        :raises TableTooLarge: when the memory cannot be had.
        """
        if self.memory is None:
            self._map()
        self.age = (self.age + 1) & _AGE_MASK

    def clear(self) -> None:
        """Forget every entry (and give the memory back)."""
        self._words = _EMPTY
        self.memory = None

    def populate(self) -> None:
        """Map the table's memory now, with every page in place where the platform allows (Linux), so that no
        search waits for the kernel to supply a page at its first write (a shared page costs some 3 µs, and a
        search writes all over the table); nothing when it is mapped already.

        :raises TableTooLarge: when the memory cannot be had.
        """
        if self.memory is None:
            self._map(True)

    def wipe(self) -> None:
        """Forget every entry, keeping the memory (its pages, and the processes it is shared with)."""
        if self.memory is None:
            return
        zeros = bytes(1 << 20)
        size = self.entries * ENTRY_BYTES
        for offset in range(0, size, len(zeros)):
            end = min(size, offset + len(zeros))
            self.memory[offset:end] = zeros[: end - offset]

    def __len__(self) -> int:
        """The entries written (a scan of the table)."""
        return self._filled()

    def _filled(self) -> int:
        if self.memory is None:
            return 0
        if COMPILED:
            count = 0
            for i in range(1, 2 * self.entries, 2):
                if self._words[i] != 0:
                    count += 1
            return count
        return sum(map(bool, self._words[1::2]))

    def probe(self, key: int, depth: int, alpha: int, beta: int) -> int:
        """The stored score of position ``key`` if it settles a ``depth`` search in the window ``alpha``..``beta``,
        else :data:`NO_CUTOFF`; leaves the stored best move (0 if none) in :attr:`move`."""
        self.move = 0
        if self.memory is None:
            return _NO_CUTOFF
        check = key & _KEY_MASK
        i = key % self._buckets * 4
        data = self._words[i + 1]
        if self._words[i] ^ data != check:
            i += 2
            data = self._words[i + 1]
            if self._words[i] ^ data != check:
                return _NO_CUTOFF
        self.move = data & _MOVE_MASK
        if data >> _DEPTH_SHIFT & _DEPTH_MASK >= depth:
            score = data >> _SCORE_SHIFT
            flag = data >> _FLAG_SHIFT & 3
            if flag == _EXACT:
                return score
            if flag == _LOWER and score >= beta:
                return score
            if flag == _UPPER and score <= alpha:
                return score
        return _NO_CUTOFF

    def store(self, key: int, best: int, original_alpha: int, beta: int, depth: int, move: int) -> None:
        """Store a searched node's score ``best``, a bound where the window ``original_alpha``..``beta`` cut it, with
        its ``depth`` and best ``move``."""
        if self.memory is None:
            self._map()
        flag = _EXACT
        if best <= original_alpha:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        data = best << _SCORE_SHIFT | self.age << _AGE_SHIFT | depth << _DEPTH_SHIFT | flag << _FLAG_SHIFT | move
        check = key & _KEY_MASK
        i = key % self._buckets * 4
        kept = self._words[i + 1]
        if (
            self._words[i] ^ kept != check
            and kept >> _AGE_SHIFT & _AGE_MASK == self.age
            and kept >> _DEPTH_SHIFT & _DEPTH_MASK > depth
        ):
            i += 2  # the first entry keeps a deeper search of another position
        self._words[i] = check ^ data
        self._words[i + 1] = data

    def known_move(self, key: int) -> int:
        """The best move stored for position ``key``, or -1."""
        self.probe(key, _DEPTH_MASK, 0, 0)
        return self.move if self.move != 0 else -1


_EMPTY = memoryview(bytearray()).cast("q")
COMPILED: bool = is_compiled(TranspositionTable.clear)
# C copies (see table.pxd) of the constants used above.
_NO_CUTOFF = NO_CUTOFF
_EXACT = EXACT
_LOWER = LOWER
_UPPER = UPPER
