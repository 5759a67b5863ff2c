"""The game's events: one type for each kind of change stored, and who hears of them.

The game service announces a :class:`GameEvent` (of the subclass saying what changed: :class:`MoveMade`,
:class:`GameEnded`, :class:`FlagFell`…) for each change it stores, and for nothing else: the AI, the flag timers and
the sockets watching the game all follow from it, in this process and (through the bus, see
:mod:`~hive.web.shared.bus`) in every other process sharing the database, sent inside the transaction that stores the
change. An event says which version of the game it made, so that a process holding an older copy in memory knows to
bring it up to date.
"""

from __future__ import annotations

import base64
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..shared.events import Event

if TYPE_CHECKING:
    import sqlalchemy as sa

#: What a change can be (:attr:`GameEvent.what`): a player's action (see :data:`~hive.web.play.actions.HANDLERS`;
#: ``move`` among them), or one of these.
MOVE = "move"
CREATED, DELETED, FLAG, AI_MOVE, AI_ERROR, JOINED, CLOCK = (
    "created",
    "deleted",
    "flag",
    "ai",
    "ai_error",
    "joined",
    "clock",
)


@dataclass(frozen=True)
class GameEvent(Event):
    """A change to a game, stored (the family of the game's events; each type of change is a subclass).

    :ivar game_id: the game.
    :ivar version: the game's version after the change (see :attr:`~hive.web.shared.model.GameRecord.version`).
    :ivar what: the action as the page is told it (``move``, ``undo``, ``resign``, ``answer``…, or :data:`CREATED`,
        :data:`FLAG`, …).
    :ivar by: the seat whose action it was (``None``: the server's, such as a flag falling).
    :ivar plies: the moves in effect after it.
    :ivar ai_due: whether the AI is to move after it.
    :ivar deadline: when the running clock's flag falls after it (``None``: no clock runs).
    :ivar detail: what the page needs to tell the players about it (an offer declined: ``{"declined": "draw"}``).
    :ivar state_follows: whether the process that stored it sends the game's state as its sockets are shown it next (a
        :class:`GameShown`), so that the other processes need not build it again.
    :ivar change: what the change wrote (see :func:`~hive.web.play.rows.stored_change`), as the other processes are
        sent it: one whose copy is at the version before brings it up to date without reading the database
        (``None``: it reads what changed).
    :ivar state: the game's state after the change as the process that stored it shows it to its sockets (its JSON
        without ``seats``, see :func:`pack_state`), built before the change was stored and sent with it, so that no
        process builds it again nor sends it on its own (``None``: not sent; :attr:`state_follows` may say it comes
        as a :class:`GameShown`).
    """

    with_change: ClassVar[bool] = True
    tail: ClassVar[str] = "state"

    game_id: str
    version: int
    what: str
    by: int | None = None
    plies: int = 0
    ai_due: bool = False
    deadline: float | None = None
    detail: dict[str, Any] | None = None
    state_follows: bool = False
    change: dict[str, Any] | None = None
    state: str | None = None

    def shown(self) -> dict[str, Any]:
        """The event as the page gets it with the game's state: what happened, by which seat, and its detail."""
        return {"what": self.what, "by": self.by, **(self.detail or {})}


@dataclass(frozen=True)
class GameCreated(GameEvent):
    """A game was created (a new game, a seek taken, a tournament's pairing)."""

    kind = "game.created"


@dataclass(frozen=True)
class GameDeleted(GameEvent):
    """A game was deleted (its version: one past the last stored)."""

    kind = "game.deleted"


@dataclass(frozen=True)
class MoveMade(GameEvent):
    """A player's move was played (one that does not end the game)."""

    kind = "game.move"


@dataclass(frozen=True)
class AIMoved(MoveMade):
    """The AI's move was played."""

    kind = "game.ai_move"


@dataclass(frozen=True)
class AIFailed(GameEvent):
    """The AI could not move (the game holds its error)."""

    kind = "game.ai_error"


@dataclass(frozen=True)
class SeatJoined(GameEvent):
    """A player took a seat."""

    kind = "game.joined"


@dataclass(frozen=True)
class GameActed(GameEvent):
    """Another action of a player's that does not end the game (``what``: take back, offer, answer, setup…)."""

    kind = "game.action"


@dataclass(frozen=True)
class GameEnded(GameEvent):
    """The game ended (``what``: the action that ended it: a move, a resignation, an agreement, an abort…)."""

    kind = "game.ended"


@dataclass(frozen=True)
class FlagFell(GameEnded):
    """A clock ran out (``detail``: the seat whose ``flag`` fell), or the flag watcher aborted a game."""

    kind = "game.flag"


@dataclass(frozen=True)
class GameShown(Event):
    """A game's state at a version, as the process that stored the change sent it to its sockets: the other processes
    send it to theirs rather than build it again (each socket adding its seats, see
    :func:`~hive.web.play.fanout.with_seats`).

    :ivar game_id: the game.
    :ivar version: the version shown.
    :ivar state: the state's JSON without ``seats`` (its closing brace left off), as it is if it is short, else
        compressed (see :meth:`pack`), or ``""`` when it was too long to send: each process builds its own.
    """

    kind = "game.shown"
    tail: ClassVar[str] = "state"

    game_id: str
    version: int
    state: str

    #: The longest state sent (PostgreSQL's notifications carry at most 8,000 bytes, the event's JSON included).
    LONGEST: ClassVar[int] = 6000
    #: The mark of a compressed state (a state's JSON starts with ``{``).
    PACKED: ClassVar[str] = "z:"

    @classmethod
    def pack(cls, game_id: str, version: int, text: str) -> GameShown:
        """The event for ``text`` (compressed, in base 64, when it is long; left out when too long still)."""
        return cls(game_id, version, pack_state(text, cls.LONGEST))

    def text(self) -> str | None:
        """The state's text, or ``None`` when it was not sent."""
        return unpack_state(self.state)


#: The mark of a compressed state (a state's JSON starts with ``{``).
PACKED = GameShown.PACKED


def pack_state(text: str, longest: int) -> str:
    """A state's JSON text as an event carries it: as it is when it takes at most ``longest`` bytes in the event's
    JSON (its quotes escaped), else compressed and in base 64 (marked :data:`PACKED`), or ``""`` when too long
    still."""
    if len(text.encode()) + text.count('"') + text.count("\\") <= longest:
        return text
    packed = PACKED + base64.b64encode(zlib.compress(text.encode(), 1)).decode("ascii")
    return packed if len(packed) <= longest else ""


def unpack_state(carried: str) -> str | None:
    """The state's text :func:`pack_state` made ``carried`` of (``None``: it was left out)."""
    if not carried.startswith(PACKED):
        return carried or None
    return zlib.decompress(base64.b64decode(carried[len(PACKED) :])).decode()


def game_event(what: str, ended: bool) -> type[GameEvent]:
    """The type of the event of a change ``what`` (see :data:`MOVE`, :data:`CREATED`…), which ``ended`` the game or
    not."""
    fixed = {FLAG: FlagFell, CREATED: GameCreated, DELETED: GameDeleted, AI_ERROR: AIFailed, JOINED: SeatJoined}
    if what in fixed:
        return fixed[what]
    if ended:
        return GameEnded
    return {MOVE: MoveMade, AI_MOVE: AIMoved}.get(what, GameActed)


class Announcer(Protocol):
    """Who hears of the changes: told inside the transaction that stores one (for what must be sent only if it is
    stored, such as a notification the database sends on commit), then once it is stored."""

    def stored(self, connection: sa.Connection, event: GameEvent) -> None:
        """The change is being stored on ``connection`` (runs on a database thread, inside the transaction), unless
        :meth:`told` gave its text."""
        ...

    def told(self, event: GameEvent) -> str | None:
        """The change's notification as the statement storing it is to send it (PostgreSQL's ``NOTIFY`` on
        :data:`~hive.web.shared.bus.CHANNEL`), worked out on a database thread just before it is stored; ``None``:
        :meth:`stored` is called inside its transaction instead."""
        ...

    async def announce(self, event: GameEvent) -> None:
        """The change is stored."""
        ...

    async def prepare(self, event: GameEvent) -> GameEvent:
        """The change is about to be stored (the game in memory shows it already): ``event`` as it is to be told,
        with what is to be sent with it (the state the game's sockets are to be shown, see
        :attr:`GameEvent.state`)."""
        ...


class Unheard:
    """An announcer nobody listens to (a service used on its own, as in tests)."""

    async def prepare(self, event: GameEvent) -> GameEvent:
        """Nothing to add."""
        return event

    def stored(self, connection: sa.Connection, event: GameEvent) -> None:
        """Nothing to send."""

    def told(self, event: GameEvent) -> str | None:
        """No text: :meth:`stored` is called."""
        return None

    async def announce(self, event: GameEvent) -> None:
        """Nothing to do."""


__all__ = [
    "AI_ERROR",
    "AI_MOVE",
    "CLOCK",
    "CREATED",
    "DELETED",
    "FLAG",
    "JOINED",
    "MOVE",
    "AIFailed",
    "AIMoved",
    "Announcer",
    "FlagFell",
    "GameActed",
    "GameCreated",
    "GameDeleted",
    "GameEnded",
    "GameEvent",
    "GameShown",
    "MoveMade",
    "SeatJoined",
    "Unheard",
    "game_event",
    "pack_state",
    "unpack_state",
]
