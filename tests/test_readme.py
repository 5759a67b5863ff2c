"""The README's Python examples run as written, and print what their comments say."""

from __future__ import annotations

import ast
import contextlib
import io
import re

import pytest

from .shared import ROOT

BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_readme_example_runs_and_prints_what_it_says(block: str) -> None:
    """Each statement runs; a ``print`` whose output is one line shows what the comment beside it says."""
    lines = block.splitlines()
    scope: dict[str, object] = {}
    checked = 0
    for statement in ast.parse(block).body:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(ast.Module([statement], []), "README.md", "exec"), scope)
        comment = re.search(r"\)\s+#\s+(.*)$", lines[statement.lineno - 1])
        printed = out.getvalue().splitlines()
        if (
            comment
            and isinstance(statement, ast.Expr)
            and len(printed) == 1
            and "print(" in lines[statement.lineno - 1]
        ):
            assert printed[0] == comment.group(1), lines[statement.lineno - 1]
            checked += 1
    assert checked >= 1


def test_readme_has_its_examples() -> None:
    assert len(BLOCKS) == 3
