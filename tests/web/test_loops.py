"""The background loop: it works every interval and goes on after a failure."""

from __future__ import annotations

import asyncio
import logging

import pytest

from hive.web.shared.errors import Unavailable
from hive.web.shared.loops import every


def test_a_loop_works_each_round_and_goes_on_after_failures(caplog: pytest.LogCaptureFixture) -> None:
    rounds: list[int] = []
    waits: list[float] = []

    async def work() -> None:
        rounds.append(len(rounds))
        if len(rounds) == 2:
            raise Unavailable("The database does not answer.")
        if len(rounds) == 3:
            raise RuntimeError("a bug")

    def interval() -> float:
        waits.append(0.001)
        return 0.001

    async def run() -> None:
        task = asyncio.create_task(every(interval, work, "look at the tournaments"))
        while len(rounds) < 5:
            await asyncio.sleep(0.001)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    with caplog.at_level(logging.WARNING, "hive.web"):
        asyncio.run(run())
    assert len(rounds) >= 5 and len(waits) >= 5  # the interval is read before each wait
    messages = [record.getMessage() for record in caplog.records]
    assert "could not look at the tournaments: The database does not answer." in messages
    failed = [record for record in caplog.records if record.exc_info]
    assert len(failed) == 1 and "a bug" in str(failed[0].exc_info[1])  # type: ignore[index]
