"""What the browser tests share: Debian's Chromium launched by Playwright, the phone, landscape and desktop sizes,
pages opened, photographed and measured, games created and seated; for the club, the account dialogs driven as a
player does, accounts made through the API for a page's context, axe-core's audit of a page, and a rating set in the
database. Playwright is imported where it is used, so that this module is imported without it (by the fixtures)."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from ..web_support import AXE, JSON, ROOT, ServerProcess

Page = Any
#: Debian's Chromium, which the browser tests drive.
CHROMIUM = os.environ.get("HIVE_CHROMIUM", "/usr/bin/chromium")


ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextlib.contextmanager
def chromium(playwright_api: Any) -> Iterator[Any]:
    """Chromium launched by Playwright for the length of the block; the test is skipped when it is missing."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: bash scripts/test.sh installs Debian's chromium package")
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}


DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}


LANDSCAPE: dict[str, Any] = {**PHONE, "viewport": {"width": 844, "height": 390}}


DEVICES: dict[str, dict[str, Any]] = {"phone": PHONE, "landscape": LANDSCAPE, "desktop": DESKTOP}


SHOTS = ROOT / "docs" / "screenshots"


def open_page(context: Any, url: str) -> Any:
    """A page of ``context`` at ``url``, once drawn; its script errors kept in ``page.errors``, its confirmations
    accepted."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("dialog", lambda dialog: dialog.accept())
    page.errors = errors
    page.goto(url)
    if "/how-to-play/" not in url:
        page.wait_for_selector("body[data-ready='1']")
    return page


def create(server: ServerProcess, **body: Any) -> JSON:
    data: JSON = httpx.post(f"{server.url}api/games", json=body, timeout=30).json()
    assert "id" in data, data
    return data


def seat_page(context: Any, server: ServerProcess, game: JSON, token: str | None = None) -> Any:
    """The game's page, opened by its seat link."""
    return open_page(context, f"{server.url}game/{game['id']}#seat={token or game['token']}")


def state(server: ServerProcess, game_id: str, token: str | None = None) -> JSON:
    headers = {"x-seat-token": token} if token else {}
    data: JSON = httpx.get(f"{server.url}api/games/{game_id}", headers=headers, timeout=10).json()
    return data


def overflow(page: Any) -> int:
    """How far the page is wider than the window (0 when it fits)."""
    width: int = page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    inner: int = page.evaluate("window.innerWidth")
    return max(0, width - inner)


def shoot(page: Any, name: str, tmp_path: Path) -> None:
    """Photograph the page into docs/screenshots/ (when the picture is missing or HIVE_SCREENSHOT=1), else into
    ``tmp_path``."""
    page.evaluate("window.scrollTo(0, 0)")
    target = SHOTS / name
    if target.exists() and os.environ.get("HIVE_SCREENSHOT") != "1":
        target = tmp_path / name
    target.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(target))
    assert target.read_bytes().startswith(b"\x89PNG")


def shots_folder(tmp_path: Path, topic: str = "") -> Path:
    """Where a test's screenshots for a person to look at go: ``$HIVE_SHOTS/<topic>`` when ``HIVE_SHOTS`` is set,
    else the test's own folder; created."""
    root = os.environ.get("HIVE_SHOTS")
    folder = Path(root) / topic if root else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shoot_for_review(page: Any, name: str, folder: Path, *, full: bool = False, top: bool = False) -> None:
    """Photograph the window (the whole page with ``full``; scrolled to its top first with ``top``) into
    ``folder``."""
    if top:
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(folder / name), full_page=full)


def covered_controls(page: Page, selector: str) -> list[str]:
    """The controls (buttons, links, fields) in sight that the element at ``selector`` lies over."""
    found: list[str] = page.evaluate(
        """(selector) => {
          const over = document.querySelector(selector).getBoundingClientRect();
          const meets = (r) => r.width && r.height && r.left < over.right && over.left < r.right
            && r.top < over.bottom && over.top < r.bottom;
          return [...document.querySelectorAll("button, a[href], input, select, textarea")]
            .filter((c) => !c.closest(selector) && c.checkVisibility() && meets(c.getBoundingClientRect()))
            .map((c) => c.id || c.textContent.trim());
        }""",
        selector,
    )
    return found


def show_tab(page: Any, name: str) -> None:
    """Choose the tab ``name`` (moves, chat, review, share) beside the board where the window shows one box at a time
    (a wide one); a phone's shows every box, one under another, and has no tabs to choose."""
    if page.evaluate("matchMedia('(min-width: 861px)').matches"):
        page.locator(f"#tab-{name}").click()
        page.wait_for_selector(f"#tab-{name}[aria-selected=true]")


def game_of(page: Any) -> tuple[str, str]:
    """The open game's id and the seat token the page keeps in its storage (never in the address bar)."""
    match = re.search(r"/game/([\w-]+)$", page.url)
    assert match, page.url
    token = page.evaluate(f"localStorage.getItem('hive.token.{match.group(1)}')")
    assert token, "the page keeps no token for its game"
    return match.group(1), token


def click_move(page: Any, st: JSON, text: str, *, touch: bool = False) -> None:
    """Play a MoveString by clicks (or taps): the piece (in hand or on the board), then its lit destination."""
    press = page.tap if touch else page.click
    page.wait_for_function(f"app.state && app.state.moves.length === {len(st['moves'])} && !app.state.thinking")
    if text == "pass":
        press("#btn-pass")
        return
    for piece, moves in st["view"]["legal"].items():
        for move in moves:
            if move["move"] == text:
                on_board = any(cell["stack"][-1] == piece for cell in st["view"]["cells"])
                press(f'#board .piece[data-piece="{piece}"]' if on_board else f'.hand [data-piece="{piece}"]')
                q, r = move["to"]
                press(f'#board .dest[data-to="{q},{r}"]')
                return
    raise AssertionError(f"{text} is not among the legal moves")


def sizes(*names: str) -> list[Any]:
    """Browser sizes for ``pytest.mark.parametrize``: the phone's in the default run, the others (desktop,
    landscape) in the slow set, which CI runs too; the phone's layout is the one most often broken."""
    return [pytest.param(name, marks=[] if name == "phone" else [pytest.mark.slow]) for name in names]


#: The browser tests' phone (360x740, touch) and desktop sizes.
SIZES: dict[str, dict[str, Any]] = {"phone": {**PHONE, "viewport": {"width": 360, "height": 740}}, "desktop": DESKTOP}
#: The password of the accounts the browser tests make.
PASSWORD = "correct horse 7"
#: The rules run: those of WCAG 2.0 and 2.1, levels A and AA, and Deque's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
#: The impacts that fail the test (axe's others: moderate, minor).
FAILING = ("serious", "critical")
#: How many of a rule's elements the failure message names.
SHOWN = 3


def expect(actual: Any) -> Any:
    """Playwright's ``expect`` of ``actual`` (a page or a locator)."""
    return pytest.importorskip("playwright.sync_api").expect(actual)


def press(page: Page, device: str, selector: str) -> None:
    """Tap (on a phone) or click the element."""
    (page.tap if device == "phone" else page.click)(selector)


def open_settings(page: Page, device: str) -> None:
    """Show the page's options: the top bar's gear box on a desktop, the ☰ menu on a phone."""
    press(page, device, "#btn-menu" if device == "phone" else "#btn-settings")
    expect(page.locator("#btn-confirm")).to_be_visible()


def header_button(page: Page, device: str) -> None:
    """Press the header's account button (on a phone, in the ☰ menu)."""
    if device == "phone":
        press(page, device, "#btn-menu")
    press(page, device, "#btn-account")


def signed_in_as(page: Page, name: str | None) -> None:
    """The header's button says who is signed in (or offers to sign in)."""
    button = page.locator("#btn-account")
    expect(button).to_have_text(name or "Sign in")
    expect(button).to_have_class("account-button signed-in" if name else "account-button")


def toasted(page: Page, text: str) -> None:
    """The page's toast says ``text``."""
    expect(page.locator("#toast")).to_have_text(text)


def sign(page: Page, device: str, name: str, password: str, *, create: bool = False) -> None:
    """Open the sign-in dialog, fill it and press Enter in the password field."""
    header_button(page, device)
    expect(page.locator("#dlg-sign")).to_be_visible()
    expect(page.locator("#sign-name")).to_be_focused()
    if create:
        press(page, device, "#form-sign input[value=create] + span")
        expect(page.locator("#sign-title")).to_have_text("Create an account")
        expect(page.locator("#sign-rules")).to_be_visible()
        expect(page.locator("#sign-password")).to_have_attribute("autocomplete", "new-password")
    else:
        expect(page.locator("#sign-password")).to_have_attribute("autocomplete", "current-password")
    page.fill("#sign-name", name)
    page.fill("#sign-password", password)
    page.press("#sign-password", "Enter")


def sign_up(page: Page, device: str, name: str) -> None:
    """Make the account ``name`` through the page's dialog; the header then says it is signed in."""
    sign(page, device, name, PASSWORD, create=True)
    expect(page.locator("#dlg-sign")).to_be_hidden()
    signed_in_as(page, name)


def seek_row(page: Page, player: str) -> Any:
    """The lobby's rows of ``player``'s seeks."""
    return page.locator("#seek-list .seek-row").filter(has=page.locator(".seek-player", has_text=player))


def api_account(url: str, name: str) -> httpx.Client:
    """An account made through the API, signed in on the client returned (its CSRF token in its headers)."""
    c = httpx.Client(base_url=url, timeout=30)
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    c.headers["x-csrf-token"] = r.json()["csrf"]
    return c


def settle(page: Page) -> None:
    """Wait for the fonts and for the page's finite animations and transitions to end (a colour caught halfway
    would be judged by its contrast)."""
    page.evaluate("document.fonts.ready.then(() => true)")
    page.wait_for_function(
        """() => document.getAnimations().every(
            (a) => a.playState !== "running" || a.effect.getComputedTiming().iterations === Infinity)"""
    )


def audit(page: Page, axe: Path) -> JSON:
    """axe-core's answer for the page as it stands: its violations and what it could not decide (``incomplete``)."""
    page.add_script_tag(path=str(axe))
    result: JSON = page.evaluate(
        """async (tags) => {
            const r = await axe.run(document, {runOnly: {type: "tag", values: tags}});
            return {version: r.testEngine.version, url: r.url, violations: r.violations, incomplete: r.incomplete};
        }""",
        TAGS,
    )
    return result


def report(violations: list[JSON], where: str, version: str, saved: Path) -> str:
    """The failure message: each rule broken, its impact, what it asks for and the first of its elements."""
    lines = [
        f"{len(violations)} serious or critical accessibility violation(s) on the {where} (axe-core {version};"
        f" axe's whole answer in {saved}):"
    ]
    for rule in violations:
        targets = [" ".join(map(str, node["target"])) for node in rule["nodes"]]
        more = f" and {len(targets) - SHOWN} more" if len(targets) > SHOWN else ""
        lines.append(f"- {rule['id']} ({rule['impact']}): {rule['help']} [{rule['helpUrl']}]")
        lines.append(f"    {len(targets)} element(s): {', '.join(targets[:SHOWN])}{more}")
    return "\n".join(lines)


def no_serious_violation(page: Page, axe: Path, where: str, tmp_path: Path) -> None:
    """axe-core finds nothing serious or critical on the page as it stands; axe's whole answer saved in ``tmp_path``
    (named after ``where``) and named in the failure."""
    settle(page)
    result = audit(page, axe)
    saved = tmp_path / f"axe-{where.replace(' ', '-')}.json"
    saved.write_text(json.dumps(result, indent=1))
    failing = [rule for rule in result["violations"] if rule["impact"] in FAILING]
    if failing:
        pytest.fail(report(failing, where, result["version"], saved), pytrace=False)


def no_serious(page: Page, where: str, tmp_path: Path) -> None:
    """:func:`no_serious_violation` where axe-core is installed (scripts/axe.sh installs it;
    tests/web/front/test_accessibility.py says so when it is missing)."""
    if AXE.exists():
        no_serious_violation(page, AXE, where, tmp_path)


class Player:
    """A browser context signed in as an account made through the API (its cookie in the context), and its page."""

    def __init__(self, browser: Any, url: str, name: str, device: str) -> None:
        self.url = url
        self.name = name
        self.context = browser.new_context(bypass_csp=True, **SIZES[device])
        made = self.context.request.post(f"{url}api/accounts", data={"name": name, "password": PASSWORD})
        assert made.status == 201, made.text()
        self.csrf = {"x-csrf-token": made.json()["csrf"]}
        self.page: Page = None

    def post(self, path: str, body: Any = None) -> Any:
        """The JSON answer to a POST of ``body`` to ``path``, with the account's CSRF token; it must succeed."""
        answer = self.context.request.post(f"{self.url}{path.lstrip('/')}", data=body or {}, headers=self.csrf)
        assert answer.ok, answer.text()
        return answer.json()

    def get(self, path: str) -> Any:
        """The JSON answer to a GET of ``path``."""
        return self.context.request.get(f"{self.url}{path.lstrip('/')}").json()


def establish(db: Path, ratings: dict[str, tuple[float, float]], game: str = "Base+MLP") -> None:
    """Give accounts an established blitz rating of ``game`` (rating, deviation) in the database, as many rated games
    would (the leaderboard lists no provisional rating)."""
    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.begin() as connection:
            for name, (rating, deviation) in ratings.items():
                account = connection.execute(
                    sa.text("SELECT id FROM accounts WHERE name = :n"), {"n": name}
                ).scalar_one()
                connection.execute(
                    sa.text(
                        "INSERT OR REPLACE INTO ratings (account_id, game, speed, rating, deviation, volatility,"
                        " games, wins, draws, losses, updated) VALUES (:a, :g, 'blitz', :r, :d, 0.06, 30, 20, 2, 8, 0)"
                    ),
                    {"a": account, "g": game, "r": rating, "d": deviation},
                )
    finally:
        engine.dispose()
