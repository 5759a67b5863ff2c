"""The page as an app a phone installs on its home screen, and the service worker that shows the server's push
notifications: ``GET /manifest.webmanifest`` (the web app manifest: the default game's title as the app's name, as
the page's header shows it; the page's colours; the icons of ``static/icons/``, made by ``scripts/make_icons.py``)
and ``GET /sw.js`` (the service worker, served from the site's
root so that its scope is the whole site; see :mod:`~hive.web.push`). Both are checked again by the browser at each
visit (``no-cache``), so that a new release's reaches it at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...games import default_game

STATIC = Path(__file__).parent.parent / "static"
#: Asked again of the server at every use (a new release's worker and manifest are taken at once).
FRESH = {"cache-control": "no-cache"}


#: The page's colours: its header's (the theme, as ``<meta name="theme-color">`` says) and its ground.
THEME, BACKGROUND = "#fffdf8", "#f4f1ea"
#: The icons, as the manifest lists them: ``any`` fills its square, ``maskable`` keeps to the circle masks keep.
ICONS = [
    {"src": f"/static/icons/{kind}-{size}.png", "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
    for kind, purpose in (("icon", "any"), ("maskable", "maskable"))
    for size in (192, 512)
]


def web_manifest() -> dict[str, Any]:
    """The web app manifest: the page opened at the site's root, standalone (without the browser's bars)."""
    title = default_game().title
    return {
        "name": title, "short_name": title, "id": "/", "start_url": "/", "scope": "/", "display": "standalone",
        "theme_color": THEME, "background_color": BACKGROUND, "icons": ICONS,
    }  # fmt: skip


async def manifest(request: Request) -> Response:
    """The web app manifest."""
    return JSONResponse(web_manifest(), media_type="application/manifest+json", headers=FRESH)


async def service_worker(request: Request) -> Response:
    """The service worker, its scope the whole site."""
    headers = {**FRESH, "service-worker-allowed": "/"}
    return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers=headers)


def routes() -> list[BaseRoute]:
    """The manifest's and the service worker's routes."""
    return [Route("/manifest.webmanifest", manifest), Route("/sw.js", service_worker)]


__all__ = ["BACKGROUND", "ICONS", "THEME", "manifest", "routes", "service_worker", "web_manifest"]
