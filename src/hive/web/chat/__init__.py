"""Chat (``hive serve``): each game's players' and spectators' rooms, each tournament's room, who blocked whom, and
the messages reported to the admins."""

from .service import Chat

__all__ = ["Chat"]
