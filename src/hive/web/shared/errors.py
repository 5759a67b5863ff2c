"""What the browser game answers when a request cannot be served: one class per kind of refusal, and how a
request's values are quoted in the messages.

The game service raises these, and the games' views the SDK's :class:`BadRequest` (:mod:`hive.sdk.refusals`,
where the root :class:`GameError` and :func:`shown` live too); the HTTP layer turns each into its status code.
"""

from __future__ import annotations

from ...sdk.refusals import BadRequest, GameError, shown


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
