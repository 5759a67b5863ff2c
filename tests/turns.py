"""Tests in parallel (pytest-xdist), the tests that bound elapsed time alone.

``bash scripts/test.sh`` runs the suite on as many workers as the machine has cores (up to four). A test marked
``timing`` bounds its own elapsed time, so while it runs no other test may: the session's controller makes a folder
for two lock files, named to the workers in ``HIVE_TEST_TURNS``, and each worker takes its turn around a test's whole
protocol (its fixtures' set-up included), shared for any test and exclusive for a timing test (but one marked
``timing(alone=False)``). A timing test waiting for its turn holds the turnstile, so the other workers start no new
test meanwhile. Without workers (plain ``pytest``) nothing is locked.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

#: The variable naming the folder of the lock files, set by the controller for its workers.
TURNS = "HIVE_TEST_TURNS"
#: The folder the controller made (and removes at the end).
_FOLDER = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """On the controller of a parallel session, the lock files' folder, named to the workers it starts."""
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    folder = tempfile.mkdtemp(prefix="hive-test-turns-")
    os.environ[TURNS] = folder
    config.stash[_FOLDER] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_FOLDER, None)
    if folder is not None:
        os.environ.pop(TURNS, None)
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def turn(folder: Path, alone: bool) -> Iterator[None]:
    """The block run in its turn: beside other shared turns, or ``alone``."""
    with open(folder / "turnstile", "a") as turnstile, open(folder / "running", "a") as running:
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        try:
            fcntl.flock(running, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            if not alone:
                fcntl.flock(turnstile, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(running, fcntl.LOCK_UN)
            if alone:
                fcntl.flock(turnstile, fcntl.LOCK_UN)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    folder = os.environ.get(TURNS)
    if folder is None or not hasattr(item.config, "workerinput"):
        yield
        return
    with turn(Path(folder), alone=runs_alone(item)):
        yield


def runs_alone(item: pytest.Item) -> bool:
    """Whether ``item`` runs alone: marked ``timing``, unless ``timing(alone=False)``, a bound on the time the test's
    own thread or process ran, which a busy machine does not stretch."""
    marker = item.get_closest_marker("timing")
    return marker is not None and bool(marker.kwargs.get("alone", True))
