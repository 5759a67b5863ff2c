"""The quick-pairing grid: the common time controls of the lobby's home (as lichess's: bullet, blitz, rapid,
classical and correspondence), each a pool of seeks one click joins (see :mod:`~hive.web.lobby.quick`).

A seek is in a cell's pool when it is open to anyone (no challenge, no rematch offer) and its time control is the
cell's, whichever way it was asked for (``"blitz"`` and ``{"initial": 300, "increment": 3}`` are one control)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ...ratings import speed
from ..play import clock
from ..shared.errors import BadRequest

JSON = dict[str, Any]

#: The grid's cells: their name and time control as a request gives it (minutes and seconds; days per move).
GRID: tuple[tuple[str, JSON], ...] = (
    *(
        (f"{minutes}+{increment}", {"initial": minutes * 60, "increment": increment})
        for minutes, increment in (
            (1, 0), (2, 1), (3, 0), (3, 2), (5, 0), (5, 3), (10, 0), (10, 5), (15, 10), (30, 0), (30, 20),
        )
    ),
    ("1 day", {"days": 1}),
    ("3 days", {"days": 3}),
)  # fmt: skip


def _key(control: JSON | None) -> str:
    return json.dumps(control, sort_keys=True)


def cell_of(time_control: object) -> str | None:
    """The name of the grid's cell whose time control ``time_control`` (as a request or a stored seek gives it) is,
    or ``None``."""
    try:
        asked = clock.control(time_control)
    except BadRequest:
        return None
    return next((name for name, control in GRID if _key(clock.control(control)) == _key(asked)), None)


def cells() -> list[JSON]:
    """The grid as the page draws it: each cell's ``id`` (its name), ``time_control`` (as a request gives it),
    ``label`` and ``speed`` (``bullet`` ... ``correspondence``, as ratings are kept)."""
    found = []
    for name, control in GRID:
        days = control.get("days")
        rated_as = speed(None, days_per_move=days) if days else speed(control["initial"], control["increment"])
        found.append({"id": name, "time_control": control, "label": name, "speed": rated_as})
    return found


def lock_key(*parts: object) -> int:
    """A signed 64-bit number for a pool (its game, options, time control and rated-ness), for the database lock
    that makes the pool's deciders one at a time."""
    digest = hashlib.blake2b(json.dumps(parts, sort_keys=True).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


__all__ = ["GRID", "cell_of", "cells", "lock_key"]
