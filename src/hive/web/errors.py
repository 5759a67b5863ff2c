"""What the browser game answers when a request cannot be served: one class per kind of refusal.

The game service and the per-game views raise these; the HTTP layer turns each into its status code.
"""

from __future__ import annotations


class GameError(Exception):
    """A request the game cannot serve; the message says why, in words for the player."""


class BadRequest(GameError, ValueError):
    """Malformed, or against the rules of the game."""


class Forbidden(GameError):
    """The seat token is missing or belongs to another game."""


class NotFound(GameError):
    """No such game, or no such action."""


class Conflict(GameError):
    """Not now: out of turn, the game is over, or it has moved on since the caller saw it."""


class Unavailable(GameError):
    """The game could not be stored."""


__all__ = ["BadRequest", "Conflict", "Forbidden", "GameError", "NotFound", "Unavailable"]
