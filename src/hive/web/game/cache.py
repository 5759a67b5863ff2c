"""The games kept in memory: the ones used last, up to a number, the others reloaded from the database on demand.

A game in use (watched by a socket, or the AI thinking about it) is never dropped: dropping it would leave two
copies of it in memory once it is loaded again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class LiveGames(Generic[T]):
    """Games by id, the least recently used dropped past ``capacity`` unless ``in_use`` says otherwise.

    :param capacity: games kept (more only while every one of them is in use).
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        #: Whether a game must stay in memory (set by the server: watched, or the AI thinking about it).
        self.in_use: Callable[[str], bool] = lambda game_id: False
        self._games: OrderedDict[str, T] = OrderedDict()

    def __len__(self) -> int:
        return len(self._games)

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def get(self, game_id: str) -> T | None:
        """The game, now the most recently used, or ``None`` when it is not in memory."""
        game = self._games.get(game_id)
        if game is not None:
            self._games.move_to_end(game_id)
        return game

    def __setitem__(self, game_id: str, game: T) -> None:
        self._games[game_id] = game
        self._games.move_to_end(game_id)
        if len(self._games) > self.capacity:
            self._shrink()

    def pop(self, game_id: str, default: T | None = None) -> T | None:
        """Drop the game from memory (it was deleted)."""
        return self._games.pop(game_id, default)

    def _shrink(self) -> None:
        for game_id in list(self._games):
            if len(self._games) <= self.capacity:
                return
            if not self.in_use(game_id):
                del self._games[game_id]


__all__ = ["LiveGames"]
