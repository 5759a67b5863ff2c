"""Property tests over random HiveQueen games: exact undo, incremental hashing, notation round trips."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hive.game import IN_PROGRESS
from hive.games.hivequeen import Board, Turn
from hive.games.hivequeen.state import END


def snapshot(board: Board) -> tuple[object, ...]:
    return (
        bytes(board.board),
        tuple(board.count),
        tuple(board.units),
        tuple(board.pieces),
        board.ply,
        board.phase,
        board.status,
        board.quiet,
        board.hash,
        tuple(board.history),
        tuple(sorted(board.seen.items())),
        tuple(board.turns()),
    )


def random_turn(board: Board, rng: random.Random) -> Turn:
    """A random movement, then random productions until the turn ends (checks every step's hash)."""
    steps = [rng.choice(board.movements())]
    ply = board.ply
    board.make(steps[0])
    made = 1
    while board.ply == ply and board.status == IN_PROGRESS:
        assert board.hash == board.compute_hash()
        step = rng.choice(board.generate())
        board.make(step)
        made += 1
        if step != END:
            steps.append(step)
    for _ in range(made):
        board.unmake()
    return Turn.from_steps(steps)


def play_random(board: Board, rng: random.Random, turns: int) -> None:
    for _ in range(turns):
        if board.is_game_over():
            return
        board.push(random_turn(board, rng))


games = st.tuples(st.integers(0, 2**32), st.integers(0, 150))


@settings(max_examples=40, deadline=None)
@given(games)
def test_push_pop_restores_everything(game: tuple[int, int]) -> None:
    """Any sequence of pushes and pops leaves the position, hash, history and records exactly as they were."""
    seed, length = game
    rng = random.Random(seed)
    board = Board()
    play_random(board, rng, length // 2)
    before = snapshot(board)
    pushed = 0
    for _ in range(length):
        if not board.is_game_over() and (pushed == 0 or rng.random() < 0.6):
            board.push(random_turn(board, rng))
            pushed += 1
        elif pushed:
            board.pop()
            pushed -= 1
        assert board.hash == board.compute_hash()
    while pushed:
        board.pop()
        pushed -= 1
    assert snapshot(board) == before


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_a_copy_undoes_its_own_history(seed: int) -> None:
    """A copied board pops back through the whole history it was copied with (past the first 64 steps, where the
    undo stack grows), and popping it leaves the original untouched."""
    rng = random.Random(seed)
    for _ in range(100):  # some random games end early; take the first one that runs long enough
        board = Board()
        play_random(board, rng, 80)
        if len(board.history) > 64:
            break
    assert len(board.history) > 64
    before = snapshot(board)
    copy = board.copy()
    assert snapshot(copy) == before
    while copy.turns():
        copy.pop()
        assert copy.hash == copy.compute_hash()
    assert snapshot(copy) == snapshot(Board())
    assert snapshot(board) == before


@settings(max_examples=40, deadline=None)
@given(games)
def test_notation_round_trips_and_replays(game: tuple[int, int]) -> None:
    """Every turn's notation parses back to the same turn, and replaying the strings gives the same game."""
    seed, length = game
    rng = random.Random(seed)
    board = Board()
    texts = []
    for _ in range(length):
        if board.is_game_over():
            break
        turn = random_turn(board, rng)
        text = board.move_text(turn)
        assert board.parse_move(text) == turn
        texts.append(text)
        board.push(turn)
    replay = Board()
    for text in texts:
        replay.push_text(text)
    assert snapshot(replay) == snapshot(board)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_whole_turn_list_matches_the_step_tree(seed: int) -> None:
    """legal_turns lists each legal turn once; each one is legal, and a random turn is among them."""
    rng = random.Random(seed)
    board = Board()
    play_random(board, rng, rng.randrange(40))
    if board.is_game_over():
        return
    turns = list(board.legal_turns())
    assert len(set(turns)) == len(turns)
    for turn in rng.sample(turns, min(20, len(turns))):
        assert board.is_legal(turn)
    sets = {(t.movement, frozenset(t.productions)) for t in turns}
    probe = random_turn(board, rng)
    assert (probe.movement, frozenset(probe.productions)) in sets


def every_turn(board: Board) -> set[tuple[int, ...]]:
    """Every whole turn, as its movement step and sorted production steps, by walking the whole step tree (every
    order of the productions)."""
    found: set[tuple[int, ...]] = set()

    def walk(steps: list[int]) -> None:
        ply = board.ply
        board.make(steps[-1])
        found.add((steps[0], *sorted(steps[1:])))
        if board.ply == ply:
            for step in board.productions():
                if step != END:
                    walk([*steps, step])
        board.unmake()

    for move in board.movements():
        walk([move])
    return found


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_whole_turn_list_has_every_set_of_productions_of_the_step_tree(seed: int) -> None:
    rng = random.Random(seed)
    board = Board()
    play_random(board, rng, rng.randrange(30))
    if board.is_game_over():
        return
    listed = [(t.movement_step, *sorted(p.step for p in t.productions)) for t in board.legal_moves]
    assert len(listed) == len(set(listed)) == len(board.legal_moves)
    assert set(listed) == every_turn(board)


def test_the_whole_turn_list_is_a_snapshot_kept_for_its_position() -> None:
    board = Board()
    play_random(board, random.Random(5), 6)
    before = board.position_text()
    turns = list(board.legal_moves)
    seen = []
    for turn in board.legal_moves:  # a loop may push and pop
        board.push(turn)
        seen.append(board.move_stack[-1])
        board.pop()
    assert seen == turns and board.position_text() == before
    assert board._turn_list() is board._turn_list(), "listed once a position"
    board.push(turns[0])
    after = board._turn_list()  # the new position's, not the list kept for the one before
    assert {(t.movement_step, *sorted(p.step for p in t.productions)) for t in after} == every_turn(board)
    board.pop()
    assert list(board.legal_moves) == turns


def test_a_turn_from_steps_ends_at_the_first_step_that_is_no_production() -> None:
    board = Board()
    turn = board.push_text("Wc3-c4;+Sd4")
    steps = turn.steps()
    assert Turn.from_steps([*steps, END]) == turn
    nxt = board.parse_move(board.move_text(next(iter(board.legal_moves))))
    assert Turn.from_steps([*steps, END, *nxt.steps()]) == turn
    assert Turn.from_steps([steps[0], nxt.movement_step]) == turn.movement
    # steps made on the core, not pushed: the turns pushed before them are read as they were played
    board.make(nxt.movement_step)
    assert board.turns() == [turn]


@pytest.mark.slow
def test_random_self_play_thousand_games() -> None:
    """1,000 random games end legally, with push/pop and incremental hashing exact throughout."""
    rng = random.Random(20240603)
    results: dict[str, int] = {}
    for number in range(1000):
        board = Board()
        start = snapshot(board)
        while not board.is_game_over():
            board.push(random_turn(board, rng))
            assert board.hash == board.compute_hash()
        assert board.end_reason()
        assert not board.legal_movements
        results[board.state] = results.get(board.state, 0) + 1
        final = snapshot(board)
        turns = board.turns()
        while board.turns():
            board.pop()
        assert snapshot(board) == start
        if number % 10 == 0:  # replaying every game would double the run time for little more
            for turn in turns:
                board.push(turn)
            assert snapshot(board) == final
    assert sum(results.values()) == 1000
