"""The transposition table: bounds and scores as stored, buckets that keep the deeper search, entries torn by two
writers read as absent, memory shared with forked processes, and a clear error for a size that cannot be had."""

from __future__ import annotations

import os

import pytest

from hive.search.table import NO_CUTOFF, TableTooLarge, TranspositionTable

KEY = 0xFEDC_BA98_7654_3210  # above 2**63: keys are unsigned 64-bit hashes


def table(entries: int = 64) -> TranspositionTable:
    t = TranspositionTable(entries)
    t.prepare()
    return t


def test_an_empty_table_settles_nothing() -> None:
    t = TranspositionTable(64)
    assert t.probe(KEY, 1, -10, 10) == NO_CUTOFF and t.move == 0
    assert len(t) == 0 and t.known_move(KEY) == -1


def test_exact_scores_and_bounds_settle_the_windows_they_decide() -> None:
    t = table()
    t.store(KEY, 5, -10, 10, 4, 777)  # inside the window: exact
    assert t.probe(KEY, 4, -100, 100) == 5 and t.move == 777
    assert t.probe(KEY, 5, -100, 100) == NO_CUTOFF and t.move == 777, "too shallow, but the move is kept"
    t.store(KEY, 30, -10, 10, 4, 778)  # at or above beta: a lower bound
    assert t.probe(KEY, 4, 0, 20) == 30 and t.probe(KEY, 4, 0, 40) == NO_CUTOFF
    t.store(KEY, -30, -10, 10, 4, 779)  # at or below alpha: an upper bound
    assert t.probe(KEY, 4, -20, 0) == -30 and t.probe(KEY, 4, -40, 0) == NO_CUTOFF
    assert t.known_move(KEY) == 779 and len(t) == 1


@pytest.mark.parametrize("score", [1_000_000, -1_000_001, 0, -1])
def test_extreme_scores_and_depths_keep_their_values(score: int) -> None:
    t = table()
    t.store(KEY, score, score - 1, score + 1, 64, (1 << 28) - 1)
    assert t.probe(KEY, 64, -2_000_000, 2_000_000) == score and t.move == (1 << 28) - 1


def test_a_bucket_keeps_the_deeper_search_and_the_latest() -> None:
    t = table(2)  # one bucket: every key meets there
    t.store(1, 11, -100, 100, 6, 1)
    t.store(2, 22, -100, 100, 3, 2)  # shallower: the second entry
    t.store(3, 33, -100, 100, 2, 3)  # replaces the second entry
    assert t.probe(1, 6, -100, 100) == 11
    assert t.probe(2, 1, -100, 100) == NO_CUTOFF and t.move == 0
    assert t.probe(3, 2, -100, 100) == 33
    t.store(4, 44, -100, 100, 6, 4)  # as deep: takes the first entry
    assert t.probe(4, 6, -100, 100) == 44 and t.probe(1, 1, -100, 100) == NO_CUTOFF


def test_an_earlier_searchs_deep_entry_gives_way() -> None:
    t = table(2)
    t.store(1, 11, -100, 100, 9, 1)
    t.prepare()  # the next search
    t.store(2, 22, -100, 100, 1, 2)
    assert t.probe(2, 1, -100, 100) == 22 and t.probe(1, 1, -100, 100) == NO_CUTOFF


def test_a_torn_entry_reads_as_absent() -> None:
    t = table(2)
    t.store(KEY, 5, -10, 10, 4, 7)
    other = TranspositionTable(2)
    other.prepare()
    other.store(KEY, 6, -10, 10, 4, 8)
    # the data word of one write beside the check word of the other, as two processes writing at once can leave it
    assert t.memory is not None and other.memory is not None
    memoryview(t.memory).cast("q")[1] = memoryview(other.memory).cast("q")[1]
    assert t.probe(KEY, 4, -10, 10) == NO_CUTOFF and t.move == 0


def test_clear_forgets_every_entry() -> None:
    t = table()
    for key in range(40):
        t.store(key, key, -100, 100, 2, key + 1)
    assert 0 < len(t) <= 64
    t.clear()
    assert len(t) == 0 and t.probe(5, 1, -100, 100) == NO_CUTOFF
    t.store(5, 5, -100, 100, 2, 6)
    assert t.known_move(5) == 6


def test_the_size_is_even_and_at_least_two() -> None:
    assert [TranspositionTable(n).entries for n in (0, 1, 2, 3, 1001)] == [2, 2, 2, 2, 1000]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_process_writes_into_the_same_table() -> None:
    t = table()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        t.store(KEY, 42, -100, 100, 5, 99)
        os._exit(0)
    os.waitpid(pid, 0)
    assert t.probe(KEY, 5, -100, 100) == 42 and t.move == 99


def test_a_table_too_large_for_memory_is_refused_clearly() -> None:
    t = TranspositionTable(1 << 62)
    with pytest.raises(TableTooLarge, match=r"A transposition table of 4,611,686,018,427,387,904 entries"):
        t.prepare()
    assert isinstance(TableTooLarge("x"), ValueError)
