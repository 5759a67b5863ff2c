"""Errors raised by the rules core. All are ``ValueError`` subclasses."""

from __future__ import annotations

from .pieces import InvalidGameTypeError


class InvalidMoveError(ValueError):
    """A MoveString is malformed: it does not describe a move at all."""


class IllegalMoveError(ValueError):
    """A move is well-formed but against the rules; the message names the rule."""


class InvalidGameStringError(ValueError):
    """A GameString's header (game type, state or turn) is malformed."""


__all__ = ["IllegalMoveError", "InvalidGameStringError", "InvalidGameTypeError", "InvalidMoveError"]
