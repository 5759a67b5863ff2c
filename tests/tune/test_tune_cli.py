"""``hive tune`` through its command line: a tiny real run at depth 1 writes its log, state, values and plot, and
resumes to the same end; ``--texel`` on the shared records and a little self-play; every misuse named."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from hive.cli import build_parser, main
from hive.cli.tune import main as tune_main
from hive.players import parse_player
from hive.tune import files

from ..shared import TESTDATA

TINY = ["--depth", "1", "--openings", "2", "--confirm-every", "2", "--confirm-games", "4", "--seed", "5", "--jobs", "1"]


def test_a_tiny_real_run_writes_its_log_state_values_and_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert tune_main([*TINY, "--iterations", "3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Tuning 29 parameters by SPSA: Base+MLP at depth 1, openings of 2 random moves")
    assert "Iteration 3/3: plus " in printed
    assert "Confirmation after 2 iterations: SPRT elo0 0, elo1 40, alpha 0.05, beta 0.05: LLR " in printed
    log = list(files.read_lines(out / files.LOG))
    assert [e.get("confirm", e["iteration"]) for e in log] == [1, 2, 2, 3, 3]
    assert all(len(e["games"]) == 2 for e in log if "confirm" not in e)
    state = json.loads((out / files.STATE).read_text())
    assert state["iteration"] == 3 and len(state["verdicts"]) == 2 and state["settings"]["seed"] == 5
    assert {name: round(value, 4) for name, value in state["theta"].items()} == log[-2]["theta"]
    ElementTree.fromstring((out / files.PLOT).read_text())
    assert len(parse_player(f"medium@{out / files.VALUES}").values) == 29


def test_a_real_run_resumed_ends_as_the_run_in_one_go(tmp_path: Path) -> None:
    assert tune_main([*TINY, "--iterations", "3", "--out", str(tmp_path / "whole")]) == 0
    assert tune_main([*TINY, "--iterations", "2", "--out", str(tmp_path / "parts")]) == 0
    assert tune_main(["--resume", str(tmp_path / "parts" / files.STATE), "--iterations", "3", "--jobs", "1"]) == 0
    whole, parts = (json.loads((tmp_path / d / files.STATE).read_text()) for d in ("whole", "parts"))
    assert parts["theta"] == whole["theta"]
    assert [v["verdict"] for v in parts["verdicts"]] == [v["verdict"] for v in whole["verdicts"]]


def test_texel_on_the_shared_records_and_self_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "texel"
    args = ["--texel", "--records", str(TESTDATA / "records"), "--self-play", "4", "--depth", "1", "--seed", "2"]
    assert tune_main([*args, "--jobs", "1", "--out", str(out), "--holdout", "0.25"]) == 0
    printed = capsys.readouterr().out
    assert "Records: 7 finished games from " in printed
    assert "Self-play: 4 games of Base+MLP at depth 1, openings of 6 random moves, seed 2" in printed
    assert "K = " in printed and "held-out positions: log-loss " in printed
    report = json.loads((out / "texel.json").read_text())
    assert report["games"]["train"] + report["games"]["holdout"] == 11
    assert report["left_out"] == ["contempt", "draw_aversion"] and report["loss"] == "log"
    assert set(json.loads((out / "fitted.json").read_text())) == set(report["names"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--resume", "s.json", "--depth", "2"], "--depth cannot be given with --resume"),
        (["--records", "x"], "--records is an option of --texel"),
        (["--texel", "--confirm-every", "5"], "--confirm-every is an option of SPSA runs, not of --texel"),
        (["--texel", "--iterations", "5"], "--iterations is an option of SPSA runs"),
        (["--texel", "--self-play", "0"], "no games to fit"),
        (["--jobs", "0"], "jobs must be >= 1"),
        (["--game", "HiveQueen"], "HiveQueen's AI has no parameters to tune"),
        (["--resume", "missing.json"], "cannot read 'missing.json'"),
        (["--iterations", "0"], "iterations must be >= 1"),
        (["--confirm-sprt", "5", "0"], "elo0 must be below its elo1"),
        (["--pairs", "0"], "pairs must be >= 1"),
    ],
)
def test_misuse_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert tune_main([*args, "--out", str(tmp_path / "o")] if "--resume" not in args else args) == 2
    assert message in capsys.readouterr().err


def test_a_bad_spec_is_named_by_its_parameter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text("[parameters.guard]\nmin = 40\nmax = 10\nc = 2\na = 5\n")
    assert main(["tune", "--spec", str(spec), "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == f"hive tune: {spec}: parameter 'guard': min 40 must be below max 10\n"
    assert not (tmp_path / "o").exists()


def test_the_subcommand_is_registered() -> None:
    args = build_parser().parse_args(["tune", "--resume", "run/state.json"])
    assert args.resume == "run/state.json" and args.func.__name__ == "cmd_tune"


def test_games_on_a_clock_instead_of_a_depth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--time", "0.01", "--max-moves", "12", "--iterations", "1", "--confirm-every", "0", "--jobs", "1"]
    assert tune_main([*args, "--seed", "3", "--out", str(tmp_path / "run")]) == 0
    assert "Base+MLP at 0.01 s a move" in capsys.readouterr().out
    (entry,) = files.read_lines(tmp_path / "run" / files.LOG)
    assert [game[2] for game in entry["games"]] == [12, 12]  # adjudicated at the move limit


@pytest.mark.slow
def test_a_run_on_ray_is_the_run_on_processes(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    command = [sys.executable, "-m", "hive", "tune", *TINY[:-2], "--iterations", "3"]
    for where, extra in (("pool", ["--jobs", "2"]), ("ray", ["--ray"])):
        subprocess.run([*command, "--out", str(tmp_path / where), *extra], check=True, timeout=600, capture_output=True)
    pooled, on_ray = (json.loads((tmp_path / d / files.STATE).read_text()) for d in ("pool", "ray"))
    assert on_ray["theta"] == pooled["theta"]
    assert [v["wdl"] for v in on_ray["verdicts"]] == [v["wdl"] for v in pooled["verdicts"]]
