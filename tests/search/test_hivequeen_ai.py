"""The HiveQueen AI: tactics, levels, legal turns, draw aversion."""

from __future__ import annotations

import random

import pytest

from hive.games.hive import Searcher as HiveSearcher
from hive.games.hivequeen import Board, Searcher
from hive.games.hivequeen.ai import LEVELS, best_turn, random_move
from hive.games.hivequeen.evaluation import evaluate
from hive.search import LEVEL_NAMES, Limits


def test_takes_the_queen_when_it_wins() -> None:
    # North has no Drone: after losing its Queen it cannot promote
    board = Board.from_pieces(
        {"a1": "H", "a5": "q", "b5": "h", "c5": "w", "e1": "Q", "b1": "W", "c1": "W", "e9": "w", "f9": "w", "g9": "h"}
    )
    turn = best_turn(board, "easy")
    assert board.move_text(turn).startswith("Ha1xa5")
    board.push(turn)
    assert board.state == "InProgress"
    board.push(random_move(board, random.Random(1)))
    assert board.state == "SouthWins"


def test_promotes_when_its_queen_is_gone() -> None:
    board = Board.from_pieces({"a1": "H", "c3": "D", "e2": "W", "e1": "W", "e9": "q", "f9": "w", "f8": "w"})
    turn = best_turn(board, "easy")
    assert turn.promote


def test_escapes_a_threat_to_its_queen() -> None:
    # North's Highborn on e9 attacks South's Queen on e5 along the file; South has no Drone
    board = Board.from_pieces({"e5": "Q", "b1": "H", "a1": "W", "b2": "W", "e9": "h", "g9": "q", "h9": "w", "h8": "w"})
    board.push(best_turn(board, "medium"))
    queen = board.board.index(1)
    assert all(t.destination != queen for t in board.legal_movements)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_levels_play_legal_turns_and_leave_the_board_as_it_was(level: str) -> None:
    board = Board()
    for _ in range(4):
        before = (bytes(board.board), board.hash, len(board.history))
        turn = best_turn(board, level, seed=3)
        assert (bytes(board.board), board.hash, len(board.history)) == before
        assert board.is_legal(turn)
        board.push(turn)


def test_time_limited_search_returns_in_time() -> None:
    board = Board()
    searcher = Searcher()
    turn = searcher.search(board, Limits(time=0.3)).move
    assert board.is_legal(turn)


def test_unknown_level_and_finished_games_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown level 'grandmaster'"):
        best_turn(Board(), "grandmaster")
    over = Board.from_pieces({"e1": "Q", "e9": "q"})
    with pytest.raises(ValueError, match="game is over"):
        best_turn(over, "easy")
    with pytest.raises(ValueError, match="game is over"):
        random_move(over, random.Random(1))


def test_evaluation_is_symmetric() -> None:
    board = Board()
    assert evaluate(board) == 0
    assert tuple(LEVELS) == LEVEL_NAMES == ("easy", "medium", "hard", "max")


def test_random_player_is_seeded_and_legal() -> None:
    board = Board()
    a = [random_move(board, random.Random(5)) for _ in range(3)]
    assert a[0] == a[1] == a[2] and board.is_legal(a[0])


def test_hivequeen_searches_count_a_draw_against_the_searching_side() -> None:
    from hive.games.hive.search import DRAW_AVERSION as HIVE_DRAW_AVERSION
    from hive.games.hivequeen.search import DRAW_AVERSION

    searcher = Searcher()
    board = Board()
    assert evaluate(board) == 0
    searcher.search(board, Limits(depth=1))
    # at a level root a draw costs DRAW_AVERSION; Hive's searcher has an aversion of its own (hive tune's)
    assert searcher.draw_score == -DRAW_AVERSION < 0
    assert searcher.draw_aversion == DRAW_AVERSION != HiveSearcher.draw_aversion == HIVE_DRAW_AVERSION
