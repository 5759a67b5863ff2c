"""The servers under load: started, watched, killed, and what they cost."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

JSON = dict[str, Any]
#: The project's root, where the servers are started.
ROOT = Path(__file__).resolve().parent.parent.parent


#: The per-address limits of ``hive play`` (and ``hive serve``), lifted: all the load comes from 127.0.0.1 (the
#: games kept in memory are raised too, to twice the games in play), its sockets too.
LIFTED = (
    *("--max-games-per-minute", "0", "--max-hints-per-minute", "0", "--max-ai-per-minute", "0"),
    *("--game-sockets", "0", "--game-sockets-per-game", "0", "--spectator-sockets", "0"),
)
PLAY = ("{python}", "-m", "hive", "play", "--no-browser", "--port", "{port}", "--db", "{dir}/games.sqlite3")
SERVE = ("{python}", "-m", "hive", "serve", "--host", "127.0.0.1", "--port", "{port}", "--database", "{database}")
UPGRADE = ("{python}", "-m", "hive", "db", "upgrade", "--database", "{database}")
RELAY = ("{python}", "-m", "benchmarks.server", "--relay", "{port}", "{target}")


@dataclass(frozen=True)
class Mode:
    """How a run's servers are started: a command template for each server process (``{python}``, ``{port}``,
    ``{dir}``: a temporary directory, ``{database}``), the limits lifted being added to it."""

    description: str
    command: tuple[str, ...]
    processes: int = 1
    #: The path answering 200 once a process is up.
    health: str = "api/assets"
    #: Run once before the servers start.
    prepare: tuple[str, ...] = ()
    #: The last process is killed with SIGKILL at ``--kill-at``.
    kill: bool = False
    #: A second address, a relay to the first process, stands for a second process.
    relay: bool = False


MODES = {
    "a": Mode("one hive play process on SQLite", PLAY),
    "b": Mode("two hive serve processes on PostgreSQL", SERVE, 2, "healthz", UPGRADE),
    "c": Mode("two hive serve processes on PostgreSQL, the second killed", SERVE, 2, "healthz", UPGRADE, kill=True),
    "p": Mode("one hive serve process on PostgreSQL", SERVE, 1, "healthz", UPGRADE),
    "relay": Mode("one hive play process on SQLite, also through a relay that is killed", PLAY, kill=True, relay=True),
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def shown_url(url: str) -> str:
    """A database URL (or a command holding one) with its password hidden."""
    return re.sub(r"//([^:/@]+):[^@/]*@", r"//\1:***@", url)


def cpu_by_group(groups: Sequence[int]) -> dict[int, tuple[int, float]]:
    """The process group and CPU seconds (with those of the children it waited for) of every live process in these
    process groups, by pid."""
    tick = os.sysconf("SC_CLK_TCK")
    found: dict[int, tuple[int, float]] = {}
    wanted = set(groups)
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            text = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if int(fields[2]) in wanted:
            found[int(entry.name)] = int(fields[2]), sum(int(f) for f in fields[11:15]) / tick
    return found


def machine_cpu() -> tuple[float, float]:
    """The machine's busy and total CPU seconds since boot, all cores together."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = values[3] + values[4]
    return (sum(values) - idle) / tick, sum(values) / tick


class Servers:
    """The server processes of a run, each in its own process group (its AI workers with it), with their logs and
    CPU time."""

    def __init__(self, mode: Mode, games: int, database: str | None, workdir: Path, extra: Sequence[str] = ()) -> None:
        self.mode = mode
        self.workdir = workdir
        self.fields = {"python": sys.executable, "dir": str(workdir), "database": database or ""}
        self.extra = (*LIFTED, "--live-games", str(max(256, 2 * games)), *extra)
        self.processes: list[subprocess.Popen[bytes]] = []
        self.names: list[str] = []
        self.commands: list[list[str]] = []
        self.urls: list[str] = []
        #: The most CPU seconds seen of each pid, by process (a process killed keeps its last reading).
        self.cpu: list[dict[int, float]] = []

    def _spawn(self, template: Sequence[str], name: str, **fields: str) -> str:
        port = free_port()
        command = [part.format(**self.fields, port=port, **fields) for part in template]
        log = open(self.workdir / f"server{len(self.processes)}.log", "wb")  # noqa: SIM115 (kept for the process)
        self.processes.append(
            subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
        )
        self.names.append(f"{name} :{port}")
        self.commands.append(command)
        self.cpu.append({})
        self.urls.append(f"http://127.0.0.1:{port}/")
        return str(port)

    def start(self) -> list[str]:
        """Start the processes and wait until each answers; their base URLs."""
        if self.mode.prepare:
            command = [part.format(**self.fields) for part in self.mode.prepare]
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
            if done.returncode:
                raise RuntimeError(f"{shown_url(shlex.join(command))} failed:\n{done.stdout}{done.stderr}")
        name = " ".join(self.mode.command[2:4])
        first = self._spawn([*self.mode.command, *self.extra], name)
        for _ in range(1, self.mode.processes):
            self._spawn([*self.mode.command, *self.extra], name)
        if self.mode.relay:
            self._spawn(RELAY, "relay", target=first)
        for index, url in enumerate(self.urls):
            self._wait(index, url + self.mode.health)
        return self.urls

    def _wait(self, index: int, url: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.processes[index].poll() is not None:
                raise RuntimeError(f"{self.names[index]} ended at start:\n{self.log(index)[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url, timeout=2, trust_env=False).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"{self.names[index]} did not answer {url} within {timeout} s")

    def log(self, index: int) -> str:
        return (self.workdir / f"server{index}.log").read_text(errors="replace")

    def sample(self) -> None:
        """Note the CPU time of every process (read before a process is killed and at the end)."""
        groups = [process.pid for process in self.processes]
        for pid, (group, seconds) in cpu_by_group(groups).items():
            seen = self.cpu[groups.index(group)]
            seen[pid] = max(seconds, seen.get(pid, 0.0))

    def cpu_seconds(self) -> list[float]:
        return [sum(seen.values()) for seen in self.cpu]

    def kill_last(self) -> None:
        """SIGKILL the last process and its children, as a machine or container dies."""
        self.sample()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.processes[-1].pid, signal.SIGKILL)

    def stop(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)

    def log_lines(self) -> list[str]:
        """What the servers printed beyond their start-up line (warnings, errors, tracebacks)."""
        lines = []
        for index in range(len(self.processes)):
            lines += [f"{self.names[index]}: {line}" for line in self.log(index).splitlines()[1:] if line.strip()]
        return lines


async def _relay(port: int, target: int) -> None:
    """Forward every connection to ``port`` to ``target``, both on 127.0.0.1, byte for byte."""

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except OSError:
            pass
        finally:
            writer.close()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    server = await asyncio.start_server(handle, "127.0.0.1", port, backlog=1024)
    async with server:
        await server.serve_forever()
