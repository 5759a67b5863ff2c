"""What the browser tests of the club share: the phone and desktop sizes, the account dialogs driven as a player
does, accounts made through the API for a page's context, axe-core's audit of a page, and a rating set in the
database. Playwright's ``expect`` is imported here, so a module that imports this one is skipped without
Playwright."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from ..web_support import AXE, DESKTOP, JSON, PHONE

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

Page = Any
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


def press(page: Page, device: str, selector: str) -> None:
    """Tap (on a phone) or click the element."""
    (page.tap if device == "phone" else page.click)(selector)


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
    tests/web/test_accessibility.py says so when it is missing)."""
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
