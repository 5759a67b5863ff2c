"""A match's games on a Ray cluster (``hive match --ray [ADDRESS]``): one Ray task a game.

Ray is imported only here, when a match asks for it (the ``cluster`` extra). With no address, a local cluster is
started for the match, as small as it can be: the match's CPUs, no GPUs, a small object store, no dashboard, its
logs kept out of the terminal. A game whose worker or node is lost is played again (Ray's own retries first, then
the runner's), and :func:`~hive.arena.runners.finished_games` counts each game once, by its number.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import socket
from types import ModuleType
from typing import Any

from .stats import GameRecord
from .tasks import GameTask, play_task

#: What the message for a missing Ray says to install.
INSTALL = "pip install 'hive-game[cluster]'"
# Ray's own retries of a task whose worker died, then the runner's submissions of the game again
_RAY_RETRIES = 3
_RERUNS = 3
_OBJECT_STORE_BYTES = 100 * 2**20
_CONNECT_TIMEOUT = 10.0


class ClusterError(ValueError):
    """Ray is missing, the cluster cannot be reached, or a game failed on it whatever the retries."""


def import_ray() -> ModuleType:
    """The ``ray`` module.

    :raises ClusterError: naming the extra to install when Ray is not installed.
    """
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ClusterError(f"playing on Ray needs Ray: {INSTALL}") from None


def check_address(address: str) -> None:
    """Fail fast, with the reason, when a cluster's address cannot be reached (Ray itself waits for minutes).

    :param address: ``HOST:PORT`` of a head node, ``ray://HOST:PORT`` of a Ray client server, or ``auto``.
    :raises ClusterError: naming the address, when it is malformed or nothing answers there.
    """
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"bad Ray address {address!r}: expected HOST:PORT, ray://HOST:PORT or auto")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_CONNECT_TIMEOUT).close()
    except OSError as err:
        raise ClusterError(f"cannot reach the Ray cluster at {address!r}: {err.strerror or err}") from None


def play_on_ray(task: GameTask) -> GameRecord:
    """:func:`~hive.arena.tasks.play_task` in a Ray worker, under asyncio's own event loops: Ray installs uvloop's,
    whose subprocess transports the UHP engine client does not accept."""
    policy = asyncio.get_event_loop_policy()
    asyncio.set_event_loop_policy(asyncio.DefaultEventLoopPolicy())
    try:
        return play_task(task)
    finally:
        asyncio.set_event_loop_policy(policy)


class RayRunner:
    """Plays the games as Ray tasks on the cluster at ``address`` (``None``: a local one of ``jobs`` CPUs).

    A Ray session already open in this process is used as it is, and left open.

    :param jobs: the local cluster's CPUs; on a cluster, the most games played at once (default: its CPUs).
    :raises ClusterError: when Ray is missing or the cluster cannot be reached.
    """

    def __init__(self, address: str | None = None, jobs: int | None = None) -> None:
        self._ray = ray = import_ray()
        self._errors = importlib.import_module("ray.exceptions")
        self._owned = not ray.is_initialized()
        if self._owned:
            if address is not None:
                check_address(address)
            try:
                ray.init(**init_options(address, jobs))
            except (ConnectionError, RuntimeError, ValueError) as err:
                raise ClusterError(f"cannot start Ray at {address or 'a local cluster'}: {err}") from None
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.slots = 2 * min(cpus, jobs) if jobs is not None else 2 * cpus
        self._play = ray.remote(num_cpus=1, max_retries=_RAY_RETRIES, retry_exceptions=False)(play_on_ray)
        self._running: dict[Any, tuple[GameTask, int]] = {}

    def submit(self, task: GameTask, reruns: int = 0) -> None:
        ref = self._play.options(name=f"hive game {task.number}").remote(task)
        self._running[ref] = (task, reruns)

    def next(self) -> GameRecord:
        lost = (self._errors.WorkerCrashedError, self._errors.NodeDiedError, self._errors.ObjectLostError)
        while True:
            ready, _ = self._ray.wait(list(self._running), num_returns=1)
            task, reruns = self._running.pop(ready[0])
            try:
                record: GameRecord = self._ray.get(ready[0])
            except lost as err:
                if reruns >= _RERUNS:
                    raise ClusterError(f"game {task.number} was lost {reruns + 1} times on Ray: {err}") from None
                self.submit(task, reruns + 1)
            else:
                return record

    def close(self) -> None:
        for ref in self._running:
            self._ray.cancel(ref)
        self._running.clear()
        if self._owned:
            self._ray.shutdown()


def init_options(address: str | None, jobs: int | None) -> dict[str, Any]:
    """``ray.init``'s options for the cluster at ``address``, quiet; for a local cluster (``None``), small too:
    ``jobs`` CPUs, no GPUs, a 100 MiB object store, no dashboard."""
    options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    if address is not None:
        return {**options, "address": address}
    return {
        **options,
        "num_cpus": jobs or 1,
        "num_gpus": 0,
        "object_store_memory": _OBJECT_STORE_BYTES,
        "include_dashboard": False,
    }


__all__ = ["INSTALL", "ClusterError", "RayRunner", "check_address", "import_ray", "init_options", "play_on_ray"]
