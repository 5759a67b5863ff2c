"""The page as an app a phone installs on its home screen, and the service worker that shows the server's push
notifications: ``GET /manifest.webmanifest`` (the web app manifest: names, colours, the icons of
``static/icons/``, made by ``scripts/make_icons.py``) and ``GET /sw.js`` (the service worker, served from the site's
root so that its scope is the whole site; see :mod:`~hive.web.push`). Both are checked again by the browser at each
visit (``no-cache``), so that a new release's reaches it at once.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Route

STATIC = Path(__file__).parent.parent / "static"
#: Asked again of the server at every use (a new release's worker and manifest are taken at once).
FRESH = {"cache-control": "no-cache"}


async def manifest(request: Request) -> Response:
    """The web app manifest."""
    return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json", headers=FRESH)


async def service_worker(request: Request) -> Response:
    """The service worker, its scope the whole site."""
    headers = {**FRESH, "service-worker-allowed": "/"}
    return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers=headers)


def routes() -> list[BaseRoute]:
    """The manifest's and the service worker's routes."""
    return [Route("/manifest.webmanifest", manifest), Route("/sw.js", service_worker)]


__all__ = ["manifest", "routes", "service_worker"]
