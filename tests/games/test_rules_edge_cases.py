"""Rule edge cases, each checked on a position built from a UHP GameString (see shared/docs/hive-rules.md)."""

from __future__ import annotations

import re

import pytest

import hive

from ..positions import BLACK_QUEEN_TRAPPED, PASS_ONLY

# Queen wQ with pieces NE and SE of it that are joined around a hole east of it: a gate.
GATE = (
    r"Base+MLP;InProgress;White[7];wG1;bG1 wG1-;wA1 \wG1;bQ bG1-;wA2 -wA1;bA1 bQ-;wQ /wA2;bA2 \bA1;"
    r"wA3 /wG1;bA3 bA1/;wS1 -wA3;bB1 bA1-"
)
# Beetle wB1 on the ground beside wG1 and wQ.
BEETLE = r"Base+MLP;InProgress;White[4];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wB1 /wG1;bA1 bQ-"
# bB1 on top of wQ and wB2 on top of wS1 flank the step from wB1 onto wG1.
STACKS_BLACK_TO_MOVE = (
    r"Base+MLP;InProgress;Black[6];wG1;bG1 wG1-;wQ \wG1;bQ bG1-;wS1 /wG1;bB1 \bQ;wB1 /wQ;bB1 \bG1;"
    r"wB2 /wB1;bB1 wQ;wB2 wS1"
)
STACKS = STACKS_BLACK_TO_MOVE.replace("Black[6]", "White[7]") + ";bA1 bQ-"
# wG1 west of a row wS1 bG1 bQ, then a gap, then bA2; wQ north-east of wG1.
GRASSHOPPER = (
    r"Base+MLP;InProgress;White[6];wS1;bG1 wS1-;wQ \wS1;bQ bG1-;wG1 /wQ;bG2 bQ/;wA1 \wQ;bA1 bG2-;"
    "wA1 bQ\\;bA2 bA1\\"
)
# Spider wS1 at the west end of a straight row of six.
SPIDER = r"Base+MLP;InProgress;White[4];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wS1 -wQ;bS1 bQ-"
# Ladybug wL touching wG1 and wQ, which touch each other.
LADYBUG = r"Base+MLP;InProgress;White[4];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wL /wG1;bA1 bQ-"
# As STACKS, with the ladybug wL where the beetle wB1 was.
LADYBUG_GATE = (
    r"Base+MLP;InProgress;White[7];wG1;bG1 wG1-;wQ \wG1;bQ bG1-;wS1 /wG1;bB1 \bQ;wL /wQ;bB1 \bG1;"
    r"wB1 /wL;bB1 wQ;wB1 wS1;bA1 bQ-"
)
# Mosquito wM touching only the stack bG1 < wB1.
MOSQUITO_BY_BEETLE = (
    r"Base+MLP;InProgress;White[7];wG1;bG1 wG1-;wQ -wG1;bQ bG1/;wB1 /wG1;bA1 bQ/;wB1 wG1;bA2 bA1/;"
    r"wB1 bG1;bA3 bA2/;wM wB1\;bS1 bA3/"
)
# Mosquito wM touching only the mosquito bM.
MOSQUITO_BY_MOSQUITO = (
    r"Base+MLP;InProgress;White[6];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wA1 -wQ;bM bQ-;wM -wA1;bA1 /bM;"
    r"wM bM-;bA2 /bQ"
)
# Mosquito wM touching the pillbug wP; bA1 touches only wM.
MOSQUITO_BY_PILLBUG = (
    r"Base+MLP;InProgress;White[6];wP;bG1 wP-;wQ -wP;bQ bG1-;wM \wP;bA1 \bQ;wA1 -wQ;bA1 wM/;"
    r"wA2 -wA1;bS1 bQ-"
)
# Pinned pillbug wP; around it bA1 (just moved there), bG1 < bB1, wG1 and wQ (which holds the wS1 chain).
PILLBUG_JUST_MOVED = (
    r"Base+MLP;InProgress;White[7];wP;bG1 wP-;wQ -wP;bQ bG1-;wS1 -wQ;bB1 \bQ;wG1 /wP;bB1 bG1;"
    r"wA1 -wS1;bA1 \bQ;wA2 -wA1;bA1 \bB1"
)
PILLBUG = PILLBUG_JUST_MOVED.replace("White[7]", "White[8]") + ";wA3 -wA2;bA2 bQ-"
# Black's pillbug bP has just thrown the white pillbug wP next to bQ.
PILLBUG_THROWN = r"Base+MLP;InProgress;White[5];wP;bP wP-;wQ /wP;bQ bP-;wA1 wQ\;bA1 \bQ;wA1 /bP;wP /bQ"
# The white pillbug wP is covered by bB1; wQ touches it.
PILLBUG_COVERED = (
    r"Base+MLP;InProgress;White[6];wP;bG1 wP-;wQ -wP;bQ bG1-;wS1 /wP;bB1 \bQ;wA1 /wQ;bB1 \bG1;"
    r"wA2 /wS1;bB1 wP"
)
# wQ and bQ touch; the cell north-west of wQ, which wA1 can reach, is wQ's last empty neighbour.
# In QUEENS_TRAPPED it is bQ's last one too; in the prefix bQ still lacks the cell bA3 fills.
QUEENS_TRAPPED_PREFIX = (
    r"Base+MLP;InProgress;White[8];wG1;bG1 wG1-;wQ -wG1;bQ bG1/;wS1 /wG1;bQ \bG1;wG2 /wQ;bQ \wG1;"
    r"wB1 -wQ;bA1 \bQ;wA1 -wB1;bA2 bQ/;wS2 /wB1;bA3 bG1/"
)
QUEENS_TRAPPED = QUEENS_TRAPPED_PREFIX.replace("White[8]", "White[9]") + r";wG3 /wS1;bA3 \bG1"
SHUFFLE_START = "Base;InProgress;White[3];wG1;bG1 wG1-;wQ -wG1;bQ bG1-"
SHUFFLE = (r"wQ \wG1", "bQ bG1/", "wQ -wG1", "bQ bG1-")


def board(game_string: str, **options: bool) -> hive.Board:
    """Replay a GameString."""
    return hive.Board.from_game_string(game_string, **options)


def moves_of(b: hive.Board, piece: str) -> set[hive.Move]:
    """The legal moves of one piece."""
    return {m for m in b.legal_moves if m.piece == piece}


def moves(b: hive.Board, *texts: str) -> set[hive.Move]:
    """Moves written as MoveStrings in this position."""
    return {b.parse_uhp(t) for t in texts}


def rejects(b: hive.Board, text: str, rule: str) -> None:
    """Check a MoveString is refused with a message naming the rule."""
    with pytest.raises(hive.IllegalMoveError, match=rule):
        b.parse_uhp(text)


# ----------------------------------------------------------------------
# freedom to move


def test_freedom_to_move_gate_and_contact():
    """A queen slides neither through a gate nor to a cell where it would lose touch with the hive."""
    b = board(GATE)
    assert moves_of(b, "wQ") == moves(b, "wQ -wA2", "wQ -wS1")
    rejects(b, "wQ -wG1", "Queen Bee")
    rejects(b, "wQ -wQ", "Queen Bee")


def test_placement_into_surrounded_cell():
    """A piece may be placed into a cell all of whose neighbours are occupied."""
    b = board(GATE)
    assert b.parse_uhp("wB1 -wG1") in moves_of(b, "wB1")


def test_ant_cannot_slide_into_gated_hole():
    """A hole whose every entrance is a gate is out of reach of a sliding ant."""
    b = board(GATE)
    hole = b.parse_uhp("wB1 -wG1").destination
    assert moves_of(b, "wA1")
    assert all(m.destination != hole for m in moves_of(b, "wA1"))
    rejects(b, "wA1 -wG1", "Soldier Ant")


# ----------------------------------------------------------------------
# beetle


def test_beetle_climbs_onto_hive():
    """A ground beetle may climb onto any neighbouring piece or slide on the ground."""
    b = board(BEETLE)
    assert moves_of(b, "wB1") == moves(b, "wB1 wG1", "wB1 wQ", "wB1 /bG1", "wB1 /wQ")


def test_beetle_moves_along_top_and_climbs_down():
    """A beetle on top steps to any neighbouring stack or down to any neighbouring empty cell."""
    b = board(BEETLE)
    b.push_uhp("wB1 wG1")
    b.push_uhp("bA2 bA1-")
    assert moves_of(b, "wG1") == set()
    expected = moves(b, "wB1 bG1", "wB1 wQ", r"wB1 \bG1", "wB1 /bG1", r"wB1 \wG1", "wB1 /wG1")
    assert moves_of(b, "wB1") == expected
    b.push_uhp("wB1 bG1")
    b.push_uhp("bA3 bA2-")
    assert b.parse_uhp("wB1 /bQ") in moves_of(b, "wB1")


def test_beetle_blocked_by_height_gate():
    """A beetle cannot climb from the ground onto wG1 between two stacks of height 2."""
    b = board(STACKS)
    assert moves_of(b, "wB1") == moves(b, "wB1 bB1", "wB1 wB2", "wB1 -bB1", "wB1 -wB2")
    rejects(b, "wB1 wG1", "Beetle")


def test_piece_under_beetle_cannot_move():
    """A piece with another piece on top of it never moves."""
    b = board(STACKS)
    assert moves_of(b, "wS1") == set()
    assert moves_of(b, "wQ") == set()
    rejects(b, "wS1 -wB2", "on top of it")


def test_beetle_on_top_gives_stack_its_colour_for_black():
    """Black may place beside a white piece covered by a black beetle."""
    b = board(STACKS_BLACK_TO_MOVE)
    expected = moves(b, "bA1 bG1/", "bA1 bG1\\", "bA1 bQ/", "bA1 bQ-", "bA1 bQ\\", "bA1 bB1/", r"bA1 \bB1")
    assert moves_of(b, "bA1") == expected


def test_beetle_on_top_gives_stack_its_colour_for_white():
    """White may not place beside a white piece covered by a black beetle."""
    b = board(STACKS)
    assert moves_of(b, "wA1") == moves(b, "wA1 -wB1", "wA1 /wB1", "wA1 /wB2", "wA1 wB2\\")
    rejects(b, r"wA1 \wB1", "touch your own pieces")


# ----------------------------------------------------------------------
# grasshopper, spider, ladybug


def test_grasshopper_jumps_to_first_empty_cell_in_line():
    """A grasshopper jumps over a whole row of pieces, stops at the first gap, and needs a neighbour to jump."""
    b = board(GRASSHOPPER)
    assert moves_of(b, "wG1") == moves(b, r"wG1 /bA1", "wG1 wQ/")
    rejects(b, "wG1 bA2-", "Grasshopper")
    rejects(b, r"wG1 \wG1", "Grasshopper")


def test_spider_moves_exactly_three_steps_without_backtracking():
    """A spider ends exactly three slides away; cells one or two slides away are not destinations."""
    b = board(SPIDER)
    assert moves_of(b, "wS1") == moves(b, "wS1 /bG1", r"wS1 \bG1")
    rejects(b, r"wS1 \wG1", "Spider")
    rejects(b, r"wS1 \wQ", "Spider")


def test_ladybug_two_steps_on_top_then_down():
    """A ladybug climbs, takes one step on top, and climbs down, never back to where it started."""
    b = board(LADYBUG)
    expected = moves(b, "wL -wQ", "wL /bG1", "wL /bQ", "wL /wQ", r"wL \bG1", r"wL \bQ", r"wL \wG1", r"wL \wQ")
    assert moves_of(b, "wL") == expected
    rejects(b, "wL /wG1", "somewhere other than where it started")


def test_ladybug_blocked_by_height_gate():
    """A ladybug cannot climb onto wG1 between two stacks of height 2, though it may reach wG1 over a stack."""
    b = board(LADYBUG_GATE)
    assert moves_of(b, "wL") == moves(b, "wL /bG1", r"wL \bG1")
    rejects(b, "wL bG1/", "Ladybug")
    rejects(b, "wL bG1\\", "Ladybug")


# ----------------------------------------------------------------------
# mosquito


def test_mosquito_copies_beetle_on_top_of_stack():
    """A mosquito beside a stack topped by a beetle moves as a beetle, not as the grasshopper below."""
    b = board(MOSQUITO_BY_BEETLE)
    assert moves_of(b, "wM") == moves(b, "wM wB1", "wM wB1-", "wM /wB1")
    rejects(b, r"wM \wB1", "Mosquito")


def test_mosquito_on_top_moves_as_beetle():
    """A mosquito on top of the hive moves as a beetle even though it touches a queen and a grasshopper."""
    b = board(MOSQUITO_BY_BEETLE)
    b.push_uhp("wM wB1")
    b.push_uhp("bS2 bS1/")
    expected = moves(b, "wM bQ", "wM wG1", "wM -bQ", "wM wB1-", "wM wB1\\", "wM /wB1")
    assert moves_of(b, "wM") == expected


def test_mosquito_touching_only_mosquito_cannot_move():
    """A mosquito whose only neighbour is a mosquito has no moves."""
    b = board(MOSQUITO_BY_MOSQUITO)
    assert moves_of(b, "wM") == set()
    rejects(b, "wM bM/", "Mosquito")


def test_mosquito_beside_pillbug_throws_even_when_pinned():
    """A pinned mosquito touching a pillbug may throw a piece that touches only the mosquito."""
    b = board(MOSQUITO_BY_PILLBUG)
    assert moves_of(b, "wM") == set()
    assert moves_of(b, "bA1") == moves(b, "bA1 -wM", r"bA1 \wM", r"bA1 \bG1")


# ----------------------------------------------------------------------
# pillbug


def test_pillbug_cannot_throw_last_moved_piece():
    """The piece the opponent just moved cannot be thrown."""
    b = board(PILLBUG_JUST_MOVED)
    assert moves_of(b, "bA1") == set()
    rejects(b, r"bA1 /bB1", "not just moved")


def test_pinned_pillbug_throws_opponent_piece():
    """A pinned pillbug throws an adjacent opponent piece to any empty cell beside it."""
    b = board(PILLBUG)
    assert moves_of(b, "wP") == set()
    assert moves_of(b, "bA1") == moves(b, r"bA1 \wP", "bA1 /bB1")


def test_pillbug_throws_own_piece():
    """A pillbug may throw its own side's pieces too, as well as those pieces moving by themselves."""
    b = board(PILLBUG)
    assert moves_of(b, "wG1") == moves(b, "wG1 bA1/", r"wG1 \wQ", "wG1 -bA1", "wG1 /bB1")


def test_pillbug_cannot_throw_stacked_or_covered_piece():
    """Neither a beetle on a stack nor the piece beneath it can be thrown."""
    b = board(PILLBUG)
    assert moves_of(b, "bB1") == set()
    assert moves_of(b, "bG1") == set()
    rejects(b, r"bB1 \wP", "Pillbug")


def test_pillbug_cannot_throw_piece_that_splits_hive():
    """A piece whose removal splits the hive cannot be thrown."""
    b = board(PILLBUG)
    assert moves_of(b, "wQ") == set()
    rejects(b, r"wQ \wP", "break the hive")


def test_thrown_piece_cannot_move_next_ply():
    """A thrown piece is the last piece moved, so its owner cannot move it on the next ply."""
    b = board(PILLBUG)
    b.push_uhp(r"bA1 \wP")
    assert moves_of(b, "bA1") == set()
    assert moves_of(b, "bB1")
    rejects(b, r"bA1 \wQ", "moved on your opponent's last turn")


def test_pillbug_just_thrown_cannot_use_ability():
    """A pillbug the opponent has just thrown can neither move nor throw, but can a turn later."""
    b = board(PILLBUG_THROWN)
    assert moves_of(b, "wP") == set()
    assert moves_of(b, "bQ") == set()
    b.push_uhp("wG1 -wQ")
    b.push_uhp("bA2 bQ/")
    assert moves_of(b, "bQ") == moves(b, "bQ wP-", "bQ wP\\", "bQ /wP")


def test_covered_pillbug_cannot_throw():
    """A pillbug covered by a beetle has no ability: the queen beside it only slides."""
    b = board(PILLBUG_COVERED)
    assert moves_of(b, "wQ") == moves(b, r"wQ \bB1", r"wQ \wA1")
    assert all(str(m.piece).startswith("w") for m in b.legal_moves)
    rejects(b, "wQ /bG1", "Queen Bee")


# ----------------------------------------------------------------------
# placement, queen timing, pass


def test_placement_touches_own_colour_only():
    """A new piece must touch its own colour and no opponent piece."""
    b = board("Base;InProgress;White[2];wG1;bG1 wG1-")
    assert moves_of(b, "wA1") == moves(b, "wA1 -wG1", "wA1 /wG1", r"wA1 \wG1")
    rejects(b, "wA1 wG1/", "touch your own pieces")
    rejects(b, "wA1 wG1\\", "touch your own pieces")


def test_black_first_piece_next_to_white():
    """Black's first piece may go on any of the six cells touching White's, never on top of it."""
    b = board("Base;InProgress;Black[1];wG1")
    expected = moves(b, "bA1 wG1/", "bA1 wG1-", "bA1 wG1\\", "bA1 /wG1", "bA1 -wG1", r"bA1 \wG1")
    assert moves_of(b, "bA1") == expected
    rejects(b, "bA1 wG1", "on top of the hive")


def test_tournament_opening_forbids_queen_on_first_turn():
    """With the tournament opening neither player may place the queen on the first turn."""
    b = hive.Board("Base")
    rejects(b, "wQ", "first turn")
    assert all(m.piece != "wQ" for m in b.legal_moves)
    b.push_uhp("wG1")
    rejects(b, "bQ wG1-", "first turn")
    assert all(m.piece != "bQ" for m in b.legal_moves)


def test_original_opening_allows_queen_on_first_turn():
    """Without the tournament opening both players may place the queen on the first turn."""
    b = hive.Board("Base", tournament_opening=False)
    assert b.parse_uhp("wQ") in b.legal_moves
    b.push_uhp("wQ")
    assert b.parse_uhp("bQ wQ-") in b.legal_moves
    b.push_uhp("bQ wQ-")
    assert b.state == "InProgress"
    with pytest.raises(hive.IllegalMoveError, match="first turn"):
        board("Base;InProgress;White[2];wQ;bQ wQ-")


def test_queen_must_be_placed_by_fourth_turn():
    """On the fourth turn a player whose queen is in hand may only place the queen."""
    b = board("Base;InProgress;White[4];wG1;bG1 wG1-;wA1 -wG1;bA1 bG1-;wG2 -wA1;bA2 bA1-")
    assert b.legal_moves
    assert {m.piece for m in b.legal_moves} == {"wQ"}
    rejects(b, "wS1 -wG2", "fourth turn")
    b.push_uhp("wQ -wG2")
    assert {m.piece for m in b.legal_moves} == {"bQ"}
    rejects(b, "bS1 bA2-", "fourth turn")


def test_no_movement_before_own_queen():
    """No piece moves until its owner's queen is placed; the opponent with a queen may move."""
    b = board("Base;InProgress;White[3];wG1;bG1 wG1-;wA1 -wG1;bQ bG1-")
    assert all(m.origin is None for m in b.legal_moves)
    rejects(b, "wA1 /wG1", "until you've played your Queen Bee")
    b.push_uhp("wS1 -wA1")
    assert b.parse_uhp("bQ bG1/") in moves_of(b, "bQ")


def test_no_pillbug_ability_before_own_queen():
    """A pillbug cannot throw, even its own leaf piece, while its owner's queen is in hand."""
    b = board("Base+P;InProgress;White[3];wP;bG1 wP-;wA1 -wP;bQ bG1-")
    assert all(m.origin is None for m in b.legal_moves)
    rejects(b, r"wA1 \wP", "until you've played your Queen Bee")


def test_pass_only_when_nothing_else():
    """Pass is the only legal move when a player can neither place nor move, and is refused otherwise."""
    b = board(PASS_ONLY)
    assert list(b.legal_moves) == [hive.Move.PASS]
    assert b.parse_uhp("pass") == hive.Move.PASS
    b.push_uhp("pass")
    assert b.state == "InProgress"
    rejects(b, "pass", "valid moves")


def test_pass_clears_last_piece_moved():
    """After a pass, the piece moved before it is free again."""
    b = board(PASS_ONLY)
    b.push_uhp("pass")
    assert moves_of(b, "wB1") == moves(b, "wB1 bA1", "wB1 /bQ", r"wB1 \bQ", "wB1 bQ-", "wB1 bQ/", "wB1 bQ\\")


# ----------------------------------------------------------------------
# end of the game


def test_surrounded_black_queen_loses():
    """Filling the sixth neighbour of the black queen wins for White and leaves no legal moves."""
    b = board(BLACK_QUEEN_TRAPPED)
    assert b.state == "InProgress"
    b.push_uhp("wA2 /bQ")
    assert b.state == "WhiteWins"
    assert list(b.legal_moves) == []
    rejects(b, "bA1 bG3-", "game is over")
    rejects(b, "pass", "game is over")


def test_surrounding_own_queen_loses():
    """A player who surrounds their own queen loses."""
    b = board(QUEENS_TRAPPED_PREFIX)
    b.push_uhp("wA1 /bA1")
    assert b.state == "BlackWins"
    assert list(b.legal_moves) == []


def test_both_queens_surrounded_is_draw():
    """One move surrounding both queens draws, and the game is then over."""
    b = board(QUEENS_TRAPPED)
    b.push_uhp("wA1 /bA1")
    assert b.state == "Draw"
    assert list(b.legal_moves) == []
    rejects(b, "bA1 -wA1", "game is over")


def test_repetition_draw_on_third_occurrence():
    """With repetition_draw the third occurrence of a position is a draw."""
    b = board(SHUFFLE_START, repetition_draw=True)
    for text in SHUFFLE * 2:
        assert b.state == "InProgress"
        b.push_uhp(text)
    assert b.state == "Draw"
    assert list(b.legal_moves) == []


def test_repetition_is_not_a_draw_by_default():
    """Without the option, repeating a position any number of times does not end the game."""
    b = board(SHUFFLE_START)
    for text in SHUFFLE * 3:
        b.push_uhp(text)
    assert b.state == "InProgress"
    assert b.legal_moves


# ----------------------------------------------------------------------
# GameString errors


@pytest.mark.parametrize(
    ("game_string", "token"),
    [
        ("Base+X;InProgress;White[1]", "Base+X"),
        ("Base;Running;White[1]", "Running"),
        ("Base;InProgress;Red[1]", "Red[1]"),
    ],
)
def test_bad_game_string_header_names_token(game_string, token):
    """A bad game type, state or turn token raises InvalidGameStringError naming it."""
    with pytest.raises(hive.InvalidGameStringError, match=re.escape(repr(token))):
        hive.Board.from_game_string(game_string)


@pytest.mark.parametrize(
    ("game_string", "token", "error"),
    [
        ("Base;InProgress;White[2];wG1;bX1 wG1-", "bX1 wG1-", hive.InvalidMoveError),
        ("Base;InProgress;White[2];wG1;bQ wG1-", "bQ wG1-", hive.IllegalMoveError),
        ("Base;InProgress;White[2];wG1;bA1 wG1", "bA1 wG1", hive.IllegalMoveError),
    ],
)
def test_bad_move_token_names_token(game_string, token, error):
    """A malformed or illegal move in a GameString raises naming the move token."""
    with pytest.raises(error, match=re.escape(repr(token))):
        hive.Board.from_game_string(game_string)
