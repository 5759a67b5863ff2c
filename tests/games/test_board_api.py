"""The public API: Move values, legal_moves, push/pop, notation details, options, text drawing."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable

import pytest

import hive

from ..shared import POSITIONS


def test_new_board() -> None:
    board = hive.Board("Base+MLP")
    assert board.state == "NotStarted"
    assert board.game_string() == "Base+MLP;NotStarted;White[1]"
    assert len(board.legal_moves) == 7
    assert all(move.origin is None for move in board.legal_moves)


def test_bad_game_type_names_the_text() -> None:
    with pytest.raises(hive.InvalidGameTypeError, match="Base\\+X"):
        hive.Board("Base+X")
    assert str(hive.Board("base+plm").game_type) == "Base+MLP"


def test_moves_are_hashable_values() -> None:
    board = hive.Board("Base")
    first = board.parse_uhp("wS1")
    again = board.parse_uhp("WS1")
    assert first == again and hash(first) == hash(again)
    assert len({first, again}) == 1
    assert first.piece == "wS1" and first.origin is None
    assert hive.Move("wS1", None, first.destination) == first  # type: ignore[arg-type]
    assert hive.Move.PASS == hive.Move.PASS and not hive.Move.PASS and first


def test_push_pop_and_state() -> None:
    board = hive.Board("Base")
    move = board.push_uhp("wS1")
    assert board.state == "InProgress"
    assert board.turn == hive.BLACK and board.turn_string == "Black[1]"
    assert board.peek() == move
    assert board.pop() == move
    assert board.state == "NotStarted"
    with pytest.raises(IndexError):
        board.pop()


def test_push_rejects_illegal_move_and_keeps_the_board() -> None:
    board = hive.Board.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")
    illegal = hive.Move("wA1", None, board.pos[hive.PIECE_NAMES.index("bS1")])
    before = board.game_string()
    with pytest.raises(hive.IllegalMoveError):
        board.push(illegal)
    assert board.game_string() == before


def test_notation_is_tolerant_of_case_and_spaces() -> None:
    board = hive.Board.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")
    assert board.parse_uhp("  wa1   -ws1 ") == board.parse_uhp("wA1 -wS1")


@pytest.mark.parametrize("text", ["", "wS1 -bS1 extra", "xQ", "wS1 -", "wS9 -wS1", "wA1 -xX", "wA1 --wS1", "wA1 wS1/-"])
def test_malformed_move_strings(text: str) -> None:
    board = hive.Board.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")
    with pytest.raises(hive.InvalidMoveError):
        board.parse_uhp(text)


def test_reference_not_in_play() -> None:
    board = hive.Board.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")
    with pytest.raises(hive.InvalidMoveError, match="bG1 is not in play"):
        board.parse_uhp("wA1 -bG1")


def test_reference_may_be_the_moving_piece() -> None:
    """'wQ wQ\\' (used in Mzinga's puzzles) names the cell east of the queen."""
    board = hive.Board.from_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/")
    move = board.parse_uhp("wQ wQ-")
    assert move == board.parse_uhp("wQ wS1/")


@pytest.mark.parametrize("game_type", [str(gt) for gt in hive.GAME_TYPES])
def test_original_opening_allows_queen_on_turn_one(game_type: str) -> None:
    board = hive.Board(game_type, tournament_opening=False)
    white = board.push_uhp("wQ")
    assert white.piece == "wQ"
    assert board.parse_uhp("bQ wQ-").piece == "bQ"
    tournament = hive.Board(game_type)
    with pytest.raises(hive.IllegalMoveError, match="first turn"):
        tournament.parse_uhp("wQ")


def test_original_opening_perft() -> None:
    # one more bug to place on each side's first turn: 5 first moves, then 5 bugs x 6 cells
    board = hive.Board("Base", tournament_opening=False)
    assert [hive.perft(board, d) for d in range(3)] == [1, 5, 150]


def test_perft_rejects_negative_depth() -> None:
    with pytest.raises(ValueError, match="depth"):
        hive.perft(hive.Board(), -1)


def test_from_game_string_names_the_failing_token() -> None:
    with pytest.raises(hive.InvalidGameStringError, match="token 1 'Bass'"):
        hive.Board.from_game_string("Bass;NotStarted;White[1]")
    with pytest.raises(hive.InvalidGameStringError, match="token 2 'Running'"):
        hive.Board.from_game_string("Base;Running;White[1]")
    with pytest.raises(hive.InvalidGameStringError, match="token 3 'Red\\[1\\]'"):
        hive.Board.from_game_string("Base;NotStarted;Red[1]")
    with pytest.raises(hive.IllegalMoveError, match=r"token 5 'bQ wS1-'.*first turn"):
        hive.Board.from_game_string("Base;InProgress;White[2];wS1;bQ wS1-")
    with pytest.raises(hive.InvalidMoveError, match="token 4 'wZ1'"):
        hive.Board.from_game_string("Base;InProgress;White[2];wZ1")


def test_str_draws_the_hive_with_stacks() -> None:
    board = hive.Board.from_game_string(
        "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bB1 bS1/;wB1 wS1;bB1 bS1"
    )
    text = str(board)
    lines = text.splitlines()
    assert lines[0] == "Base;InProgress;White[5]"
    assert "wQ" in text and "bQ" in text and "wB1+" in text and "bB1+" in text
    assert "stack (bottom < top): wS1 < wB1" in lines
    assert "stack (bottom < top): bS1 < bB1" in lines
    # the four occupied cells are one row: wQ wS1 bS1 bQ, west to east
    row = next(line for line in lines if "wQ" in line)
    assert row.index("wQ") < row.index("wB1+") < row.index("bB1+") < row.index("bQ")
    assert str(hive.Board("Base")).endswith("(empty board)")


def test_game_over_has_no_moves() -> None:
    board = hive.Board.from_game_string(
        "Base;BlackWins;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;"
        "wA2 \\wQ;bA2 \\bG1;wG2 wQ/;bG1 wG2\\"
    )
    assert board.state == "BlackWins"
    assert list(board.legal_moves) == []
    assert board.is_game_over()


def _midgame() -> hive.Board:
    return hive.Board.from_game_string((POSITIONS / "midgame_mlp.txt").read_text())


def test_moves_compare_hash_and_print_as_values() -> None:
    board = hive.Board("Base")
    board.push_uhp("wS1")
    move = board.parse_uhp("bA1 wS1-")
    made = hive.Move("bA1", None, move.destination)  # type: ignore[arg-type]
    assert made == move and (made != move) is False and hash(made) == hash(move) == hash(move.code)
    assert move != hive.Move.PASS and move != move.code and move != (move.piece, None, move.destination)
    assert {move: 1}[made] == 1 and made in board.legal_moves and made in list(board.legal_moves)
    assert (move.piece, move.piece_id, move.origin) == ("bA1", hive.PIECE_NAMES.index("bA1"), None)
    assert repr(move) == f"<Move bA1 hand -> {hive.axial_of(move.destination)}>"  # type: ignore[arg-type]
    assert repr(hive.Move.PASS) == "Move.PASS" and hive.Move.PASS.is_pass and hive.Move.PASS.piece is None
    assert hive.Move.PASS is hive.Move.PASS and move.PASS is hive.Move.PASS
    played = board.push_uhp("bS1 wS1-")
    assert repr(board.pop()) == repr(played) and played.origin is None


def test_moves_are_shared_values_per_code() -> None:
    board = _midgame()
    moves = list(board.legal_moves)
    assert [m.code for m in moves] == board.generate() == board.legal_codes()
    assert all(m is hive.Move.from_code(m.code) for m in moves)
    assert all(a is b for a, b in zip(moves, board.legal_moves, strict=True))


def test_moves_pickle_and_copy_as_the_shared_value() -> None:
    import copy
    import pickle

    for move in [*_midgame().legal_moves, hive.Move.PASS]:
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            assert pickle.loads(pickle.dumps(move, protocol)) is move
        assert copy.copy(move) is move and copy.deepcopy([move])[0] is move


def test_legal_moves_follow_the_position() -> None:
    board = _midgame()
    before = list(board.legal_moves)
    assert len(board.legal_moves) == board.legal_count() == board.count_moves() == len(before) == 64
    board.push(before[0])
    after = list(board.legal_moves)
    assert [m.code for m in after] == board.generate() and after != before
    assert before[0] not in board.legal_moves or before[0] in after
    board.pop()
    assert list(board.legal_moves) == before
    board._kept_ply = -1  # forgetting the kept moves only costs a new generation
    assert list(board.legal_moves) == before and all(board.has_move(m.code) for m in before)


@pytest.mark.skipif(hive.COMPILED, reason="counts the plain build's generate(); the compiled one fills a C buffer")
def test_a_loop_over_the_children_lists_each_position_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """python-chess's loop (push, list the child's moves, pop) generates the parent's moves once, not again for
    every push's check: the board keeps the moves of the position before the last one too."""
    from hive.games.hive.position import Position

    board = _midgame()
    fresh = [list(hive.Board.from_game_string(board.game_string()).legal_moves)]
    calls = 0
    generate = Position.generate

    def counted(self: Position) -> list[int]:
        nonlocal calls
        calls += 1
        return generate(self)

    monkeypatch.setattr(Position, "generate", counted)
    children = []
    for move in board.legal_moves:
        board.push(move)
        children.append(list(board.legal_moves))
        board.pop()
    assert calls == 1 + len(children) == 65
    assert list(board.legal_moves) == fresh[0] and calls == 65  # the parent's, still kept
    board.push(fresh[0][5])
    assert list(board.legal_moves) == children[5] and calls == 66  # a new position: listed again


def test_iterating_legal_moves_survives_a_push() -> None:
    board = _midgame()
    expected = board.generate()
    seen = []
    for move in board.legal_moves:
        seen.append(move.code)
        board.push(move)
        board.pop()
    assert seen == expected


# Black to move with 278 legal moves: more than the compiled iterators hold themselves (it falls back to a list)
WIDE = (
    "Position;Base+MLP;Black[21];bS2@4,0 bG1@4,1 bQ@2,2 bB1@3,2 bG2@1,3 bS1@3,3 bM@5,3 bA3@0,4 wA1@3,4 wA3@4,4 "
    "wQ@3,5 bA1@1,6 wS1@2,6 wM@2,7 wG2@3,7 wS2@1,8 wL@3,8 wG3@4,8 wA2@0,9 wP@3,9 wG1@4,9 bA2@5,9 wB1@3,10 "
    "wB2@2,11;last=wA2"
)
# Black to move with 158 legal moves (a random game's): more than the small iterator holds (120), so the wide one
WIDER_THAN_SMALL = (
    "Position;Base+MLP;Black[28];wS2@3,0 wS1@4,0 bA2@5,0 bG1@6,0 wG3@4,1 bS1@3,2 wL@4,2 wM@5,2 wB2@5,3 wQ@6,3 "
    "wP@7,3 wA3@9,3 bS2@2,4 wA2@4,4 wG2@7,4 wB1@8,4 bA3@9,4 wA1@1,5 bQ@3,5 bM@4,5 bA1@6,5 bL@1,6 wG1/bB1@2,6 "
    "bP@0,7;last=wA3"
)


@pytest.mark.parametrize(
    ("make", "count"),
    [
        (_midgame, 64),
        (lambda: hive.Board.from_position(WIDER_THAN_SMALL), 158),
        (lambda: hive.Board.from_position(WIDE), 278),
    ],
    ids=["64 moves", "158 moves", "278 moves"],
)
def test_iterating_legal_moves_is_a_snapshot_of_the_position(make: Callable[[], hive.Board], count: int) -> None:
    board = make()
    expected = board.generate()
    assert len(expected) == count  # each side of the compiled iterators' 120 and 256 moves
    iterator = iter(board.legal_moves)
    first = next(iterator)
    board.push(first)  # the board moves on and generates the next position's moves
    assert len(board.legal_moves) > 0
    rest = [move.code for move in iterator]
    assert [first.code, *rest] == expected and len(set(expected)) == len(expected)
    board.pop()
    assert [move.code for move in board.legal_moves] == expected


def test_count_moves_matches_generate_along_a_game() -> None:
    import random

    rng = random.Random(18)
    board = hive.Board("Base+MLP")
    while not board.is_game_over() and board.ply < 150:
        codes = board.generate()
        assert board.count_moves() == len(codes) == len(board.legal_moves)
        assert all(board.has_move(code) for code in codes) and not board.has_move(-5)
        board.push(rng.choice(list(board.legal_moves)))
    assert board.count_moves() == len(board.generate())


def test_pass_and_game_over_counts() -> None:
    from ..positions import PASS_ONLY

    board = hive.Board.from_game_string(PASS_ONLY)
    assert board.count_moves() == 1 and list(board.legal_moves) == [hive.Move.PASS]
    assert board.parse_uhp("pass") is hive.Move.PASS
    over = hive.Board.from_game_string(
        "Base;BlackWins;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;"
        "wA2 \\wQ;bA2 \\bG1;wG2 wQ/;bG1 wG2\\"
    )
    assert over.count_moves() == over.legal_count() == 0 and not over.legal_moves


def test_a_gamestring_must_agree_with_its_moves_unless_read_leniently() -> None:
    """A state or turn that contradicts the moves is an error by default; strict=False reads the moves with a
    warning, as other programs' lagging GameStrings need."""
    for text, said in (
        ("Base;WhiteWins;White[2];wS1;bS1 wS1-", "it says the game is WhiteWins, but its moves leave it InProgress"),
        ("Base;InProgress;Black[9];wS1", "it says Black[9], but after its 1 move it is Black[1]"),
    ):
        with pytest.raises(hive.InvalidGameStringError, match=re.escape(said)):
            hive.Board.from_game_string(text)
        with pytest.warns(hive.GameStringWarning, match=re.escape(said)):
            lenient = hive.Board.from_game_string(text, strict=False)
        assert lenient.move_texts() == text.split(";")[3:]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hive.Board.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")  # agreeing: no warning
