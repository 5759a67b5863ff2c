"""The words of the Universal Hive Protocol as the engine reads and writes them: times, whole numbers, options and
error lines."""

from __future__ import annotations

import re

from ..games.hive.ai import LEVELS
from ..search.limits import MAX_THREADS

#: The longest output line that quotes input; longer error lines are cut.
MAX_ERROR = 240

_TIME = re.compile(r"^([0-9]{1,6}):([0-9]{1,2}):([0-9]{1,2}(?:\.[0-9]{1,6})?)$")
_INT = re.compile(r"^[+-]?[0-9]{1,9}$")
BREAKS = str.maketrans({ch: " " for ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"})
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


class UHPError(Exception):
    """A command the engine refuses; the message becomes the ``err`` line."""


def quoted(text: str, limit: int = 60) -> str:
    """``text`` quoted for an error line, cut after ``limit`` characters."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def whole_number(text: str) -> int | None:
    """The whole number ``text`` writes (at most nine digits), ``None`` for anything else."""
    return int(text) if _INT.match(text) else None


def failure(line: str) -> list[str]:
    """The reply to a command that failed: its error line, cut, then ``ok``."""
    return [cut(line.translate(BREAKS)), "ok"]


def seconds(text: str) -> float:
    """The seconds of a UHP time, ``hh:mm:ss`` (minutes and seconds below 60, seconds with a fraction)."""
    match = _TIME.match(text)
    if match is None or int(match[2]) >= 60 or float(match[3]) >= 60:
        raise UHPError(f"Invalid time {quoted(text)}: expected hh:mm:ss (minutes and seconds below 60).")
    return int(match[1]) * 3600 + int(match[2]) * 60 + float(match[3])


def cut(line: str) -> str:
    """An output line cut to :data:`MAX_ERROR` characters, saying how long it was."""
    if len(line) <= MAX_ERROR:
        return line
    return f"{line[: MAX_ERROR - 40]}... ({len(line):,} characters in all)"


class Option:
    """One of the engine's options: its key, kind (``int``, ``bool`` or ``enum``), default and values (an
    ``int``'s bounds, an ``enum``'s choices)."""

    def __init__(self, key: str, kind: str, default: str, values: tuple[str, ...] = ()) -> None:
        self.key = key
        self.kind = kind
        self.default = default
        self.values = values

    def parse(self, text: str) -> str:
        """The value ``text`` sets, written as the option writes it.

        :raises UHPError: for a value out of the option's range or choices.
        """
        word = text.lower()
        if self.kind == "int":
            low, high = int(self.values[0]), int(self.values[1])
            number = whole_number(text)
            if number is None or not low <= number <= high:
                raise UHPError(
                    f"Invalid value {quoted(text)} for option {self.key} (int): expected a whole number "
                    f"from {low} to {high}."
                )
            return str(number)
        if self.kind == "bool":
            if word in _TRUE:
                return "True"
            if word in _FALSE:
                return "False"
            raise UHPError(f"Invalid value {quoted(text)} for option {self.key} (bool): expected True or False.")
        for value in self.values:
            if value.lower() == word:
                return value
        raise UHPError(
            f"Invalid value {quoted(text)} for option {self.key} (enum): expected one of {', '.join(self.values)}."
        )

    def line(self, value: str) -> str:
        """The option's line in the ``options`` reply, with its current ``value``."""
        return ";".join((self.key, self.kind, value, self.default, *self.values))


def engine_options() -> dict[str, Option]:
    """A fresh set of the engine's options by lower-case key."""
    levels = tuple(LEVELS)
    level = "hard" if "hard" in LEVELS else levels[0]
    options = (
        Option("TournamentOpening", "bool", "True"),
        Option("RepetitionDraw", "bool", "True"),
        Option("DefaultLevel", "enum", level, levels),
        Option("MaxTime", "int", "600", ("1", "86400")),
        Option("TTSizeMB", "int", "250", ("1", "65536")),
        Option("Threads", "int", "1", ("1", str(MAX_THREADS))),
    )
    return {option.key.lower(): option for option in options}
