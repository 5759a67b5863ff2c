"""The AI in the browser game: its moves and hints, worked out in worker processes, and its queue shared by every
server process (table: ai_jobs). The engine reviews are the analysis' (:mod:`~hive.web.analysis.review`), worked out
here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..shared.lazy import lazy_exports

if TYPE_CHECKING:
    from .player import AIPlayer
    from .repository import keep as keep_job

#: Each name of the public face, and the module it comes from (imported when first asked for, so that a worker
#: process importing one module of the package does not import the rest).
_FROM = {
    "keep_job": (".repository", "keep"),
    "AIPlayer": (".player", "AIPlayer"),
}

__getattr__ = lazy_exports(__name__, _FROM)


__all__ = ["AIPlayer", "keep_job"]
