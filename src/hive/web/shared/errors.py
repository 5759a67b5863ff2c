"""What the browser game answers when a request cannot be served: one class per kind of refusal, and how a
request's values are quoted in the messages.

The game service and the per-game views raise these; the HTTP layer turns each into its status code.
"""

from __future__ import annotations

import json


class GameError(Exception):
    """A request the game cannot serve; the message says why, in words for the player."""


class BadRequest(GameError, ValueError):
    """Malformed, or against the rules of the game."""


class Unauthorized(GameError):
    """Not signed in, or the name and password do not match."""


class Forbidden(GameError):
    """The seat token is missing, belongs to another game, or may not do this (engine help in a fair game)."""


class NotFound(GameError):
    """No such game, or no such action."""


class Conflict(GameError):
    """Not now: out of turn, the game is over, or it has moved on since the caller saw it."""


class Unavailable(GameError):
    """The database cannot be reached or written now: try again in ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Damaged(GameError):
    """A stored game cannot be read back (a row written by hand, or by a newer release): that game alone is
    unavailable."""


class TooMany(GameError):
    """Over a limit: too many requests of a kind from one client, or the AI's queue is full."""


def shown(value: object, limit: int = 60) -> str:
    """A request's value as a message quotes it: a text between single quotes as it was written (its runs of
    white space, line breaks included, as one space), anything else as JSON; cut to ``limit`` characters."""
    if isinstance(value, str):
        text = "'" + " ".join(value.split()) + "'"
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = [
    "BadRequest",
    "Conflict",
    "Damaged",
    "Forbidden",
    "GameError",
    "NotFound",
    "TooMany",
    "Unauthorized",
    "Unavailable",
    "shown",
]
