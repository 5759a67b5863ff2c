"""The players' events: an account came online (every lobby page shows who is online)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..shared.events import Event


@dataclass(frozen=True)
class CameOnline(Event):
    """An account came online.

    :ivar name: its name.
    """

    kind = "players.online"

    name: str

    def message(self) -> dict[str, Any]:
        """The lobby socket's message (``online``, sent to every lobby page)."""
        return {"type": "online", "id": self.name, "name": self.name}


__all__ = ["CameOnline"]
