"""Fixtures shared by the tests: the real PostgreSQL and Redis servers of tests/servers.py, and the event loop of
async tests."""

from __future__ import annotations

import pytest

pytest_plugins = ["tests.servers"]


@pytest.fixture()
def anyio_backend() -> str:
    """Async tests run on asyncio, as the server does."""
    return "asyncio"


#: The test files that exercise no code the two builds differ in (the server, the page, the deployment files, the
#: documentation, the test servers, the arena on Ray): marked ``once``, they run in the compiled build's pass only.
ONCE = ("test_web_", "test_deploy", "test_docs", "test_servers", "test_benchmark_", "test_arena_ray")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`ONCE`'s files ``once``."""
    for item in items:
        if item.path.name.startswith(ONCE):
            item.add_marker(pytest.mark.once)
