"""The game protocol over every registered game: games found by name and played with the protocol's verbs only."""

from __future__ import annotations

import random
import re
import sys
import threading
from typing import Any

import pytest

import hive
from hive.arena.settings import arena_settings
from hive.game import Outcome, Termination, UnknownGameError
from hive.games import GAMES, PLUGINS, find_game
from hive.games.hive.endings import QUEEN_SURROUNDED
from hive.games.hivequeen.endings import NEITHER_CAN_MOVE
from hive.plugin import GameSpec
from hive.search import Limits

from ..protocol_checks import every_playout_keeps_the_protocol, random_games_keep_the_protocol
from ..toygame import NAME as TOY

NAMES = list(GAMES)


def test_every_game_is_found_by_its_name_in_any_case() -> None:
    assert NAMES == ["Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP", "HiveQueen"]
    for name, spec in GAMES.items():
        assert find_game(name) is spec and find_game(name.lower()) is spec and hive.find_game(name) is spec
        board = spec()
        assert board.game_name == spec.name and type(board).sides == spec.sides
        assert board.turn == 0 and board.outcome() is None and not board.is_game_over()
    assert find_game("base+plm") is GAMES["Base+MLP"] and find_game(" hivequeen ") is GAMES["HiveQueen"]
    for bad in ("Chess", "Base+X", "", "hive queen"):
        with pytest.raises(UnknownGameError, match=re.escape(f"Unknown game {bad!r}: expected one of Base, Base+M,")):
            find_game(bad)
    assert issubclass(UnknownGameError, ValueError)


def test_rule_options_are_asked_for_by_name() -> None:
    original = find_game("Base")(tournament_opening=False, repetition_draw=True)
    original.push_text("wQ")  # the original opening rule allows the Queen on the first turn
    with pytest.raises(hive.IllegalMoveError, match="first turn"):
        find_game("Base")().push_text("wQ")
    assert arena_settings(GAMES["Base+MLP"]).options == {"repetition_draw": True}
    for name, bad in (("HiveQueen", "tournament_opening"), ("Base", "mosquito")):
        with pytest.raises(UnknownGameError, match=f"{re.escape(name)} has no rule option {bad}"):
            find_game(name)(**{bad: True})


@pytest.mark.parametrize("name", NAMES)
def test_random_games_through_the_protocol(name: str) -> None:
    """Random games of every game, played, taken back, replayed from their texts and from their records."""
    random_games_keep_the_protocol(find_game(name))


def test_outcomes_name_the_ending_in_one_wording() -> None:
    surrounded = QUEEN_SURROUNDED(0, ("White", "Black"))
    assert (surrounded.result, surrounded.reason) == ("WhiteWins", "Black's Queen Bee is surrounded")
    assert (surrounded.termination, surrounded.ending) == (Termination.RULES, QUEEN_SURROUNDED)
    units = NEITHER_CAN_MOVE(None, ("South", "North"), "units 20-20")
    assert (units.result, units.reason) == ("Draw", "neither player can move, units 20-20")
    resigned = Outcome(Termination.RESIGNATION, 0, ("South", "North"))
    assert (resigned.result, resigned.reason, str(resigned)) == (
        "SouthWins",
        "North resigned",
        "SouthWins (North resigned)",
    )
    limit = Outcome(Termination.ADJUDICATION, None, detail="ply limit 200")
    assert (limit.result, limit.reason) == ("Draw", "ply limit 200")
    for termination in set(Termination) - {Termination.RULES}:
        assert Outcome(termination, 1, detail="x").reason
    for plugin in PLUGINS.values():
        for ending in plugin.endings:
            assert ending(1, ("A", "B"), "x").reason
    with pytest.raises(ValueError, match="ending"):
        Outcome(Termination.RULES, 0)


@pytest.mark.parametrize("name", ["Base+MLP", "HiveQueen"])
def test_a_record_is_written_without_replaying_the_game(name: str) -> None:
    """Texts pushed with their moves, and push_text's, are kept; record() writes only the texts no one gave, and
    writing a text no longer prepares the next push in secret."""
    spec = find_game(name)
    board: Any = spec()  # a GameBoard: it has move_texts
    rng = random.Random(3)
    for ply in range(12):
        move = spec.ai.random_move(board, rng)
        if ply % 2:
            board.push(move, board.move_text(move))
        else:
            board.push_text(board.move_text(move))
    calls = []
    original = board.move_text

    def counting(move: object) -> str:
        calls.append(move)
        text: str = original(move)
        return text

    board.move_text = counting
    first = board.move_texts()
    board.record()
    assert calls == [] and len(first) == 12
    move = spec.ai.random_move(board, rng)
    counting(move)  # written, then pushed without it: not kept
    board.push(move)
    assert board.move_texts()[:-1] == first and len(calls) == 2
    board.record()
    assert len(calls) == 2


def test_push_text_keeps_the_games_own_notation() -> None:
    """A MoveString written as the notation writes one is kept as it was given, whichever piece it names as the
    reference; one read liberally (any case, more spaces) is kept as the game writes it."""
    board = hive.Board("Base")
    for text in ("ws1", "BS1 WS1-", "wq  -ws1", " BQ bs1-", "wA1 wQ/", "bA1 \\bQ", "wG1 -wQ"):
        board.push_text(text)
    assert board.move_texts() == ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 wQ/", "bA1 \\bQ", "wG1 -wQ"]
    assert hive.Board.from_game_string(board.record()).move_texts() == board.move_texts()
    assert board.record() == hive.Board.from_game_string(board.record()).record()


def _search_all(results: dict[str, list[object]], key: str) -> None:
    out: list[object] = []
    for name, plies, depths in (("Base+MLP", 12, (1, 2, 3)), ("HiveQueen", 6, (1, 2))):
        spec = find_game(name)
        board = spec()
        rng = random.Random(name)
        for _ in range(plies):
            board.push(spec.ai.random_move(board, rng))
        searcher = spec.ai.searcher(None, 0)
        for depth in depths:
            found = searcher.search(board, Limits(depth=depth))
            out.append((name, depth, board.move_text(found.move), found.score, found.nodes))
    results[key] = out


def test_two_searches_in_two_threads_do_not_interfere() -> None:
    """Searchers keep their state to themselves: two at once answer as two in turn do (threads switched as often
    as the interpreter can, so that the plain Python build interleaves them node by node)."""
    alone: dict[str, list[object]] = {}
    _search_all(alone, "first")
    _search_all(alone, "second")
    together: dict[str, list[object]] = {}
    threads = [threading.Thread(target=_search_all, args=(together, key)) for key in ("first", "second")]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert alone["first"] == alone["second"] == together["first"] == together["second"]


@pytest.mark.parametrize("name", [*NAMES, TOY])
def test_any_playout_of_every_game_keeps_the_protocol(name: str, toy_game: GameSpec) -> None:
    """One property body for every registered game and the tests' third game: random legal playouts, pushed and
    popped in any order, keep push and pop inverse, every legal move round-trips through the notation, the game
    ends consistently, a copy is independent of its board and the record replays."""
    every_playout_keeps_the_protocol(find_game(name))


def test_hives_uhp_names_are_the_boards_only_aliases() -> None:
    """Each verb has one name, but for UHP's five names of the protocol's verbs on Hive's board."""
    aliases = {}
    for cls in (hive.Board, find_game("HiveQueen")().__class__):
        seen: dict[object, str] = {}
        for name, value in vars(cls).items():
            if callable(value) or isinstance(value, classmethod):
                key = value.__func__ if isinstance(value, classmethod) else value
                if key in seen:
                    aliases[name] = seen[key]
                else:
                    seen[key] = name
    assert aliases == {
        "parse_uhp": "parse_move",
        "push_uhp": "push_text",
        "uhp": "move_text",
        "game_string": "record",
        "from_game_string": "from_record",
    }
