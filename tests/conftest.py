"""Fixtures shared by the test modules."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest


@pytest.fixture()
def anyio_backend() -> str:
    """Async tests run on asyncio, as the server does."""
    return "asyncio"


@pytest.fixture()
def postgres_url() -> Iterator[str]:
    """A fresh database on the PostgreSQL server ``HIVE_TEST_POSTGRES`` names."""
    server = os.environ.get("HIVE_TEST_POSTGRES")
    if not server:
        pytest.skip("HIVE_TEST_POSTGRES names no PostgreSQL server")
    import psycopg

    name = f"test_{secrets.token_hex(6)}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    base = server.rsplit("/", 1)[0]
    yield f"{base}/{name}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE {name} WITH (FORCE)")
