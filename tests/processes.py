"""Processes the tests start and watch: ``hive uhp`` in a process of its own, and a process's living children."""

from __future__ import annotations

import os
import subprocess
import sys
import time


def children(parent: int | None = None) -> set[int]:
    """The ids of the living children of process ``parent`` (this one by default)."""
    parent = os.getpid() if parent is None else parent
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent and fields[0] != "Z":
                found.add(int(entry))
    return found


class Engine:
    """``hive uhp`` in a process of its own, read line by line with a deadline."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hive.uhp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        )
        assert self.reply(timeout=120)[-1] == "ok", "the banner"

    def send(self, line: str | bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line if isinstance(line, bytes) else line.encode() + b"\n")
        self.proc.stdin.flush()

    def reply(self, timeout: float = 60) -> list[str]:
        assert self.proc.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + timeout
        while not lines or lines[-1] != "ok":
            assert time.monotonic() < deadline, lines
            lines.append(self.proc.stdout.readline().decode("utf-8").rstrip("\n"))
        return lines

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None and not stream.closed:
                stream.close()
