"""What every game's board promises through the game protocol, checked on random games (any registered game)."""

from __future__ import annotations

import random

import pytest

from hive.game import Game, Outcome
from hive.plugin import GameSpec


def play(board: Game[object], rng: random.Random, length: int) -> list[str]:
    """Up to ``length`` random moves, each checked against the protocol's promises; returns their texts."""
    texts = []
    for _ in range(length):
        moves = list(board.legal_moves)
        if board.is_game_over():
            assert not moves and board.outcome() is not None
            break
        assert board.outcome() is None and len(board.legal_moves) == len(moves) == len(set(moves))
        move = rng.choice(moves)
        assert move in board.legal_moves
        text = board.move_text(move)
        assert board.parse_move(text) == move
        turn = board.turn
        board.push(move)
        assert board.move_stack[-1] == move
        if not board.is_game_over():
            # a move passes the turn (Hive's pass included)
            assert board.turn == 1 - turn
        texts.append(text)
    return texts


def random_games_keep_the_protocol(spec: GameSpec) -> None:
    """Random games of ``spec``, played, taken back, replayed from their texts and from their records."""
    rng = random.Random(spec.name)
    for _ in range(3):
        board = spec()
        texts = play(board, rng, rng.randrange(20, 80))
        moves = board.move_stack
        record = board.record()
        outcome = board.outcome()
        assert board.is_game_over() == (outcome is not None)
        assert board.adjudicate() == outcome if outcome is not None else isinstance(board.adjudicate(), Outcome)
        again = type(board).from_record(record)
        assert again.move_stack == moves and again.record() == record and again.outcome() == outcome
        copy = board.copy()
        for move in reversed(moves):
            assert board.pop() == move
        assert board.record() == spec().record() and board.move_stack == []
        with pytest.raises(IndexError):
            board.pop()
        for text in texts:
            board.push_text(text)
        assert board.record() == record and copy.record() == record
