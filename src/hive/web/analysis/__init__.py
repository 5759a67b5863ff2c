"""The analysis of a game: the lines explored beside its main line (the analysis board,
:class:`~hive.web.analysis.service.Analysis`) and the engine's review of every position
(:class:`~hive.web.analysis.review.Reviews`). Tables: lines, reviews.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..shared.lazy import lazy_exports

if TYPE_CHECKING:
    from .review import Reviews
    from .service import Analysis

#: Each name of the public face, and the module it comes from (imported when first asked for, so that a worker
#: process importing one module of the package does not import the rest).
_FROM = {
    "Analysis": (".service", "Analysis"),
    "Reviews": (".review", "Reviews"),
}

__getattr__ = lazy_exports(__name__, _FROM)


__all__ = ["Analysis", "Reviews"]
