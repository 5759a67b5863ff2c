"""What a UHP engine client hands back: its errors, a move played, an engine option."""

from __future__ import annotations

from dataclasses import dataclass

from ..games.hive import Move

__all__ = [
    "EngineError",
    "EngineInvalidMoveError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Option",
    "PlayResult",
]


class EngineError(ValueError):
    """An engine answered with an error or with something that is not UHP."""


class EngineInvalidMoveError(EngineError):
    """An engine rejected a move with ``invalidmove``."""


class EngineTerminatedError(EngineError):
    """The engine process exited (or was killed) before answering."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer in time; it has been killed."""


@dataclass(frozen=True)
class PlayResult:
    """The answer to :meth:`UHPProtocol.play`: the move, and the MoveString as the engine wrote it."""

    move: Move
    move_string: str


@dataclass(frozen=True)
class Option:
    """An engine option, from a line ``Key;type;value;default[;min;max|values...]``.

    ``min``/``max`` are set for ``int`` and ``double`` options, ``choices`` for ``enum`` options.
    """

    name: str
    type: str
    value: str
    default: str
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()

    @classmethod
    def parse(cls, line: str) -> Option:
        """Parse one line of the ``options`` reply.

        :raises ValueError: naming the line when it has fewer than four fields or a bad bound.
        """
        fields = [f.strip() for f in line.split(";")]
        if len(fields) < 4 or not fields[0]:
            raise ValueError(f"not an option line (Key;type;value;default[;...]): {line!r}")
        name, kind, value, default, rest = fields[0], fields[1], fields[2], fields[3], fields[4:]
        if kind.lower() in ("int", "double", "float") and rest:
            try:
                low = float(rest[0]) if rest[0] else None
                high = float(rest[1]) if len(rest) > 1 and rest[1] else None
            except ValueError:
                raise ValueError(f"option line {line!r} has a bound that is not a number") from None
            return cls(name, kind, value, default, low, high)
        if kind.lower() == "enum":
            return cls(name, kind, value, default, choices=tuple(rest))
        return cls(name, kind, value, default)
