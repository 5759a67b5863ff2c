"""hive.tournament: published pairings and standings reproduced, the pairings' invariants over many random
tournaments (Hypothesis), state saved and read back to the same pairings, and clear refusals."""

from __future__ import annotations

import doctest
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hive.tournament
from hive.tournament import (
    Game,
    PairingError,
    Tournament,
    TournamentError,
    berger_table,
    round_robin_rounds,
    standings,
)

# FIDE Handbook C.05, Annex 1: the Berger tables for 3-4, 5-6 and 7-8 players
FIDE_BERGER = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
}


def test_the_documented_example_runs() -> None:
    assert doctest.testmod(hive.tournament).failed == 0


@pytest.mark.parametrize("count", sorted(FIDE_BERGER))
def test_berger_tables_are_fides(count: int) -> None:
    table = [" ".join(f"{a}-{b}" for a, b in pairs) for pairs in berger_table(count)]
    assert table == FIDE_BERGER[count]


def test_a_published_double_round_robin_and_its_sonneborn_berger_scores() -> None:
    """Sensei's Library's example of the Sonneborn-Berger score: a double round robin of four, A and B tied on 4
    points, A first by 11 to 9."""
    t = Tournament("round-robin", cycles=2, tiebreaks=("sonneborn-berger",))
    for name in "ABCD":
        t.join(name)
    wins = ["AB", "AC", "AD", "BC", "BD", "CD", "BA", "AC", "DA", "CB", "BD", "CD"]  # winner first, cycle by cycle
    first_cycle, second_cycle = Counter(wins[:6]), Counter(wins[6:])
    while not t.finished:
        number = len(t.paired) + 1
        games = t.pair_round()
        for board, game in enumerate(games, start=1):
            assert game.second is not None
            cycle = first_cycle if number <= 3 else second_cycle
            pair = game.first + game.second
            won = pair if cycle[pair] else pair[::-1]
            assert cycle[won], (number, game)
            cycle[won] -= 1
            t.report(number, board, 1.0 if won == pair else 0.0)
    table = [(s.rank, s.player, s.points, s.tiebreaks["sonneborn-berger"]) for s in t.standings()]
    assert table == [(1, "A", 4.0, 11.0), (2, "B", 4.0, 9.0), (3, "C", 3.0, 6.0), (4, "D", 1.0, 4.0)]


def test_a_swiss_first_round_as_published_and_its_second_by_the_dutch_rules() -> None:
    """FICS's mamer: "a sample first round pairing for an 8 player tourney would be 1-5, 6-2, 3-7, 8-4". With the
    top four winning, round 2 pairs the score groups top half against bottom half: 1 and 3 both moved first, so the
    higher-ranked 1 has its wish and moves second; 6 and 8 likewise, and 6 moves second."""
    t = Tournament("swiss", rounds=3)
    for number in range(1, 9):
        t.join(str(number))
    assert [(g.first, g.second) for g in t.pair_round()] == [("1", "5"), ("6", "2"), ("3", "7"), ("8", "4")]
    for board, result in enumerate([1.0, 0.0, 1.0, 0.0], start=1):
        t.report(1, board, result)
    assert [(g.first, g.second) for g in t.pair_round()] == [("3", "1"), ("2", "4"), ("5", "7"), ("8", "6")]


def test_an_odd_swiss_gives_the_bye_to_the_lowest_ranked_without_one() -> None:
    t = Tournament("swiss", rounds=3)
    for name in ["a", "b", "c", "d", "e"]:
        t.join(name)
    first = t.pair_round()
    assert first[-1] == Game("e", None) and t.points()["e"] == 1.0
    for board in range(1, 3):
        t.report(1, board, 1.0)
    second = t.pair_round()
    assert second[-1].bye and second[-1].first != "e"


def test_a_late_join_and_a_withdrawal_in_a_swiss() -> None:
    t = Tournament("swiss", rounds=3)
    for name in ["a", "b", "c", "d"]:
        t.join(name)
    for board, _ in enumerate(t.pair_round(), start=1):
        t.report(1, board, 0.5)
    t.join("e")
    t.withdraw("b")
    games = t.pair_round()
    assert {p for g in games for p in (g.first, g.second)} == {"a", "c", "d", "e"}
    assert t.joined == {"e": 1} and t.withdrawn == {"b": 1}
    assert [s.player for s in t.standings()][-1] == "e"


def test_a_withdrawal_from_a_round_robin_forfeits_its_games_still_to_come() -> None:
    t = Tournament("round-robin")
    for name in ["a", "b", "c", "d"]:
        t.join(name)
    for board, _ in enumerate(t.pair_round(), start=1):
        t.report(1, board, 1.0)
    t.withdraw("d")
    games = t.pair_round()
    forfeited = [g for g in games if g.has("d")]
    assert len(forfeited) == 1 and forfeited[0].forfeit and forfeited[0].points("d") == 0.0
    table = {s.player: s for s in t.standings()}
    assert table["c"].points == 1.0 and table["c"].games == 1  # the forfeit win scores, and is not a game played
    assert [s.player for s in t.standings()][-1] == "d"


def test_the_tie_breaks_of_a_swiss() -> None:
    """Buchholz sums the opponents' points, Cut-1 leaves the lowest out (a bye as an opponent of 0), and
    head-to-head counts only among tied players who all met."""
    rounds = [
        [Game("a", "b", 1.0), Game("c", "d", 0.5), Game("e", None)],
        [Game("e", "a", 0.0), Game("b", "c", 1.0), Game("d", None)],
    ]
    table = {s.player: s for s in standings(["a", "b", "c", "d", "e"], rounds, ("buchholz", "buchholz-cut1"))}
    points = {p: s.points for p, s in table.items()}
    assert points == {"a": 2.0, "b": 1.0, "c": 0.5, "d": 1.5, "e": 1.0}
    assert table["a"].tiebreaks == {"buchholz": 2.0, "buchholz-cut1": 1.0}
    assert table["e"].tiebreaks == {"buchholz": 2.0, "buchholz-cut1": 2.0}  # the bye's round is the one cut
    assert table["a"].rank == 1 and table["d"].rank == 2
    rounds = [[Game("x", "y", 1.0), Game("z", "w", 0.5)], [Game("y", "w", 1.0), Game("x", "z", 0.0)]]
    tied = standings(["y", "x", "z", "w"], rounds, ("head-to-head",))  # y seeded above x, x won their game
    assert [(s.player, s.rank, s.points, s.tiebreaks["head-to-head"]) for s in tied] == [
        ("z", 1, 1.5, 0.0),
        ("x", 2, 1.0, 1.0),
        ("y", 3, 1.0, 0.0),
        ("w", 4, 0.5, 0.0),
    ]


# ----------------------------------------------------------------------------------------------------------------
# invariants over random tournaments


def _play(t: Tournament, rng: random.Random) -> list[list[Game]]:
    """Pair and fill in every round of ``t`` with random results; returns the rounds as paired."""
    while not t.finished:
        games = t.pair_round()
        for board, game in enumerate(games, start=1):
            if not game.bye and game.result is None:
                t.report(len(t.paired), board, rng.choice([1.0, 0.5, 0.0]))
    return t.paired


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 11), st.sampled_from([1, 2]), st.integers(0, 2**32 - 1))
def test_a_round_robin_pairs_everyone_once_a_cycle_with_colours_balanced(count: int, cycles: int, seed: int) -> None:
    t = Tournament("round-robin", cycles=cycles)
    players = [f"p{i}" for i in range(count)]
    for name in players:
        t.join(name)
    rounds = _play(t, random.Random(seed))
    assert len(rounds) == (count - 1 + count % 2) * cycles
    met = Counter(frozenset((g.first, g.second)) for games in rounds for g in games if not g.bye)
    assert set(met) == {frozenset((a, b)) for a in players for b in players if a < b}
    assert set(met.values()) == {cycles}
    for games in rounds:
        seated = [p for g in games for p in (g.first, g.second) if p is not None]
        assert sorted(seated) == sorted(players)
    for player in players:
        firsts = sum(g.first == player for games in rounds for g in games if not g.bye)
        seconds = sum(g.second == player for games in rounds for g in games)
        assert abs(firsts - seconds) <= (1 if cycles == 1 else 0)
    byes = Counter(g.first for games in rounds for g in games if g.bye)
    assert set(byes.values()) <= {cycles} and (len(byes) == count if count % 2 else not byes)


def _pairable(players: list[str], met: set[frozenset[str]]) -> bool:
    """Whether ``players`` (an even number) can all be paired with nobody meeting twice: every matching tried."""
    if not players:
        return True
    top, rest = players[0], players[1:]
    return any(frozenset((top, other)) not in met and _pairable([p for p in rest if p != other], met) for other in rest)


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 14), st.integers(0, 2**32 - 1), st.booleans())
def test_a_swiss_never_pairs_two_players_twice(count: int, seed: int, churn: bool) -> None:
    """Nobody meets twice; everyone taking part is paired once a round; a bye goes to a player who had none unless
    no such player leaves the others a pairing; and the pairing fails only where none exists."""
    rng = random.Random(seed)
    rounds_wanted = max(1, min(count - 1, math.ceil(math.log2(count)) + 1))
    t = Tournament("swiss", rounds=rounds_wanted)
    for i in range(count):
        t.join(f"p{i}")
    met: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    while not t.finished:
        if churn and rng.random() < 0.3:
            if rng.random() < 0.5 and len(t.active) > 2:
                t.withdraw(rng.choice(t.active))
            else:
                t.join(f"late{len(t.players)}")
        active = t.active
        leaving = [p for p in active] if len(active) % 2 else [None]
        try:
            games = t.pair_round()
        except PairingError:
            assert not any(_pairable([p for p in active if p != bye], met) for bye in leaving)
            return
        seated = [p for g in games for p in (g.first, g.second) if p is not None]
        assert sorted(seated) == sorted(active)
        byes = [g.first for g in games if g.bye]
        assert len(byes) == len(active) % 2
        if byes and byes[0] in had_bye:
            assert not any(_pairable([p for p in active if p != f], met) for f in active if f not in had_bye)
        had_bye.update(byes)
        for board, game in enumerate(games, start=1):
            if game.second is not None:
                pair = frozenset((game.first, game.second))
                assert pair not in met, (len(t.paired), game)
                met.add(pair)
                t.report(len(t.paired), board, rng.choice([1.0, 0.5, 0.0]))
    assert len(t.paired) == rounds_wanted
    if not churn:
        for player in t.players:
            assert abs(sum(t.histories()[player].colours)) <= 2


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["swiss", "round-robin"]), st.integers(3, 10), st.integers(0, 2**32 - 1))
def test_a_tournament_saved_and_read_back_pairs_the_same_next_round(fmt: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    t = Tournament(fmt, rounds=count // 2 if fmt == "swiss" else 0)  # rounds that can always be paired
    for i in range(count):
        t.join(f"p{i}")
    while not t.finished:
        copy = Tournament.from_json(t.to_json())
        assert copy == t
        assert copy.pair_round() == t.pair_round()
        for board, game in enumerate(t.paired[-1], start=1):
            if not game.bye:
                t.report(len(t.paired), board, rng.choice([1.0, 0.5, 0.0]))
    table = t.standings()
    decided = sum(1 for games in t.paired for g in games if not g.bye)
    byes = sum(1 for games in t.paired for g in games if g.bye)
    assert math.isclose(sum(s.points for s in table), decided + byes * t.bye_points)
    assert [s.rank for s in table] == sorted(s.rank for s in table) and table[0].rank == 1


# ----------------------------------------------------------------------------------------------------------------
# refusals


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Tournament("knockout"), "Unknown format 'knockout'"),
        (lambda: Tournament("swiss"), "at least 1 round, not 0"),
        (lambda: Tournament("round-robin", cycles=3), "not 3 cycles"),
        (lambda: Tournament("swiss", rounds=3, tiebreaks=("coin",)), "Unknown tie-break 'coin'"),
        (lambda: Tournament("swiss", rounds=3, bye_points=2), "A bye scores 1, 0.5 or 0 points, not 2"),
        (lambda: Tournament.from_json("{"), "A saved tournament is JSON"),
        (lambda: Tournament.from_json("[]"), "is an object, not list"),
        (lambda: Tournament.from_json('{"format": "swiss", "rounds": 2}'), "does not read: KeyError"),
        (
            lambda: Tournament.from_json(
                '{"format": "swiss", "rounds": 2, "players": ["a"], "paired": [[["a", "z", 1, false]]]}'
            ),
            "pairs players it does not have: z",
        ),
    ],
)
def test_bad_tournaments_are_refused_by_name(make: object, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        make()  # type: ignore[operator]


def test_bad_changes_are_refused_by_name() -> None:
    t = Tournament("round-robin")
    with pytest.raises(TournamentError, match="at least 2 players, not 0"):
        t.pair_round()
    for name in ["ann", "bob", "cy"]:
        t.join(name)
    for name, message in [("ANN", "is in the tournament already"), ("", "1 to 64 characters"), (" x", "characters")]:
        with pytest.raises(TournamentError, match=message):
            t.join(name)
    with pytest.raises(TournamentError, match="'dee' is not taking part"):
        t.withdraw("dee")
    t.pair_round()
    with pytest.raises(TournamentError, match="players are fixed once it starts"):
        t.join("dee")
    with pytest.raises(TournamentError, match="Round 1 still has games without a result"):
        t.pair_round()
    for args, message in [
        ((2, 1, 1.0), "There is no round 2: 1 paired so far"),
        ((1, 9, 1.0), "Round 1 has no game on board 9"),
        ((1, 2, 1.0), "Round 1 has no game on board 2"),  # the bye
        ((1, 1, 2), "1, 0.5 or 0, not 2"),
        ((1, 1, True), "not True"),
    ]:
        with pytest.raises(TournamentError, match=message):
            t.report(*args)


def test_more_swiss_rounds_than_the_players_can_play_is_a_pairing_error() -> None:
    t = Tournament("swiss", rounds=4)
    for name in ["a", "b", "c", "d"]:
        t.join(name)
    with pytest.raises(PairingError, match=r"No pairing of 4 players .* without a rematch"):
        for _ in range(4):
            for board, game in enumerate(t.pair_round(), start=1):
                if not game.bye:
                    t.report(len(t.paired), board, 1.0)


def test_round_robin_rounds_refuses_too_few_players() -> None:
    with pytest.raises(TournamentError, match="at least 2 players, not 1"):
        round_robin_rounds(["solo"])
