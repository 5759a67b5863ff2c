"""The server's background work done every few seconds (tournaments' forfeits, seekers held, games swept, the
presence heartbeat, the AI's leases): one loop that waits, works, and keeps going when the work fails."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from .errors import GameError

log = logging.getLogger("hive.web")


async def every(seconds: float | Callable[[], float], work: Callable[[], Awaitable[object]], what: str) -> None:
    """Run ``work`` every ``seconds`` (a number, or a function read before each wait), until cancelled.

    A refusal (:class:`~hive.web.shared.errors.GameError`: the database away, say) is logged as a warning naming
    ``what`` was not done, any other failure with its traceback; the loop goes on either way, since the next round
    may succeed.
    """
    while True:
        await asyncio.sleep(seconds() if callable(seconds) else seconds)
        try:
            await work()
        except GameError as err:
            log.warning("could not %s: %s", what, err)
        except Exception:
            log.exception("could not %s", what)


__all__ = ["every"]
