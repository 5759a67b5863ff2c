"""``hive match``: Elo maths, games, colour alternation, saved GameStrings, external engines, bad input."""

from __future__ import annotations

import argparse
import math
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

import hive
from hive.ai import RandomPlayer
from hive.match import (
    GameRecord,
    MatchResult,
    PlayerSpec,
    add_parser,
    elo_difference,
    main,
    parse_player,
    play_game,
    random_opening,
    run_match,
)

FAKE = shlex.join([sys.executable, str(Path(__file__).with_name("fake_uhp_engine.py"))])


def test_elo_difference_against_hand_computed_values() -> None:
    # 6/2/2: score 0.7, per-game variance 0.16, standard error 0.4 / sqrt(10) = 0.12649, margin 0.24792.
    estimate, low, high = elo_difference(6, 2, 2)
    assert estimate == pytest.approx(147.19, abs=0.01)  # -400 log10(0.3 / 0.7)
    assert low == pytest.approx(-33.40, abs=0.01)  # score 0.45208
    assert high == pytest.approx(504.03, abs=0.01)  # score 0.94792
    # 3/4/1: score 0.625, variance 0.109375.
    assert elo_difference(3, 4, 1) == pytest.approx((88.74, -73.46, 307.08), abs=0.01)
    # 5/0/5: score 0.5, standard error 0.5 / sqrt(10), margin 0.30990: -400 log10(0.80990 / 0.19010) = -251.78.
    assert elo_difference(5, 0, 5) == pytest.approx((0.0, -251.78, 251.78), abs=0.01)
    assert elo_difference(0, 4, 0) == (0.0, 0.0, 0.0)
    # 1/0/3: score 0.25 = -190.85, variance 0.1875, margin 0.42434: the lower end leaves (0, 1), the upper is 0.67434.
    estimate, low, high = elo_difference(1, 0, 3)
    assert estimate == pytest.approx(-190.85, abs=0.01)
    assert low == -math.inf and high == pytest.approx(126.45, abs=0.01)


def test_elo_difference_at_zero_and_hundred_percent() -> None:
    # Every game won: the score's 95 % lower bound is 0.025 ** (1/4) = 0.39764, i.e. -72.1 Elo.
    assert elo_difference(4, 0, 0) == pytest.approx((math.inf, -72.1, math.inf), abs=0.05)
    assert elo_difference(0, 0, 4) == pytest.approx((-math.inf, -math.inf, 72.1), abs=0.05)
    assert elo_difference(40, 0, 0)[1] == pytest.approx(405.99, abs=0.01)  # 0.025 ** (1/40) = 0.91190
    for bad in ((0, 0, 0), (-1, 2, 3)):
        with pytest.raises(ValueError):
            elo_difference(*bad)


def test_summary_wording() -> None:
    def record(number: int, result: str) -> GameRecord:
        return GameRecord(number, "a", "b", number % 2 == 1, result, "", 10, "Base")

    match = MatchResult("a", "b", 0, [record(1, "WhiteWins"), record(2, "BlackWins"), record(3, "Draw")])
    assert (match.wins, match.draws, match.losses, match.score) == (2, 1, 0, 2.5)
    assert "W/D/L 2/1/0 for a, score 2.5/3 = 83.3%" in match.summary()
    match.games = match.games[:2]
    assert "Elo difference: +inf (every game won), 95% interval >= " in match.summary()
    match.games = [record(2, "WhiteWins")]
    assert "Elo difference: -inf (every game lost), 95% interval <= +" in match.summary()


def test_parse_player() -> None:
    assert parse_player("easy") == PlayerSpec("easy", "level", "easy")
    assert parse_player("MAX").arg == "max"
    assert parse_player("random").kind == "random"
    assert parse_player("uhp:nokamute uhp") == PlayerSpec("uhp:nokamute uhp", "uhp", "nokamute uhp")
    for bad, message in (("expert", "'expert': expected easy"), ("uhp:", "needs an engine"), ("uhp:'x", "quotation")):
        with pytest.raises(ValueError, match=message):
            parse_player(bad)


def test_a_small_real_match_in_parallel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.txt"
    args = ["random", "easy", "-n", "4", "--jobs", "2", "--game-type", "Base", "--seed", "7", "--out", str(out)]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Match random vs easy: 4 games of Base, openings of 2 random plies,")
    assert "seed 7, 2 jobs" in lines[0]
    progress = [line for line in lines if line.startswith("Game ")]
    assert sorted(line.split(":")[0] for line in progress) == [f"Game {n}/4" for n in range(1, 5)]
    assert all(" | random " in line and line.endswith(" easy") for line in progress)
    assert lines[-3].startswith("Result of random vs easy after 4 games: W/D/L ")
    assert lines[-2].startswith("Elo difference: ")
    saved = out.read_text().splitlines()
    assert len(saved) == 4 and lines[-1] == f"Saved 4 GameStrings to {out}"
    for text in saved:
        board = hive.Board.from_game_string(text)
        assert board.game_string() == text or text.split(";")[1] == "Draw"


def test_colours_alternate_and_pairs_share_their_opening() -> None:
    result = run_match("random", "random", games=5, game_type="Base", openings=3, seed=11, jobs=1, max_plies=20)
    assert [g.number for g in result.games] == [1, 2, 3, 4, 5]
    assert [g.player1_white for g in result.games] == [True, False, True, False, True]
    assert [(g.white, g.black) for g in result.games[:2]] == [("random#1", "random#2"), ("random#2", "random#1")]
    openings = [tuple(g.game_string.split(";")[3:6]) for g in result.games]
    assert openings[0] == openings[1] and openings[2] == openings[3]
    assert len({openings[0], openings[2], openings[4]}) == 3
    again = run_match("random", "random", games=5, game_type="Base", openings=3, seed=11, jobs=1, max_plies=20)
    assert [g.game_string for g in again.games] == [g.game_string for g in result.games]


def test_random_opening_is_seeded() -> None:
    assert random_opening("Base+MLP", 4, 3) == random_opening("Base+MLP", 4, 3)
    assert len(random_opening("Base", 0, 3)) == 0
    board = hive.Board("Base")
    for text in random_opening("Base", 6, 5):
        board.push_uhp(text)
    assert board.ply == 6


def test_the_ply_limit_adjudicates_a_draw() -> None:
    outcome = play_game(RandomPlayer(1), RandomPlayer(2), game_type="Base", opening=("wG1", "bG1 wG1-"), max_plies=6)
    assert (outcome.result, outcome.reason, outcome.plies) == ("Draw", "ply limit 6", 6)
    assert outcome.game_string.startswith("Base;InProgress;White[4];wG1;bG1 wG1-;")
    result = run_match("random", "random", games=2, game_type="Base", max_plies=4, jobs=1, seed=1)
    assert (result.wins, result.draws, result.losses) == (0, 2, 0)
    assert result.elo() == (0.0, 0.0, 0.0)


def test_a_game_played_to_the_end() -> None:
    board = hive.Board("Base")
    outcome = play_game(RandomPlayer(3), RandomPlayer(4), game_type="Base", max_plies=1000)
    for text in outcome.game_string.split(";")[3:]:
        board.push_uhp(text)
    assert outcome.result == board.state != "InProgress"
    assert outcome.reason in ("black queen surrounded", "white queen surrounded", "both queens surrounded")


def test_a_match_against_an_external_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([f"uhp:{FAKE}", "easy", "-n", "2", "--depth", "1", "--game-type", "Base", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert f"Player 1 uhp:{FAKE}: UHP engine {FAKE!r}, 'bestmove depth 1'" in out
    assert "Player 2 easy: built-in AI, depth 1" in out
    assert "white FakeEngine, black easy:" in out and "white easy, black FakeEngine:" in out
    assert "Result of FakeEngine vs easy after 2 games" in out


def test_an_engine_that_fails_forfeits() -> None:
    result = run_match(f"uhp:{FAKE} --die bestmove", "random", games=2, game_type="Base", jobs=1, depth=1)
    assert (result.wins, result.draws, result.losses) == (0, 0, 2)
    assert result.games[0].result == "BlackWins" and result.games[1].result == "WhiteWins"
    assert "white forfeits: engine 'FakeEngine' exited with code 3" in result.games[0].reason
    assert "black forfeits:" in result.games[1].reason


def test_an_engine_that_hangs_forfeits_in_time() -> None:
    start = time.monotonic()
    result = run_match(
        f"uhp:{FAKE} --hang bestmove", "random", games=1, game_type="Base", jobs=1, time=1, engine_timeout=0.3
    )
    assert time.monotonic() - start < 10
    assert result.games[0].result == "BlackWins"
    assert "did not answer 'bestmove time 00:00:01' within 1.3 s" in result.games[0].reason


def test_bad_players_are_named_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grandmaster", "easy"]) == 2
    assert "hive match: bad player 'grandmaster': expected easy, medium, hard, max, random" in capsys.readouterr().err
    assert main(["easy", "uhp:/no/such/engine"]) == 2
    assert "player 2 'uhp:/no/such/engine': cannot start engine '/no/such/engine'" in capsys.readouterr().err
    assert main(["easy", f"uhp:{FAKE} --capabilities Mosquito"]) == 2
    assert "unsupported game type Base+MLP" in capsys.readouterr().err
    assert main(["easy", "random", "--game-type", "Chess"]) == 2
    assert "Unknown game type 'Chess'" in capsys.readouterr().err
    assert main(["easy", "random", "-n", "0"]) == 2
    assert "games must be >= 1, not 0" in capsys.readouterr().err
    out = subprocess.run(
        [sys.executable, "-m", "hive.match", "uhp:", "easy"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2 and "bad player 'uhp:'" in out.stderr and "Traceback" not in out.stderr


def test_add_parser_registers_the_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="hive")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["match", "random", "random", "-n", "1", "--max-plies", "2", "--game-type", "Base"])
    assert args.func(args) == 0
    assert "Result of random#1 vs random#2 after 1 game: W/D/L 0/1/0" in capsys.readouterr().out
