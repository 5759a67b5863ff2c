"""Tuning runs and their files: a run stopped anywhere (between iterations, inside a confirmation, after its log
line and before its state) and resumed ends as the run played in one go; the state is written whole or not at all;
the log and the plot."""

from __future__ import annotations

import json
import math
import os
import random
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import hive
from hive.tune import files
from hive.tune.games import Confirmation, Games, PairOutcome
from hive.tune.run import Run, Settings, tune
from hive.tune.spec import Gains, Parameter, Spec
from hive.tune.spsa import Perturbation

SPEC = Spec(
    (
        Parameter("queen_pressure_1", 24, 0, 100, 6, 90),
        Parameter("active_ant", 22, 0, 80, 4, 40),
        Parameter("contempt", 150, 0, 400, 25, 1500),
    ),
    Gains(A=10),
)
TARGET = {"queen_pressure_1": 40.0, "active_ant": 30.0, "contempt": 100.0}
SETTINGS = Settings(Games(depth=1), Confirmation(every=10, games=40), iterations=30, seed=4)


def strength(values: Mapping[str, float]) -> float:
    return -sum(((values[n] - TARGET[n]) / 20) ** 2 for n in TARGET)


class Stop(Exception):
    """Stands for Ctrl-C, or a machine turned off."""


class FakePlayer:
    """Games decided by the values' distance to :data:`TARGET`, drawn from each iteration's own seed (as the
    arena's games are: each depends only on its seed); it can stop before the games of an iteration or of a
    confirmation."""

    def __init__(self, stop_at: int | None = None, stop_confirming: int | None = None) -> None:
        self.stop_at = stop_at
        self.stop_confirming = stop_confirming
        self.closed = False

    def pair(self, step: Perturbation) -> PairOutcome:
        if step.iteration + 1 == self.stop_at:
            raise Stop
        rng = random.Random(step.seed)
        chance = 1 / (1 + math.exp(strength(step.minus) - strength(step.plus)))
        points = sum(1.0 if rng.random() < chance else 0.0 for _ in range(2))
        return PairOutcome(points - 1.0, points, [["plus", "WhiteWins", 40], ["minus", "BlackWins", 41]])

    def confirm(self, values: Mapping[str, float], iteration: int, seed: int) -> dict[str, Any]:
        if iteration == self.stop_confirming:
            raise Stop
        verdict = "H1" if strength(values) > -0.5 else "H0" if strength(values) < -2 else None
        return {
            "iteration": iteration,
            "verdict": verdict,
            "llr": 0.0,
            "pairs": 1,
            "counts": [0, 0, 1, 0, 0],
            "wdl": [1, 0, 1],
            "elo": [0.0, None, None],
            "sprt": {},
            "seed": seed,
            "values": dict(values),
        }

    def close(self) -> None:
        self.closed = True


def without_times(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in entry.items() if k != "seconds"} for entry in entries]


def finished(directory: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    state = json.loads((directory / files.STATE).read_text())
    state["verdicts"] = without_times(state["verdicts"])
    return state, without_times(list(files.read_lines(directory / files.LOG)))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory of the run played in one go."""
    directory = tmp_path_factory.mktemp("whole")
    run = tune(Run.create(directory, SPEC, SETTINGS), FakePlayer())
    assert run.iteration == 30 and [v["iteration"] for v in run.verdicts] == [10, 20, 30]
    return directory


@pytest.fixture()
def whole(played: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The state and the log of the run played in one go."""
    return finished(played)


def test_a_run_writes_its_state_log_values_and_plot(
    played: Path, whole: tuple[dict[str, Any], list[dict[str, Any]]]
) -> None:
    state, log = whole
    assert state["format"] == "hive tune state" and state["iteration"] == 30
    assert [entry.get("iteration") for entry in log if "confirm" not in entry] == list(range(1, 31))
    assert [entry["confirm"] for entry in log if "confirm" in entry] == [10, 20, 30]
    assert [entry["iteration"] for entry in state["verdicts"]] == [10, 20, 30]
    assert log[-1]["verdict"] == state["verdicts"][-1]["verdict"]
    first = log[0]
    assert set(first) == {"iteration", "seed", "signs", "c", "a", "points", "result", "games", "theta"}
    assert first["c"] == 1.0 and len(first["signs"]) == 3
    values = json.loads((played / files.VALUES).read_text())
    assert values == {name: round(value) for name, value in state["theta"].items()}
    # the run moved toward the target
    assert strength(state["theta"]) > strength(SPEC.start())
    svg = ElementTree.fromstring((played / files.PLOT).read_text())
    ns = "{http://www.w3.org/2000/svg}"
    assert len(svg.findall(f".//{ns}polyline")) == 3
    assert len([line for line in svg.iter(f"{ns}line") if line.get("stroke-dasharray") is None]) == 3 * 3


@pytest.mark.parametrize(("stop_at", "stop_confirming"), [(14, None), (1, None), (None, 20), (21, None), (30, None)])
def test_a_run_stopped_and_resumed_ends_as_the_run_in_one_go(
    tmp_path: Path,
    whole: tuple[dict[str, Any], list[dict[str, Any]]],
    stop_at: int | None,
    stop_confirming: int | None,
) -> None:
    directory = tmp_path / "parts"
    run = Run.create(directory, SPEC, SETTINGS)
    with pytest.raises(Stop):
        tune(run, FakePlayer(stop_at, stop_confirming))
    assert (directory / files.PLOT).exists()
    resumed = Run.resume(directory / files.STATE)
    assert resumed.iteration == (stop_at - 1 if stop_at else stop_confirming)
    tune(resumed, FakePlayer())
    assert finished(directory) == whole


def test_lines_written_after_the_last_state_are_dropped_on_resume(
    tmp_path: Path, whole: tuple[dict[str, Any], list[dict[str, Any]]]
) -> None:
    directory = tmp_path / "crash"
    with pytest.raises(Stop):
        tune(Run.create(directory, SPEC, SETTINGS), FakePlayer(stop_at=11))
    # the machine stopped after writing the next iteration's line and its confirmation's, before the state
    log = list(files.read_lines(directory / files.LOG))
    files.append_line(directory / files.LOG, {**log[0], "iteration": 11})
    files.append_line(directory / files.LOG, {"confirm": 11, "iteration": 11, "verdict": "H1"})
    with open(directory / files.LOG, "a") as out:
        out.write('{"iteration": 12, "the')  # a line cut short
    tune(Run.resume(directory / files.STATE), FakePlayer())
    assert finished(directory) == whole


def test_resume_can_plan_more_iterations(tmp_path: Path) -> None:
    short = Settings(SETTINGS.games, SETTINGS.confirmation, 15, SETTINGS.seed)
    tune(Run.create(tmp_path / "a", SPEC, short), FakePlayer())
    run = tune(Run.resume(tmp_path / "a" / files.STATE, iterations=30), FakePlayer())
    assert run.iteration == 30
    assert [v["iteration"] for v in run.verdicts] == [10, 15, 20, 30]
    whole = tune(Run.create(tmp_path / "b", SPEC, SETTINGS), FakePlayer())
    assert run.theta == whole.theta


def test_run_files_errors(tmp_path: Path) -> None:
    Run.create(tmp_path / "r", SPEC, SETTINGS)
    with pytest.raises(files.RunFileError, match=r"state\.json' exists: resume that run with --resume"):
        Run.create(tmp_path / "r", SPEC, SETTINGS)
    with pytest.raises(files.RunFileError, match="cannot read"):
        Run.resume(tmp_path / "nothing.json")
    (tmp_path / "other.json").write_text('{"format": "something else"}')
    with pytest.raises(files.RunFileError, match="is not the state of a hive tune run"):
        Run.resume(tmp_path / "other.json")
    state = json.loads((tmp_path / "r" / files.STATE).read_text())
    del state["theta"]
    (tmp_path / "r" / files.STATE).write_text(json.dumps(state))
    with pytest.raises(files.RunFileError, match="is not a complete hive tune state"):
        Run.resume(tmp_path / "r" / files.STATE)


def test_the_state_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "state.json"
    files.write_json(path, {"iteration": 1})

    def fail(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(files.RunFileError, match="No space left on device"):
        files.write_json(path, {"iteration": 2})
    assert files.read_json(path) == {"iteration": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]


def test_games_and_confirmations_are_checked() -> None:
    with pytest.raises(ValueError, match="a depth or a time, not both"):
        Games(depth=None).check()
    with pytest.raises(ValueError, match="pairs must be >= 1"):
        Games(pairs=0).check()
    with pytest.raises(ValueError, match=r"(?i)unknown game"):
        Games(game="Chess").check()
    with pytest.raises(ValueError, match="an even number >= 2"):
        Confirmation(games=3).check()
    with pytest.raises(ValueError, match="elo0 must be below its elo1"):
        Confirmation(elo0=10, elo1=5).check()
    assert "depth 3" in Games().describe() and hive.find_game(Games().game).name == "Base+MLP"
