"""How a game's view refuses a request: :class:`BadRequest`, on the root of every refusal of the browser game
(:class:`GameError`), and how a request's values are quoted in the messages (:func:`shown`).

The web app's own refusals (:mod:`hive.web.shared.errors`) build on the same root, and its HTTP layer turns each into
its
status code: a view's :class:`BadRequest` is a 400 with its message.
"""

from __future__ import annotations

import json


class GameError(Exception):
    """A request the game cannot serve; the message says why, in words for the player."""


class BadRequest(GameError, ValueError):
    """Malformed, or against the rules of the game."""


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


__all__ = ["BadRequest", "GameError", "shown"]
