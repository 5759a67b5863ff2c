"""Quotas counted in the database: of many uses at once, threads on their own connections, exactly the limit's are
allowed, on SQLite and on PostgreSQL; a window lapses and starts again; a cleared key starts again."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hive.web.shared.database import Database
from hive.web.shared.quotas import QuotaRepository

from ...web_support import FakeTime


def burst(database: Database, n: int, limit: int) -> list[bool]:
    quotas = QuotaRepository(database)
    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(lambda _: quotas._take("burst", limit, 60.0, 1).allowed, range(n)))


def test_a_burst_of_60_gets_exactly_the_limit_on_postgresql(postgres_url: str) -> None:
    database = Database(postgres_url, upgrade=True)
    try:
        assert sum(burst(database, 60, 5)) == 5
    finally:
        database.close()


def test_a_burst_on_sqlite(tmp_path: Path) -> None:
    database = Database(tmp_path / "q.sqlite3")
    try:
        assert sum(burst(database, 30, 5)) == 5
    finally:
        database.close()


@pytest.mark.anyio
async def test_windows_lapse_and_keys_clear(tmp_path: Path) -> None:
    clock = FakeTime()
    database = Database(tmp_path / "q.sqlite3")
    quotas = QuotaRepository(database, clock)
    try:
        answers = [await quotas.take("k", 2, 60.0) for _ in range(3)]
        assert [a.allowed for a in answers] == [True, True, False]
        assert answers[2].used == 3 and 0 < answers[2].retry_after <= 60
        assert await quotas.peek("k", 60.0) == 3
        clock.t += 61
        assert await quotas.peek("k", 60.0) == 0
        assert (await quotas.take("k", 2, 60.0)).used == 1
        await quotas.take("k", 2, 60.0)
        await quotas.clear("k")
        assert (await quotas.take("k", 2, 60.0)).allowed
    finally:
        database.close()
