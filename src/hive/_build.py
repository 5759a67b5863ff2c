"""Which build is running: the compiled extension modules or the plain Python sources.

The hot modules (:func:`compiled_modules`) are plain typed Python that Cython compiles, with C types taken from the
``.pxd`` file beside each module: a module is compiled because that file is there. Those modules build their tables
and state with :func:`table`: C-typed arrays when compiled, plain lists (fastest for CPython) when not.
Setting the environment variable ``HIVE_PURE=1`` before ``import hive`` runs the plain Python sources
even where the compiled modules are installed (see :func:`force_pure`).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types
from array import array
from collections.abc import MutableSequence, Sequence
from pathlib import Path


def is_compiled(function: object) -> bool:
    """Whether ``function`` was compiled: compiled functions are not Python function objects."""
    return not isinstance(function, types.FunctionType)


def table(code: str, values: Sequence[int], compiled: bool) -> MutableSequence[int]:
    """An ``array.array`` of type ``code`` when ``compiled`` (the ``.pxd`` views it as a C buffer), else a list."""
    return array(code, values) if compiled else list(values)


def flattened(rows: Sequence[Sequence[int]], compiled: bool) -> tuple[MutableSequence[int], MutableSequence[int]]:
    """Rows of at most 6 small ints as two :func:`table` s: each row's length, and the rows padded to 6 and joined
    (row ``m`` starts at ``6 * m``)."""
    lengths = [len(row) for row in rows]
    cells = [value for row in rows for value in [*row, *[0] * (6 - len(row))]]
    return table("b", lengths, compiled), table("b", cells, compiled)


def filled(code: str, size: int, compiled: bool, value: int = 0) -> MutableSequence[int]:
    """:func:`table` of ``size`` copies of ``value``, built without a temporary list."""
    return array(code, [value]) * size if compiled else [value] * size


def compiled_modules(root: Path | None = None) -> tuple[str, ...]:
    """The modules of the packages under ``root`` (a folder on the import path; by default the one holding
    ``hive``) that the build compiles: each one with a ``.pxd`` beside its ``.py``. ``setup.py`` finds them the
    same way."""
    root = Path(__file__).parent.parent if root is None else root
    return tuple(
        ".".join(pxd.relative_to(root).with_suffix("").parts)
        for pxd in sorted(root.rglob("*.pxd"))
        if pxd.with_suffix(".py").is_file()
    )


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Imports the compiled modules from their ``.py`` sources, even where an extension module is present."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("hive.") or not path:
            return None
        name = fullname.rpartition(".")[2]
        for entry in path:
            source = os.path.join(entry, name + ".py")
            if os.path.isfile(source) and os.path.isfile(os.path.join(entry, name + ".pxd")):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def force_pure() -> None:
    """Make later imports of the compiled modules take the plain Python sources (``HIVE_PURE=1``)."""
    if not any(isinstance(finder, _SourceFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
