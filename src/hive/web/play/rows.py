"""A game's row as the games' repository writes and reads it: a record's columns, and a record read back from its
row and its stored moves (:func:`read_record`); what a change writes, as an event carries it to the other processes
(:func:`stored_change`), and a copy brought to it without reading the row (:func:`apply_change`); and what other
domains ask of the games' rows inside their own transactions (:func:`stored`, :func:`playing_in`,
:func:`games_in_progress`).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from ..shared.errors import Damaged, shown
from ..shared.model import GameRecord
from .tables import games, moves


def dumps(value: dict[str, Any] | None) -> str | None:
    """A JSON object as its column holds it (``None`` stays ``None``)."""
    return json.dumps(value) if value is not None else None


#: The fields of a record a change writes besides its moves and version (see :func:`row_values`).
STORED_FIELDS = ("result", "reason", "offer", "updated", "names", "help", "joined", "rematch", "clock", "ai_error")
#: The longest change an event carries (characters of JSON); a longer one is read from the database.
CHANGE_LONGEST = 3000
#: the columns a change writes
CHANGED = (
    "length", "result", "reason", "offer", "updated", "name0", "name1", "help0", "help1", "joined", "rematch", "clock",
    "version", "stored", "deadline", "ai_error",
)  # fmt: skip


#: the columns of a move appended by :func:`one_save` after its game's id, and their parameters
MOVE_VALUES = (("ply", "ply"), ("move", "move"), ("written", "new_version"))


def _typed(column: sa.Column[Any], parameter: str) -> str:
    """A parameter of the driver's, cast to the column's type as SQLAlchemy would (PostgreSQL)."""
    dialect: sa.Dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
    return f"%({parameter})s::{column.type.compile(dialect=dialect)}"


def version_read() -> str:
    """A game's version read on PostgreSQL, for the driver (its parameter ``game``): one row, or none when there is
    no such game."""
    return f"SELECT version FROM {games.name} WHERE id = {_typed(games.c.id, 'game')}"


def one_save(add: bool, notify: bool) -> str:
    """A change stored in one statement on PostgreSQL, for the driver (its parameters those of :func:`changed`, with
    ``game`` and ``seen``): the game's row updated if it is still at the version seen; with ``add``, one move
    appended (``ply``, ``move``) if it was; with ``notify``, the change's notification (``channel``, ``payload``) sent
    if it was. The statement returns one row if the change is stored, none if the version was not the one seen (a
    writer that came second waits for the first's row lock, then finds a newer version)."""
    sets = ", ".join(f"{name} = {_typed(games.c[name], f'new_{name}')}" for name in CHANGED)
    where = f"id = {_typed(games.c.id, 'game')} AND version = {_typed(games.c.version, 'seen')}"
    text = f"WITH u AS (UPDATE {games.name} SET {sets} WHERE {where} RETURNING id)"
    if add:
        values = ", ".join(_typed(moves.c[name], parameter) for name, parameter in MOVE_VALUES)
        values = f"id, {values}"
        text += f", i AS (INSERT INTO {moves.name} (game_id, ply, move, written) SELECT {values} FROM u)"
    return text + (" SELECT pg_notify(%(channel)s, %(payload)s) FROM u" if notify else " SELECT 1 FROM u")


def common(old: list[str], new: list[str]) -> int:
    """How many moves two lists of moves share from the first."""
    shorter = min(len(old), len(new))
    if old[:shorter] == new[:shorter]:  # the usual case (moves added, or taken back), compared without a loop
        return shorter
    same = 0
    while same < min(len(old), len(new)) and old[same] == new[same]:
        same += 1
    return same


def stored_change(previous: GameRecord, record: GameRecord) -> dict[str, Any] | None:
    """What a change from ``previous`` to ``record`` writes (the row's fields, and the stored moves as those kept and
    those added after them), as JSON an event carries; ``None`` when longer than :data:`CHANGE_LONGEST`."""
    old, new = previous.moves + previous.redo, record.moves + record.redo
    same = common(old, new)
    change = {name: getattr(record, name) for name in STORED_FIELDS}
    change.update(keep=same, add=new[same:], length=len(record.moves))
    return change if len(json.dumps(change)) <= CHANGE_LONGEST else None


def apply_change(record: GameRecord, change: dict[str, Any], version: int) -> GameRecord:
    """``record`` (the copy at the version before) as :func:`stored_change`'s ``change`` left it at ``version``: the
    record the row and moves stored would be read as.

    :raises ValueError: when ``change`` is not one (the copy is then read from the database).
    """
    try:
        stored = (record.moves + record.redo)[: change["keep"]]
        if len(stored) != change["keep"] or not all(isinstance(move, str) for move in change["add"]):
            raise ValueError("the change does not follow the copy")
        stored += change["add"]
        length = change["length"]
        fields = {name: change[name] for name in STORED_FIELDS}
        fields["names"], fields["help"] = tuple(fields["names"]), tuple(fields["help"])
        return dataclasses.replace(record, moves=stored[:length], redo=stored[length:], version=version, **fields)
    except (KeyError, TypeError) as err:
        raise ValueError(f"not a change: {err}") from None


def _flag(value: int | None) -> bool | None:
    return None if value is None else bool(value)


def changed(record: GameRecord, now: float, deadline: float | None) -> dict[str, Any]:
    """The parameters of :data:`~hive.web.play.repository.SAVE` for ``record``."""
    return {f"new_{name}": value for name, value in row_values(record, now, deadline).items()}


def row_values(record: GameRecord, now: float, deadline: float | None) -> dict[str, Any]:
    """The columns every change of ``record`` writes, stored at ``now`` with its flag's ``deadline``."""
    return {
        "length": len(record.moves),
        "result": record.result,
        "reason": record.reason,
        "offer": dumps(record.offer),
        "updated": now,
        "name0": record.names[0],
        "name1": record.names[1],
        "help0": record.help[0],
        "help1": record.help[1],
        "joined": record.joined,
        "rematch": record.rematch,
        "clock": dumps(record.clock),
        "version": record.version,
        "stored": len(record.moves) + len(record.redo),
        "deadline": deadline,
        "ai_error": record.ai_error,
    }


def _object(text: object, what: str) -> dict[str, Any]:
    """A stored JSON object, or :class:`ValueError` saying in words what is wrong with it (never the parser's own
    text, which an answer would show)."""
    try:
        value = json.loads(text) if isinstance(text, str | bytes) else None
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise ValueError(f"its {what} {'are' if what.endswith('s') else 'is'} not a JSON object")
    return value


def _whole(value: Any) -> int:
    """A stored whole number, or :class:`ValueError` saying so."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError("its length is not a whole number") from None


def read_record(row: sa.Row[Any], stored: list[str]) -> GameRecord:
    """A game's record from its row and its stored moves (those in effect, then those taken back).

    :raises Damaged: naming the game and what cannot be read.
    """
    try:
        options = _object(row.options, "options")
        offer = _object(row.offer, "offer") if row.offer else None
        clock = _object(row.clock, "clock") if row.clock else None
        length = _whole(row.length)
    except ValueError as err:
        raise Damaged(f"Game {shown(row.id)} cannot be read: {err}.") from None
    return GameRecord(
        id=row.id,
        kind=row.kind,
        options=options,
        mode=row.mode,
        ai_level=row.ai_level,
        ai_seat=row.ai_seat,
        tokens=(row.token0, row.token1),
        moves=stored[:length],
        redo=stored[length:],
        result=row.result,
        reason=row.reason,
        offer=offer,
        created=row.created,
        updated=row.updated,
        names=(row.name0, row.name1),
        help=(_flag(row.help0), _flag(row.help1)),
        joined=row.joined,
        rematch=row.rematch,
        clock=clock,
        start=row.start,
        version=row.version,
        ai_error=row.ai_error,
        accounts=(row.account0, row.account1),
        rated=bool(row.rated),
    )


def placeholder(row: sa.Row[Any]) -> GameRecord:
    """What the list shows of a game whose row cannot be read: its id and dates."""
    return GameRecord(
        id=row.id,
        kind=str(row.kind),
        options={},
        mode=str(row.mode),
        ai_level=None,
        ai_seat=None,
        tokens=(None, None),
        created=row.created,
        updated=row.updated,
    )


__all__ = [
    "CHANGED",
    "CHANGE_LONGEST",
    "STORED_FIELDS",
    "apply_change",
    "changed",
    "common",
    "dumps",
    "one_save",
    "placeholder",
    "read_record",
    "row_values",
    "stored_change",
    "version_read",
]


def stored(connection: sa.Connection, game_id: str) -> bool:
    """Whether the game ``game_id`` is stored, asked inside another domain's transaction on ``connection``."""
    return connection.execute(sa.select(games.c.id).where(games.c.id == game_id)).first() is not None


def playing_in(connection: sa.Connection, account_id: str) -> bool:
    """Whether the account plays a real-time game in progress (one with a clock that is not days per move), asked
    inside another domain's transaction on ``connection``."""
    mine = sa.or_(games.c.account0 == account_id, games.c.account1 == account_id)
    query = sa.select(games.c.clock).where(mine, games.c.result.is_(None), games.c.clock.is_not(None))
    for text in connection.execute(query).scalars():
        control = (json.loads(text) or {}).get("control")
        if control is not None and "days" not in control:
            return True
    return False


def games_in_progress(connection: sa.Connection) -> int:
    """How many games are in progress on the whole server."""
    return int(
        connection.execute(sa.select(sa.func.count()).select_from(games).where(games.c.result.is_(None))).scalar_one()
    )
