"""What every game's board mixes in (:class:`GameBoard`): whose turn it is, the name of its state, whether the game
is over, the notation of the moves played kept as they are pushed, and pickling as a record."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from .game import DRAW

M = TypeVar("M")


def _rebuilt(cls: Any, record: str, options: dict[str, Any]) -> Any:
    """A board unpickled: ``cls.from_record(record, **options)``."""
    return cls.from_record(record, **options)


class GameBoard(Generic[M]):
    """What every game's board mixes in: whose turn it is, the name of its state, whether the game is over, and the
    notation of the moves played, kept so that a record is written without replaying the game.

    The board has ``ply`` (its low bit is the side to move), ``status`` (the codes above) and the class attribute
    ``state_names`` (the name of each status code).

    The text of a move is kept when it is pushed with one (``push(move, text)``, as the apps do with the text
    :meth:`Game.move_text` wrote, and ``push_text``); the texts of moves pushed without one are written when a record
    asks for them, by taking back those moves and playing them again (``_repush``: the board plays a move it played
    before, unchecked, and keeps no text). The board calls :meth:`_init_texts` once, :meth:`_pushed` after each push
    with a text and :meth:`_popped` after each pop (or, as Hive's compiled pop does, after each pop that leaves fewer
    moves than texts kept: the others have nothing to drop).

    A board pickles and deep-copies as its record and its rule options (:attr:`rule_options`): unpickling replays
    the record, so a pickle never holds the core's tables (C arrays in the compiled build).
    """

    state_names: ClassVar[tuple[str, ...]]
    #: The keyword options of ``from_record`` that the board keeps as attributes of the same names.
    rule_options: ClassVar[tuple[str, ...]] = ()

    if TYPE_CHECKING:
        ply: int
        status: int

        def record(self, headers: Mapping[str, str] | None = None) -> str: ...

        @property
        def move_stack(self) -> list[M]: ...

        def move_text(self, move: M) -> str: ...

        def pop(self) -> M: ...

        def _repush(self, move: M) -> None: ...

        def push_text(self, text: str) -> M: ...

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        options = {name: getattr(self, name) for name in self.rule_options}
        return _rebuilt, (type(self), self.record(), options)

    @property
    def turn(self) -> int:
        """The side to move: 0 for the first player (``sides[0]``), 1 for the second."""
        return self.ply & 1

    @property
    def state(self) -> str:
        """The state's name: ``InProgress``, ``Draw``, ``WhiteWins``, ``NorthWins``..."""
        return self.state_names[self.status]

    def is_game_over(self) -> bool:
        """Whether the game has ended (see :meth:`Game.outcome` for how)."""
        return self.status >= DRAW

    def could_win(self, side: int) -> bool:
        """Whether ``side`` could still win by some series of legal moves of both sides (what a clock asks when
        the other side's time runs out). ``False`` only where the game proves it; by default, while the game goes
        on (in Hive every Queen Bee can always still be surrounded by the pieces of both colours)."""
        return not self.is_game_over()

    def push_stored(self, text: str) -> M:
        """A move of the game's own record played again (see :meth:`hive.game.Game.push_stored`): by default as
        :meth:`~hive.game.Game.push_text` plays it, checked; a game that can play a trusted text for less says so."""
        return self.push_text(text)

    def _init_texts(self, texts: list[tuple[M, str]] | None = None) -> None:
        self._texts: list[tuple[M, str]] = list(texts or [])

    def _pushed(self, played: int, move: M, text: str | None) -> None:
        """``move`` was pushed after ``played`` moves, written ``text`` (``None``: not given)."""
        if text is not None and played == len(self._texts):
            self._texts.append((move, text))

    def _popped(self, played: int) -> None:
        """A move was taken back, leaving ``played`` moves."""
        del self._texts[played:]

    def move_texts(self) -> list[str]:
        """The notation of every move played, oldest first, each written in the position it was played in."""
        moves = self.move_stack
        texts = self._texts
        known = 0
        while known < min(len(texts), len(moves)) and texts[known][0] == moves[known]:
            known += 1
        del texts[known:]
        undone = [self.pop() for _ in range(len(moves) - known)]
        for move in reversed(undone):
            text = self.move_text(move)
            self._repush(move)
            texts.append((move, text))
        return [text for _, text in texts]


__all__ = ["GameBoard"]
