"""The AI in the browser game: its moves and hints, worked out in worker processes, and its queue shared by every
server process (table: ai_jobs). The engine reviews are the analysis' (:mod:`~hive.web.analysis.review`), worked out
here.
"""

from __future__ import annotations

from .repository import keep as keep_job

__all__ = ["keep_job"]
