"""What a seek asks for, read from a request as opening a seek and a quick-pairing click both read it."""

from __future__ import annotations

from ...sdk.view import JSON
from ..shared.errors import BadRequest, shown
from ..shared.values import check_number
from ..views import game_options

#: The ratings a seek's ``rating_range`` may name.
RATINGS = (0, 5000)


def rating_range(value: object) -> tuple[float | None, float | None]:
    """A request's ``rating_range`` (``[low, high]``, either ``null``; ``null``: any) read, or :class:`BadRequest`."""
    if value is None:
        return None, None
    if not isinstance(value, list) or len(value) != 2:
        raise BadRequest(f"'rating_range' is [lowest, highest] (either may be null), not {shown(value)}.")
    for bound in value:
        if bound is not None:
            check_number(bound, "Each end of 'rating_range' (or null)", *RATINGS)
    low, high = value
    if low is not None and high is not None and low > high:
        raise BadRequest(f"'rating_range' goes from the lowest to the highest, not {shown(value)}.")
    return low, high


def asked_game(data: JSON) -> tuple[object, object, bool]:
    """The game a seek asks for, ``game`` (a name) or ``kind`` and ``options``, and whether it is ``rated`` (default
    true); the kind and options are checked when the game is made."""
    if "game" in data:
        view, options = game_options(data["game"])
        kind: object = view.kind
    else:
        kind, options = data.get("kind"), data.get("options", {})
    rated = data.get("rated", True)
    if not isinstance(rated, bool):
        raise BadRequest(f"'rated' is true or false, not {shown(rated)}.")
    return kind, options, rated


__all__ = ["RATINGS", "asked_game", "rating_range"]
