"""The library's public entry points refuse bad values with the documented errors, in both builds."""

from __future__ import annotations

import pytest

import hive
from hive import InvalidMoveError, Move


@pytest.mark.parametrize(
    ("piece", "origin", "destination", "message"),
    [
        (True, None, 0, "Unknown piece True"),
        (3.0, None, 0, "Unknown piece 3.0"),
        ("wZ", None, 0, "Unknown piece 'wZ'"),
        (28, None, 0, "Unknown piece 28"),
        ("wS1", True, 0, "Invalid origin True"),
        ("wS1", None, 99999, "Invalid destination 99999"),
        ("wS1", None, -1, "Invalid destination -1"),
        ("wS1", 1024, 0, "Invalid origin 1024"),
        ("wS1", None, None, "Invalid destination None"),
    ],
)
def test_move_construction_is_strict(piece: object, origin: object, destination: object, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        Move(piece, origin, destination)  # type: ignore[arg-type]


def test_good_moves_are_values() -> None:
    assert Move("WS1", None, 0) == Move(hive.PIECE_NAMES.index("wS1"), None, 0)
    board = hive.Board("Base")
    board.push(Move("wS1", None, hive.cell_of(0, 0)))
    assert board.game_string() == "Base;InProgress;Black[1];wS1"


@pytest.mark.parametrize("code", [-12345, 1 << 20, 99_999_999, 0 | 5 << 5 | 0 << 16])
def test_make_refuses_codes_that_do_not_fit(code: int) -> None:
    board = hive.Board.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")
    before = board.game_string()
    with pytest.raises(ValueError, match=f"Move code {code} does not fit this position"):
        board.make(code)
    assert board.game_string() == before
    assert hive.perft(board, 2) == 225  # the tables are whole


def test_make_takes_every_generated_code() -> None:
    board = hive.Board("Base+MLP")
    for code in board.generate():
        board.make(code)
        board.unmake()
    assert board.game_string() == "Base+MLP;NotStarted;White[1]"
