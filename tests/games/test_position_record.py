"""Position records of both games: every position of real games written, read back and compared with the board
that reached it by moves (legal moves, hash, text); the rules a position must keep; and the tools that take a
GameString taking a position too (records, UHP, ``hive perft``, the search)."""

from __future__ import annotations

import pickle
import random

import pytest

import hive
from hive.cli import main
from hive.games.hive import Position, cell_of
from hive.games.hive.geometry import axial_of
from hive.games.hive.state import HAND, PASS
from hive.games.hivequeen import Board as QueenBoard
from hive.records import read_game_strings, read_pgn
from hive.search import Limits
from hive.uhp import UHPEngine

from ..shared import POSITIONS, TESTDATA, mzinga_rows

RECORDS = TESTDATA / "records"
GAMES = ["HV-Dumbot-Kaur50-2023-01-17-0059.pgn", "hivegame_valid_p_game.pgn", "hivegame_valid_plm_draw.pgn"]
MIDGAME = (POSITIONS / "midgame_mlp.txt").read_text(encoding="utf-8").strip()


def _game_boards(name: str) -> hive.Board:
    with open(RECORDS / name, encoding="utf-8") as handle:
        (game,) = list(read_pgn(handle))
    assert game.ok, game.errors
    return game.board


def _shifted(code: int, dq: int, dr: int) -> int:
    if code == PASS:
        return code
    origin, destination = code >> 5 & 2047, code >> 16

    def shift(cell: int) -> int:
        q, r = axial_of(cell)
        return cell_of(q + dq, r + dr)

    return code & 31 | (origin if origin == HAND else shift(origin)) << 5 | shift(destination) << 16


def _hash_by_moves(board: hive.Board, setup: hive.Board) -> int:
    """The hash of ``board``'s moves played again with the hive moved onto the set-up board's cells."""
    pid = next(p for p in range(28) if board.pos[p] >= 0)
    (q0, r0), (q1, r1) = axial_of(board.pos[pid]), axial_of(setup.pos[pid])
    replay = Position(board.game_type, board.tournament_opening, board.repetition_draw)
    for code in board.history:
        replay.make(_shifted(code, q1 - q0, r1 - r0))
    return replay.hash


def _moves(board: hive.Board) -> list[str]:
    return sorted(board.move_text(move) for move in board.legal_moves)


def _check_round_trip(board: hive.Board) -> None:
    text = board.position_text()
    setup = hive.Board.from_position(text, tournament_opening=board.tournament_opening)
    assert setup.position_text() == text
    assert _moves(setup) == _moves(board), text
    assert (setup.state, setup.turn_string, setup.move_stack) == (board.state, board.turn_string, [])
    assert setup.hash == setup.compute_hash()
    if board.history:
        assert setup.hash == _hash_by_moves(board, setup), text
    if not board.is_game_over():
        reply = board.move_text(next(iter(board.legal_moves)))
        board.push_text(reply)
        setup.push_text(reply)
        assert setup.position_text() == board.position_text()
        assert setup.hash == setup.compute_hash()
        board.pop()


@pytest.mark.parametrize("name", GAMES)
def test_every_position_of_a_real_game_reads_back_to_the_same_position(name: str) -> None:
    final = _game_boards(name)
    board = hive.Board(final.game_type, tournament_opening=final.tournament_opening)
    _check_round_trip(board)
    for move in final.move_stack:
        board.push(move)
        _check_round_trip(board)


@pytest.mark.slow
def test_every_position_of_mzinga_real_games_reads_back() -> None:
    seen = 0
    for _case, _line, fields in mzinga_rows("Board_ValidMovesFromRealGames2018Final.csv"):
        final = hive.Board.from_game_string(fields[0])
        board = hive.Board(final.game_type)
        for move in final.move_stack:
            board.push(move)
            _check_round_trip(board)
            seen += 1
    assert seen > 1000


@pytest.mark.parametrize("name", ["midgame_base.txt", "midgame_mlp.txt", "midgame2_mlp.txt"])
def test_perft_from_a_set_up_position_is_the_perft_of_the_game(name: str) -> None:
    board = hive.Board.from_game_string((POSITIONS / name).read_text(encoding="utf-8").strip())
    setup = hive.Board.from_position(board.position_text())
    assert [setup.perft(depth) for depth in range(3)] == [board.perft(depth) for depth in range(3)]


def test_the_record_is_canonical_whatever_the_order_and_place_given() -> None:
    text = "Position;Base+MLP;White[5];bQ@1,0 wQ@0,1 wS1/bB1@1,1 wG1@2,1;last=bB1"
    shuffled = "position;base+mlp;white[5]; wG1@12,-9  wS1/bB1@11,-9 bQ@11,-10 wQ@10,-9 ;LAST=bB1"
    assert hive.Board.from_position(shuffled).position_text() == text
    assert hive.Board.from_position(text).position_text() == text


def test_a_set_up_board_records_its_position_then_its_moves() -> None:
    start = hive.Board.from_game_string(MIDGAME)
    board = hive.Board.from_position(start.position_text())
    with pytest.raises(IndexError):
        board.pop()
    first = board.push_text("bS1 \\bA1")
    second = next(iter(board.legal_moves))
    text = board.move_text(second)
    board.push(second)
    played = [first, second]
    record = board.record()
    assert record == start.position_text() + f";bS1 \\bA1;{text}"
    again = hive.Board.from_record(record)
    assert again.move_stack == played == board.move_stack
    assert again.record() == record and again.hash == board.hash
    assert board.copy().record() == record
    assert pickle.loads(pickle.dumps(board)).record() == record
    assert repr(board) == f"Board.from_game_string({record!r})"
    board.pop()
    board.pop()
    assert board.position_text() == start.position_text()
    with pytest.raises(IndexError):
        board.pop()


def test_the_start_as_a_position_takes_its_moves_with_or_without_the_empty_field() -> None:
    board = hive.Board.from_position("Position;Base;White[1];")
    assert (board.state, board.position_text()) == ("NotStarted", "Position;Base;White[1];")
    board.push_text("wS1")
    assert board.record() == "Position;Base;White[1];;wS1"
    for text in ("Position;Base;White[1];;wS1", "Position;Base;White[1];wS1", "Position;Base;White[1]; ;wS1"):
        assert hive.Board.from_record(text).record() == board.record()


def test_ordinary_game_strings_are_unchanged() -> None:
    record = hive.Board.from_game_string(MIDGAME).record()
    assert record.startswith("Base+MLP;InProgress;Black[9];wP;bB1 \\wP;")
    assert hive.Board.from_game_string(record).record() == record
    assert hive.Board("Base").record() == "Base;NotStarted;White[1]"


def test_stacks_are_written_bottom_first_and_their_tops_move() -> None:
    text = "Position;Base;White[6];wQ@1,0 bQ/wB1/bB1@2,0 wS1@0,1 bS1@3,0 wA1@0,0 bA1@4,0"
    board = hive.Board.from_position(text)
    assert board.position_text() == "Position;Base;White[6];wA1@0,0 wQ@1,0 bQ/wB1/bB1@2,0 bS1@3,0 bA1@4,0 wS1@0,1"
    assert [hive.PIECE_NAMES[p] for p in board.stack(board.pos[hive.PIECE_NAMES.index("bB1")])] == ["bQ", "wB1", "bB1"]
    assert not any(board.move_text(m).startswith("wB1") for m in board.legal_moves)  # covered by bB1
    board.push_text("wA1 bA1-")
    board.push_text("bB1 bS1")
    assert "bQ/wB1@2,0" in board.position_text() and "bS1/bB1@3,0" in board.position_text()


def test_a_finished_position_is_set_up_finished() -> None:
    ring = "wQ@1,1 bA1@2,0 bA2@2,1 bA3@1,2 bS1@0,2 bS2@0,1 bQ@1,0 wS1@3,0 wS2@3,1 wA1@4,0"
    board = hive.Board.from_position(f"Position;Base;White[7];{ring}")
    assert board.state == "BlackWins" and not board.legal_moves


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Base;InProgress;White[1]", "starts with 'Position'"),
        ("Position;Base", "'Position;Base' is not written 'Position;<game type>;<turn>;<stacks>[;last=<piece>]'"),
        ("Position;Chess;White[1];", "game type 'Chess' unknown"),
        ("Position;Base;Green[3];wQ@0,0", "turn 'Green[3]' is not a turn"),
        ("Position;Base;White[0];", "turn number must be 1 to 10,000"),
        ("Position;Base;White[3];wQ@0,0 bQ@5,5", "two hives: the stack at 0,0 (wQ) and the one at 5,5 (bQ)"),
        (
            "Position;Base;White[3];wQ@0,0 bQ@1,0 wQ@2,0",
            "White has 2 Queen Bees (wQ at 0,0 and in 'wQ@2,0'); Base has 1",
        ),
        ("Position;Base;White[3];wS1@0,0 bQ@1,0 wS1/bB1@2,0", "wS1 is given twice (wS1 at 0,0 and in 'wS1/bB1@2,0')"),
        ("Position;Base;White[3];wQ@0,0 bQ@1,0 wS3@2,0", "White has 3 Spiders ('wS3'); Base has 2"),
        ("Position;Base;White[3];wQ@0,0 bQ@1,0 wM@2,0", "White has a Mosquito ('wM'); Base has none"),
        ("Position;Base;White[3];wQ@0,0 bQ@1,0 wX@2,0", "unknown piece 'wX'"),
        ("Position;Base;White[3];wQ@0,0 bQ@1,0 wS2@-1,0", "wS2 is in play without wS1"),
        ("Position;Base;White[3];wQ@0,0 bQ@1,0 wS1@x,0", "stack 'wS1@x,0' is not written"),
        ("Position;Base;White[3];wQ@0,0 bQ@1,0 wS1@0,0", "cell 0,0 is given twice"),
        ("Position;Base;White[4];wQ@0,0 bQ@1,0 wB1/wS1@-1,0", "wS1 is on top of wB1"),
        ("Position;Base;White[4];wS1/bB1@0,0 wQ@-1,0 bS1@1,0", "bB1 is on the hive at 0,0 but Black's Queen Bee"),
        ("Position;Base;White[2];wQ@0,0 bQ@1,0 wS1@-1,0 wS2@-2,0", "White has 3 pieces in play at White[2]"),
        ("Position;Base;Black[1];", "White has no piece in play at Black[1]"),
        (
            "Position;Base;White[5];wS1@0,0 wS2@-1,0 wA1@-2,0 wA2@-3,0 bQ@1,0",
            "White's Queen Bee is not placed by White's fourth turn",
        ),
        ("Position;Base;Black[1];wQ@0,0", "tournament opening forbids the Queen on a first turn"),
        ("Position;Base;White[3];wS1@-1,0 wQ@0,0 bQ@1,0 bA1@2,0;last=bS1", "last=bS1: bS1 is not in play"),
        ("Position;Base;White[4];wS1@-1,0 wQ/bB1@0,0 bQ@1,0;last=wQ", "wQ is under bB1"),
        ("Position;Base;White[3];wS1@-1,0 wQ@0,0 bQ@1,0 bA1@2,0;last=wQ", "names a piece of White, the side to move"),
        ("Position;Base;White[3];wS1@-1,0 wQ@0,0 bQ@1,0 bA1@2,0;wA1 -wS1", "'wA1 -wS1' follows the position"),
    ],
)
def test_positions_against_the_rules_are_refused_naming_the_rule(text: str, message: str) -> None:
    with pytest.raises(hive.InvalidPositionError, match=r"^Invalid position: ") as caught:
        hive.Board.from_position(text)
    assert message in str(caught.value)
    assert isinstance(caught.value, hive.InvalidRecordError)


def test_messages_quote_at_most_100_characters() -> None:
    with pytest.raises(hive.InvalidPositionError) as caught:
        hive.Board.from_position("Position;Base;White[3];wQ@0,0 bQ@1,0 " + "x" * 5000 + "@0,0")
    assert "(5,004 characters)" in str(caught.value) and len(str(caught.value)) < 400


def test_the_original_opening_allows_a_first_queen_and_a_pillbug_throw_is_kept() -> None:
    board = hive.Board.from_position("Position;Base;Black[1];wQ@0,0", tournament_opening=False)
    assert board.position_text() == "Position;Base;Black[1];wQ@0,0"
    thrown = "Position;Base+P;White[5];wQ@0,0 wS1@1,0 wA1@-1,1 bP@2,0 bQ@3,0 bA1@4,0 wB1@2,-1;last=wB1"
    board = hive.Board.from_position(thrown)
    assert not any(board.move_text(m).startswith("wB1") for m in board.legal_moves)
    free = hive.Board.from_position(thrown.replace(";last=wB1", ""))
    assert any(free.move_text(m).startswith("wB1") for m in free.legal_moves)
    assert board.hash != free.hash


def test_the_search_plays_from_a_set_up_position() -> None:
    for spec, text in (
        (hive.find_game("Base+MLP"), hive.Board.from_game_string(MIDGAME).position_text()),
        (hive.find_game("HiveQueen"), "Position;HiveQueen;North[20];Qc1 Wa1 Wb1 Sd3;Qg9 Hh9 Wi9 Wh8 Sf6"),
    ):
        board = type(spec()).from_position(text)
        result = spec.ai.search(board, Limits(depth=2), seed=1)
        assert board.is_legal(result.move)
        assert board.position_text() == text


def test_uhp_newgame_takes_a_position() -> None:
    text = hive.Board.from_game_string(MIDGAME).position_text()
    engine = UHPEngine()
    assert engine.handle(f"newgame {text}") == [text, "ok"]
    moves = engine.handle("validmoves")[0].split(";")
    assert sorted(moves) == _moves(hive.Board.from_game_string(MIDGAME))
    assert engine.handle("play bS1 \\bA1") == [f"{text};bS1 \\bA1", "ok"]
    best = engine.handle("bestmove depth 2")
    assert len(best) == 2 and best[0] in {m for m in engine.handle("validmoves")[0].split(";")}
    assert engine.handle("undo") == [text, "ok"]
    assert engine.handle(f"newgame {text};bS1 \\bA1") == [f"{text};bS1 \\bA1", "ok"]
    refused = engine.handle("newgame Position;Base;White[3];wQ@0,0 bQ@5,5")
    assert refused[0].startswith("err Invalid position: two hives") and refused[1] == "ok"


def test_hive_perft_counts_from_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    board = hive.Board.from_game_string(MIDGAME)
    assert main(["perft", board.position_text(), "2"]) == 0
    counts = [int(line.split()[1]) for line in capsys.readouterr().out.splitlines()]
    assert counts == [board.perft(depth) for depth in range(3)]
    assert main(["perft", "Position;Base;Black[1];", "1"]) == 2
    assert "White has no piece in play" in capsys.readouterr().err


def test_game_string_files_take_position_lines() -> None:
    text = hive.Board.from_game_string(MIDGAME).position_text()
    games = list(read_game_strings([f"{text};bS1 \\bA1;wS1 wL/", "Position;Base;Black[1];"]))
    assert games[0].ok and games[0].moves == ["bS1 \\bA1", "wS1 wL/"]
    assert games[0].board.record() == f"{text};bS1 \\bA1;wS1 wL/"
    assert "White has no piece in play" in games[1].errors[0]


# ----------------------------------------------------------------------
# HiveQueen


def _queen_games(seed: int, turns: int) -> list[QueenBoard]:
    spec = hive.find_game("HiveQueen")
    rng = random.Random(seed)
    board = QueenBoard()
    boards = [board.copy()]
    while len(boards) <= turns and not board.is_game_over():
        board.push(spec.ai.random_move(board, rng))
        boards.append(board.copy())
    return boards


def _queen_moves(board: QueenBoard) -> list[str]:
    return sorted(board.move_text(turn) for turn in board.legal_movements)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_hivequeen_position_of_a_game_reads_back(seed: int) -> None:
    for board in _queen_games(seed, 40):
        text = board.position_text()
        setup = QueenBoard.from_position(text)
        assert setup.position_text() == text
        assert (setup.hash, setup.state, setup.turn, setup.quiet) == (board.hash, board.state, board.turn, board.quiet)
        assert setup.hash == setup.compute_hash()
        assert _queen_moves(setup) == _queen_moves(board)


def test_the_usual_hivequeen_setup_as_a_position() -> None:
    text = QueenBoard().position_text()
    assert text.startswith("Position;HiveQueen;South[1];Qc1 Hb1 Hd1 Dc2 Dd2 ")
    assert QueenBoard.from_position(text).hash == QueenBoard().hash


def test_a_hivequeen_record_from_a_position_reads_back() -> None:
    text = "Position;HiveQueen;North[20];Qc1 Wa1 Wb1 Sd3;Qg9 Hh9 Wi9 Wh8 Sf6;quiet=7"
    board = QueenBoard.from_position(text)
    with pytest.raises(IndexError):
        board.pop()
    board.push_text(board.move_text(next(iter(board.legal_moves))))
    record = board.record({"North": "easy"})
    assert f'[Position "{text}"]' in record
    again = QueenBoard.from_record(record)
    assert again.record({"North": "easy"}) == record and again.hash == board.hash
    assert again.move_stack == board.move_stack
    assert QueenBoard.from_record(text).position_text() == text
    assert pickle.loads(pickle.dumps(board)).record() == board.record()
    assert board.copy().record() == board.record()
    with pytest.raises(hive.InvalidRecordError, match="Result 'SouthWins' but"):
        QueenBoard.from_record(record.replace('"InProgress"', '"SouthWins"'))


def test_a_hivequeen_side_that_moved_without_a_queen_has_lost() -> None:
    board = QueenBoard.from_position("Position;HiveQueen;South[9];Qc1 Wa1;Hg9 Wi9")
    assert board.state == "SouthWins" and board.outcome() is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Position;Hive;South[1];Qc1;Qg9", "game type 'Hive' unknown"),
        (
            "Position;HiveQueen;South[1];Qc1",
            "is not written 'Position;HiveQueen;<turn>;<South's pieces>;<North's pieces>",
        ),
        ("Position;HiveQueen;West[1];Qc1;Qg9", "turn 'West[1]' is not a turn"),
        ("Position;HiveQueen;South[1];Qc1 Xa1;Qg9", "unknown piece 'X' in 'Xa1'"),
        ("Position;HiveQueen;South[1];Qc1 Wz1;Qg9", "bad cell 'z1' in 'Wz1'"),
        ("Position;HiveQueen;South[1];Qc1 Wa1;Qg9 Wa1", "cell a1 is given twice"),
        ("Position;HiveQueen;South[1];Qc1 Qa1;Qg9", "South has 2 Queens; HiveQueen has 1"),
        ("Position;HiveQueen;South[1];Qc1;Qg9 He9 Hf9 Hh9", "North has 3 Highborns; HiveQueen has 2"),
        (
            "Position;HiveQueen;South[9];Qc1 Wa1 Wb1 Wc2 Wd1 We1 Wa2 Wb2 Wd2 We2;Qg9",
            "South has 9 Workers; HiveQueen allows 8 on the field",
        ),
        ("Position;HiveQueen;South[9];Hc1;Hg9", "neither South nor North has a Queen"),
        ("Position;HiveQueen;South[2];Qc1;Qg9;quiet=9", "quiet='9' is not a number of turns from 0 to the 2"),
        ("Position;HiveQueen;South[2];Qc1;Qg9;Wc3-c4", "'Wc3-c4' follows the position"),
    ],
)
def test_hivequeen_positions_against_the_rules_are_refused(text: str, message: str) -> None:
    with pytest.raises(hive.InvalidPositionError, match=r"^Invalid position: ") as caught:
        QueenBoard.from_position(text)
    assert message in str(caught.value)


def test_every_game_has_the_two_verbs() -> None:
    for spec in (hive.find_game("Base"), hive.find_game("Base+MLP"), hive.find_game("HiveQueen")):
        board = spec()
        text = board.position_text()
        assert hive.position_records.is_position_record(text)
        assert type(board).from_position(text).position_text() == text


def test_a_game_spec_sets_up_its_own_positions_only() -> None:
    board = hive.find_game("Base").from_position("Position;Base;Black[1];wS1@0,0", tournament_opening=False)
    assert board.position_text() == "Position;Base;Black[1];wS1@0,0"
    with pytest.raises(hive.InvalidPositionError, match=r"is a position of Base\+M, not of Base"):
        hive.find_game("Base").from_position("Position;Base+M;Black[1];wS1@0,0")
    with pytest.raises(hive.UnknownGameError, match="no rule option colour"):
        hive.find_game("HiveQueen").from_position("Position;HiveQueen;South[1];Qc1;Qg9", colour=1)
    assert hive.find_game("hivequeen").from_position("Position;HiveQueen;South[1];Qc1;Qg9").turn == 0


def test_a_hivequeen_board_from_pieces_records_where_it_started() -> None:
    board = QueenBoard.from_pieces({"c1": "Q", "a1": "W", "b1": "W", "g9": "q", "i9": "w"}, turn=1, quiet=4)
    assert board.position_text() == "Position;HiveQueen;North[3];Qc1 Wa1 Wb1;Qg9 Wi9;quiet=4"
    board.push_text(board.move_text(next(iter(board.legal_moves))))
    assert QueenBoard.from_record(board.record()).record() == board.record()
