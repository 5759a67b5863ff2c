"""Parameter specs: the shipped one, the same in JSON, and a clear error for every way a spec can be wrong, naming
the parameter and what is wrong with it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import hive
from hive.games.hive.ai import PARAMETERS
from hive.tune.spec import DEFAULT_SPEC, Gains, Parameter, Spec, SpecError, load_spec, parse_spec

BASE = hive.find_game("Base+MLP")
GOOD = {"start": 24, "min": 0, "max": 100, "c": 6, "a": 90}


def test_the_shipped_spec_tunes_every_parameter_but_the_prunings_from_its_shipped_value() -> None:
    spec = load_spec(DEFAULT_SPEC, BASE)
    prunings = ("null_move", "null_move_depth", "late_moves", "late_depth")
    tuned = {name: value for name, value in PARAMETERS.items() if name not in prunings}
    assert spec.names == list(tuned) and len(tuned) == 29
    assert spec.start() == {name: float(value) for name, value in tuned.items()}
    assert spec.gains == Gains(0.602, 0.101, 50.0)
    for p in spec.parameters:
        assert p.c >= 3 and p.a == pytest.approx(2.5 * p.c**2)


def test_json_and_toml_read_the_same_and_a_spec_writes_itself_back(tmp_path: Path) -> None:
    spec = load_spec(DEFAULT_SPEC, BASE)
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(tomllib.loads(DEFAULT_SPEC.read_text())))
    assert load_spec(path, BASE) == spec
    assert parse_spec(spec.to_dict(), BASE) == spec


def test_start_may_be_left_out_and_spsa_too() -> None:
    spec = parse_spec({"parameters": {"guard": {"min": 0, "max": 50, "c": 5, "a": 60}}}, BASE)
    assert spec == Spec((Parameter("guard", float(PARAMETERS["guard"]), 0.0, 50.0, 5.0, 60.0),), Gains())


def spec_with(**fields: object) -> dict[str, object]:
    return {"parameters": {"queen_pressure_1": {**GOOD, **fields}}}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "expected a table with \\[spsa\\] and \\[parameters.NAME\\] sections"),
        ({"parameter": {}}, "unknown section 'parameter'"),
        ({"parameters": {}}, "no parameters to tune"),
        (
            {"parameters": {"queen_pressure_9": GOOD}},
            "parameter 'queen_pressure_9' is not one of Base\\+MLP's AI parameters",
        ),
        ({"parameters": {"guard": 5}}, "parameter 'guard' must be a table of start, min, max, c, a"),
        (spec_with(step=2), "parameter 'queen_pressure_1' has an unknown key 'step'"),
        ({"parameters": {"guard": {"min": 0, "max": 5, "a": 1}}}, "parameter 'guard' has no c \\(SPSA step\\)"),
        (spec_with(a="fast"), "parameter 'queen_pressure_1': a \\(learning rate\\) must be a number, not 'fast'"),
        (spec_with(c=True), "parameter 'queen_pressure_1': c \\(SPSA step\\) must be a number, not True"),
        (spec_with(max=float("inf")), "parameter .queen_pressure_1.: max \\(upper bound\\) must be a number, not inf"),
        (spec_with(min=100, max=0), "parameter 'queen_pressure_1': min 100 must be below max 0"),
        (spec_with(start=120), "parameter 'queen_pressure_1': start 120 is outside min 0 .. max 100"),
        (spec_with(c=0), "parameter 'queen_pressure_1': c \\(SPSA step\\) must be above 0, not 0"),
        (spec_with(a=-1), "parameter 'queen_pressure_1': a \\(learning rate\\) must be above 0, not -1"),
        (spec_with(max=9000), "parameter 'queen_pressure_1': max 9000 is refused by the AI: .*from -5000 to 5000"),
        ({**spec_with(), "spsa": {"alpha": 2}}, "\\[spsa\\] alpha must be in \\(0, 1\\], not 2"),
        ({**spec_with(), "spsa": {"gamma": 0.7}}, "\\[spsa\\] gamma must be above 0 and below alpha \\(0.602\\)"),
        ({**spec_with(), "spsa": {"A": -1}}, "\\[spsa\\] A must be 0 or more"),
        ({**spec_with(), "spsa": {"beta": 1}}, "\\[spsa\\] has an unknown key 'beta'"),
        ({**spec_with(), "spsa": {"A": "x"}}, "\\[spsa\\] A must be a number"),
    ],
)
def test_a_bad_spec_is_named(data: object, message: str) -> None:
    with pytest.raises(SpecError, match=f"^my.toml: {message}"):
        parse_spec(data, BASE, "my.toml")


def test_bad_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=r"cannot read the spec '.*missing\.toml'"):
        load_spec(tmp_path / "missing.toml", BASE)
    bad = tmp_path / "bad.toml"
    bad.write_text("[parameters.guard\nmin = 1\n")
    with pytest.raises(SpecError, match=r"bad\.toml: not valid TOML"):
        load_spec(bad, BASE)
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(SpecError, match=r"bad\.json: not valid JSON"):
        load_spec(bad, BASE)
    with pytest.raises(SpecError, match="HiveQueen's AI has no parameters to tune"):
        load_spec(DEFAULT_SPEC, hive.find_game("HiveQueen"))
