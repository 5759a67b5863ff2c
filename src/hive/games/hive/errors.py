"""The errors of Hive's rules: the shared move errors, and Hive's own for game types and GameStrings.

All are ``ValueError`` subclasses.
"""

from __future__ import annotations

from ...game import IllegalMoveError, InvalidMoveError, InvalidRecordError, UnknownGameError


class InvalidGameTypeError(UnknownGameError):
    """A game type string names no game type."""


class InvalidGameStringError(InvalidRecordError):
    """A GameString's header (game type, state or turn) is malformed, or contradicts its moves."""


class GameStringWarning(UserWarning):
    """A GameString read with ``strict=False`` whose state or turn contradicts its moves."""


__all__ = [
    "GameStringWarning",
    "IllegalMoveError",
    "InvalidGameStringError",
    "InvalidGameTypeError",
    "InvalidMoveError",
]
