"""Whole HiveQueen turns on a board: listing every legal one, and playing one step by step with its checks.

A turn is a movement and the productions that follow it; the board plays its steps one at a time
(:meth:`~hive.games.hivequeen.position.Position.make`). These helpers are the board's, kept apart from its
public verbs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...game import IN_PROGRESS, IllegalMoveError
from .move import Turn, production_of
from .reasons import movement_reason, no_production_reason, production_reason
from .state import END

if TYPE_CHECKING:
    from .board import Board


def list_turns(board: Board) -> list[Turn]:
    """Every legal whole turn of ``board``, each set of productions once, movement by movement, each movement before
    the turns that add productions to it (the board is left as it was)."""
    turns: list[Turn] = []
    if board.status == IN_PROGRESS:
        for move in board.movements():
            _complete(board, move, Turn.from_steps([move]), frozenset(), set(), turns)
    return turns


def _complete(
    board: Board, step: int, turn: Turn, produced: frozenset[int], done: set[frozenset[int]], out: list[Turn]
) -> None:
    """Add ``turn`` (``step`` its last step, not made yet; ``produced`` its production steps) to ``out``, then every
    turn that adds productions to it whose set of productions is not in ``done``."""
    ply = board.ply
    board.make(step)
    try:
        done.add(produced)
        out.append(turn)
        if board.ply != ply:
            return
        for following in board.productions():
            if following != END:
                key = produced | {following}
                # the same productions in another order lead to the same position: its turns are listed
                if key not in done:
                    _complete(board, following, turn.with_production(production_of(following)), key, done, out)
    finally:
        board.unmake()


def play_partial(board: Board, turn: Turn) -> int:
    """Make the steps of ``turn`` on ``board``, each checked, and return how many were made.

    :raises ~hive.game.IllegalMoveError: naming the rule the first bad step breaks, with nothing made.
    """
    if board.status != IN_PROGRESS:
        raise IllegalMoveError(f"The game is over ({board.state}): no turn can be played.")
    steps = turn.steps()
    ply = board.ply
    made = 0
    try:
        for i, step in enumerate(steps):
            if i and (board.ply != ply or board.status != IN_PROGRESS):
                raise IllegalMoveError(
                    f"{turn.productions[i - 1]} cannot be produced: {no_production_reason(board, turn, i - 1)}"
                )
            legal = board.movements() if i == 0 else board.productions()
            if step not in legal:
                raise IllegalMoveError(
                    movement_reason(board, turn) if i == 0 else production_reason(board, turn.productions[i - 1])
                )
            board.make(step)
            made += 1
    except IllegalMoveError:
        for _ in range(made):
            board.unmake()
        raise
    return made
