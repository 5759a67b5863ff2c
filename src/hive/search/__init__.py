"""The search framework every game's AI is built on: limits, results, and the iterative-deepening base class.

A game brings its own negamax beside its compiled core (:mod:`hive.games.hive.search`,
:mod:`hive.games.hivequeen.search`); the framework holds what all searches share (:mod:`hive.search.framework`).
"""

from .framework import CONTEMPT, MAX_DEPTH, WIN, SearchBase, SearchTimeout
from .limits import LEVEL_NAMES, Limits, SearchResult
from .table import TableTooLarge, TranspositionTable

__all__ = [
    "CONTEMPT",
    "LEVEL_NAMES",
    "MAX_DEPTH",
    "WIN",
    "Limits",
    "SearchBase",
    "SearchResult",
    "SearchTimeout",
    "TableTooLarge",
    "TranspositionTable",
]
