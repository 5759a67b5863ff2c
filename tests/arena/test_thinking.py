"""How the players of a match thought: each chosen move timed by the arena, a built-in search's depth and nodes, and
the lines ``hive match`` and ``hive tournament`` print about them."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from hive.arena import MatchPlan, Thinking, games_thinking, play_game, run_match
from hive.arena.thinking import describe_thinking, thinking_report
from hive.cli.match import main
from hive.cli.tournament import main as tournament_main
from hive.games import find_game
from hive.players import RandomPlayer, Reporting, SearchPlayer, make_player
from hive.search import Limits

FAKE = shlex.join([sys.executable, str(Path(__file__).parent.parent / "fake_uhp_engine.py")])
BASE = find_game("Base")


def test_a_player_s_line_gives_its_median_and_longest_time_and_a_search_s_depth_and_speed() -> None:
    moves = [Thinking(1.0, 6, 900_000), Thinking(1.02, 7, 1_300_000), Thinking(0.08, 4, 1000)]
    assert describe_thinking("max", moves) == (
        "max: 1.00 s a move (median of 3 moves; longest 1.02 s), depth 6 (median; 4 to 7), 1.05 M nodes a second"
    )
    assert describe_thinking("engine", [Thinking(0.05)]) == "engine: 50.0 ms a move (median of 1 move; longest 50.0 ms)"
    assert describe_thinking("easy", [Thinking(0.5, 2, 900), Thinking(0.5, 3, 600)]) == (
        "easy: 0.50 s a move (median of 2 moves; longest 0.50 s), depth 2 (median; 2 to 3), 1.5 k nodes a second"
    )
    assert describe_thinking("random", [Thinking(0.00004), Thinking(0.002)]) == (
        "random: 1.0 ms a move (median of 2 moves; longest 2.0 ms)"
    )
    assert describe_thinking("random", [Thinking(0.00004)]) == "random: 40 µs a move (median of 1 move; longest 40 µs)"
    assert describe_thinking("idle", []) == "idle: no moves chosen"


def test_the_report_gathers_each_player_s_moves_over_both_colours() -> None:
    games = [
        (("a", "b"), ((Thinking(1.0),), (Thinking(3.0), Thinking(3.0)))),
        (("b", "a"), ((Thinking(5.0),), (Thinking(2.0),))),
    ]
    assert thinking_report(games) == [
        "a: 1.50 s a move (median of 2 moves; longest 2.00 s)",
        "b: 3.00 s a move (median of 3 moves; longest 5.00 s)",
    ]
    # the players named come first; a player that chose no move (its games all opening) gets no line
    assert [line.split(":")[0] for line in thinking_report(games, ("b", "a", "c"))] == ["b", "a"]


def test_a_search_player_keeps_its_last_search_and_a_random_one_reports_none() -> None:
    player = SearchPlayer(BASE, Limits(depth=2), "easy")
    assert isinstance(player, Reporting) and player.last_search is None
    board = BASE()
    move = player.choose(board)
    assert player.last_search is not None and player.last_search.move == move and player.last_search.depth == 2
    assert not isinstance(RandomPlayer(BASE, 1), Reporting)


def test_every_move_a_player_chose_is_timed_and_the_opening_s_are_not() -> None:
    opening = ("wG1", "bG1 wG1-")
    played = play_game(
        make_player("easy", BASE, depth=1), RandomPlayer(BASE, 2), game=BASE, opening=opening, max_moves=12
    )
    white, black = played.thinking
    assert (len(white), len(black)) == (5, 5) and played.moves == 12
    assert all(t.seconds >= 0 and t.depth == 1 and t.nodes is not None and t.nodes > 0 for t in white)
    assert all(t.depth is None and t.nodes is None for t in black)


def test_a_forfeited_game_keeps_the_moves_chosen_before_it() -> None:
    result = run_match(f"uhp:{FAKE} --die bestmove", "easy", MatchPlan(games=2, game="Base", jobs=1, depth=1))
    # game 2: easy (White) moved once before the engine died on its first bestmove
    assert result.games[1].outcome.winner == 0 and [len(side) for side in result.games[1].thinking] == [1, 0]
    assert result.games[0].thinking == ((), ())
    [line] = result.thinking()  # the engine chose no move: no line of its own
    assert line.startswith("Thinking of easy: ") and "(median of 1 move; " in line
    assert "depth 1 (median; 1 to 1)" in line


def test_the_match_prints_how_each_player_thought_before_its_result(capsys: pytest.CaptureFixture[str]) -> None:
    # in worker processes: the moves' records come back with the games
    assert main([f"uhp:{FAKE}", "easy", "-n", "2", "--depth", "2", "--jobs", "2", "--game", "Base", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    result = next(i for i, line in enumerate(lines) if line.startswith("Result of FakeEngine vs easy after 2 games"))
    engine, easy = lines[result - 2 : result]
    times = r"[\d.]+ [mµ]?s a move \(median of \d+ moves; longest [\d.]+ [mµ]?s\)"
    assert re.fullmatch(rf"Thinking of FakeEngine: {times}", engine)
    searched = r"depth 2 \(median; [12] to 2\), [\d.]+( [kM])? nodes a second"
    assert re.fullmatch(rf"Thinking of easy: {times}, {searched}", easy)


def test_the_tournament_prints_how_each_player_thought(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["random", "easy", "medium", "--depth", "1", "-n", "2", "--jobs", "1", "--game", "Base", "--seed", "4"]
    assert tournament_main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    thinking = [line for line in lines if line.startswith("Thinking of ")]
    assert [line.split(":")[0] for line in thinking] == ["Thinking of random", "Thinking of easy", "Thinking of medium"]
    assert "depth" not in thinking[0] and all("depth 1 (median; 1 to 1)" in line for line in thinking[1:])
    crosstable = next(i for i, line in enumerate(lines) if line.startswith("Round robin of 3 players after"))
    assert lines.index(thinking[-1]) + 1 == crosstable


def test_games_thinking_names_each_line() -> None:
    result = run_match("random", "easy", MatchPlan(games=2, game="Base", jobs=1, depth=1, seed=5, max_moves=10))
    lines = games_thinking(result.games, ("random", "easy"))
    assert [line.split(":")[0] for line in lines] == ["Thinking of random", "Thinking of easy"]
    assert lines == result.thinking()
