"""Property tests over random games: exact undo, hashing, notation round trips."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import hive
from hive.games.hive.pieces import GAME_TYPES


def snapshot(board: hive.Board) -> tuple[object, ...]:
    return (
        tuple(board.top),
        bytes(board.height),
        bytes(board.nmask),
        tuple(board.below),
        tuple(board.pos),
        tuple(board.placed),
        board.ply,
        board.last,
        board.hash,
        board.status,
        tuple(board.history),
        tuple(sorted(board.seen.items())),
    )


games = st.builds(
    lambda game_type, tournament, repetition, seed, length: (
        hive.Board(game_type, tournament_opening=tournament, repetition_draw=repetition),
        random.Random(seed),
        length,
    ),
    st.sampled_from(GAME_TYPES),
    st.booleans(),
    st.booleans(),
    st.integers(0, 2**32),
    st.integers(0, 120),
)


def play_random(board: hive.Board, rng: random.Random, length: int) -> None:
    for _ in range(length):
        moves = list(board.legal_moves)
        if not moves:
            return
        board.push(rng.choice(moves))


@settings(max_examples=60, deadline=None)
@given(games)
def test_push_pop_restores_everything(game: tuple[hive.Board, random.Random, int]) -> None:
    """Any sequence of pushes and pops leaves board, hash and GameString exactly as they were."""
    board, rng, length = game
    play_random(board, rng, length // 2)
    before = snapshot(board)
    game_string = board.game_string()
    pushed = 0
    for _ in range(length):
        moves = list(board.legal_moves)
        if moves and (pushed == 0 or rng.random() < 0.6):
            board.push(rng.choice(moves))
            pushed += 1
        elif pushed:
            board.pop()
            pushed -= 1
        assert board.hash == board.compute_hash()
    while pushed:
        board.pop()
        pushed -= 1
    assert snapshot(board) == before
    assert board.game_string() == game_string


@settings(max_examples=60, deadline=None)
@given(games)
def test_incremental_hash_equals_scratch_hash(game: tuple[hive.Board, random.Random, int]) -> None:
    board, rng, length = game
    for _ in range(length):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        assert board.hash == board.compute_hash()


@settings(max_examples=60, deadline=None)
@given(games)
def test_game_string_round_trip(game: tuple[hive.Board, random.Random, int]) -> None:
    board, rng, length = game
    play_random(board, rng, length)
    text = board.game_string()
    again = hive.Board.from_game_string(
        text, tournament_opening=board.tournament_opening, repetition_draw=board.repetition_draw
    )
    assert again.game_string() == text
    assert again.hash == board.hash
    assert again.state == board.state
    assert list(again.move_stack) == list(board.move_stack)


@settings(max_examples=40, deadline=None)
@given(games)
def test_every_legal_move_round_trips_through_uhp(game: tuple[hive.Board, random.Random, int]) -> None:
    """For every legal move m: parse_uhp(uhp(m)) == m, and pushing it then popping it is exact."""
    board, rng, length = game
    play_random(board, rng, length)
    before = snapshot(board)
    for move in board.legal_moves:
        text = board.uhp(move)
        assert board.parse_uhp(text) == move, text
        board.push(move)
        assert board.hash == board.compute_hash()
        board.pop()
    assert snapshot(board) == before


@settings(max_examples=40, deadline=None)
@given(games)
def test_copy_is_independent(game: tuple[hive.Board, random.Random, int]) -> None:
    board, rng, length = game
    play_random(board, rng, length)
    copy = board.copy()
    assert snapshot(copy) == snapshot(board)
    moves = list(copy.legal_moves)
    if moves:
        before = snapshot(board)
        copy.push(moves[0])
        assert snapshot(board) == before


def test_same_position_by_different_orders_has_same_hash() -> None:
    first = hive.Board.from_game_string(
        "Base;InProgress;White[5];wS1;bS1 wS1-;wA1 -wS1;bA1 bS1-;wG1 \\wS1;bQ bS1/;wQ /wS1;bG1 bS1\\"
    )
    second = hive.Board.from_game_string(
        "Base;InProgress;White[5];wS1;bS1 wS1-;wQ /wS1;bA1 bS1-;wG1 \\wS1;bQ bS1/;wA1 -wS1;bG1 bS1\\"
    )
    third = hive.Board.from_game_string(
        "Base;InProgress;White[5];wS1;bS1 wS1-;wQ /wS1;bA1 bS1-;wG1 \\wS1;bG1 bS1\\;wA1 -wS1;bQ bS1/"
    )
    assert first.hash == second.hash
    # the last piece moved is part of the key
    assert first.hash != third.hash
