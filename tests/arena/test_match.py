"""``hive match`` and the arena: Elo maths, games of every kind, sides alternating, saved records, balanced openings,
external engines, bad input."""

from __future__ import annotations

import argparse
import dataclasses
import math
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import hive
import hive.arena.tasks
from hive.arena import (
    GameRecord,
    MatchPlan,
    MatchResult,
    PlayedGame,
    elo_difference,
    opening_score,
    play_game,
    progress_line,
    random_opening,
    run_match,
)
from hive.arena.settings import OpeningBalance, arena_settings
from hive.cli.match import add_parser, main
from hive.game import Outcome, Termination
from hive.games import GAMES, PLUGINS, find_game, plugin_of
from hive.games.hive.endings import QUEEN_SURROUNDED
from hive.games.hivequeen.records import read_records
from hive.players import PlayerSpec, RandomPlayer, SearchPlayer, describe, make_player, parse_player
from hive.plugin import GameSpec
from hive.search import LEVEL_NAMES, Limits

FAKE = shlex.join([sys.executable, str(Path(__file__).parent.parent / "fake_uhp_engine.py")])
BASE = find_game("Base")
QUEEN = find_game("HiveQueen")


def cheap_balance(
    monkeypatch: pytest.MonkeyPatch, spec: GameSpec, depth: int = 1, margin: int | None = None, tries: int | None = None
) -> OpeningBalance | None:
    """Have the arena balance ``spec``'s openings by shallower searches (the same mechanism, cheap in the pure
    build), for this test; returns the balance, ``None`` for a game whose openings are not balanced."""
    plugin = plugin_of(spec.kind)
    balance = arena_settings(spec).balanced_openings
    if balance is None:
        return None
    cheap = {"depth": depth, "margin": balance.margin if margin is None else margin}
    cheap["tries"] = balance.tries if tries is None else tries
    arena = {**plugin.settings["arena"], "balanced_openings": cheap}
    monkeypatch.setitem(PLUGINS, spec.kind, dataclasses.replace(plugin, settings={**plugin.settings, "arena": arena}))
    return arena_settings(spec).balanced_openings


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
    def record(number: int, winner: int | None) -> GameRecord:
        outcome = (
            QUEEN_SURROUNDED(winner, ("White", "Black")) if winner is not None else Outcome(Termination.AGREEMENT, None)
        )
        return GameRecord(number, "a", "b", number % 2 == 1, outcome, 10, "Base")

    match = MatchResult("a", "b", 0, [record(1, 0), record(2, 1), record(3, None)])
    assert [g.result for g in match.games] == ["WhiteWins", "BlackWins", "Draw"]
    assert (match.wins, match.draws, match.losses, match.score) == (2, 1, 0, 2.5)
    assert "W/D/L 2/1/0 for a, score 2.5/3 = 83.3%" in match.summary()
    match.games = match.games[:2]
    assert "Elo difference: +inf (every game won), 95% interval >= " in match.summary()
    match.games = [record(2, 0)]
    assert "Elo difference: -inf (every game lost), 95% interval <= +" in match.summary()


def test_parse_player() -> None:
    assert parse_player("easy") == PlayerSpec("easy", "level", "easy")
    assert parse_player("MAX").arg == "max"
    assert parse_player("random").type == "random"
    assert parse_player("uhp:nokamute uhp") == PlayerSpec("uhp:nokamute uhp", "uhp", "nokamute uhp")
    for bad, message in (("expert", "'expert': expected easy"), ("uhp:", "needs an engine"), ("uhp:'x", "quotation")):
        with pytest.raises(ValueError, match=message):
            parse_player(bad)


@pytest.mark.parametrize(
    ("name", "medium", "hard"),
    [("Base+MLP", Limits(depth=3), "1 s per move, depth 4"), ("HiveQueen", Limits(depth=2), "10 s per move, depth 3")],
)
def test_each_game_has_its_own_levels_and_the_match_uses_them(name: str, medium: Limits, hard: str) -> None:
    game = find_game(name)
    assert list(game.ai.levels) == list(LEVEL_NAMES)
    assert game.ai.levels["medium"] == medium
    depths = [game.ai.levels[level].depth or 0 for level in LEVEL_NAMES]
    assert depths == sorted(depths)
    player = make_player("medium", game)
    assert isinstance(player, SearchPlayer) and player.limits == medium
    overridden = make_player("medium", game, depth=1)
    assert isinstance(overridden, SearchPlayer) and overridden.limits == Limits(depth=1)
    assert describe(parse_player("hard"), game) == f"built-in AI, {hard}"


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


def test_a_match_stopped_early_keeps_the_records_of_the_games_it_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # a long match over UHP is played in parts, and a part may be stopped: each record is written as its game ends
    import hive.cli.match as match_cli

    real = run_match

    def stopped(player1: Any, player2: Any, plan: MatchPlan, **keywords: Any) -> Any:
        real(player1, player2, dataclasses.replace(plan, games=1), **keywords)
        raise KeyboardInterrupt

    monkeypatch.setattr(match_cli, "run_match", stopped)
    out = tmp_path / "games.txt"
    args = ["random", "easy", "-n", "4", "--jobs", "1", "--game-type", "Base", "--seed", "7", "--out", str(out)]
    assert main(args) == 130
    assert "interrupted" in capsys.readouterr().err
    saved = out.read_text().splitlines()
    assert len(saved) == 1
    hive.Board.from_game_string(saved[0])  # a whole game


def test_colours_alternate_and_pairs_share_their_opening() -> None:
    result = run_match("random", "random", MatchPlan(games=5, game="Base", openings=3, seed=11, jobs=1, max_moves=20))
    assert [g.number for g in result.games] == [1, 2, 3, 4, 5]
    assert [g.player1_first for g in result.games] == [True, False, True, False, True]
    assert [(g.first, g.second) for g in result.games[:2]] == [("random#1", "random#2"), ("random#2", "random#1")]
    openings = [tuple(g.record.split(";")[3:6]) for g in result.games]
    assert openings[0] == openings[1] and openings[2] == openings[3]
    assert len({openings[0], openings[2], openings[4]}) == 3
    again = run_match("random", "random", MatchPlan(games=5, game="Base", openings=3, seed=11, jobs=1, max_moves=20))
    assert [g.record for g in again.games] == [g.record for g in result.games]


def test_random_opening_is_seeded() -> None:
    assert random_opening("Base+MLP", 4, 3) == random_opening("Base+MLP", 4, 3)
    assert len(random_opening("Base", 0, 3)) == 0
    board = hive.Board("Base")
    for text in random_opening("Base", 6, 5):
        board.push_uhp(text)
    assert board.ply == 6


def test_the_ply_limit_adjudicates_a_draw() -> None:
    played = play_game(
        RandomPlayer(BASE, 1), RandomPlayer(BASE, 2), game="Base", opening=("wG1", "bG1 wG1-"), max_moves=6
    )
    assert (played.result, played.reason, played.moves) == ("Draw", "ply limit 6", 6)
    assert played.outcome.termination == Termination.ADJUDICATION
    assert played.record.startswith("Base;InProgress;White[4];wG1;bG1 wG1-;")
    result = run_match("random", "random", MatchPlan(games=2, game="Base", max_moves=4, jobs=1, seed=1))
    assert (result.wins, result.draws, result.losses) == (0, 2, 0)
    assert result.elo() == (0.0, 0.0, 0.0)


def test_the_turn_limit_is_decided_by_units() -> None:
    played = play_game(RandomPlayer(QUEEN, 1), RandomPlayer(QUEEN, 2), game=QUEEN, max_moves=6)
    assert played.moves == 6 and played.outcome.termination == Termination.ADJUDICATION
    assert re.fullmatch(r"turn limit 6, units \d+-\d+", played.reason)
    # the record names the players and the adjudication, with the game's own result
    headers = played.record.split("\n")[:5]
    assert headers[:3] == ['[Game "HiveQueen"]', '[South "random"]', '[North "random"]']
    assert headers[3] == f'[Adjudicated "{played.result} ({played.reason})"]' and headers[4] == '[Result "InProgress"]'


def test_arena_games_are_drawn_by_repetition() -> None:
    # the third occurrence of the position after White's first queen move (nokamute's UHP tests)
    back_and_forth = ["wQ \\wS1", "bQ bB1\\", "wQ -wS1", "bQ bB1-"]
    shuffle = ["wS1", "bB1 wS1-", *back_and_forth * 2, *back_and_forth[:2]]
    played = play_game(RandomPlayer(BASE, 1), RandomPlayer(BASE, 2), game="Base", opening=shuffle)
    assert (played.result, played.reason, played.moves) == ("Draw", "the same position was repeated 3 times", 12)


def test_a_game_played_to_the_end() -> None:
    board = hive.Board("Base")
    played = play_game(RandomPlayer(BASE, 3), RandomPlayer(BASE, 4), game="Base", max_moves=1000)
    for text in played.record.split(";")[3:]:
        board.push_uhp(text)
    assert played.result == board.state != "InProgress"
    assert played.reason in (
        "Black's Queen Bee is surrounded",
        "White's Queen Bee is surrounded",
        "both Queens are surrounded",
    )


def test_a_match_against_an_external_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([f"uhp:{FAKE}", "easy", "-n", "2", "--depth", "1", "--game-type", "Base", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert f"Player 1 uhp:{FAKE}: UHP engine {FAKE!r}, 'bestmove depth 1'" in out
    assert "Player 2 easy: built-in AI, depth 1" in out
    assert "white FakeEngine, black easy:" in out and "white easy, black FakeEngine:" in out
    assert "Result of FakeEngine vs easy after 2 games" in out


def test_an_engine_that_fails_forfeits() -> None:
    result = run_match(f"uhp:{FAKE} --die bestmove", "random", MatchPlan(games=2, game="Base", jobs=1, depth=1))
    assert (result.wins, result.draws, result.losses) == (0, 0, 2)
    assert result.games[0].result == "BlackWins" and result.games[1].result == "WhiteWins"
    assert result.games[0].outcome.termination == Termination.FORFEIT
    assert "White forfeits: engine 'FakeEngine' exited with code 3" in result.games[0].reason
    assert "Black forfeits:" in result.games[1].reason


@pytest.mark.timing
def test_an_engine_that_hangs_forfeits_in_time() -> None:
    start = time.monotonic()
    # a second beyond the move's: enough for the engine to start on a loaded machine
    result = run_match(
        f"uhp:{FAKE} --hang bestmove", "random", MatchPlan(games=1, game="Base", jobs=1, time=1, engine_timeout=1.0)
    )
    assert time.monotonic() - start < 15
    assert result.games[0].result == "BlackWins"
    assert "did not answer 'bestmove time 00:00:01' within 2 s" in result.games[0].reason


def test_bad_players_are_named_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grandmaster", "easy"]) == 2
    assert "hive match: bad player 'grandmaster': expected easy, medium, hard, max, random" in capsys.readouterr().err
    assert main(["easy", "uhp:/no/such/engine"]) == 2
    assert "player 2 'uhp:/no/such/engine': cannot start engine '/no/such/engine'" in capsys.readouterr().err
    assert main(["easy", f"uhp:{FAKE} --capabilities Mosquito"]) == 2
    assert "unsupported game type Base+MLP" in capsys.readouterr().err
    assert main(["easy", "random", "--game-type", "Chess"]) == 2
    assert "Unknown game 'Chess'" in capsys.readouterr().err
    assert main(["easy", "random", "-n", "0"]) == 2
    assert "games must be >= 1, not 0" in capsys.readouterr().err
    assert main(["easy", "random", "--game", "hivequeen", "--max-plies", "0"]) == 2
    assert "max turns must be >= 1, not 0" in capsys.readouterr().err
    out = subprocess.run(
        [sys.executable, "-m", "hive", "match", "uhp:", "easy"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2 and "bad player 'uhp:'" in out.stderr and "Traceback" not in out.stderr


def test_add_parser_registers_the_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="hive")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["match", "random", "random", "-n", "1", "--max-plies", "2", "--game-type", "Base"])
    assert args.func(args) == 0
    assert "Result of random#1 vs random#2 after 1 game: W/D/L 0/1/0" in capsys.readouterr().out


def test_match_plays_hivequeen_and_refuses_uhp_engines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # no opening: balancing one takes 3-turn searches, slow in the pure build (tested on its own below)
    result = run_match("easy", "random", MatchPlan(games=2, game="hivequeen", jobs=1, seed=4, max_moves=60, openings=0))
    assert len(result.games) == 2 and all(g.game == "HiveQueen" for g in result.games)
    assert {g.result for g in result.games} <= {"SouthWins", "NorthWins", "Draw"}
    with pytest.raises(ValueError, match="UHP engines play Hive only"):
        make_player("uhp:nokamute uhp", QUEEN)
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
    game = QUEEN
    balance = cheap_balance(monkeypatch, QUEEN, depth=2)  # the mechanism, at a depth cheap in the pure build
    assert balance is not None and balance.margin == 100

    def draws(seed: int, count: int) -> list[tuple[tuple[str, ...], int]]:
        """The first ``count`` plain random 2-turn openings of ``seed``'s mover, with their scores."""
        player = RandomPlayer(QUEEN, seed)
        out = []
        for _ in range(count):
            board = QUEEN()
            texts = []
            for _ in range(2):
                turn = player.choose(board)
                texts.append(board.move_text(turn))
                board.push(turn)
            out.append((tuple(texts), abs(opening_score(board, game, 2))))
        return out

    seed = next(s for s in range(50) if draws(s, 1)[0][1] > balance.margin)
    first = draws(seed, 1)[0][0]
    assert random_opening(game, 2, seed, balanced=False) == first
    opening = random_opening(game, 2, seed)
    assert opening != first and opening == random_opening(game, 2, seed)
    board = QUEEN()
    for text in opening:
        board.push_text(text)
    assert abs(opening_score(board, game, 2)) <= balance.margin
    # when no draw is balanced enough, the most balanced of the tries allowed is kept
    cheap_balance(monkeypatch, QUEEN, depth=2, margin=-1, tries=4)
    assert random_opening(QUEEN, 2, seed) == min(draws(seed, 4), key=lambda d: d[1])[0]


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_runs_through_the_same_functions(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A match of each Hive game type and of HiveQueen: the same players, loop, openings and scores."""
    played: list[str] = []

    def spy(*players: Any, **options: Any) -> PlayedGame:
        played.append(options["game"].name)
        return play_game(*players, **options)

    monkeypatch.setattr(hive.arena.tasks, "play_game", spy)
    game = find_game(name)
    cheap_balance(monkeypatch, game)
    lines: list[str] = []
    result = run_match(
        "random",
        "easy",
        MatchPlan(games=2, game=game, openings=2, max_moves=8, seed=3, jobs=1),
        on_game=lambda record, match: lines.append(progress_line(record, match, 2)),
    )
    assert played == [name, name]
    first, second = (side.lower() for side in game.sides)
    assert lines[0].startswith(f"Game 1/2: {first} random, {second} easy: ")
    assert lines[1].startswith(f"Game 2/2: {first} easy, {second} random: ")
    replays = []
    for record in result.games:
        assert record.game == name and record.result in ("Draw", *(f"{side}Wins" for side in game.sides))
        replay = type(game()).from_record(record.record)
        assert replay.game_name == name and len(replay.move_stack) == record.moves <= 8
        replays.append(replay)
    assert replays[0].move_stack[:2] == replays[1].move_stack[:2], "the pair shares its opening"


def test_ray_is_needed_only_with_ray(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    script = (
        "import sys\nfrom hive.cli.match import main\n"
        "assert main(['random', 'random', '-n', '2', '--jobs', '1', '--game', 'Base']) == 0\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, timeout=120)
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    assert main(["easy", "random", "--ray"]) == 2
    captured = capsys.readouterr()
    assert captured.err == "hive match: playing on Ray needs Ray: pip install 'hive-game[cluster]'\n"
    assert captured.out == ""


def test_a_pool_whose_terminate_hangs_is_given_up_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # CPython's Pool.terminate can block for good (gh-96995); closing the runner must not
    import threading

    from hive.arena.runners import PoolRunner

    runner = PoolRunner(1)
    real_terminate = runner._pool.terminate
    never = threading.Event()
    monkeypatch.setattr(runner._pool, "terminate", lambda: never.wait())
    runner.stop_timeout = 0.2
    closer = threading.Thread(target=runner.close, daemon=True)
    closer.start()
    closer.join(30)
    assert not closer.is_alive(), "close() returned"
    real_terminate()
