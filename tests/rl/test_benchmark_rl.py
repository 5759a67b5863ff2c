"""benchmarks/rl.py runs in either build: our loops and the vector environment, and OpenSpiel's beside them where
``pyspiel`` is installed (an optional extra)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from benchmarks import rl


def test_the_benchmark_prints_every_loop(capsys: pytest.CaptureFixture[str]) -> None:
    assert rl.main(["--steps", "300", "--rounds", "2", "--envs", "4"]) == 0
    out = capsys.readouterr().out
    for name in ("legal_actions", "mask", "vector (4 games)"):
        assert name in out
    if rl.has_openspiel():
        assert "openspiel" in out and "x OpenSpiel on the clock" in out and "x per CPU second" in out
    else:
        assert "pip install open-spiel" in out


def test_the_loops_count_the_steps_asked() -> None:
    for loop in (rl.aec_loop("Base", use_mask=False), rl.aec_loop("Base", use_mask=True), rl.vector_loop("Base", 3)):
        steps, seconds, cpu = loop(240, 0)
        assert steps == 240 and seconds > 0 and cpu >= 0
