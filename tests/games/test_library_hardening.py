"""The library's public entry points refuse bad values with the documented errors, in both builds."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

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


@pytest.mark.parametrize("code", [99_999_999, -5, 1 << 40, 30])
def test_push_of_a_code_no_game_has_is_an_illegal_move(code: int) -> None:
    board = hive.Board("Base")
    board.push_uhp("wS1")
    with pytest.raises(hive.IllegalMoveError, match="That is not a move of this game"):
        board.push(Move.from_code(code))
    assert board.game_string() == "Base;InProgress;Black[1];wS1"


def _hive_board() -> hive.Board:
    board = hive.Board("Base+M", tournament_opening=False, repetition_draw=True)
    board.push_uhp("wQ")
    board.push(board.parse_uhp("bS1 wQ-"))
    return board


def _hivequeen_board() -> Any:
    board = hive.find_game("HiveQueen")()
    board.push_text("Wc3-c4;+Sd4")
    return board


@pytest.mark.parametrize("make", [_hive_board, _hivequeen_board])
@pytest.mark.parametrize("duplicate", [lambda b: pickle.loads(pickle.dumps(b)), copy.deepcopy, copy.copy])
def test_boards_pickle_and_copy_in_both_builds(make: Callable[[], Any], duplicate: Callable[[Any], Any]) -> None:
    board = make()
    twin = duplicate(board)
    assert type(twin) is type(board)
    assert twin.record() == board.record() and twin.move_texts() == board.move_texts()
    for option in type(board).rule_options:
        assert getattr(twin, option) == getattr(board, option)
    twin.pop()
    assert len(board.move_stack) == len(twin.move_stack) + 1


class _Index:
    """An int-like value (as NumPy's integers are): codes are taken through ``__index__``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


@pytest.mark.parametrize("code", ["31", 3.0, None, 1 << 63, -(1 << 63) - 1, 1 << 80])
def test_from_code_refuses_what_is_not_a_64_bit_code(code: object) -> None:
    with pytest.raises(InvalidMoveError, match=f"Invalid move code {code!r}: expected an int of 64 bits"):
        Move.from_code(code)  # type: ignore[arg-type]


def test_from_code_takes_int_like_codes() -> None:
    board = hive.Board("Base")
    code = board.generate()[0]
    assert Move.from_code(_Index(code)) is Move.from_code(code)  # type: ignore[arg-type]
    assert Move.from_code((1 << 63) - 1).code == (1 << 63) - 1 and Move.from_code(-(1 << 63)).code == -(1 << 63)


def test_moves_pickle_across_the_builds() -> None:
    import os
    import subprocess
    import sys

    board = hive.Board("Base+MLP")
    board.push_uhp("wS1")
    moves = [*board.legal_moves, Move.PASS]
    script = "import pickle, sys, hive; print(hive.COMPILED, [repr(m) for m in pickle.load(sys.stdin.buffer)])"
    for pure in ("", "1"):
        out = subprocess.run(
            [sys.executable, "-c", script],
            input=pickle.dumps(moves),
            env=dict(os.environ, HIVE_PURE=pure),
            capture_output=True,
            timeout=120,
            check=False,
        )
        assert out.returncode == 0, out.stderr.decode()
        assert out.stdout.decode().split(" ", 1)[1].strip() == str([repr(m) for m in moves])


@pytest.mark.parametrize("code", [-1, 30, 1 << 40, 29 | 1025 << 5])
def test_moves_of_codes_no_game_has_still_print(code: int) -> None:
    assert repr(Move.from_code(code)) == f"<Move of code {code}, not a move of Hive>"


@pytest.mark.parametrize("text", ["x" * 300, "wS1 " + "y" * 50_000, "wS1\n-" + "\t" * 1000 + "bQ"])
def test_errors_quote_a_long_move_text_in_part(text: str) -> None:
    board = hive.Board("Base")
    with pytest.raises(ValueError) as caught:
        board.push_text(text)
    message = str(caught.value)
    assert len(message) < 400, message
    if len(" ".join(text.split())) > 100:  # runs of white space are quoted as one space
        assert f"({len(text):,} characters)" in message


@pytest.mark.parametrize("name", ["Base+MLP", "HiveQueen"])
@pytest.mark.parametrize("value", [None, b"wS1", 7])
def test_every_game_s_verbs_refuse_what_is_not_text_or_a_move_with_its_own_errors(name: str, value: object) -> None:
    board = hive.find_game(name)()
    kind = type(value).__name__
    with pytest.raises(hive.InvalidMoveError, match=f"not {kind}"):
        board.parse_move(value)  # type: ignore[arg-type]
    with pytest.raises(hive.InvalidMoveError, match=f"not {kind}"):
        board.push_text(value)  # type: ignore[arg-type]
    with pytest.raises(hive.InvalidMoveError, match=f"not {kind}"):
        board.push(value)
    with pytest.raises(hive.InvalidRecordError, match=f"not {kind}"):
        type(board).from_record(value)  # type: ignore[arg-type]
    with pytest.raises(hive.InvalidPositionError, match=f"not {kind}"):
        type(board).from_position(value)  # type: ignore[arg-type]
    assert board.move_stack == []


@pytest.mark.parametrize("value", [None, 3, b"Base"])
def test_a_game_type_that_is_not_text_is_an_invalid_game_type(value: object) -> None:
    with pytest.raises(
        hive.InvalidGameTypeError, match=f"Expected a game type such as 'Base\\+MLP', not {type(value).__name__}"
    ):
        hive.Board(value)  # type: ignore[arg-type]
    with pytest.raises(hive.InvalidGameStringError, match=f"not {type(value).__name__}"):
        hive.Board.from_game_string(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    ["Base;NotStarted;White[1];wS\ud800", "Base\ud800", "Base;InProgress;Black[1];wS1;\x1b[2J", "Position;\ud800"],
)
def test_errors_on_text_that_cannot_be_printed_show_it_escaped(text: str) -> None:
    with pytest.raises(ValueError) as raised:
        hive.Board.from_game_string(text)
    message = str(raised.value)
    message.encode("utf-8")  # a lone surrogate could not be printed, nor written to a log
    assert message.isprintable(), message
