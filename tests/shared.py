"""Access to the ground-truth data in ``../shared/testdata`` (written by other projects; read in place)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTDATA = Path(os.environ.get("HIVE_TESTDATA", ROOT.parent / "shared" / "testdata"))
MZINGA = TESTDATA / "mzinga"
POSITIONS = TESTDATA / "positions"


def mzinga_rows(name: str) -> Iterator[tuple[str, int, list[str]]]:
    """Yield ``(case, line number, tab-separated fields)`` of a Mzinga CSV; ``case`` is the last ``#`` comment."""
    case = ""
    with open(MZINGA / name, encoding="utf-8-sig") as handle:
        for number, raw in enumerate(handle, start=1):
            line = raw.rstrip("\r\n")
            if line.startswith("#"):
                case = line[1:].strip()
            elif line.strip():
                yield case, number, line.split("\t")
