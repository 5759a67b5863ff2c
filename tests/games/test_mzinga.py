"""Mzinga's ground truth: perft tables, legal-move lists and illegal moves (testdata/mzinga, MIT, jonthysell/Mzinga).

Mzinga writes some GameStrings with a state or turn that lags behind their moves: they are read with ``strict=False``.
"""

from __future__ import annotations

import pytest

import hive
from hive.games.hive.pieces import GAME_TYPES

from ..shared import mzinga_rows

#: Mzinga's lagging GameStrings are expected here: their warnings are not news.
pytestmark = pytest.mark.filterwarnings("ignore::hive.GameStringWarning")

PERFT_FILES = {str(gt): f"Board_{str(gt).replace('+', '')}_PerftTest.csv" for gt in GAME_TYPES}


def perft_cases(max_depth: dict[str, int]) -> list[tuple[str, int, int]]:
    cases = []
    for game_type, filename in PERFT_FILES.items():
        for _, _, (game_string, depth, count) in mzinga_rows(filename):
            if int(depth) <= max_depth.get(game_type, 4):
                cases.append((game_string, int(depth), int(count)))
    return cases


DEFAULT_DEPTH = {str(gt): 5 for gt in GAME_TYPES}


@pytest.mark.parametrize(("game_string", "depth", "count"), perft_cases(DEFAULT_DEPTH))
def test_perft(game_string: str, depth: int, count: int) -> None:
    assert hive.perft(hive.Board.from_game_string(game_string, strict=False), depth) == count


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_string", "depth", "count"),
    [
        # the plain-Python build counts the base game's (see the sample marker)
        pytest.param(*case, marks=[pytest.mark.sample] if case[0].startswith("Base;") else [])
        for case in perft_cases({str(gt): 6 for gt in GAME_TYPES})
        if case[1] == 6
    ],
)
def test_perft_deep(game_string: str, depth: int, count: int) -> None:
    assert hive.perft(hive.Board.from_game_string(game_string, strict=False), depth) == count


def test_perft_files_cover_every_game_type() -> None:
    assert len(perft_cases({})) == 8 * 5
    assert len(perft_cases(DEFAULT_DEPTH)) == 8 * 6


VALID_MOVE_FILES = [
    "Board_ValidMovesForQueenBeeTest.csv",
    "Board_ValidMovesForSpiderTest.csv",
    "Board_ValidMovesForBeetleTest.csv",
    "Board_ValidMovesForGrasshopperTest.csv",
    "Board_ValidMovesForSoldierAntTest.csv",
    "Board_ValidMovesForMosquitoTest.csv",
    "Board_ValidMovesForLadybugTest.csv",
    "Board_ValidMovesForPillbugTest.csv",
]


def valid_move_cases(filename: str) -> list[object]:
    return [
        pytest.param(game_string, moves, id=f"{filename[21:-8]}-line{number}")
        for _, number, (game_string, moves) in mzinga_rows(filename)
    ]


def expected_moves(board: hive.Board, listed: str) -> set[hive.Move]:
    return {board.parse_uhp(text) for text in listed.split(";") if text.strip()}


@pytest.mark.parametrize(
    ("game_string", "listed"), [case for name in VALID_MOVE_FILES for case in valid_move_cases(name)]
)
def test_valid_moves_for_bug(game_string: str, listed: str) -> None:
    """Every listed move is legal, and the listed pieces have no other legal move."""
    board = hive.Board.from_game_string(game_string, strict=False)
    expected = expected_moves(board, listed)
    pieces = {move.piece for move in expected}
    assert {move for move in board.legal_moves if move.piece in pieces} == expected


FINAL = "Board_ValidMovesFromRealGames2018Final.csv"


def test_2018_final_has_every_position() -> None:
    rows = list(mzinga_rows(FINAL))
    assert len(rows) == 49
    assert [len(gs.split(";")) - 3 for _, _, (gs, _) in rows] == list(range(49))


@pytest.mark.parametrize(("game_string", "listed"), valid_move_cases(FINAL))
def test_valid_moves_2018_final(game_string: str, listed: str) -> None:
    """The complete legal-move list of every position of the 2018 final."""
    board = hive.Board.from_game_string(game_string, strict=False)
    assert set(board.legal_moves) == expected_moves(board, listed)
    assert len(board.legal_moves) == len(expected_moves(board, listed))


INVALID = [
    pytest.param(game_string, move, rule, id=f"line{number}")
    for rule, number, (game_string, move) in mzinga_rows("Board_InvalidMovesByRuleTest.csv")
]


@pytest.mark.parametrize(("game_string", "move", "rule"), INVALID)
def test_invalid_moves_by_rule(game_string: str, move: str, rule: str) -> None:
    """Each move is rejected as illegal, with the rule it breaks as the message."""
    board = hive.Board.from_game_string(game_string, strict=False)
    with pytest.raises(hive.IllegalMoveError) as info:
        board.parse_uhp(move)
    assert str(info.value) == rule
    before = board.game_string()
    with pytest.raises(hive.IllegalMoveError):
        board.push_uhp(move)
    assert board.game_string() == before
