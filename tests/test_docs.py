"""The documentation site builds without a warning, its examples run, and its commands are ones ``hive`` accepts."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from hive.cli import build_parser

from .shared import ROOT

SITE = ROOT / "docs" / "site"
PAGES = sorted(SITE.glob("*.rst"))


def _sphinx(builder: str, out: Path) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("sphinx")
    command = [sys.executable, "-m", "sphinx", "-E", "-q", "-W", "--keep-going", "-b", builder, str(SITE), str(out)]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, env=os.environ.copy())


def test_site_builds_without_warnings(tmp_path: Path) -> None:
    done = _sphinx("html", tmp_path / "html")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    built = {page.name for page in (tmp_path / "html").glob("*.html")}
    assert {f"{page.stem}.html" for page in PAGES} <= built


def test_every_example_runs_as_a_doctest(tmp_path: Path) -> None:
    done = _sphinx("doctest", tmp_path / "doctest")
    assert done.returncode == 0, done.stdout + done.stderr
    summary = (tmp_path / "doctest" / "output.txt").read_text(encoding="utf-8").split("Doctest summary")[-1]
    tests = int(re.findall(r"(\d+) tests", summary)[0])
    assert tests >= 90
    assert "0 failures in tests" in summary


def _hive_commands() -> list[str]:
    commands = []
    for page in PAGES:
        for block in re.findall(r"\.\. code-block:: console\n\n((?:   .*\n|\n)+)", page.read_text(encoding="utf-8")):
            commands += [line[len("   $ hive ") :] for line in block.splitlines() if line.startswith("   $ hive ")]
    return commands


@pytest.mark.parametrize("command", _hive_commands())
def test_console_examples_are_commands_hive_accepts(command: str) -> None:
    build_parser().parse_args(shlex.split(command.split("#")[0]))


def test_every_page_is_in_the_table_of_contents() -> None:
    index = (SITE / "index.rst").read_text(encoding="utf-8")
    for page in PAGES:
        if page.stem != "index":
            assert f"\n   {page.stem}\n" in index, page.name


def test_the_security_page_cites_tests_and_modules_that_exist() -> None:
    """Every test ``docs/security.md`` cites (``test_x.py``, ``test_x.py::test_name``, and ``::test_name`` after it,
    of the file named last) and every module (``hive/web/....py``) is there: a test renamed or a module moved makes
    the page wrong, which its table of what is tested by what must not be."""
    page = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    files = {path.name: path for path in (ROOT / "tests").rglob("test_*.py")}
    missing, last = [], None
    for match in re.finditer(r"`(test_\w+\.py)?(?:::(test_\w+))?`", page):
        file, name = match.groups()
        if file is None and name is None:
            continue
        if file is not None:
            last = files.get(file)
            if last is None:
                missing.append(file)
                continue
        if name is not None and (last is None or f"def {name}(" not in last.read_text(encoding="utf-8")):
            missing.append(f"{last.name if last else '?'}::{name}")
    for module in re.findall(r"`(hive/web/[\w/]+\.py)`", page):
        if not (ROOT / "src" / module).is_file():
            missing.append(module)
    assert missing == []
