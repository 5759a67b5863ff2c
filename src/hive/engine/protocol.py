"""The asyncio side of a UHP engine: :class:`UHPProtocol`, started by :func:`popen_uhp`."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import shlex
import subprocess
from collections.abc import Mapping
from typing import Any, TypeVar

from ..game import Game, IllegalMoveError, InvalidMoveError
from ..games.hive import Move
from ..position_records import is_position_record
from ..search import Limits
from .values import (
    EngineError,
    EngineInvalidMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
    Option,
    PlayResult,
)

LOGGER = logging.getLogger(__name__)

_T = TypeVar("_T")

#: Seconds an engine gets to exit after ``exit`` before it is killed.
EXIT_GRACE = 2.0
#: The GameStates of UHP's GameString.
GAME_STATES = ("NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins")


def _option_value(value: str | int | float | bool) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    return str(value)


def _received(lines: list[str]) -> str:
    if not lines:
        return "nothing"
    shown = lines if len(lines) <= 5 else [*lines[:2], "...", *lines[-2:]]
    return " | ".join(repr(line) for line in shown)


class UHPProtocol(asyncio.SubprocessProtocol):
    """The asyncio side of a UHP engine: one command at a time, each reply read up to its ``ok`` line.

    Usually created by :func:`popen_uhp`. Attributes filled in at start-up: :attr:`id` (``name`` and
    ``version``), :attr:`capabilities` (e.g. ``["Mosquito", "Ladybug", "Pillbug"]``) and :attr:`options`.

    :param timeout: seconds allowed for each reply (on top of the thinking time for ``bestmove time``);
        ``None`` waits for ever.
    :param command: the engine's command line, used in messages until the engine has named itself.
    """

    def __init__(self, *, timeout: float | None = 10.0, command: str = "engine") -> None:
        self.loop = asyncio.get_running_loop()
        self.timeout = timeout
        self.command = command
        self.transport: asyncio.SubprocessTransport | None = None
        self.id: dict[str, str] = {}
        self.capabilities: list[str] = []
        self.options: dict[str, Option] = {}
        self.returncode: asyncio.Future[int] = self.loop.create_future()
        self._buffers = {1: bytearray(), 2: bytearray()}
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=5)
        self._lock = asyncio.Lock()
        self._eof = False
        self._dead = False

    # ------------------------------------------------------------------
    # asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        self.transport = transport
        LOGGER.debug("%s: started, pid %s", self.command, transport.get_pid())

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        buffer = self._buffers.get(fd)
        if buffer is None:
            return
        buffer.extend(data.encode() if isinstance(data, str) else data)
        while (end := buffer.find(b"\n")) >= 0:
            line = buffer[:end].decode("utf-8", errors="replace").rstrip("\r")
            del buffer[: end + 1]
            self._line_received(fd, line)

    def _line_received(self, fd: int, line: str) -> None:
        if fd == 1:
            LOGGER.debug("%s >> %s", self.name, line)
            self._lines.put_nowait(line)
        else:
            LOGGER.debug("%s (stderr) >> %s", self.name, line)
            if line.strip():
                self._stderr.append(line.strip())

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        buffer = self._buffers.get(fd)
        if buffer:
            self._line_received(fd, buffer.decode("utf-8", errors="replace").rstrip("\r"))
            buffer.clear()
        if fd == 1:
            self._end_of_output()

    def process_exited(self) -> None:
        code = self.transport.get_returncode() if self.transport is not None else None
        LOGGER.debug("%s: exited with code %s", self.name, code)
        if not self.returncode.done():
            self.returncode.set_result(code if code is not None else -1)
        # A grandchild may hold stdout open: do not wait for its end for long.
        self.loop.call_later(0.5, self._end_of_output)

    def _end_of_output(self) -> None:
        if not self._eof:
            self._eof = True
            self._lines.put_nowait(None)

    # ------------------------------------------------------------------
    # commands

    @property
    def name(self) -> str:
        """The engine's name from its ``id`` line, or its command line until it has sent one."""
        return self.id.get("name") or self.command

    def send_line(self, line: str) -> None:
        """Write one line to the engine's standard input (no reply is read)."""
        if self._dead or self.transport is None:
            return
        pipe = self.transport.get_pipe_transport(0)
        if pipe is None or pipe.is_closing():
            return
        LOGGER.debug("%s << %s", self.name, line)
        assert isinstance(pipe, asyncio.WriteTransport)
        pipe.write(f"{line}\n".encode())

    async def communicate(self, command: str | None, *, timeout: float | None = None) -> list[str]:
        """Send ``command`` (``None`` sends nothing) and return the non-empty reply lines before ``ok``.

        :param timeout: seconds to wait, added to :attr:`timeout`.
        :raises EngineError: when the reply holds an ``err`` line.
        :raises EngineInvalidMoveError: when the reply holds an ``invalidmove`` line.
        :raises EngineTerminatedError: when the engine exits first.
        :raises EngineTimeoutError: when ``ok`` does not come in time (the engine is then killed).
        """
        what = repr(command) if command is not None else "its start-up info block"
        async with self._lock:
            if self._dead:
                raise await self._terminated_error(what, [])
            # output before a command is stray, but the start-up block is whatever came first, however early
            while command is not None and not self._lines.empty():
                stray = self._lines.get_nowait()
                if stray is None:
                    self._lines.put_nowait(None)
                    break
                LOGGER.debug("%s: ignoring unexpected output %r", self.name, stray)
            if command is not None:
                self.send_line(command)
            lines: list[str] = []
            limit = None if self.timeout is None else self.timeout + (timeout or 0.0)
            ended = False
            try:
                async with asyncio.timeout(limit):
                    while True:
                        line = await self._lines.get()
                        if line is None:
                            self._lines.put_nowait(None)
                            ended = True
                            break
                        line = line.strip()
                        if line == "ok":
                            break
                        if line:
                            lines.append(line)
            except TimeoutError:
                self._dead = True
                self._kill()
                raise EngineTimeoutError(
                    f"engine {self.name!r} did not answer {what} within {limit:g} s and was killed "
                    f"(received: {_received(lines)})"
                ) from None
            if ended:
                self._dead = True
                raise await self._terminated_error(what, lines)
        for line in lines:
            word, _, message = line.partition(" ")
            if word == "err":
                raise EngineError(f"engine {self.name!r} answered {what} with an error: {message.strip() or line}")
            if word == "invalidmove":
                raise EngineInvalidMoveError(
                    f"engine {self.name!r} answered {what} with invalidmove: {message.strip() or line}"
                )
        return lines

    async def _terminated_error(self, what: str, lines: list[str]) -> EngineTerminatedError:
        code: int | None = None
        with contextlib.suppress(TimeoutError):
            code = await asyncio.wait_for(asyncio.shield(self.returncode), 1.0)
        status = "has exited" if code is None else f"exited with code {code}"
        stderr = f"; stderr: {' | '.join(self._stderr)}" if self._stderr else ""
        return EngineTerminatedError(
            f"engine {self.name!r} {status} instead of answering {what} (received: {_received(lines)}{stderr})"
        )

    def _kill(self) -> None:
        if self.transport is not None and self.transport.get_returncode() is None:
            with contextlib.suppress(ProcessLookupError):
                self.transport.kill()

    async def initialize(self) -> None:
        """Read the unprompted ``info`` block (``id``, capabilities, ``ok``), then the ``options``."""
        lines = await self.communicate(None)
        capabilities: str | None = None
        for line in lines:
            if line.startswith("id ") or line == "id":
                text = line[2:].strip()
                name, _, version = text.rpartition(" ") if " " in text else (text, "", "")
                self.id = {"name": name, "version": version}
            elif capabilities is None:
                capabilities = line
        if not self.id:
            raise EngineError(
                f"engine {self.command!r} does not speak UHP: its info block has no 'id' line "
                f"(received: {_received(lines)})"
            )
        self.capabilities = [c.strip() for c in (capabilities or "").split(";") if c.strip()]
        try:
            self._update_options(await self.communicate("options"))
        except (EngineTerminatedError, EngineTimeoutError):
            raise
        except EngineError as err:
            LOGGER.info("%s: no options (%s)", self.name, err)

    def _update_options(self, lines: list[str]) -> None:
        for line in lines:
            try:
                option = Option.parse(line)
            except ValueError as err:
                LOGGER.warning("%s: %s", self.name, err)
                continue
            self.options[option.name] = option

    async def configure(self, options: Mapping[str, str | int | float | bool]) -> None:
        """Set options with ``options set Key Value`` (booleans are sent as ``True``/``False``).

        :raises EngineError: naming the option when the engine does not have it or rejects the value.
        """
        for key, value in options.items():
            name = key if key in self.options else next((n for n in self.options if n.lower() == key.lower()), None)
            if name is None:
                known = ", ".join(self.options) or "none"
                raise EngineError(f"engine {self.name!r} has no option {key!r} (its options: {known})")
            self._update_options(await self.communicate(f"options set {name} {_option_value(value)}"))

    async def new_game(self, board: Game[Move]) -> list[str]:
        """Set up ``board``'s game with ``newgame`` (its game type, or its record once moves are played or when it
        starts from a position); returns the engine's reply, its GameString."""
        record = board.record()
        return await self.communicate(
            f"newgame {record if board.move_stack or is_position_record(record) else board.game_name}"
        )

    async def game_state(self, board: Game[Move]) -> str:
        """How ``board``'s game stands by the engine's own rules: the GameState of its GameString (``NotStarted``,
        ``InProgress``, ``Draw``, ``WhiteWins`` or ``BlackWins``) after ``newgame`` with the game's record.

        :raises EngineError: when the engine answers with something that is not a GameString.
        """
        lines = await self.new_game(board)
        fields = lines[-1].split(";") if lines else []
        if len(fields) < 3 or fields[1] not in GAME_STATES:
            raise EngineError(f"engine {self.name!r} answered newgame with {_received(lines)}, not a GameString")
        return fields[1]

    async def play(self, board: Game[Move], limits: Limits, *, timeout: float | None = None) -> PlayResult:
        """Ask the engine for its best move in ``board`` (sends ``newgame`` then ``bestmove``).

        The board is not changed. The reply may take the limits' time plus :attr:`timeout` (plus ``timeout``).

        :raises ValueError: when the game is over.
        :raises EngineError: when the engine answers with something that is not a legal move here.
        """
        outcome = board.outcome()
        if outcome is not None:
            raise ValueError(f"cannot ask engine {self.name!r} for a move: the game is over ({outcome.result})")
        await self.new_game(board)
        command = limits.uhp_command()
        lines = await self.communicate(command, timeout=limits.seconds() + (timeout or 0.0))
        if not lines:
            raise EngineError(f"engine {self.name!r} answered {command!r} without a move")
        text = lines[-1]
        return PlayResult(self._parse(board, text, command), text)

    async def valid_moves(self, board: Game[Move]) -> list[Move]:
        """The engine's legal moves in ``board`` (sends ``newgame`` then ``validmoves``), checked by this library.

        :raises EngineError: naming the first MoveString that is not a legal move here.
        """
        await self.new_game(board)
        lines = await self.communicate("validmoves")
        texts = [text.strip() for text in (lines[-1] if lines else "").split(";")]
        return [self._parse(board, text, "validmoves") for text in texts if text]

    def _parse(self, board: Game[Move], text: str, command: str) -> Move:
        try:
            return board.parse_move(text)
        except (InvalidMoveError, IllegalMoveError) as err:
            raise EngineError(
                f"engine {self.name!r} answered {command!r} with {text!r}, not a legal move in "
                f"{board.record()!r}: {err}"
            ) from None

    async def quit(self) -> int | None:
        """Send ``exit``, wait a moment for the engine to end, kill it otherwise; return its exit code."""
        if not self._dead:
            self.send_line("exit")
        self._dead = True
        code: int | None = None
        try:
            code = await asyncio.wait_for(asyncio.shield(self.returncode), EXIT_GRACE)
        except TimeoutError:
            LOGGER.warning("%s: still running %g s after 'exit'; killing it", self.name, EXIT_GRACE)
            self._kill()
            with contextlib.suppress(TimeoutError):
                code = await asyncio.wait_for(asyncio.shield(self.returncode), EXIT_GRACE)
        if self.transport is not None:
            self.transport.close()
        return code


async def popen_uhp(
    command: str | list[str], *, timeout: float | None = 10.0, **popen_args: Any
) -> tuple[asyncio.SubprocessTransport, UHPProtocol]:
    """Start a UHP engine and read its info block and options.

    :param command: a command line (split like a POSIX shell would) or an argument list.
    :param timeout: seconds allowed for each reply; ``None`` waits for ever.
    :param popen_args: passed on to :meth:`asyncio.loop.subprocess_exec` (``cwd``, ``env``, ...).
    :raises EngineError: when the engine cannot be started or does not speak UHP.
    """
    args = shlex.split(command) if isinstance(command, str) else list(command)
    if not args:
        raise EngineError("cannot start an engine from an empty command line")
    text = command if isinstance(command, str) else shlex.join(args)
    loop = asyncio.get_running_loop()
    try:
        transport, protocol = await loop.subprocess_exec(
            lambda: UHPProtocol(timeout=timeout, command=text),
            *args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            **popen_args,
        )
    except OSError as err:
        raise EngineError(f"cannot start engine {text!r}: {err}") from err
    try:
        await protocol.initialize()
    except BaseException:
        await protocol.quit()
        raise
    return transport, protocol
