"""The blocking UHP engine: :class:`SimpleEngine` runs a :class:`~hive.engine.protocol.UHPProtocol` on an event loop
in a thread of its own."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Mapping
from types import TracebackType
from typing import Any, TypeVar

from ..game import Game
from ..games.hive import Move
from ..search import Limits
from .protocol import UHPProtocol, popen_uhp
from .values import EngineTerminatedError, Option, PlayResult

_T = TypeVar("_T")


def _run_loop(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.set_event_loop(loop)
    loop.run_forever()


class SimpleEngine:
    """A blocking UHP engine: :class:`UHPProtocol` on an event loop in a background thread.

    Create it with :meth:`popen_uhp`; use it as a context manager or call :meth:`quit`.
    """

    def __init__(
        self,
        transport: asyncio.SubprocessTransport,
        protocol: UHPProtocol,
        loop: asyncio.AbstractEventLoop,
        thread: threading.Thread,
    ) -> None:
        self.transport = transport
        self.protocol = protocol
        self._loop = loop
        self._thread = thread
        self._closed = False

    @classmethod
    def popen_uhp(cls, command: str | list[str], *, timeout: float | None = 10.0, **popen_args: Any) -> SimpleEngine:
        """Start a UHP engine; see :func:`popen_uhp`.

        :raises EngineError: when the engine cannot be started, dies, or does not answer in time.
        """
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=_run_loop, args=(loop,), name="hive-uhp-engine", daemon=True)
        thread.start()
        try:
            future = asyncio.run_coroutine_threadsafe(popen_uhp(command, timeout=timeout, **popen_args), loop)
            transport, protocol = future.result()
        except BaseException:
            _stop_loop(loop, thread)
            raise
        return cls(transport, protocol, loop, thread)

    def _run(self, coroutine: Coroutine[Any, Any, _T]) -> _T:
        if self._closed:
            coroutine.close()
            raise EngineTerminatedError(f"engine {self.protocol.name!r} has been closed")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    @property
    def id(self) -> dict[str, str]:
        """``{"name": ..., "version": ...}`` from the engine's ``id`` line (empty when it sent none)."""
        return self.protocol.id

    @property
    def name(self) -> str:
        """The engine's name, or its command line when it did not name itself."""
        return self.protocol.name

    @property
    def capabilities(self) -> list[str]:
        """The expansions the engine supports, e.g. ``["Mosquito", "Ladybug", "Pillbug"]``."""
        return self.protocol.capabilities

    @property
    def options(self) -> dict[str, Option]:
        """The engine's options by name, as last reported by the engine."""
        return self.protocol.options

    def configure(self, options: Mapping[str, str | int | float | bool]) -> None:
        """Set engine options; see :meth:`UHPProtocol.configure`."""
        self._run(self.protocol.configure(options))

    def communicate(self, command: str, *, timeout: float | None = None) -> list[str]:
        """Send any UHP command and return its reply lines; see :meth:`UHPProtocol.communicate`."""
        return self._run(self.protocol.communicate(command, timeout=timeout))

    def play(self, board: Game[Move], limits: Limits, *, timeout: float | None = None) -> PlayResult:
        """The engine's best move in ``board``; see :meth:`UHPProtocol.play`."""
        return self._run(self.protocol.play(board, limits, timeout=timeout))

    def game_state(self, board: Game[Move]) -> str:
        """How ``board``'s game stands by the engine's own rules; see :meth:`UHPProtocol.game_state`."""
        return self._run(self.protocol.game_state(board))

    def valid_moves(self, board: Game[Move]) -> list[Move]:
        """The engine's legal moves in ``board``; see :meth:`UHPProtocol.valid_moves`."""
        return self._run(self.protocol.valid_moves(board))

    def quit(self) -> int | None:
        """Ask the engine to exit (killing it if it does not) and stop the background thread; idempotent.

        Returns the engine's exit code when known.
        """
        if self._closed:
            return self.transport.get_returncode()
        try:
            return self._run(self.protocol.quit())
        finally:
            self._closed = True
            _stop_loop(self._loop, self._thread)

    close = quit

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.name!r} pid={self.transport.get_pid()}>"


def _stop_loop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.close()


__all__ = ["SimpleEngine"]
