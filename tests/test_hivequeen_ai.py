"""The HiveQueen AI and its arena: tactics, levels, legal turns, hive match --game hivequeen."""

from __future__ import annotations

from pathlib import Path

import pytest

from hive import match
from hive.ai.search import LEVELS, Limits, Searcher
from hive.hivequeen import Board
from hive.hivequeen import ai as queen_ai
from hive.hivequeen.ai import QueenSearcher, RandomPlayer, best_turn, evaluate
from hive.hivequeen.records import read_records
from hive.match import main, make_queen_player, opening_score, parse_player, random_queen_opening, run_match


def test_takes_the_queen_when_it_wins() -> None:
    # North has no Drone: after losing its Queen it cannot promote
    board = Board.from_pieces(
        {"a1": "H", "a5": "q", "b5": "h", "c5": "w", "e1": "Q", "b1": "W", "c1": "W", "e9": "w", "f9": "w", "g9": "h"}
    )
    turn = best_turn(board, "easy")
    assert board.move_string(turn).startswith("Ha1xa5")
    board.push(turn)
    assert board.state == "InProgress"
    board.push(RandomPlayer(1).choose(board))
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
    searcher = QueenSearcher()
    turn = searcher.best_turn(board, Limits(time=0.3))
    assert board.is_legal(turn)


def test_unknown_level_and_finished_games_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown level 'grandmaster'"):
        best_turn(Board(), "grandmaster")
    over = Board.from_pieces({"e1": "Q", "e9": "q"})
    with pytest.raises(ValueError, match="game is over"):
        best_turn(over, "easy")
    with pytest.raises(ValueError, match="game is over"):
        RandomPlayer(1).choose(over)


def test_evaluation_is_symmetric() -> None:
    board = Board()
    assert evaluate(board) == 0
    assert set(LEVELS) == {"easy", "medium", "hard", "max"}


def test_the_game_has_its_own_levels_and_the_match_uses_them() -> None:
    assert list(queen_ai.LEVELS) == list(LEVELS)
    assert queen_ai.LEVELS["medium"] == Limits(depth=2)
    depths = [queen_ai.LEVELS[name].depth or 0 for name in LEVELS]
    assert depths == sorted(depths)
    player = make_queen_player("medium")
    assert isinstance(player, queen_ai.SearchPlayer) and player.limits == queen_ai.LEVELS["medium"]
    overridden = make_queen_player("medium", depth=1)
    assert isinstance(overridden, queen_ai.SearchPlayer) and overridden.limits == Limits(depth=1)
    assert parse_player("hard").describe(game="hivequeen") == "built-in AI, 10 s per move, depth 3"


def test_random_player_is_seeded_and_legal() -> None:
    board = Board()
    a = [RandomPlayer(5).choose(board) for _ in range(3)]
    assert a[0] == a[1] == a[2] and board.is_legal(a[0])


def test_match_plays_hivequeen_and_refuses_uhp_engines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # no opening: balancing one takes 3-turn searches, slow in the pure build (tested on its own below)
    result = run_match("easy", "random", games=2, game="hivequeen", jobs=1, seed=4, max_plies=60, openings=0)
    assert len(result.games) == 2 and all(g.game == "hivequeen" for g in result.games)
    assert {g.result for g in result.games} <= {"SouthWins", "NorthWins", "Draw"}
    with pytest.raises(ValueError, match="UHP engines play Hive only"):
        make_queen_player("uhp:nokamute uhp")
    out = tmp_path / "games.txt"
    assert (
        main(["random", "easy", "--game", "hivequeen", "-n", "2", "--jobs", "1", "--openings", "0", "--out", str(out)])
        == 0
    )
    text = capsys.readouterr().out
    assert "of HiveQueen" in text and "south random, north easy" in text and "Saved 2 HiveQueen records" in text
    games = list(read_records(out.read_text().splitlines()))
    assert len(games) == 2 and all(g.ok for g in games)
    assert main(["uhp:nokamute uhp", "easy", "--game", "hivequeen"]) == 2
    assert "UHP engines play Hive only" in capsys.readouterr().err


def test_hivequeen_openings_are_drawn_again_until_balanced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match, "QUEEN_OPENING_DEPTH", 2)  # the mechanism, at a depth cheap in the pure build

    def draws(seed: int, count: int) -> list[tuple[tuple[str, ...], int]]:
        """The first ``count`` plain random 2-turn openings of ``seed``'s mover, with their scores."""
        mover = RandomPlayer(seed)
        out = []
        for _ in range(count):
            board = Board()
            texts = []
            for _ in range(2):
                turn = mover.choose(board)
                texts.append(board.move_string(turn))
                board.push(turn)
            out.append((tuple(texts), abs(opening_score(board))))
        return out

    seed = next(s for s in range(50) if draws(s, 1)[0][1] > match.QUEEN_OPENING_MARGIN)
    first = draws(seed, 1)[0][0]
    assert random_queen_opening(2, seed, balanced=False) == first
    opening = random_queen_opening(2, seed)
    assert opening != first and opening == random_queen_opening(2, seed)
    board = Board()
    for text in opening:
        board.push_move_string(text)
    assert abs(opening_score(board)) <= match.QUEEN_OPENING_MARGIN
    # when no draw is balanced enough, the most balanced of QUEEN_OPENING_TRIES is kept
    monkeypatch.setattr(match, "QUEEN_OPENING_MARGIN", -1)
    monkeypatch.setattr(match, "QUEEN_OPENING_TRIES", 4)
    assert random_queen_opening(2, seed) == min(draws(seed, 4), key=lambda d: d[1])[0]


def test_hivequeen_searches_count_a_draw_against_the_searching_side() -> None:
    from hive.hivequeen.search import DRAW_AVERSION

    searcher = QueenSearcher()
    board = Board()
    assert evaluate(board) == 0
    searcher.search(queen_ai.search_view(board), Limits(depth=1))
    # at a level root a draw costs DRAW_AVERSION; Hive's searcher keeps draws at the root's contempt only
    assert searcher.draw_score == -DRAW_AVERSION < 0
    assert searcher.draw_aversion == DRAW_AVERSION and Searcher.draw_aversion == 0
