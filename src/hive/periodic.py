"""Work done in the background every so often (a heartbeat, a sweep, a look at what fell due), written once: the
loop, its pause, its stop, and a failure logged without ending it.

>>> import asyncio
>>> async def demo() -> int:
...     ticks: list[int] = []
...     stop = asyncio.Event()
...
...     async def tick() -> None:
...         ticks.append(len(ticks))
...         if len(ticks) == 3:
...             stop.set()
...
...     await every(0.001, tick, "could not tick", stop=stop)
...     return len(ticks)
>>> asyncio.run(demo())
3
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

LOG = logging.getLogger("hive")


async def every(
    interval: float,
    work: Callable[[], Awaitable[object]],
    failed: str,
    *,
    stop: asyncio.Event | None = None,
    log: logging.Logger = LOG,
    expected: tuple[type[Exception], ...] = (Exception,),
    bug: str | None = None,
) -> None:
    """Await ``work()`` every ``interval`` seconds, the first time one interval from now, until ``stop`` is set (at
    once, even during a pause) or the task running the loop is cancelled.

    :param failed: what a failure of ``work`` is logged as, a warning followed by the error (``could not look at
        the tournaments``); the loop goes on after it.
    :param log: the logger of the failures.
    :param expected: the failures logged as a warning with their message (by default every one); any other is a
        bug, logged with its traceback.
    :param bug: what such a bug is logged as (by default ``failed``).
    :raises ValueError: for an interval that is not above 0.
    """
    if not interval > 0:
        raise ValueError(f"the interval must be above 0 seconds, not {interval}")
    while stop is None or not stop.is_set():
        if stop is None:
            await asyncio.sleep(interval)
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), interval)
            if stop.is_set():
                return
        try:
            await work()
        except expected as err:  # a background loop outlives its work's failures; cancellation still ends it
            log.warning("%s: %s", failed, err)
        except Exception:
            log.exception("%s", failed if bug is None else bug)


__all__ = ["every"]
