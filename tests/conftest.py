"""Fixtures shared by the tests: the real PostgreSQL and Redis servers of tests/servers.py, and the event loop of
async tests."""

from __future__ import annotations

import pytest

pytest_plugins = ["tests.servers"]


@pytest.fixture()
def anyio_backend() -> str:
    """Async tests run on asyncio, as the server does."""
    return "asyncio"
