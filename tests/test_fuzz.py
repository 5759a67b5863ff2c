"""Coverage-guided fuzzing (atheris) of the GameString parser, the record readers and the UHP engine, for a bounded
time each (``slow``): any undocumented exception fails the run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .shared import ROOT, TESTDATA

SECONDS = 60
UHP_SEED = "newgame Base+MLP\nplay wS1\nvalidmoves\nplay bQ wS1-\nundo 2\noptions set TournamentOpening false\n"


def _seed(target: str, corpus: Path) -> None:
    corpus.mkdir()
    if target == "gamestring":
        for path in (TESTDATA / "positions").glob("*.txt"):
            shutil.copy(path, corpus)
    elif target == "records":
        for path in (TESTDATA / "records").iterdir():
            if path.stat().st_size < 100_000:
                shutil.copy(path, corpus)
    else:
        (corpus / "session").write_text(UHP_SEED, encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("target", [pytest.param("gamestring", marks=pytest.mark.sample), "records", "uhp"])
def test_fuzzing_finds_no_undocumented_exception(target: str, tmp_path: Path) -> None:
    pytest.importorskip("atheris")
    corpus = tmp_path / "corpus"
    _seed(target, corpus)
    command = [sys.executable, "-m", "tests.fuzz.targets", target, str(corpus)]
    limits = [f"-max_total_time={SECONDS}", "-timeout=20", "-rss_limit_mb=2048", f"-artifact_prefix={tmp_path}/"]
    done = subprocess.run([*command, *limits], cwd=ROOT, capture_output=True, text=True, timeout=SECONDS + 240)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "DONE" in done.stderr
