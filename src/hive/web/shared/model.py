"""The browser game's records as plain data: what the storage keeps and the game service works on.

Nothing here knows of a database or of HTTP; the domains' repositories store these, their services (the games':
:mod:`~hive.web.play`) change them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class GameRecord:
    """One stored game: ``moves`` are those in effect, ``redo`` the ones taken back (oldest first).

    :ivar names: the players' display names by seat (``None``: not given).
    :ivar help: each seat's choice of engine help in a two-browser game (``None``: not chosen yet).
    :ivar joined: the seats that have opened the game with their token, as bits (1: the first seat, 2: the second).
    :ivar rematch: the id of the game that followed this one with the colours swapped.
    :ivar clock: the game's clock (see :mod:`~hive.web.play.clock`), ``None`` when it is untimed.
    :ivar start: the position record the game started from (``None``: the start of a game); its moves follow it.
    :ivar version: how many changes the game has had since it was stored: every change is stored only over the version
        it was made from, so that two changes made from the same version cannot both be stored.
    :ivar ai_error: why the AI could not make its move, until the game changes again.
    :ivar accounts: the accounts playing each seat (``hive serve``: a game from a seek), ``None`` for a guest.
    :ivar rated: whether the game's end moves its players' ratings (a game between two accounts from a rated seek).
    """

    id: str
    kind: str
    options: dict[str, Any]
    mode: str
    ai_level: str | None
    ai_seat: int | None
    tokens: tuple[str | None, str | None]
    moves: list[str] = field(default_factory=list)
    redo: list[str] = field(default_factory=list)
    result: str | None = None
    reason: str | None = None
    offer: dict[str, Any] | None = None
    created: float = 0.0
    updated: float = 0.0
    names: tuple[str | None, str | None] = (None, None)
    help: tuple[bool | None, bool | None] = (None, None)
    joined: int = 0
    rematch: str | None = None
    clock: dict[str, Any] | None = None
    start: str | None = None
    version: int = 0
    ai_error: str | None = None
    accounts: tuple[str | None, str | None] = (None, None)
    rated: bool = False


@dataclass(frozen=True)
class Summary:
    """A stored game as the game list shows it: its record without its moves, and how many moves are in effect; or,
    for a row that cannot be read, the game's id and why (``damaged``)."""

    record: GameRecord
    length: int
    damaged: str | None = None


@dataclass(frozen=True)
class Line:
    """One line explored on a game's analysis board: its number in the game, the line it branches from (``None``: the
    main line), and its moves from the start of the game."""

    id: int
    parent: int | None
    moves: tuple[str, ...]


#: A review still being worked out, or interrupted while it was.
RUNNING = "running"
#: A review with every position analysed.
DONE = "done"
#: A review that stopped on an error.
FAILED = "failed"


@dataclass
class StoredReview:
    """One game's engine review.

    :ivar level: the AI level that analysed the positions.
    :ivar moves: the move texts the review covers (the game's moves when it was asked for).
    :ivar positions: each analysed position's evaluation, from the start on (at most ``len(moves) + 1``).
    :ivar status: :data:`RUNNING`, :data:`DONE` or :data:`FAILED`.
    :ivar error: why it failed.
    """

    level: str
    moves: list[str]
    positions: list[dict[str, Any]] = field(default_factory=list)
    status: str = RUNNING
    error: str | None = None


@dataclass(frozen=True)
class AIJob:
    """A game whose AI is due to move, as the shared queue holds it: the position is the game after ``ply`` moves;
    ``client`` is who made the move it answers (the queue shares the AI's time between clients); ``tries`` counts the
    workers that took it."""

    game_id: str
    ply: int
    client: str
    tries: int


__all__ = ["DONE", "FAILED", "RUNNING", "AIJob", "GameRecord", "Line", "StoredReview", "Summary"]
