"""A tuning run's files: its state, written whole or not at all after every iteration, and its log, one JSON line
an iteration or a confirmation, trimmed back to the state when a run resumes."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

#: The files of a run, in its directory.
STATE = "state.json"
LOG = "log.jsonl"
PLOT = "parameters.svg"
VALUES = "tuned.json"


class RunFileError(ValueError):
    """A run's file that cannot be read or written; the message names it."""


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` in one step: a temporary file beside it, flushed to disk, then renamed over it.
    A reader (or a run killed at any moment) sees the old file or the new one, never part of one.

    :raises RunFileError: naming the file when it cannot be written.
    """
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            os.chmod(temporary, 0o644)  # as open() would make it (mkstemp's is 0o600)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as err:
        raise RunFileError(f"cannot write {str(path)!r}: {err.strerror or err}") from None


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    """``data`` as indented JSON in ``path``, atomically (:func:`write_atomically`)."""
    write_atomically(path, json.dumps(data, indent=1) + "\n")


def read_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``.

    :raises RunFileError: naming the file when it is missing, unreadable or not one JSON object.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise RunFileError(f"cannot read {str(path)!r}: {err.strerror or err}") from None
    except ValueError as err:
        raise RunFileError(f"{str(path)!r} is not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise RunFileError(f"{str(path)!r} does not hold a JSON object")
    return data


def append_line(path: Path, entry: Mapping[str, Any]) -> None:
    """Append ``entry`` to the log at ``path`` as one JSON line, flushed to disk."""
    try:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry, separators=(",", ":")) + "\n")
            out.flush()
            os.fsync(out.fileno())
    except OSError as err:
        raise RunFileError(f"cannot write {str(path)!r}: {err.strerror or err}") from None


def read_lines(path: Path) -> Iterator[dict[str, Any]]:
    """The entries of the log at ``path`` (none if there is no log); a last line cut short by a crash is left out.

    :raises RunFileError: naming the file and the line when a line before the last is not a JSON object.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return
    except OSError as err:
        raise RunFileError(f"cannot read {str(path)!r}: {err.strerror or err}") from None
    for number, line in enumerate(lines, start=1):
        try:
            entry = json.loads(line)
        except ValueError:
            if number == len(lines):
                return
            raise RunFileError(f"{str(path)!r} line {number} is not JSON") from None
        if not isinstance(entry, dict):
            raise RunFileError(f"{str(path)!r} line {number} is not a JSON object")
        yield entry


def rewrite_lines(path: Path, entries: list[dict[str, Any]]) -> None:
    """Replace the log at ``path`` by ``entries``, atomically."""
    write_atomically(path, "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in entries))


__all__ = [
    "LOG",
    "PLOT",
    "STATE",
    "VALUES",
    "RunFileError",
    "append_line",
    "read_json",
    "read_lines",
    "rewrite_lines",
    "write_atomically",
    "write_json",
]
