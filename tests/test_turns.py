"""The turns of the parallel test run (:mod:`tests.turns`): shared turns overlap, an alone turn waits for those
running and holds back those asked for after it, and it is released however its block ends."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from .turns import runs_alone, turn

#: Long enough for a thread that should be blocked to have been let through if it were not.
SETTLE = 0.3


def test_shared_turns_overlap_and_an_alone_turn_runs_by_itself(tmp_path: Path) -> None:
    log: list[str] = []
    first_in, release_first = threading.Event(), threading.Event()

    def shared(name: str, started: threading.Event | None, release: threading.Event | None) -> None:
        with turn(tmp_path, alone=False):
            log.append(f"{name} in")
            if started is not None:
                started.set()
            if release is not None:
                release.wait(10)
            log.append(f"{name} out")

    def alone() -> None:
        with turn(tmp_path, alone=True):
            log.append("alone in")
            time.sleep(SETTLE)
            log.append("alone out")

    a = threading.Thread(target=shared, args=("a", first_in, release_first))
    a.start()
    assert first_in.wait(10)
    b = threading.Thread(target=shared, args=("b", None, None))  # beside a: shared turns overlap
    b.start()
    b.join(10)
    assert log == ["a in", "b in", "b out"]
    waiting = threading.Thread(target=alone)
    waiting.start()
    time.sleep(SETTLE)
    late = threading.Thread(target=shared, args=("c", None, None))  # asked for after the alone turn: held back
    late.start()
    time.sleep(SETTLE)
    assert log == ["a in", "b in", "b out"]
    release_first.set()
    for thread in (a, waiting, late):
        thread.join(10)
    assert log == ["a in", "b in", "b out", "a out", "alone in", "alone out", "c in", "c out"]


def test_an_alone_turn_is_released_when_its_block_raises(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), turn(tmp_path, alone=True):
        raise RuntimeError("the test failed")
    done = threading.Event()

    def shared() -> None:
        with turn(tmp_path, alone=False):
            done.set()

    thread = threading.Thread(target=shared)
    thread.start()
    assert done.wait(10)
    thread.join(10)


def test_a_timing_test_runs_alone_unless_it_bounds_only_its_own_time(request: pytest.FixtureRequest) -> None:
    request.node.add_marker(pytest.mark.timing(alone=False))
    assert not runs_alone(request.node)
    request.node.add_marker(pytest.mark.timing, append=False)  # now the closest: a plain timing mark
    assert runs_alone(request.node)


def test_an_unmarked_test_shares_its_turn(request: pytest.FixtureRequest) -> None:
    assert not runs_alone(request.node)
