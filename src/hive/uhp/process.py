"""The ``hive uhp`` process: the engine's input read as lines (a line waiting stops a running search) and its
replies written out."""

from __future__ import annotations

import io
import os
import select
from typing import TextIO

from .parsing import UHPError
from .server import UHPEngine

#: The longest input line read, in bytes.
MAX_LINE = 1 << 20


class _Input:
    """The engine's input as lines, read from its file descriptor so that a running search can see a line waiting.

    A stream without a descriptor (a test's ``StringIO``) is read line by line and never reports one waiting.
    """

    def __init__(self, stdin: TextIO) -> None:
        self.stream = stdin
        self.encoding = getattr(stdin, "encoding", None) or "utf-8"
        try:
            self.fd: int | None = stdin.fileno()
        except (AttributeError, OSError, io.UnsupportedOperation):
            self.fd = None
        self.pending = bytearray()
        self.closed = False

    def _fill(self) -> None:
        assert self.fd is not None
        chunk = os.read(self.fd, 1 << 16)
        if chunk:
            self.pending += chunk
        else:
            self.closed = True

    def waiting(self) -> bool:
        """Whether input (a line, part of one, or its end) has arrived since the last line was read."""
        if self.fd is None:
            return False
        if self.pending or self.closed:
            return True
        if select.select([self.fd], [], [], 0)[0]:
            self._fill()
        return bool(self.pending) or self.closed

    def readline(self) -> str | None:
        """The next line (``None`` at the end of the input).

        :raises UHPError: for a line longer than :data:`MAX_LINE` bytes (read to its end and dropped).
        """
        if self.fd is None:
            line = self.stream.readline()
            return line or None
        too_long = 0
        while b"\n" not in self.pending and not self.closed:
            if len(self.pending) > MAX_LINE:
                too_long += len(self.pending)
                self.pending.clear()
            self._fill()
        if not self.pending:
            return None
        end = self.pending.find(b"\n") + 1 or len(self.pending)
        raw = bytes(self.pending[:end])
        del self.pending[:end]
        if too_long or len(raw) > MAX_LINE:
            raise UHPError(f"Command too long ({too_long + len(raw):,} bytes; at most {MAX_LINE:,}).")
        return raw.decode(self.encoding, "replace")


def _write(stdout: TextIO, lines: list[str]) -> None:
    if not lines:
        return
    text = "\n".join(lines) + "\n"
    try:
        stdout.write(text)
    except UnicodeEncodeError:
        stdout.write(text.encode("ascii", "backslashreplace").decode("ascii"))
    stdout.flush()


def run(stdin: TextIO, stdout: TextIO, engine: UHPEngine | None = None) -> int:
    """Serve UHP: print the banner, then answer each line of ``stdin`` until end of input or ``exit``.

    Bytes that are not valid text are replaced, never fatal; input arriving during a search stops it. Returns the
    exit status (0).
    """
    engine = engine if engine is not None else UHPEngine(populate=True)
    source = _Input(stdin)
    engine.interrupted = source.waiting
    try:
        return _serve(engine, source, stdout)
    finally:
        engine.close()


def _serve(engine: UHPEngine, source: _Input, stdout: TextIO) -> int:
    try:
        _write(stdout, engine.banner())
        while not engine.finished:
            try:
                line = source.readline()
            except UHPError as err:
                _write(stdout, [f"err {err}", "ok"])
                continue
            if line is None:
                break
            _write(stdout, engine.handle(line, engine.clock()))
    except BrokenPipeError:
        return 0
    return 0
