"""What the server's parts tell each other, in this process and (through :mod:`~hive.web.shared.bus`) in every other
process sharing the database: typed events, and who follows each type.

An event is a frozen dataclass subclassing :class:`Event` with a class-level ``kind`` (its name on the bus, unique
among every event type): declaring it registers it, so that :meth:`Event.from_payload` can rebuild it from the text
another process sent. Each domain declares its own events beside its code and publishes them; the others subscribe to
them by type in a :class:`Subscribers` table (a subscriber to a base class hears every subclass).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

#: The event types by kind (filled by declaring them; read-only after the modules are imported).
_KINDS: dict[str, type[Event]] = {}


@dataclass(frozen=True)
class Event:
    """Something that happened, as every process may hear of it.

    :cvar kind: the event's name on the bus; a subclass without one of its own is an abstract family (not sent).
    :cvar with_change: whether the event is sent inside the transaction that stores its change (see
        :meth:`~hive.web.shared.bus.Bus.stored`) rather than on its own once what it tells is stored.
    :cvar tail: the name of a text field sent after the event's JSON and a newline rather than inside it (a long text,
        such as a game's state, neither escaped nor read as JSON); a text holding a newline stays inside.
    :ivar origin: the server process it happened in (stamped by the bus when left empty).
    """

    kind: ClassVar[str] = ""
    with_change: ClassVar[bool] = False
    tail: ClassVar[str] = ""

    origin: str = field(default="", kw_only=True)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("kind")
        if kind:
            known = _KINDS.get(kind)
            if known is not None and known.__qualname__ != cls.__qualname__:
                raise TypeError(f"event kind {kind!r} is declared twice: {known.__qualname__} and {cls.__qualname__}")
            _KINDS[kind] = cls

    def payload(self) -> str:
        """The event as JSON text, for the bus: its fields and its ``kind`` (its :attr:`tail` after a newline)."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        tail = data.get(self.tail) if self.tail else None
        if isinstance(tail, str) and "\n" not in tail:
            del data[self.tail]
        else:
            tail = None
        text = json.dumps({"kind": self.kind, **data}, separators=(",", ":"), ensure_ascii=False)
        return text if tail is None else f"{text}\n{tail}"

    @staticmethod
    def from_payload(text: str | bytes) -> Event:
        """The event a :meth:`payload` text describes.

        :raises ValueError: when the text is not an event, or names a kind nobody declared (named in the message).
        """
        head, newline, tail = (text if isinstance(text, str) else text.decode(errors="replace")).partition("\n")
        try:
            data = json.loads(head)
        except ValueError:
            raise ValueError(f"not an event: {str(text)[:80]!r}") from None
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise ValueError(f"not an event: {str(text)[:80]!r}")
        kind = data.pop("kind")
        cls = _KINDS.get(kind)
        if cls is None:
            raise ValueError(f"unknown event kind {kind!r}")
        if newline:
            if not cls.tail:
                raise ValueError(f"a {kind!r} event has no tail")
            data[cls.tail] = tail
        for f in dataclasses.fields(cls):  # JSON has lists only: a tuple field gets its tuple back
            if isinstance(data.get(f.name), list) and str(f.type).startswith("tuple"):
                data[f.name] = tuple(data[f.name])
        try:
            return cls(**data)
        except TypeError as err:
            raise ValueError(f"not a {kind!r} event: {err}") from None


def kinds() -> dict[str, type[Event]]:
    """Every event type declared so far, by kind."""
    return dict(_KINDS)


E = TypeVar("E", bound=Event)
Handler = Callable[[Any], Awaitable[None]]


class Subscribers:
    """Who follows which type of event: each handler is called, in the order subscribed, with every event of its
    type or of a subclass."""

    def __init__(self) -> None:
        self._table: dict[type[Event], list[Handler]] = {}
        self._routes: dict[type[Event], tuple[Handler, ...]] = {}

    def subscribe(self, kind: type[E], handler: Callable[[E], Awaitable[None]]) -> None:
        """Have ``handler`` called with every event of type ``kind`` (or a subclass)."""
        self._table.setdefault(kind, []).append(handler)
        self._routes.clear()

    def handlers(self, kind: type[Event]) -> tuple[Handler, ...]:
        """The handlers of an event of type ``kind``: its own type's first, then its bases'."""
        found = self._routes.get(kind)
        if found is None:
            found = tuple(h for base in kind.__mro__ for h in self._table.get(base, ()))
            self._routes[kind] = found
        return found

    async def deliver(self, event: Event) -> None:
        """Call every handler of the event's type with it."""
        for handler in self.handlers(type(event)):
            await handler(event)


@dataclass(frozen=True)
class LobbyEvent(Event):
    """A change of the lobby, stored (the family of the events the lobby's sockets show, whichever domain stores them).

    :ivar id: the seek's (or the tournament's) id.
    :ivar route: the accounts whose sockets are told (an open seek's go to every socket).
    :ivar detail: the message's other fields, as the lobby socket sends them.
    """

    id: str
    route: tuple[str, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)

    def message(self) -> dict[str, Any]:
        """The lobby socket's message (its ``route`` included: see :data:`~hive.web.lobby.sockets.ROUTE`)."""
        return {**self.detail, "id": self.id, "route": list(self.route)}


__all__ = [
    "Event",
    "Handler",
    "LobbyEvent",
    "Subscribers",
    "kinds",
]
