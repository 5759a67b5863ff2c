"""Draw the page's icons for phones' home screens (the web app manifest's, and Apple's touch icon) from the design of
``src/hive/web/static/favicon.svg``: an amber hexagon with a dark bug, on the page's cream ground. Chromium (the
tests' Playwright) renders each SVG to a PNG of its size, so the PNGs are exactly the design; they are committed, and
this script makes them again after a change of the design:

    python scripts/make_icons.py

- ``icon-192.png``, ``icon-512.png``: the icon as it is (``purpose: any``), the hexagon filling the square;
- ``maskable-192.png``, ``maskable-512.png``: for the masks a phone cuts (``purpose: maskable``): the ground fills
  the square and the hexagon stays within the central circle of 80 % that every mask keeps;
- ``apple-touch-icon.png`` (180 px): iOS rounds its corners itself, so the ground fills it.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "src" / "hive" / "web" / "static" / "icons"
#: The Chromium to draw with (Debian's, as the browser tests use it).
CHROMIUM = os.environ.get("HIVE_CHROMIUM", "/usr/bin/chromium")
#: The design's colours: the page's ground (``--bg``), the hexagon and the bug (favicon.svg's).
GROUND, HEX, BUG = "#f4f1ea", "#e8b418", "#3a2a12"


def design(ground: str | None, scale: float) -> str:
    """The icon as SVG, on ``ground`` (``None``: transparent), the hexagon's radius ``scale`` of the half side."""
    hexagon = " ".join(f"{x * scale:.3f},{y * scale:.3f}" for x, y in (
        (0, -10), (8.66, -5), (8.66, 5), (0, 10), (-8.66, 5), (-8.66, -5)))  # fmt: skip
    back = f'<rect x="-10" y="-10" width="20" height="20" fill="{ground}"/>' if ground else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-10 -10 20 20" width="100%" height="100%">{back}'
        f'<polygon points="{hexagon}" fill="{HEX}"/>'
        f'<ellipse cx="0" cy="{1.33 * scale:.3f}" rx="{2.8 * scale:.3f}" ry="{4.67 * scale:.3f}" fill="{BUG}"/></svg>'
    )


#: Each icon: its file, its size in pixels, its ground and the hexagon's scale.
ICON_FILES = (
    ("icon-192.png", 192, None, 0.98),
    ("icon-512.png", 512, None, 0.98),
    ("maskable-192.png", 192, GROUND, 0.72),
    ("maskable-512.png", 512, GROUND, 0.72),
    ("apple-touch-icon.png", 180, GROUND, 0.8),
)


def main() -> None:
    """Render every icon into :data:`ICONS`."""
    ICONS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for name, size, ground, scale in ICON_FILES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f'<body style="margin:0">{design(ground, scale)}</body>')
            page.screenshot(path=str(ICONS / name), omit_background=ground is None)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
