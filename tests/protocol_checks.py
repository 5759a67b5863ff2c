"""What every game's board promises through the game protocol, checked on random games (any registered game, and
the tests' own third game): :func:`random_games_keep_the_protocol` on a few seeded games, and
:func:`every_playout_keeps_the_protocol`, one Hypothesis property over any random legal playout."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hive.game import Game, Outcome
from hive.plugin import GameSpec

#: How many of a position's legal moves a playout writes and reads back (all of them, where there are fewer).
ROUND_TRIPS = 12
#: The share of a playout's positions whose legal moves are all listed (and at its end): a HiveQueen turn's list is
#: some 60 ms in the plain-Python build; the move played is the game's own random mover's, checked every ply.
LISTED = 0.2


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
        stored = spec()
        for text in texts:
            stored.push_stored(text)
        assert stored.record() == record and stored.move_stack == moves and stored.outcome() == outcome


def playout_keeps_the_protocol(spec: GameSpec, seed: int, length: int) -> None:
    """One random legal playout of ``spec`` of up to ``length`` plies, pushed and popped in a random order:

    - every move played, and legal moves listed in a share of the positions and the last, round-trip through the
      game's notation;
    - the game ends consistently: it is over exactly when it has an outcome, and then has no legal move (where
      listed) and is adjudicated as it ended;
    - push and pop are inverse: each pop gives back the move pushed and the record, turn and outcome before it;
    - a copy is independent of its board, and the record replays to the same game;
    - a board that follows the game with :meth:`~hive.game.Game.push_stored` (each move's text as the game kept
      it) and pop is the same game as it goes: the same record, moves, position and outcome.
    """
    rng = random.Random(seed)
    board = spec()
    stored = spec()
    seen: list[tuple[str, int, Outcome | None]] = []
    copy, copied = board.copy(), board.record()
    for ply in range(length + 1):
        outcome = board.outcome()
        assert board.is_game_over() == (outcome is not None)
        if outcome is not None:
            assert board.adjudicate() == outcome
        if ply == length or rng.random() < LISTED:
            moves = list(board.legal_moves)
            assert (moves == []) == (outcome is not None)
            for move in rng.sample(moves, min(len(moves), ROUND_TRIPS)):
                assert board.parse_move(board.move_text(move)) == move
        if ply == length:
            break
        if outcome is None and (not seen or rng.random() < 0.7):
            seen.append((board.record(), board.turn, outcome))
            move = spec.ai.random_move(board, rng)
            text = board.move_text(move)
            assert board.parse_move(text) == move
            board.push(move)
            assert board.move_stack[-1] == move
            assert stored.push_stored(text) == move
        elif seen:
            popped = board.move_stack[-1]
            assert board.pop() == popped == stored.pop()
            assert (board.record(), board.turn, board.outcome()) == seen.pop()
        if rng.random() < 0.1:
            copy, copied = board.copy(), board.record()
    assert copy.record() == copied
    assert (stored.record(), stored.move_stack, stored.position_text(), stored.outcome()) == (
        board.record(),
        board.move_stack,
        board.position_text(),
        board.outcome(),
    )
    again = type(board).from_record(board.record())
    assert (again.record(), again.move_stack, again.outcome()) == (board.record(), board.move_stack, board.outcome())
    while seen:
        board.pop()
        assert (board.record(), board.turn, board.outcome()) == seen.pop()
    assert board.record() == spec().record() and board.move_stack == []


def every_playout_keeps_the_protocol(spec: GameSpec, examples: int = 15) -> None:
    """:func:`playout_keeps_the_protocol` as a Hypothesis property over ``examples`` playouts of ``spec`` (their
    seeds and lengths drawn, and shrunk to the shortest that fails)."""

    @settings(max_examples=examples, deadline=None)
    @given(seed=st.integers(0, 2**32), length=st.integers(0, 80))
    def holds(seed: int, length: int) -> None:
        playout_keeps_the_protocol(spec, seed, length)

    holds()
