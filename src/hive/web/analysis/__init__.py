"""The analysis of a game: the lines explored beside its main line (the analysis board,
:class:`~hive.web.analysis.service.Analysis`) and the engine's review of every position
(:class:`~hive.web.analysis.review.Reviews`). Tables: lines, reviews.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .review import Reviews
    from .service import Analysis

#: Each name of the public face, and the module it comes from (imported when first asked for, so that a worker
#: process importing one module of the package does not import the rest).
_FROM = {
    "Analysis": (".service", "Analysis"),
    "Reviews": (".review", "Reviews"),
}


def __getattr__(name: str) -> Any:
    """A name of the public face, from its module."""
    if name not in _FROM:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _FROM[name]
    return getattr(importlib.import_module(module, __name__), attribute)


__all__ = ["Analysis", "Reviews"]
