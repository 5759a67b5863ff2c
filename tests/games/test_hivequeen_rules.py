"""One test per rule of ../shared/docs/hivequeen-rules.md."""

from __future__ import annotations

import pytest

from hive.games.hivequeen import Board, IllegalMoveError, geometry, rules
from hive.games.hivequeen.state import END


def strings(board: Board) -> set[str]:
    return {board.move_text(t) for t in board.legal_movements}


def from_(square: str, board: Board) -> set[str]:
    return {s for s in strings(board) if s[1:3] == square}


def productions(board: Board, movement: str) -> set[str]:
    return {str(p) for p in board.production_options(board.parse_move(movement))}


# Board and pieces ------------------------------------------------------------------------------


def test_field_has_61_cells_with_orthogonal_neighbours() -> None:
    assert geometry.CELLS == 61
    assert all(max(abs(q), abs(r), abs(q + r)) <= 4 for q, r in geometry.COORDS)
    assert geometry.NAMES[geometry.cell_at(0, 0)] == "e5"
    assert len(geometry.NEIGHBOURS[geometry.cell_at(0, 0)]) == 6
    assert len(geometry.NEIGHBOURS[geometry.parse_cell("a1")]) == 3
    assert geometry.parse_cell("a1") == geometry.cell_at(-4, 4)
    assert geometry.parse_cell("a9") == -1  # q = -4, r = -4 is off the field


def test_starting_setup_is_the_reading_with_north_mirrored() -> None:
    board = Board()
    assert board.units == [24, 24]
    assert board.pieces == [15, 15]
    row1 = "".join(str(board.piece_at(geometry.parse_cell(f"{f}1"))[1]) for f in "abcde")  # type: ignore[index]
    assert row1 == "".join(str(k) for k in (rules.WORKER, rules.HIGHBORN, rules.QUEEN, rules.HIGHBORN, rules.WORKER))
    for cell in range(geometry.CELLS):
        south = board.piece_at(cell)
        north = board.piece_at(geometry.MIRROR[cell])
        assert (south is None) == (north is None)
        if south is not None and north is not None:
            assert south[1] == north[1] and south[0] != north[0]
    assert board.turn_name == "South" and board.capacity(0) == 25


# Movement --------------------------------------------------------------------------------------


def test_queen_swaps_with_any_friendly_highborn_and_never_captures() -> None:
    board = Board.from_pieces({"c1": "Q", "i5": "H", "c2": "h", "e5": "W", "e9": "q", "f9": "w"})
    assert from_("c1", board) == {"Qc1-i5"}
    board.push_text("Qc1-i5")
    assert board.piece_at(geometry.parse_cell("i5")) == (0, rules.QUEEN)
    assert board.piece_at(geometry.parse_cell("c1")) == (0, rules.HIGHBORN)
    with pytest.raises(IllegalMoveError, match="never captures"):
        Board.from_pieces({"c1": "Q", "c2": "h", "e9": "q", "e5": "W"}).parse_move("Qc1xc2")


def test_highborn_slides_straight_and_captures_the_first_enemy_in_line() -> None:
    board = Board.from_pieces({"a1": "H", "a4": "s", "c1": "W", "b2": "W", "e1": "Q", "e9": "q", "f9": "w"})
    moves = from_("a1", board)
    assert moves == {"Ha1-a2", "Ha1-a3", "Ha1xa4", "Ha1-b1"}  # blocked by its own Workers, stops at a4
    board.push_text("Ha1xa4")
    assert board.units == [11, 7] and board.piece_at(geometry.parse_cell("a4")) == (0, rules.HIGHBORN)
    board.pop()
    assert board.units == [11, 8]
    board = Board.from_pieces({"a1": "H", "e1": "Q", "e9": "q", "f9": "w"})
    assert "Ha1-i9" in from_("a1", board)  # a rider: any distance


def test_soldier_captures_by_step_and_by_leap_over_a_friendly_run() -> None:
    board = Board.from_pieces(
        {"e5": "S", "e6": "W", "e7": "N", "e8": "h", "f5": "w", "d5": "W", "c5": "s", "e1": "Q", "e9": "q"}
    )
    # step onto f5; leap e6, e7 onto e8; leap d5 onto c5; no move to an empty cell
    assert from_("e5", board) == {"Se5xf5", "Se5xe8", "Se5xc5"}
    board.push_text("Se5xe8")
    assert board.piece_at(geometry.parse_cell("e8")) == (0, rules.SOLDIER)


def test_soldier_cannot_leap_a_gap_an_enemy_or_onto_an_empty_cell() -> None:
    board = Board.from_pieces({"e5": "S", "e6": "W", "e8": "h", "f5": "w", "g5": "h", "d5": "W", "e1": "Q", "e9": "q"})
    assert from_("e5", board) == {"Se5xf5"}  # e7 empty breaks the run; an enemy on f5 cannot be leapt
    with pytest.raises(IllegalMoveError, match="Soldier"):
        board.parse_move("Se5-e4")


def test_worker_steps_to_an_adjacent_vacant_cell() -> None:
    board = Board.from_pieces({"e5": "W", "e6": "w", "f5": "S", "e1": "Q", "e9": "q"})
    assert from_("e5", board) == {"We5-e4", "We5-d5", "We5-d4", "We5-f6"}
    with pytest.raises(IllegalMoveError, match="adjacent vacant"):
        board.parse_move("We5-e3")


def test_drone_leaps_to_any_vacant_cell_but_never_captures() -> None:
    board = Board.from_pieces({"e5": "D", "e6": "w", "e1": "Q", "e9": "q"})
    assert len(from_("e5", board)) == 61 - 4
    assert "De5-a1" in strings(board)
    with pytest.raises(IllegalMoveError, match="Drone"):
        board.parse_move("De5xe6")


def test_nurse_swaps_with_worker_soldier_drone_or_nurse_at_any_distance() -> None:
    board = Board.from_pieces(
        {"a1": "N", "i5": "W", "e5": "S", "g3": "D", "b4": "N", "c1": "H", "e1": "Q", "e9": "q", "f9": "w"}
    )
    assert from_("a1", board) == {"Na1-i5", "Na1-e5", "Na1-g3"}
    assert "Nb4-a1" in strings(board)
    with pytest.raises(IllegalMoveError, match="Nurse only swaps"):
        board.parse_move("Na1-c1")
    board.push_text("Na1-i5")
    assert board.piece_at(geometry.parse_cell("a1")) == (0, rules.WORKER)


def test_nurse_nurse_swap_is_one_movement_written_either_way() -> None:
    board = Board.from_pieces({"a1": "N", "b4": "N", "e1": "Q", "e9": "q", "f9": "w"})
    assert board.parse_move("Na1-b4") == board.parse_move("Nb4-a1")
    assert sum(1 for s in strings(board) if s.startswith("N")) == 1


def test_promotion_as_the_whole_movement_and_at_the_end_of_a_slide() -> None:
    # South's Queen is gone; a Drone is on the field; 2 Workers support 10 units (3 + 1 + 2 = 6, +3 = 9)
    board = Board.from_pieces({"a1": "H", "c3": "D", "e2": "W", "e1": "W", "e9": "q", "f9": "w", "a4": "s"})
    moves = from_("a1", board)
    assert {"Ha1=Q", "Ha1-a2=Q", "Ha1xa4=Q", "Ha1-a3"} <= moves
    board.push_text("Ha1xa4=Q")
    assert board.piece_at(geometry.parse_cell("a4")) == (0, rules.QUEEN)
    assert board.units == [9, 7] and board.state == "InProgress"


def test_promotion_needs_a_drone() -> None:
    board = Board.from_pieces({"a1": "H", "e2": "W", "e1": "W", "e9": "q", "f9": "w"})
    assert not any("=Q" in s for s in strings(board))
    with pytest.raises(IllegalMoveError, match="Drone"):
        board.parse_move("Ha1=Q")


def test_promotion_needs_workers_for_the_extra_units() -> None:
    # one Worker supports 5 units: Highborn 3 + Drone 1 + Worker 1 = 5, a promotion would make 8
    board = Board.from_pieces({"a1": "H", "c3": "D", "e1": "W", "e9": "q", "f9": "w"})
    assert not any("=Q" in s for s in strings(board))
    with pytest.raises(IllegalMoveError, match="capacity"):
        board.parse_move("Ha1=Q")


def test_captured_pieces_leave_and_may_be_produced_again() -> None:
    board = Board.from_pieces(
        {"e5": "s", "e4": "W", "e1": "Q", "d2": "N", "c2": "W", "b2": "W", "a2": "W", "e9": "q", "e8": "S", "f9": "w"},
        turn=1,
    )
    board.push_text("Se5xe4")
    assert board.count[rules.WORKER] == 3
    assert "+Wd3" in productions(board, "Wc2-c3")


# Production ------------------------------------------------------------------------------------


def test_first_production_is_one_unit_as_in_the_seeds_example() -> None:
    board = Board()
    turn = board.parse_move("Wc3-c4")
    first = board.production_options(turn)
    assert first
    assert board.production_options(turn.with_production(first[0])) == []
    with pytest.raises(IllegalMoveError, match="capacity 25"):
        board.push_text("Wc3-c4;+Sd4;+Sd5")


def test_no_production_when_units_exceed_capacity() -> None:
    # 1 Worker: capacity 5; Queen alone is 6 units
    board = Board.from_pieces({"e1": "Q", "a1": "W", "c2": "N", "e9": "q", "f9": "w"})
    assert productions(board, "Wa1-a2") == set()
    with pytest.raises(IllegalMoveError, match="capacity"):
        board.push_text("Wa1-a2;+Sb2")


def test_no_production_without_a_queen_or_without_a_nurse() -> None:
    board = Board.from_pieces({"e1": "Q", "a1": "W", "b1": "W", "c1": "W", "e9": "q", "f9": "w"})
    with pytest.raises(IllegalMoveError, match="Nurse is on the field"):
        board.push_text("Wa1-a2;+Sb2")
    # after a promotion the player has a Queen again and may produce in the same turn
    board = Board.from_pieces({"e1": "H", "d1": "D", "c2": "N", "a1": "W", "b1": "W", "c1": "W", "e9": "q", "f9": "w"})
    assert productions(board, "He1=Q")


def test_one_production_per_nurse_and_units_counted_after_each() -> None:
    pieces = {"e1": "Q", "a1": "W", "b1": "W", "c1": "W", "d1": "W", "a3": "N", "g3": "N", "e9": "q", "f9": "w"}
    board = Board.from_pieces(pieces)  # 12 units, capacity 20
    board.push_text("Wa1-a2;+Sb3;+Sf3")
    assert board.units[0] == 14
    board.pop()
    with pytest.raises(IllegalMoveError, match="at most one piece"):
        board.push_text("Wa1-a2;+Sb3;+Sf3;+Sf4")
    # one Nurse: one production
    del pieces["g3"]
    board = Board.from_pieces(pieces)
    with pytest.raises(IllegalMoveError, match="at most one piece"):
        board.push_text("Wa1-a2;+Sb3;+Sb4")


def test_only_workers_soldiers_nurses_and_drones_are_produced() -> None:
    board = Board.from_pieces({"e1": "Q", "a1": "W", "b1": "W", "c1": "W", "a3": "N", "e9": "q", "f9": "w"})
    with pytest.raises(IllegalMoveError, match="only Workers, Soldiers, Nurses and Drones"):
        board.push_text("Wa1-a2;+Hb3")
    assert {s[1] for s in productions(board, "Wa1-a2")} == {"W", "S", "D", "N"}


def test_field_limits_two_drones_two_nurses_eight_workers() -> None:
    pieces = {f"{f}1": "W" for f in "abcde"} | {"a2": "W", "b2": "W", "c2": "W"}
    pieces |= {"a4": "N", "b5": "N", "g3": "D", "f2": "D", "e5": "Q", "e9": "q", "f9": "w"}
    board = Board.from_pieces(pieces)  # 8 Workers, 2 Nurses, 2 Drones: only Soldiers may come
    kinds = {s[1] for s in productions(board, "Dg3-g4")}
    assert kinds == {"S"}
    with pytest.raises(IllegalMoveError, match="At most 8 Workers"):
        board.push_text("Dg3-g4;+Wa3")


def test_soldiers_enter_next_to_any_friendly_piece_others_next_to_their_nurse() -> None:
    board = Board.from_pieces({"e1": "Q", "a1": "W", "b1": "W", "c1": "W", "a3": "N", "e9": "q", "f9": "w"})
    options = productions(board, "Wa1-a2")
    assert "+Sf2" in options and "+Se2" in options  # next to the Queen on e1
    assert "+Wf2" not in options and "+Wa4" in options and "+Wb3" in options
    with pytest.raises(IllegalMoveError, match="adjacent to the Nurse"):
        board.push_text("Wa1-a2;+Wf2")


def test_two_pieces_next_to_the_same_nurse_need_two_nurses_that_touch_them() -> None:
    pieces = {"e1": "Q", "a1": "W", "b1": "W", "c1": "W", "d1": "W", "a3": "N", "i5": "N", "e9": "q", "f9": "w"}
    board = Board.from_pieces(pieces)
    with pytest.raises(IllegalMoveError, match="at most one piece"):
        board.push_text("Wa1-a2;+Wa4;+Wb3")  # both only touch the Nurse on a3
    board.push_text("Wa1-a2;+Sa4;+Wb3")  # the Soldier is the other Nurse's piece
    board.pop()
    board.push_text("Wa1-a2;+Wa4;+Wh5")


def test_a_nurse_produced_this_phase_does_not_produce() -> None:
    pieces = {"e1": "Q", "a1": "W", "b1": "W", "c1": "W", "d1": "W", "a3": "N", "e9": "q", "f9": "w"}
    board = Board.from_pieces(pieces)
    with pytest.raises(IllegalMoveError, match="at most one piece"):
        board.push_text("Wa1-a2;+Na4;+Wa5")


def test_capacity_is_counted_at_the_start_of_the_phase() -> None:
    assert rules.CAPACITY_COUNTED_AT_PHASE_START
    # 2 Workers: capacity 10; Queen 6 + 2 Workers + 2 Nurses = 10 - 1 after the move? no: 10 units, full
    pieces = {"e1": "Q", "a1": "W", "b1": "W", "a3": "N", "g3": "N", "e9": "q", "f9": "w"}
    board = Board.from_pieces(pieces)
    assert productions(board, "Wa1-a2") == set()
    # 3 Workers: capacity 15, 11 units: a Worker brings 12, the new Worker's 5 units wait for the next turn
    pieces["c1"] = "W"
    pieces["c2"] = "S"
    pieces["c3"] = "S"
    pieces["c4"] = "S"
    board = Board.from_pieces(pieces)  # 14 units
    with pytest.raises(IllegalMoveError, match="capacity 15"):
        board.push_text("Wa1-a2;+Wa4;+Sf3")


# End of the game -------------------------------------------------------------------------------


def test_losing_the_queen_gives_one_movement_to_promote() -> None:
    pieces = {"e5": "H", "e6": "q", "d8": "d", "e9": "w", "f9": "w", "e1": "Q", "a1": "W", "b1": "W", "c1": "W"}
    pieces |= {"c7": "h"}
    board = Board.from_pieces(pieces)
    board.push_text("He5xe6")
    assert board.state == "InProgress"  # North may still promote
    board.push_text("Hc7=Q")
    assert board.state == "InProgress"
    board.pop()
    board.push_text("Hc7-c6")
    assert board.state == "SouthWins" and "no Queen" in board.end_reason()


def test_a_player_who_cannot_move_loses() -> None:
    board = Board.from_pieces({"e1": "Q", "e9": "q", "f9": "w"})
    assert board.state == "NorthWins" and board.end_reason() == "South cannot move"
    assert board.legal_movements == []


def test_when_neither_can_move_the_higher_units_win_and_equal_units_draw() -> None:
    assert Board.from_pieces({"e1": "Q", "e9": "q"}).state == "Draw"
    board = Board.from_pieces({"e1": "Q", "e9": "q", "a5": "s"})
    assert board.state == "NorthWins" and "neither player can move" in board.end_reason()
    board = Board.from_pieces({"e1": "Q", "e9": "q", "a5": "S", "i5": "S"})
    assert board.state == "SouthWins"


def test_third_repetition_is_a_draw() -> None:
    assert rules.REPETITION_DRAW_COUNT == 3
    board = Board.from_pieces({"e1": "Q", "a1": "W", "e9": "q", "i5": "w"})
    for _ in range(2):
        for text in ("Wa1-a2", "Wi5-i6", "Wa2-a1", "Wi6-i5"):
            assert board.state == "InProgress"
            board.push_text(text)
    assert board.state == "Draw" and "repeated 3 times" in board.end_reason()
    board.pop()
    assert board.state == "InProgress"


def test_turn_limit_without_capture_is_decided_by_units() -> None:
    assert rules.TURN_LIMIT_WITHOUT_CAPTURE == 300
    pieces = {"e1": "Q", "a1": "W", "a2": "W", "e9": "q", "i5": "w"}
    board = Board.from_pieces(pieces, quiet=298)
    board.push_text("Wa1-b1")
    assert board.state == "InProgress"
    board.push_text("Wi5-i6")
    assert board.quiet == 300 and board.state == "SouthWins" and "300 turns" in board.end_reason()


def test_a_capture_resets_the_turn_counter() -> None:
    board = Board.from_pieces({"e1": "Q", "e4": "S", "e5": "w", "a1": "W", "e9": "q", "i5": "w"}, quiet=298)
    board.push_text("Se4xe5")
    assert board.quiet == 0 and board.state == "InProgress"


def test_end_step_only_while_a_production_is_possible() -> None:
    board = Board()
    board.make(board.parse_move("Wc3-c4").movement_step)
    assert END in board.generate() and len(board.generate()) > 1
    board.unmake()
