"""Fixtures of the club server's tests: a database of each kind the server runs on, a PostgreSQL database made ready
for servers, Chromium, a served ``hive play`` (one a module, or one a test), a server of the test's own that keeps
accounts (``club``) and axe-core."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hive.web.shared.settings import Settings

from ..web_support import AXE, ServerProcess, made_ready, server_thread, serving
from .browser_support import chromium


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database of each kind the server runs on, empty: a SQLite file, and a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return made_ready(request.getfixturevalue("postgres_url"))


@pytest.fixture()
def upgraded(postgres_url: str) -> str:
    """A PostgreSQL database made ready for servers, as an operator does (``hive db upgrade``)."""
    done = subprocess.run(
        [sys.executable, "-m", "hive", "db", "upgrade", "--database", postgres_url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "up to date" in done.stdout, done.stdout + done.stderr
    return postgres_url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, for the tests of a module."""
    with chromium(pytest.importorskip("playwright.sync_api")) as launched:
        yield launched


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``hive play``, for the tests of a module."""
    with serving(tmp_path_factory.mktemp("served") / "games.sqlite3") as process:
        yield process


@pytest.fixture()
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of the test's own, so that its game list holds only the test's games."""
    with serving(tmp_path / "games.sqlite3") as process:
        yield process


@pytest.fixture()
def club_settings() -> Settings:
    """The settings of :func:`club`'s server: accounts kept, as ``hive serve`` configures it (a module overrides
    this fixture for other settings)."""
    return Settings(accounts=True)


@pytest.fixture()
def club_db(tmp_path: Path) -> Path:
    """The SQLite file of :func:`club`'s server."""
    return tmp_path / "games.sqlite3"


@pytest.fixture()
def club(club_db: Path, club_settings: Settings) -> Iterator[str]:
    """A server of the test's own, in a thread, that keeps accounts; its URL (its database: ``club_db``)."""
    with server_thread(club_db, settings=club_settings) as url:
        yield url


@pytest.fixture(scope="module")
def axe() -> Path:
    """axe.min.js; the module's tests are skipped while it is missing."""
    if not AXE.exists():
        pytest.skip(f"{AXE} is missing: bash scripts/test.sh (or bash scripts/axe.sh install) installs axe-core")
    return AXE
