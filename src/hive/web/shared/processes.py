"""Processes that die with the one that started them: the AI's workers with their server, a server's processes with
the supervisor of ``hive serve --workers``. A process left running by a parent killed with ``kill -9`` would hold
memory, the port or the database's connections for nobody."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

#: Seconds between a process's checks that its parent is still there (where the system cannot tell it).
WATCH_PARENT = 1.0


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Have this process receive ``sig`` when its parent dies (Linux), and exit in any case within a second of it."""
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, sig)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent or parent == 1:  # the parent died before the request was made
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_PARENT)
        os._exit(1)

    threading.Thread(target=watch, name="hive-watch-parent", daemon=True).start()


__all__ = ["die_with_parent"]
