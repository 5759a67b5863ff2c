"""The analysis of a game: the lines explored beside its main line (the analysis board,
:class:`~hive.web.analysis.service.Analysis`) and the engine's review of every position
(:class:`~hive.web.analysis.review.Reviews`). Tables: lines, reviews.
"""

from __future__ import annotations

from .review import Reviews
from .service import Analysis

__all__ = ["Analysis", "Reviews"]
