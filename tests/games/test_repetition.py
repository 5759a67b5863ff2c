"""The repetition draw counts positions by what is on the table: the kinds and colours of the pieces on their cells
and stacks, the side to move, and the piece moved last only where the Pillbug's rule makes it change the legal
moves. Piece numbers are notation: two Soldier Ants that swapped cells leave the same position."""

from __future__ import annotations

import random
from functools import partial

import pytest

from hive.games.hive import Board, Move, Searcher
from hive.games.hive.state import HAND, PASS

#: A Base+MLP game (tournament opening) after whose last move nokamute declares a threefold repetition: the
#: positions after plies 65, 69 and 73 hold every piece on the same cell, the same side to move and the same legal
#: moves, and differ only in the piece moved last (wG2, then wS2 twice), which no Pillbug can reach.
GAME = (
    "wS1;bG1 \\wS1;wQ wS1-;bP \\bG1;wA1 wQ/;bS1 bG1/;wA2 wQ\\;bQ \\bS1;wA1 \\wA1;bA1 /bP;wA2 bQ/;bA1 wQ-;wA3 /wS1;"
    "bG2 /bP;wA3 -wA2;bB1 bA1\\;wB1 wA2/;bG2 wB1/;wG1 wS1\\;bB1 wQ\\;wM wB1\\;bL bA1/;wQ bS1\\;bL wQ\\;wA1 bB1\\;"
    "bA1 \\bA1;wS1 -bP;bS1 wM-;wP \\wS1;bA2 bA1/;wB2 -wB1;bA2 -wA3;wS1 -bA2;bA1 \\wB2;wS1 -bA1;bA3 /bG1;"
    "wA1 bG2\\;bA3 wP\\;bA2 /wP;bG3 bA3\\;wP -wP;bG3 /wA3;wA3 -wA3;bM bA2\\;wA1 bM\\;bB1 wG1;wA1 /bM;bS2 bB1\\;"
    "wA1 bM\\;bS2 bL/;wA3 wA2\\;bB2 bS2/;wA1 bB2-;bG3 bQ\\;wS1 -bQ;bM wA1/;wS2 wP/;bG3 /wP;wS2 -bG3;wS1 bQ\\;"
    "wP \\bA3;bB1 bG1\\;wP -bQ;bL wA3\\;wG2 wG1-;wP bA3\\;wS2 \\bA3;wP -bQ;wS2 -bG3;wP bA3\\;wS2 \\bA3;wP -bQ;"
    "wS2 -bG3"
)
NOKAMUTE_DRAW = GAME.split(";")


def played(moves: list[str], game_type: str = "Base+MLP", repetition_draw: bool = True) -> Board:
    board = Board(game_type, repetition_draw=repetition_draw)
    for move in moves:
        board.push_text(move)
    return board


def test_the_game_nokamute_calls_drawn_is_a_threefold_repetition() -> None:
    keys = []
    board = Board("Base+MLP", repetition_draw=True)
    for move in NOKAMUTE_DRAW:
        assert board.outcome() is None, f"over before {move}"
        board.push_text(move)
        keys.append(board.key)
    assert len(NOKAMUTE_DRAW) == 73
    assert keys[64] == keys[68] == keys[72]
    assert board.hash != played(NOKAMUTE_DRAW[:65], repetition_draw=False).hash  # the table's key tells them apart
    outcome = board.outcome()
    assert outcome is not None and outcome.result == "Draw", outcome
    assert board.state == "Draw"
    # without the rule, the game goes on
    assert played(NOKAMUTE_DRAW, repetition_draw=False).outcome() is None


def test_two_ants_that_swapped_cells_leave_the_same_position() -> None:
    opening = ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]
    one = played([*opening, "wA1 /wQ", "bA1 bQ/", "wA2 \\wQ"], "Base")
    other = played([*opening, "wA1 \\wQ", "bA1 bQ/", "wA2 /wQ"], "Base")
    assert one.key == other.key and one.compute_key() == one.key
    assert one.hash != other.hash  # the search's key tells the Ants apart: its moves name them


def at(text: str) -> Board:
    return Board.from_position(text, repetition_draw=True)


def test_a_cycle_differing_only_by_the_piece_moved_last_counts_where_a_pillbug_could_throw_it() -> None:
    def moves(board: Board) -> list[str]:
        return sorted(board.move_text(move) for move in board.legal_moves)

    # Black's Pillbug beside the White Ant moved last may not throw it; beside a Grasshopper moved last, it may
    stacks = "bQ@0,0 bP@1,0 wQ@2,0 wA1@1,1 wG1@3,0"
    beside = at(f"Position;Base+P;Black[3];{stacks};last=wA1")
    away = at(f"Position;Base+P;Black[3];{stacks};last=wG1")
    assert moves(beside) != moves(away) and beside.key != away.key
    # where no Pillbug (nor a Mosquito beside one) can reach the piece moved last, it plays no part
    plain = stacks.replace("bP", "bS1")
    one = at(f"Position;Base+P;Black[3];{plain};last=wA1")
    two = at(f"Position;Base+P;Black[3];{plain};last=wG1")
    assert moves(one) == moves(two) and one.key == two.key
    # a piece a Pillbug threw may not move on its owner's next turn: its cell counts
    four = f"{stacks} bS1@-1,0"
    thrown = at(f"Position;Base+P;White[4];{four};last=wA1")
    other = at(f"Position;Base+P;White[4];{four};last=bS1")
    assert moves(thrown) != moves(other) and thrown.key != other.key
    # without the repetition draw the key leaves the piece moved last out (nothing counts repetitions exactly)
    assert (
        Board.from_position(f"Position;Base+P;White[4];{four};last=wA1").key
        == Board.from_position(f"Position;Base+P;White[4];{four};last=bS1").key
    )


def test_the_key_kept_move_by_move_is_the_key_from_scratch_and_comes_back_on_pop() -> None:
    rng = random.Random(7)
    for game in range(6):
        board = Board("Base+MLP", repetition_draw=True)
        keys = [board.key]
        for _ in range(120):
            if board.outcome() is not None:
                break
            board.push(rng.choice(list(board.legal_moves)))
            assert board.key == board.compute_key(), (game, board.game_string())
            keys.append(board.key)
        while board.move_stack:
            board.pop()
            keys.pop()
            assert board.key == keys[-1]


def test_the_search_sees_the_repetition_the_rule_counts() -> None:
    """After ply 69 the position stands on the table for the second time (ply 65 had another piece moved last): the
    search scores a return to it as the draw it leads to."""
    board = played(NOKAMUTE_DRAW[:69])
    assert board.seen[board.key] == 2
    assert Searcher().repeated(board, 3)
    assert not Searcher().repeated(played(NOKAMUTE_DRAW[:68]), 3)


@pytest.mark.parametrize("bug", ["S", "A"])
def test_numbers_never_reach_the_key(bug: str) -> None:
    """Renumbering the pieces of one kind (a position written with its copies swapped) keeps the key."""
    text = f"Position;Base;White[6];wQ@0,0 w{bug}1@1,0 bQ@2,0 w{bug}2@0,1 bS1@3,0"
    swapped = text.replace(f"w{bug}1", "X").replace(f"w{bug}2", f"w{bug}1").replace("X", f"w{bug}2")
    assert Board.from_position(text).key == Board.from_position(swapped).key


def test_the_uhp_engine_answers_draw_where_nokamute_does() -> None:
    """Played move by move through UHP (RepetitionDraw on by default), the game ends in a draw after its last
    move."""
    from hive.uhp import UHPEngine

    engine = UHPEngine()
    assert engine.handle("newgame Base+MLP")[-1] == "ok"
    for move in NOKAMUTE_DRAW[:-1]:
        reply = engine.handle(f"play {move}")
        assert reply[-1] == "ok" and ";InProgress;" in reply[0], (move, reply)
    reply = engine.handle(f"play {NOKAMUTE_DRAW[-1]}")
    assert reply[0].startswith("Base+MLP;Draw;"), reply


def test_the_repetitions_counted_back_to_the_last_placement_are_the_whole_line_s() -> None:
    """make() counts a position's occurrences since the last placement (nothing before one can return); the game's
    whole line, counted in :attr:`seen`, agrees at every ply, on the way out and back, and from a set-up position."""
    rng = random.Random(3)
    starts = [lambda: Board("Base+MLP", repetition_draw=True), lambda: at(_SET_UP)]
    most = 0
    for game in range(8):
        board = starts[game % 2]()
        counts = [board.repetitions]
        assert board.seen == {board.key: 1}
        for _ in range(150):
            if board.outcome() is not None:
                break
            moves = list(board.legal_moves)
            back = _returning(board, moves) if rng.random() < 0.5 else []
            moving = [move for move in moves if move.origin is not None] or moves
            board.push(rng.choice(back or (moving if rng.random() < 0.9 else moves)))
            assert board.repetitions == board.seen[board.key], (game, board.game_string())
            counts.append(board.repetitions)
        most = max(most, *counts)
        while board.move_stack:
            board.pop()
            counts.pop()
            assert board.repetitions == counts[-1] == board.seen[board.key]
    assert most == 3  # the walks came back, up to a draw


def _returning(board: Board, moves: list[Move]) -> list[Move]:
    """The moves back to a position the game has had."""
    seen = board.seen
    back = []
    for move in moves:
        board.push(move)
        if board.key in seen:
            back.append(move)
        board.pop()
    return back


def test_the_third_occurrence_ends_the_game_and_the_search_scores_the_second_as_a_draw() -> None:
    board = played(NOKAMUTE_DRAW[:-1])
    assert board.repetitions == 2 and board.outcome() is None
    board.push_text(NOKAMUTE_DRAW[-1])
    assert board.repetitions == 3 and board.state == "Draw"
    board.pop()
    assert board.repetitions == 2 and board.state == "InProgress"
    # without the rule nothing is counted
    assert played(NOKAMUTE_DRAW, repetition_draw=False).repetitions == 1


#: A Base+P position set up without its moves, Black to move.
_SET_UP = "Position;Base+P;Black[9];wQ@0,0 bQ@1,0 wA1@-1,0 bA1@2,0 wG1@0,-1 bG1@1,1 wB1@-1,1 bB1@2,-1 bP@3,0"


def test_no_position_before_the_search_s_null_move_counts_for_the_repetitions_after_it() -> None:
    """A pass the rules allow counts its repetitions across it; the search's null move (a pass whatever the moves)
    starts them afresh, as a placement does, and is taken back whole."""
    board = played(NOKAMUTE_DRAW[:40])
    before = (board.game_string(), board.ply, board.hash, board.key, board.repetitions, board.status)
    # White passes, Black moves a piece, White passes, Black moves it back: White is to move at the start again
    board.make(PASS)
    black = [code for code in board.generate() if code >> 5 & 2047 != HAND]
    board.unmake()
    found = 0
    for code in black:
        origin, destination = code >> 5 & 2047, code >> 16
        back = (code & 31) | destination << 5 | origin << 16
        counts: list[tuple[bool, int]] = []
        for make_pass in (partial(board.make, PASS), board.make_null):
            make_pass()
            board.make(code)
            make_pass()
            if back not in board.generate():
                counts.clear()
                for _ in range(3):
                    board.unmake()
                break
            board.make(back)
            counts.append((board.key == before[3], board.repetitions))
            for _ in range(4):
                board.unmake()
            assert (board.game_string(), board.ply, board.hash, board.key, board.repetitions, board.status) == before
        if counts and counts[0] == (True, 2):
            found += 1
            assert counts[1] == (True, 1)
    assert found > 5, found
    board.make_null()
    assert board.ply == before[1] + 1 and board.hash != before[2] and board.repetitions == 1
    assert board.unmake() == PASS
