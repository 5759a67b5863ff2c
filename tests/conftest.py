"""Fixtures shared by the tests: the real PostgreSQL and Redis servers of tests/servers.py, the event loop of async
tests, and the tests' third game registered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hive.games import find_game, register, unregister
from hive.plugin import GameSpec

from .toygame import NAME, PLUGIN

pytest_plugins = ["tests.servers", "tests.turns"]


@pytest.fixture()
def anyio_backend() -> str:
    """Async tests run on asyncio, as the server does."""
    return "asyncio"


@pytest.fixture()
def toy_game() -> Iterator[GameSpec]:
    """Hexline, the tests' third game (:mod:`tests.toygame`), registered for the test as a game package's entry
    point registers it, and unregistered after."""
    register(PLUGIN)
    try:
        yield find_game(NAME)
    finally:
        unregister(PLUGIN.kind)


#: The tests of no code the two builds differ in: the apps above the game (the server and the page, the arena,
#: hive tune), the libraries of no game (tournaments, ratings), the deployment files, the documentation and the test
#: servers, the import graph's contracts. They reach the games only through the protocol, which the games' own tests
#: check in both builds; marked ``once``, they run in the compiled build's pass only.
ONCE = (
    *("test_web_", "test_deploy", "test_docs", "test_servers", "test_benchmark_", "test_arena_ray", "test_ratings"),
    *("test_layers", "test_plugin_imports", "test_periodic"),
)
ONCE_FOLDERS = ("web", "arena", "tune", "tournament")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`ONCE`'s files and of :data:`ONCE_FOLDERS` (and the folders within them) ``once``."""
    tests = Path(__file__).parent
    for item in items:
        folders = item.path.relative_to(tests).parts[:-1] if item.path.is_relative_to(tests) else ()
        if item.path.name.startswith(ONCE) or any(folder in ONCE_FOLDERS for folder in folders):
            item.add_marker(pytest.mark.once)
