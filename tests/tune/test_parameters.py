"""The AI's parameters as data: the evaluation's weights by name, searchers with other values, and players
``LEVEL@FILE`` that play them in the arena."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import hive
from hive.arena import MatchPlan, Sprt, run_match
from hive.arena.runners import InlineRunner
from hive.games.hive import search, weights
from hive.games.hive.ai import PARAMETERS, SEARCH_PARAMETERS, searcher_with
from hive.games.hive.evaluation import SHIPPED, Weights, evaluate, evaluate_with
from hive.players import InvalidPlayerError, PlayerSpec, check_player, describe, make_player, parse_player, read_values
from hive.search import CONTEMPT, Limits

from ..shared import POSITIONS

BASE = hive.find_game("Base+MLP")
QUEEN = hive.find_game("HiveQueen")


def midgames() -> list[hive.Board]:
    return [
        hive.Board.from_game_string((POSITIONS / f"{name}.txt").read_text())
        for name in ("midgame_mlp", "midgame2_mlp", "midgame_base")
    ]


def test_the_weights_by_name_are_the_tables_entries() -> None:
    assert weights.WEIGHTS["queen_pressure_3"] == weights.QUEEN_PRESSURE[3]
    assert weights.WEIGHTS["active_ant"] == weights.ACTIVE[4]
    assert weights.WEIGHTS["in_hand_pillbug"] == weights.IN_HAND[7]
    assert weights.WEIGHTS["guard"] == weights.GUARD
    assert len(weights.WEIGHTS) == 5 + 8 + 8 + 6
    assert SHIPPED.values == weights.WEIGHTS
    assert list(PARAMETERS) == [
        *weights.WEIGHTS,
        "contempt",
        "draw_aversion",
        "null_move",
        "null_move_depth",
        "late_moves",
        "late_depth",
    ]
    assert SEARCH_PARAMETERS == {
        "contempt": search.CONTEMPT,
        "draw_aversion": search.DRAW_AVERSION,
        "null_move": search.NULL_MOVE,
        "null_move_depth": search.NULL_MOVE_DEPTH,
        "late_moves": search.LATE_MOVES,
        "late_depth": search.LATE_DEPTH,
    }
    assert BASE.ai.parameters == PARAMETERS and QUEEN.ai.parameters == {}


def test_shipped_weights_evaluate_as_before_and_others_differ() -> None:
    boards = midgames()
    changed = Weights({"queen_pressure_2": 61, "active_ant": 30})
    for board in boards:
        assert evaluate_with(board, SHIPPED) == evaluate(board) == hive.games.hive.Searcher().evaluate(board)
        assert evaluate_with(board, Weights()) == evaluate(board)
    assert any(evaluate_with(board, changed) != evaluate(board) for board in boards)
    assert Weights({"active_ant": 29.6}).values["active_ant"] == 30


def test_the_evaluation_is_linear_in_its_weights() -> None:
    rng = random.Random(3)
    zero = {name: 0 for name in weights.WEIGHTS}
    units = {name: Weights({**zero, name: 1}) for name in weights.WEIGHTS}
    for board in midgames():
        features = {name: evaluate_with(board, w) for name, w in units.items()}
        for _ in range(5):
            values = {name: rng.randint(-300, 300) for name in weights.WEIGHTS}
            assert evaluate_with(board, Weights(values)) == sum(values[n] * features[n] for n in values)


def test_bad_weights_are_named() -> None:
    with pytest.raises(ValueError, match="no evaluation weight 'queen_pressure_6'"):
        Weights({"queen_pressure_6": 1})
    with pytest.raises(ValueError, match="'guard' must be a number from -5000 to 5000, not 9999"):
        Weights({"guard": 9999})
    with pytest.raises(ValueError, match="'on_top' must be a number"):
        Weights({"on_top": "ten"})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="no parameter 'depth'"):
        searcher_with(None, 0, {"depth": 3})
    with pytest.raises(ValueError, match="'contempt' must be from -5000 to 5000"):
        searcher_with(None, 0, {"contempt": 1e6})
    with pytest.raises(ValueError, match="'null_move' must be from 0 to 4, not 5"):
        searcher_with(None, 0, {"null_move": 5})
    with pytest.raises(ValueError, match="'null_move' must be from 0 to 4, not -1"):
        searcher_with(None, 0, {"null_move": -1})
    with pytest.raises(ValueError, match="'null_move_depth' must be from 0 to 64, not 65"):
        searcher_with(None, 0, {"null_move_depth": 65})
    with pytest.raises(ValueError, match="'null_move' must be from 0 to 4, not nan"):
        searcher_with(None, 0, {"null_move": float("nan")})
    with pytest.raises(ValueError, match="'late_moves' must be from 0 to 255, not 256"):
        searcher_with(None, 0, {"late_moves": 256})
    with pytest.raises(ValueError, match="'late_depth' must be from 0 to 64, not 65"):
        searcher_with(None, 0, {"late_depth": 65})


def test_a_searcher_with_values_plays_them() -> None:
    searcher = searcher_with(None, 0, {"contempt": 40.4, "draw_aversion": 7, "active_ant": 25, "null_move": 2.2})
    assert searcher.contempt == 40 and searcher.draw_aversion == 7 and searcher.null_move == 2
    assert searcher.null_move_depth == search.NULL_MOVE_DEPTH
    assert searcher_with(None, 0, {"late_moves": 4, "late_depth": 5}).late_moves == 4
    assert (searcher.late_moves, searcher.late_depth) == (search.LATE_MOVES, search.LATE_DEPTH)
    assert searcher.weights.values["active_ant"] == 25
    shipped = hive.games.hive.Searcher()
    assert shipped.contempt == search.CONTEMPT and shipped.draw_aversion == search.DRAW_AVERSION
    assert (shipped.null_move, shipped.null_move_depth) == (search.NULL_MOVE, search.NULL_MOVE_DEPTH)
    assert shipped.weights is SHIPPED
    # Hive's contempt is its own: HiveQueen's searcher keeps the framework's
    assert QUEEN.ai.searcher(None, 0).contempt == CONTEMPT != search.CONTEMPT
    board = midgames()[1]
    found, expected = (s.search(board, Limits(depth=2)) for s in (searcher_with(None, 0, {}), shipped))
    assert (found.move, found.score, found.nodes) == (expected.move, expected.score, expected.nodes)


def test_a_draw_costs_the_searcher_its_contempt() -> None:
    # the root's draw score: minus the draw aversion, minus half the static score within the contempt
    board = midgames()[0]
    half = evaluate(board) // 2
    for contempt, aversion in ((0, 0), (5, 0), (150, 30)):
        searcher = searcher_with(None, 0, {"contempt": contempt, "draw_aversion": aversion})
        searcher.search(board, Limits(depth=1))
        assert searcher.draw_score == -aversion - max(-contempt, min(contempt, half))


def test_players_with_values_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps({"active_ant": 30, "contempt": 100}))
    spec = parse_player(f"medium@{path}")
    assert spec == PlayerSpec(f"medium@{path}", "level", "medium", (("active_ant", 30), ("contempt", 100)))
    assert spec.label == f"medium@{path}"
    toml = tmp_path / "tuned.toml"
    toml.write_text("active_ant = 30\ncontempt = 100\n")
    assert parse_player(f"MEDIUM@{toml}").values == spec.values
    assert read_values(toml) == {"active_ant": 30, "contempt": 100}
    player = make_player(spec, BASE, depth=1)
    assert player.searcher.weights.values["active_ant"] == 30 and player.searcher.contempt == 100  # type: ignore[attr-defined]
    assert (
        describe(spec, BASE, depth=1) == "built-in AI, depth 1, with 2 parameter values (2 apart from the shipped ones)"
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read the parameter values"),
        ("{", "is not valid JSON"),
        ("[1, 2]", "must hold one object"),
        ('{"active_ant": "x"}', "parameter 'active_ant' must be a number"),
        ('{"active_ant": true}', "parameter 'active_ant' must be a number"),
    ],
)
def test_bad_files_of_values_are_named(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "values.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(InvalidPlayerError, match=message):
        parse_player(f"hard@{path}")


def test_values_the_game_does_not_have_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "values.json"
    path.write_text('{"no_such": 1}')
    with pytest.raises(InvalidPlayerError, match="Hive's AI has no parameter 'no_such'"):
        check_player(f"easy@{path}", BASE)
    path.write_text('{"active_ant": 1}')
    with pytest.raises(InvalidPlayerError, match="HiveQueen's AI has no parameters to set"):
        check_player(f"easy@{path}", QUEEN)
    with pytest.raises(InvalidPlayerError, match="'@' needs a file"):
        parse_player("easy@")


def test_a_match_of_values_against_the_shipped_ones_with_an_sprt(tmp_path: Path) -> None:
    path = tmp_path / "values.json"
    path.write_text('{"queen_pressure_1": 0, "queen_pressure_2": 0, "queen_pressure_3": 0}')
    result = run_match(
        f"easy@{path}", "easy", MatchPlan(games=6, game=BASE, depth=1, seed=2, jobs=1), sprt=Sprt(-400, 400)
    )
    assert result.player1 == f"easy@{path}" and result.player2 == "easy"
    assert len(result.games) in (2, 4, 6)
    # the same match through a runner kept by the caller, left open for the next one
    runner = InlineRunner()
    again = run_match(
        f"easy@{path}", "easy", MatchPlan(games=6, game=BASE, depth=1, seed=2), sprt=Sprt(-400, 400), runner=runner
    )
    assert [g.result for g in again.games] == [g.result for g in result.games]
    assert run_match("easy", "easy", MatchPlan(games=2, game=BASE, depth=1, seed=2), runner=runner).games[0].number == 1
