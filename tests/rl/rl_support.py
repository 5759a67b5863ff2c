"""What the RL tests share: the real record they replay, random positions of any game, and the check that an
encoding's actions round-trip a position's legal moves."""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np

import hive
import hive.rl

from ..shared import TESTDATA

# Black wins this Boardspace game with its 88th ply (a pass before it)
RECORD = TESTDATA / "records" / "HV-Dumbot-Kaur50-2023-01-17-0059.pgn"


def record_moves() -> list[str]:
    """The record's moves, one MoveString a ply."""
    return re.findall(r"^\d+\.\s+(.+?)\s*$", RECORD.read_text(encoding="utf-8"), re.M)


def random_positions(game: str, count: int, seed: int) -> list[Any]:
    """Boards reached by the game's random mover, ``count`` of them at spread-out plies."""
    spec = hive.find_game(game)
    rng = random.Random(seed)
    boards: list[Any] = []
    while len(boards) < count:
        board = spec()
        for _ in range(rng.randrange(1, 60)):
            if board.is_game_over():
                break
            board.push(spec.ai.random_move(board, rng))
        if not board.is_game_over():
            boards.append(board)
    return boards


def texts(board: Any) -> list[str]:
    """The notation of the moves played on a board of any game."""
    played: list[str] = board.move_texts()
    return played


def check_round_trip(encoding: hive.rl.Encoding, legal: list[Any]) -> None:
    """Each legal move is one distinct action, marked in the mask, and decodes back to itself; nothing else is."""
    actions = [encoding.encode(move) for move in legal]
    assert all(len(action) == 1 for action in actions)
    assert len({action[0] for action in actions}) == len(legal)
    assert set(np.flatnonzero(encoding.mask()).tolist()) == {action[0] for action in actions}
    assert all(encoding.decode(action[0]) == move for action, move in zip(actions, legal, strict=True))
