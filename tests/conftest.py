"""Fixtures shared by the tests: the real PostgreSQL and Redis servers of tests/servers.py, and the event loop of
async tests."""

from __future__ import annotations

import pytest

pytest_plugins = ["tests.servers"]


@pytest.fixture()
def anyio_backend() -> str:
    """Async tests run on asyncio, as the server does."""
    return "asyncio"


#: The tests of no code the two builds differ in: the apps above the game (the server and the page, the arena,
#: hive tune), the libraries of no game (tournaments, ratings), the deployment files, the documentation and the test
#: servers. They reach the games only through the protocol, which the games' own tests check in both builds; marked
#: ``once``, they run in the compiled build's pass only.
ONCE = ("test_web_", "test_deploy", "test_docs", "test_servers", "test_benchmark_", "test_arena_ray", "test_ratings")
ONCE_FOLDERS = ("web", "arena", "tune", "tournament")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`ONCE`'s files and :data:`ONCE_FOLDERS`' ``once``."""
    for item in items:
        if item.path.name.startswith(ONCE) or item.path.parent.name in ONCE_FOLDERS:
            item.add_marker(pytest.mark.once)
