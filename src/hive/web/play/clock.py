"""Time controls and the game clock, kept by the server: plain data stored with every move.

A time control is untimed (``None``), real-time (an initial time and a Fischer increment, in milliseconds) or
correspondence (days per move). The clock starts with the first move: from then on the side to move has its clock
running, and a move stops it, charges the time used and starts the other side's. Real-time moves earn the increment;
a correspondence move gives its player the full days again for the next one. A real-time clock is paused while the
server is down (:func:`pause`, :func:`resume`); a correspondence clock runs on calendar time.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ...ratings import speed
from ...search.timing import ClockReading
from ..shared.errors import BadRequest, shown

JSON = dict[str, Any]
MINUTE = 60_000
DAY = 86_400_000
#: Real-time presets like hivegame.com's: minutes and seconds of increment.
PRESETS: dict[str, tuple[int, int]] = {"bullet": (1, 2), "blitz": (5, 3), "rapid": (15, 10), "classical": (30, 20)}
#: The correspondence choices, days per move.
DAYS = (1, 2, 3, 5, 7)
#: The longest initial time and increment a real-time game may ask for, in seconds.
MAX_INITIAL, MAX_INCREMENT = 3 * 3600, 180
#: Below this share of its initial time (and 20 s at most) a player's clock shows a warning.
LOW_SHARE, LOW_LIMIT = 0.1, 20_000


def _seconds(value: object, field: str, lowest: float, highest: float) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadRequest(f"'time_control.{field}' must be a number of seconds, not {shown(value)}.")
    if not lowest <= value <= highest:
        raise BadRequest(f"'time_control.{field}' must be from {lowest:g} to {highest:g} seconds, not {value:g}.")
    return round(value * 1000)


def control(value: object) -> JSON | None:
    """A time control as a request gives it: ``null`` or ``"untimed"``; a preset's name (``"blitz"``); ``{"initial":
    seconds, "increment": seconds}``; ``{"days": n}`` for correspondence. Returns ``None`` (untimed),
    ``{"initial": ms, "increment": ms}`` or ``{"days": n}``.

    :raises BadRequest: naming what is wrong.
    """
    if value is None or value == "untimed":
        return None
    if isinstance(value, str) and value in PRESETS:
        minutes, increment = PRESETS[value]
        return {"initial": minutes * MINUTE, "increment": increment * 1000}
    if isinstance(value, dict) and set(value) == {"days"}:
        days = value["days"]
        if days not in DAYS or isinstance(days, bool):
            raise BadRequest(f"'time_control.days' must be one of {', '.join(map(str, DAYS))}, not {shown(days)}.")
        return {"days": days}
    if isinstance(value, dict) and set(value) <= {"initial", "increment"} and "initial" in value:
        initial = _seconds(value["initial"], "initial", 1, MAX_INITIAL)
        increment = _seconds(value.get("increment", 0), "increment", 0, MAX_INCREMENT)
        return {"initial": initial, "increment": increment}
    raise BadRequest(
        f'\'time_control\' must be untimed, one of {", ".join(PRESETS)}, {{"initial": s, "increment": s}}'
        f' or {{"days": n}}, not {shown(value)}.'
    )


def label(tc: JSON | None) -> str:
    """How a time control is named: ``Untimed``, ``Blitz 5+3``, ``3+2`` (minutes and seconds), ``10s+2`` (a few
    seconds), ``2 days per move``."""
    if tc is None:
        return "Untimed"
    if "days" in tc:
        return f"{tc['days']} day{'s' if tc['days'] > 1 else ''} per move"
    minutes, increment = tc["initial"] / MINUTE, tc["increment"] / 1000
    name = next((n for n, p in PRESETS.items() if p == (minutes, increment)), None)
    whole = tc["initial"] % MINUTE == 0
    text = f"{minutes:g}+{increment:g}" if whole else f"{tc['initial'] / 1000:g}s+{increment:g}"
    return f"{name.capitalize()} {text}" if name else text


def asked(stored: JSON | None) -> JSON | None:
    """The time control of a game's clock as a request gives it (see :func:`control`): ``None`` (untimed),
    ``{"days": n}`` or ``{"initial": seconds, "increment": seconds}``."""
    tc = None if stored is None else stored.get("control")
    if tc is None or "days" in tc:
        return None if tc is None else {"days": tc["days"]}
    return {"initial": tc["initial"] / 1000, "increment": tc["increment"] / 1000}


def new(tc: JSON | None) -> JSON | None:
    """A fresh clock for a game under ``tc``: both sides' full time, nothing running, no move timed. ``used`` is
    the time each move took (ms, ``None`` for the first), ``at`` the server's time of each move (ms since the
    epoch)."""
    if tc is None:
        return None
    full = _full(tc)
    return {
        "control": tc,
        "remaining": [full, full],
        "running": None,
        "since": None,
        "used": [],
        "at": [],
        "paused": False,
    }


def check(clock: object) -> None:
    """Make sure a stored clock can be used: a known time control, two remaining times, a running seat or none, a
    start time when one runs, lists of the times used.

    :raises ValueError: naming what is wrong.
    """
    if not isinstance(clock, dict):
        raise ValueError("the clock is not an object")
    tc = clock.get("control")
    numbers = (int, float)
    if not isinstance(tc, dict):
        raise ValueError("the clock has no time control")
    if set(tc) == {"days"}:
        if tc["days"] not in DAYS:
            raise ValueError(f"the clock's control has {tc['days']!r} days per move")
    elif set(tc) != {"initial", "increment"} or not all(isinstance(tc[k], numbers) for k in tc):
        raise ValueError(f"the clock's control {json.dumps(tc)[:80]} is not a known time control")
    remaining = clock.get("remaining")
    if not isinstance(remaining, list) or len(remaining) != 2 or not all(isinstance(x, numbers) for x in remaining):
        raise ValueError("the clock's remaining times are not two numbers")
    if clock.get("running") not in (None, 0, 1):
        raise ValueError(f"the clock runs for {clock.get('running')!r}, not a seat")
    if clock.get("running") is not None and not clock.get("paused") and not isinstance(clock.get("since"), numbers):
        raise ValueError("the running clock has no start time")
    if not isinstance(clock.get("used", []), list) or not isinstance(clock.get("at", []), list):
        raise ValueError("the clock's times per move are not lists")


def _full(tc: JSON) -> int:
    return int(tc["days"] * DAY if "days" in tc else tc["initial"])


def left(clock: JSON, seat: int, now: float) -> int:
    """``seat``'s remaining milliseconds at ``now`` (seconds since the epoch), never below 0."""
    remaining = int(clock["remaining"][seat])
    if clock["running"] == seat and clock["since"] is not None:
        remaining -= round((now - clock["since"]) * 1000)
    return max(0, remaining)


def fallen(clock: JSON | None, now: float) -> int | None:
    """The seat whose flag has fallen at ``now``, if any."""
    if clock is None or clock["running"] is None or clock["since"] is None:
        return None
    seat: int = clock["running"]
    return seat if left(clock, seat, now) <= 0 else None


def deadline(clock: JSON | None) -> float | None:
    """When the running clock's flag falls (seconds since the epoch), if a clock runs."""
    if clock is None or clock["running"] is None or clock["since"] is None:
        return None
    return float(clock["since"]) + float(clock["remaining"][clock["running"]]) / 1000


def moved(clock: JSON | None, seat: int, plies: int, now: float, over: bool) -> JSON | None:
    """The clock after ``seat`` moved at ``now`` (the game now has ``plies`` moves; ``over``: it ended)."""
    if clock is None:
        return None
    tc = clock["control"]
    remaining = list(clock["remaining"])
    used = list(clock["used"]) + [None] * (plies - 1 - len(clock["used"]))
    if clock["running"] == seat and clock["since"] is not None:
        spent = round((now - clock["since"]) * 1000)
        remaining[seat] = _full(tc) if "days" in tc else max(0, remaining[seat] - spent) + tc["increment"]
        used.append(spent)
    else:
        used.append(None)  # the first move, before the clock started
    at = list(clock.get("at", [])) + [None] * (plies - 1 - len(clock.get("at", [])))
    at.append(round(now * 1000))
    running = None if over else 1 - seat
    return {**clock, "remaining": remaining, "running": running, "since": None if over else now, "used": used, "at": at}


def stopped(clock: JSON | None, now: float, flag: int | None = None) -> JSON | None:
    """The clock stopped at ``now`` as the game ends (``flag``: the seat whose time ran out, left at 0)."""
    if clock is None or clock["running"] is None:
        return clock
    remaining = list(clock["remaining"])
    remaining[clock["running"]] = 0 if flag is not None else left(clock, clock["running"], now)
    return {**clock, "remaining": remaining, "running": None, "since": None}


def pause(clock: JSON, now: float) -> JSON:
    """A real-time clock held as the server stops: the running side keeps the time it has at ``now``."""
    if "days" in clock["control"] or clock["running"] is None or clock["since"] is None:
        return clock
    remaining = list(clock["remaining"])
    remaining[clock["running"]] = left(clock, clock["running"], now)
    return {**clock, "remaining": remaining, "since": None, "paused": True}


def resume(clock: JSON, now: float) -> JSON:
    """A paused clock running again from ``now``."""
    return {**clock, "since": now, "paused": False} if clock.get("paused") else clock


def report(clock: JSON | None, now: float) -> JSON | None:
    """The clock as the game's state shows it: the control and its label, each side's remaining milliseconds at
    ``now``, whose clock runs (``None``: none), the time used per move (``None`` where it was not timed), and the
    remaining time below which a clock shows a warning."""
    if clock is None:
        return None
    tc = clock["control"]
    return {
        "control": tc,
        "label": label(tc),
        "remaining": [left(clock, 0, now), left(clock, 1, now)],
        "running": None if clock.get("paused") else clock["running"],
        "used": clock["used"],
        "low": min(LOW_LIMIT, round(_full(tc) * LOW_SHARE)) if "initial" in tc else DAY // 4,
    }


def reading(clock: JSON | None, seat: int, now: float) -> ClockReading | None:
    """``seat``'s clock at ``now``, as the AI plans its thinking time on it (see
    :meth:`~hive.search.timing.ClockReading.budget`); ``None`` when the clock does not limit the AI."""
    if clock is None or "days" in clock["control"]:
        return None
    return ClockReading(left(clock, seat, now) / 1000, float(clock["control"]["increment"]) / 1000)


def speed_of(stored: JSON | None) -> str:
    """The speed a game with this clock is rated in (see :func:`hive.ratings.speed`)."""
    tc = None if stored is None else stored.get("control")
    if tc is None or "days" in tc:
        return "correspondence"
    return speed(tc["initial"] / 1000, tc["increment"] / 1000)


__all__ = [
    "DAYS",
    "PRESETS",
    "asked",
    "check",
    "control",
    "deadline",
    "fallen",
    "label",
    "left",
    "moved",
    "new",
    "pause",
    "reading",
    "report",
    "resume",
    "speed_of",
    "stopped",
]
