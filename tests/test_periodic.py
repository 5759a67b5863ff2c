"""The background loop written once (:func:`hive.periodic.every`): its pauses, its stop, its cancellation, and a
failure logged without ending it."""

from __future__ import annotations

import asyncio
import logging

import pytest

from hive.periodic import every


def test_work_runs_after_each_pause_until_stopped_and_failures_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    runs: list[float] = []

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        begun = loop.time()

        async def work() -> None:
            runs.append(loop.time() - begun)
            if len(runs) == 2:
                raise RuntimeError("the database is away")
            if len(runs) == 4:
                stop.set()

        await asyncio.wait_for(every(0.01, work, "could not look", stop=stop), 5)

    with caplog.at_level(logging.WARNING, logger="hive"):
        asyncio.run(main())
    assert len(runs) == 4 and runs[0] >= 0.009  # the first run after one pause
    assert [r.getMessage() for r in caplog.records] == ["could not look: the database is away"]


def test_a_stop_ends_a_pause_at_once_and_a_cancel_ends_the_loop() -> None:
    async def never() -> None:
        raise AssertionError("no pause ended")

    async def main() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(every(60, never, "x", stop=stop))
        await asyncio.sleep(0.01)
        stop.set()
        await asyncio.wait_for(task, 1)
        endless = asyncio.create_task(every(60, never, "x"))
        await asyncio.sleep(0.01)
        endless.cancel()
        with pytest.raises(asyncio.CancelledError):
            await endless

    asyncio.run(main())


def test_an_interval_must_be_above_zero() -> None:
    async def work() -> None: ...

    with pytest.raises(ValueError, match="above 0 seconds"):
        asyncio.run(every(0, work, "x"))


def test_an_expected_failure_is_a_warning_and_any_other_a_bug_with_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    failures = [LookupError("the database is away"), RuntimeError("a bug")]

    async def main() -> None:
        stop = asyncio.Event()

        async def work() -> None:
            if not failures:
                stop.set()
                return
            raise failures.pop(0)

        await asyncio.wait_for(
            every(0.001, work, "could not look", stop=stop, expected=(LookupError,), bug="the look failed"), 5
        )

    with caplog.at_level(logging.WARNING, logger="hive"):
        asyncio.run(main())
    found = [(r.levelno, r.getMessage(), r.exc_info is not None) for r in caplog.records]
    assert found == [
        (logging.WARNING, "could not look: the database is away", False),
        (logging.ERROR, "the look failed", True),
    ]
