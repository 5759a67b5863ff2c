"""A searcher for the UHP engine's tests that keeps the limits of every search it is given."""

from __future__ import annotations

import hive
from hive.games.hive import Searcher
from hive.search import Limits, SearchResult


class Recording(Searcher):
    """A searcher that keeps the limits of every search and searches one ply."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Limits] = []

    def search(self, board: hive.Board, limits: Limits) -> SearchResult[hive.Move]:  # type: ignore[override]
        self.seen.append(limits)
        return super().search(board, Limits(depth=1))
