"""Players that choose moves: the alpha-beta AI at named levels, and a seeded random mover."""

from .evaluation import evaluate
from .random_player import RandomPlayer
from .search import LEVELS, Limits, Searcher, SearchResult

__all__ = ["LEVELS", "Limits", "RandomPlayer", "SearchResult", "Searcher", "evaluate"]
