"""``hive tournament`` and :func:`hive.arena.tournament.run_tournament`: the schedule, the games, a crosstable that
adds up to the games played, the same games however they are played, and clear refusals."""

from __future__ import annotations

import io
import re
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import hive
from hive.arena import MatchPlan
from hive.arena.tournament import first_points, run_tournament, schedule
from hive.cli.tournament import main

PLAYERS = ["random", "easy", "medium"]


def test_the_schedules() -> None:
    assert schedule(["a", "b", "c", "d"], "round-robin") == [("a", "d"), ("b", "c"), ("d", "c"), ("a", "b"),
                                                              ("b", "d"), ("c", "a")]  # fmt: skip
    assert schedule(["a", "b", "c"], "gauntlet", 2) == [("a", "b"), ("a", "c"), ("a", "b"), ("a", "c")]
    double = Counter(frozenset(pair) for pair in schedule(["a", "b", "c"], "round-robin", 2))
    assert set(double.values()) == {2} and len(double) == 3
    for args, message in [
        ((["a", "b"], "round-robin"), "a round robin needs at least 3 players, not 2"),
        ((["a"], "gauntlet"), "a gauntlet needs at least 2 players, not 1"),
        ((["a", "b", "c"], "swiss"), "unknown format 'swiss'"),
    ]:
        with pytest.raises(ValueError, match=message):
            schedule(*args)


def test_a_round_robin_plays_every_pair_and_its_crosstable_adds_up() -> None:
    result = run_tournament(PLAYERS, MatchPlan(games=2, game="Base", depth=1, jobs=1, seed=11))
    assert len(result.games) == result.total == 6
    pairs = Counter(frozenset((g.first, g.second)) for g in result.games)
    assert set(pairs.values()) == {2} and len(pairs) == 3
    for pair in pairs:  # each side of each pairing moves first once
        assert {g.first for g in result.games if frozenset((g.first, g.second)) == pair} == set(pair)
    points: dict[str, float] = dict.fromkeys(PLAYERS, 0.0)
    for game in result.games:
        points[game.first] += first_points(game)
        points[game.second] += 1 - first_points(game)
        assert len(hive.Board.from_game_string(game.record).move_texts()) == game.moves  # every record reads back
    table = result.standings()
    assert {line.player: line.points for line in table} == points
    rows = [line for line in result.crosstable().splitlines()[1:]]
    order = [line.player for line in table]
    for row, line in zip(rows, table, strict=True):
        fields = row.split()
        assert fields[1] == line.player and fields[2 + len(order)] == f"{line.points:g}/4"
        for column, opponent in enumerate(order):
            expected = "·" if opponent == line.player else f"{result.score(line.player, opponent)[0]:g}"
            assert fields[2 + column] == expected
    assert sum(line.points for line in table) == 6


def test_the_same_games_however_they_are_played() -> None:
    inline = run_tournament(PLAYERS, MatchPlan(games=2, game="Base", depth=1, jobs=1, seed=5), format="gauntlet")
    pooled = run_tournament(PLAYERS, MatchPlan(games=2, game="Base", depth=1, jobs=2, seed=5), format="gauntlet")
    assert [g.record for g in inline.games] == [g.record for g in pooled.games]
    assert {(g.first, g.second) for g in inline.games} == {
        ("random", "easy"),
        ("easy", "random"),
        ("random", "medium"),
        ("medium", "random"),
    }


def test_the_command_prints_the_games_and_a_crosstable_and_saves_the_records(tmp_path: Path) -> None:
    out = io.StringIO()
    records = tmp_path / "games.txt"
    with redirect_stdout(out):
        code = main([*PLAYERS, "--game", "Base", "--depth", "1", "--jobs", "1", "--seed", "3", "--out", str(records)])
    text = out.getvalue()
    assert code == 0, text
    assert text.startswith("Round robin of 3 players: 3 pairings of 2 games, 6 in all, of Base")
    assert len(re.findall(r"^Game \d/6: white \S+, black \S+: \w+ in \d+ plies", text, re.M)) == 6
    assert "Round robin of 3 players after 6 games of 6:" in text and "Sonneborn" not in text
    assert re.search(r"^ #  Player\s+1\s+2\s+3\s+Score\s+Elo \(95% interval\)\s+SB$", text, re.M)
    assert len(records.read_text().splitlines()) == 6 and "Saved 6 GameStrings" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random", "easy"], "a round robin needs at least 3 players, not 2 (for 2, hive match)"),
        (["random", "easy", "nobody"], "nobody"),
        (["random", "easy", "medium", "-n", "0"], "games must be >= 1, not 0"),
        (["random", "easy", "medium", "--out", "/no/such/folder/x.txt"], "no folder '/no/such/folder'"),
        (["random", "easy", "medium", "--game", "Chess"], "Chess"),
    ],
)
def test_bad_tournaments_are_refused_with_a_message(args: list[str], message: str) -> None:
    err = io.StringIO()
    with redirect_stderr(err), redirect_stdout(io.StringIO()):
        assert main(args) == 2
    assert err.getvalue().startswith("hive tournament: ") and message in err.getvalue()


def test_a_failed_tournament_leaves_an_existing_records_file_alone(tmp_path: Path) -> None:
    records = tmp_path / "important.txt"
    records.write_text("kept\n")
    with redirect_stderr(io.StringIO()), redirect_stdout(io.StringIO()):
        assert main(["random", "easy", "nobody", "--out", str(records)]) == 2
    assert records.read_text() == "kept\n"


def test_threads_are_every_level_s_and_the_random_mover_takes_none() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main([*PLAYERS, "--game", "Base", "--depth", "1", "--threads", "2", "--max-moves", "4", "--jobs", "1"])
    text = out.getvalue()
    assert code == 0, text
    assert "Player 1 random: random mover\n" in text
    assert "Player 2 easy: built-in AI, depth 1, 2 threads\n" in text
    assert "Player 3 medium: built-in AI, depth 1, 2 threads\n" in text
