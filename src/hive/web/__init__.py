"""The browser game: ``hive play`` serves the game page and its API on a local port.

:func:`create_app` builds the ASGI application (:mod:`~hive.web.http.server`) over an SQLite file
(:mod:`~hive.web.play.repository`); the games' flow is :mod:`~hive.web.play.service`, the AI's moves and hints
:mod:`~hive.web.ai.player`, and each game's part a view in :mod:`hive.web.views`. :func:`serve` runs it with uvicorn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .http.app import App, create_app
    from .shared.database import default_path
    from .shared.settings import Settings


def __getattr__(name: str) -> Any:
    """The app's parts, imported when first used (the command line reads :mod:`~hive.web.shared.settings` without
    them)."""
    if name in ("App", "create_app"):
        from .http import app

        return getattr(app, name)
    if name == "default_path":
        from .shared import database

        return database.default_path
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["App", "create_app", "default_path", "serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    *,
    open_browser: bool = True,
    workers: int = 1,
    announce: object = print,
    settings: Settings | None = None,
) -> None:
    """Serve the app until interrupted, printing its URL (and opening it in a browser unless told not to), with
    ``settings``' limits (see :mod:`~hive.web.shared.settings` and docs/security.md)."""
    from .http.run import serve as _serve

    _serve(host, port, db, open_browser=open_browser, workers=workers, announce=announce, settings=settings)
