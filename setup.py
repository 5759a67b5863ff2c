"""Build hook: compile the hot core with Cython; without Cython or a C compiler, install plain Python.

Project metadata lives in pyproject.toml. The compiled modules are built from the same ``.py`` files
that run uncompiled, with C types from the ``.pxd`` file beside each one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _compiled_modules() -> tuple[str, ...]:
    """The modules with a ``.pxd`` beside their ``.py``, as ``hive._build.compiled_modules`` finds them (the
    package is not importable while it builds)."""
    root = Path("src")
    return tuple(
        ".".join(pxd.relative_to(root).with_suffix("").parts)
        for pxd in sorted(root.rglob("*.pxd"))
        if pxd.with_suffix(".py").is_file()
    )


MODULES = _compiled_modules()
DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,  # the .pxd files give the C types; annotations stay for mypy
    "boundscheck": False,
    "wraparound": False,
    "initializedcheck": False,
    "cdivision": True,
}


def _warn(message: str) -> None:
    print(f"WARNING: {message}; hive will run as plain Python (slower).", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Build every compiled module or none: a partly compiled core would not import."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:  # no compiler, missing headers, ...
            _warn(f"could not compile the hot core ({err})")
            for ext in self.extensions:
                for path in (Path(self.get_ext_fullpath(ext.name)), Path(self.get_ext_filename(ext.name))):
                    if path.exists():
                        path.unlink()


def extensions() -> list[Any]:
    if os.environ.get("HIVE_NO_COMPILE", "") not in ("", "0"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        _warn("Cython is not installed")
        return []
    sources = [Extension(name, [str(Path("src", *name.split(".")).with_suffix(".py"))]) for name in MODULES]
    try:
        return list(cythonize(sources, compiler_directives=DIRECTIVES, quiet=True))
    except Exception as err:
        _warn(f"Cython failed ({err})")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
