"""A package's public face loaded when first asked for: a worker process that imports one module of a domain (the
AI's workers import :mod:`hive.web.ai.work`) does not import the domain's other modules, nor the database they use."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, names: Mapping[str, tuple[str, str]]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` whose public ``names`` each come from a module of it (relative, as
    ``".service"``) under an attribute's name, imported on first use.

    >>> get = lazy_exports("hive.web.shared", {"Taken": (".quotas", "Taken")})
    >>> get("Taken").__name__
    'Taken'
    """

    def exported(name: str) -> Any:
        """A name of the public face, from its module."""
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attribute = names[name]
        return getattr(importlib.import_module(module, package), attribute)

    return exported


__all__ = ["lazy_exports"]
