"""The AI in the browser game: its moves and hints, worked out in worker processes, and its queue shared by every
server process (table: ai_jobs). The engine reviews are the analysis' (:mod:`~hive.web.analysis.review`), worked out
here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .player import AIPlayer
    from .repository import keep as keep_job

#: Each name of the public face, and the module it comes from (imported when first asked for, so that a worker
#: process importing one module of the package does not import the rest).
_FROM = {
    "keep_job": (".repository", "keep"),
    "AIPlayer": (".player", "AIPlayer"),
}


def __getattr__(name: str) -> Any:
    """A name of the public face, from its module."""
    if name not in _FROM:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _FROM[name]
    return getattr(importlib.import_module(module, __name__), attribute)


__all__ = ["AIPlayer", "keep_job"]
