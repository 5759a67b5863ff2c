"""HiveQueen notation, records and pictures: round trips and clear errors."""

from __future__ import annotations

import pytest

from hive.games.hivequeen import Board, IllegalMoveError, InvalidMoveError, Production, Turn, parse_cell
from hive.games.hivequeen.records import InvalidRecordError, read_record, read_records, write_record
from hive.games.hivequeen.rules import SOLDIER
from hive.games.hivequeen.svg import board_svg


def test_cell_names_follow_files_and_ranks() -> None:
    board = Board()
    assert board.piece_at(parse_cell("c1")) == (0, 1)  # South's Queen
    assert board.piece_at(parse_cell("g9")) == (1, 1)  # North's Queen, mirrored
    assert parse_cell("E5") == parse_cell("e5") >= 0


@pytest.mark.parametrize(
    ("pieces", "text"),
    [
        ({"a1": "H", "a4": "s", "e1": "Q", "e9": "q", "f9": "w"}, "Ha1xa4"),
        ({"a1": "H", "c3": "D", "e2": "W", "e1": "W", "e9": "q", "f9": "w"}, "Ha1=Q"),
        ({"a1": "H", "c3": "D", "e2": "W", "e1": "W", "e9": "q", "f9": "w", "a4": "s"}, "Ha1xa4=Q"),
        ({"a1": "H", "c3": "D", "e2": "W", "e1": "W", "e9": "q", "f9": "w"}, "Ha1-a3=Q"),
        ({"c1": "Q", "i5": "H", "e9": "q", "f9": "w"}, "Qc1-i5"),
        ({"e5": "S", "e6": "W", "e7": "h", "e1": "Q", "e9": "q"}, "Se5xe7"),
    ],
)
def test_movement_strings_round_trip(pieces: dict[str, str], text: str) -> None:
    board = Board.from_pieces(pieces)
    turn = board.parse_move(text)
    assert board.move_text(turn) == text
    board.push(turn)
    board.pop()
    assert board.move_text(board.parse_move(text.lower().replace("=q", "=Q"))) == text


def test_production_strings_round_trip() -> None:
    board = Board()
    turn = board.parse_move("Wc3-c4;+Sd4")
    assert turn == Turn(parse_cell("c3"), parse_cell("c4"), False, (Production(SOLDIER, parse_cell("d4")),))
    assert board.move_text(turn) == "Wc3-c4;+Sd4"
    assert board.parse_move(" Wc3-c4 ; +Sd4 ") == turn


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("", InvalidMoveError, "not a HiveQueen move"),
        ("Wc3c4", InvalidMoveError, "not a HiveQueen move"),
        ("Xc3-c4", InvalidMoveError, "not a HiveQueen move"),
        ("Wc3-a9", InvalidMoveError, "'a9' is not a cell"),
        ("Wc3-c3", InvalidMoveError, "destination is the origin"),
        ("Wc3", InvalidMoveError, "needs a destination"),
        ("Wc3-c4;Sd4", InvalidMoveError, "'Sd4' is not a production"),
        ("Wc3-c4;+Sz4", InvalidMoveError, "not a production"),
        ("Dc3-c4", IllegalMoveError, "is a Worker, not D"),
        ("Wc3xc4", InvalidMoveError, "no enemy piece to capture"),
        ("Wh8-h7", IllegalMoveError, "belongs to North"),
        ("Wb5-b4", IllegalMoveError, "no piece on b5"),
        ("Wc3-c4;+Qd4", IllegalMoveError, "only Workers, Soldiers, Nurses and Drones"),
        ("Wc3-c4;+Sd4;+Se4", IllegalMoveError, "capacity 25"),
    ],
)
def test_bad_turns_are_named_with_the_rule(text: str, error: type[ValueError], words: str) -> None:
    board = Board()
    with pytest.raises(error, match=words) as info:
        board.parse_move(text)
    assert repr(text.strip()) in str(info.value) or not text
    assert board.hash == Board().hash and not board.history


def test_capture_needs_x() -> None:
    board = Board.from_pieces({"a1": "H", "a4": "s", "e1": "Q", "e9": "q", "f9": "w"})
    with pytest.raises(InvalidMoveError, match="write 'x'"):
        board.parse_move("Ha1-a4")


def test_records_round_trip_and_name_the_game() -> None:
    board = Board()
    for text in ("Wc3-c4;+Sd4", "Df8-e5", "Sd4xe5", "Wg7-g6;+Sf8"):
        board.push_text(text)
    record = write_record(board, {"South": "alice", "North": 'bob "b"'})
    assert record.splitlines()[:4] == [
        '[Game "HiveQueen"]',
        '[South "alice"]',
        '[North "bob \\"b\\""]',
        '[Result "InProgress"]',
    ]
    assert record.splitlines()[4:] == ["Wc3-c4;+Sd4", "Df8-e5", "Sd4xe5", "Wg7-g6;+Sf8"]
    again = read_record(record)
    assert again.hash == board.hash and again.turns() == board.turns()
    games = list(read_records(record.splitlines()))
    assert games[0].headers["North"] == 'bob "b"' and games[0].ok


def test_records_collect_errors_per_game_and_keep_reading() -> None:
    good = write_record(Board())
    board = Board()
    board.push_text("Wc3-c4;+Sd4")
    one = write_record(board)
    text = one + one.replace("Wc3-c4", "Wc3-c5") + '[Game "Chess"]\ne4\n' + good + one.replace("InProgress", "Draw")
    games = list(read_records(text.splitlines()))
    assert [g.ok for g in games] == [True, False, False, True, False]
    assert "line 6, turn 1: 'Wc3-c5;+Sd4'" in games[1].errors[0] and "adjacent vacant" in games[1].errors[0]
    assert "'Chess' is not HiveQueen" in games[2].errors[0]
    assert "Result 'Draw' but the turns end with InProgress" in games[4].errors[0]
    with pytest.raises(InvalidRecordError, match="adjacent vacant"):
        read_record(one.replace("Wc3-c4", "Wc3-c5"))


def test_svg_draws_the_61_cells_and_every_piece() -> None:
    board = Board()
    turn = board.push_text("Wc3-c4;+Sd4")
    svg = board_svg(board, last_turn=turn, highlight=[parse_cell("e5")])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="cell"') == 61
    assert svg.count('class="piece"') == 31
    assert "South 25/25 units" in svg and "North to move" in svg
    assert board._repr_svg_() == board_svg(board)


def test_text_rendering_shows_the_field_and_units() -> None:
    text = str(Board())
    assert text.splitlines()[0] == "9     w h q h w"
    assert text.splitlines()[8] == "1     W H Q H W"
    assert "units South 24/25, North 24/25; South to move" in text


def test_turns_are_written_right_while_the_legal_turns_are_being_listed() -> None:
    board = Board()
    for text in ("Wc3-c4", "Wg7-g6", "Wc4-c5"):
        board.push_text(text)
    listed = [board.move_text(turn) for turn in list(board.legal_moves)]
    while_listing = [board.move_text(turn) for turn in board.legal_moves]
    assert while_listing == listed and not any(text.startswith("?") for text in listed)
    assert board.record() == Board.from_record(board.record()).record()
