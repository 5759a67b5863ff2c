"""A game in memory (:class:`Session`), and the games kept there: the ones used last, up to a number, the others
loaded from the database on demand.

A copy in memory holds only what the database has confirmed: its record is the one stored at its version, and its
board that record's position. Before it is used, the service compares its version with the database's and brings it
up to date (see :meth:`~hive.web.play.cache.GameCache.session`). A game in use (watched by a socket, or the AI
thinking about it) is kept rather than dropped, so that it is not loaded again at once.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ...sdk.view import JSON, Board, View
from ..shared.model import GameRecord
from ..views import in_sides
from .events import GameEvent

T = TypeVar("T")


@dataclass(eq=False)
class Session:
    """A game in memory: its stored record, its view and live board, and the last change this process heard of."""

    record: GameRecord
    view: View
    board: Board
    last: GameEvent | None = None
    #: The board's view for the page at a version (the legal moves: worked out once per version).
    shown_view: tuple[int, JSON] | None = field(default=None, repr=False)
    #: Whether the game is a tournament's (``None``: not looked up yet; looked up while it may be aborted).
    paired: bool | None = None

    @property
    def over(self) -> bool:
        """Whether the game has a result (by the rules, a resignation, an agreement or a flag)."""
        return self.record.result is not None

    @property
    def ai_due(self) -> bool:
        """Whether the AI is to move (it has not failed on this position)."""
        record = self.record
        return record.mode == "ai" and not self.over and self.board.turn == record.ai_seat and record.ai_error is None

    @property
    def sides(self) -> list[str]:
        """The names the page gives the two sides (``Warm``/``Cool`` with that set), first player first."""
        return self.view.sides(self.record.options)

    def shown(self, text: str) -> str:
        """A text of the notation's sides (``Black's Queen Bee is surrounded``) in the page's names for them."""
        return in_sides(text, self.board.sides, self.sides)


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


__all__ = ["LiveGames", "Session"]
