"""The page in French, German and Spanish, in Chromium at phone (360x740, touch) and desktop sizes: the shell and the
lobby and a game drawn from the catalogs (no visible text is an English text the language translates), the pieces
named as the rule books of the language name them, the top bar's switch, and the choice remembered by the browser
and by the account. The French pages are photographed into ``$HIVE_SHOTS/i18n`` (or the test's folder)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..browser_support import SIZES, open_page, shoot_for_review, shots_folder, sign_up, sizes

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

Page = Any
pytestmark = pytest.mark.once

#: Hive's bugs as the French rule book names them, in the hand's order.
FRENCH_BUGS = ("Reine", "Araignée", "Scarabée", "Sauterelle", "Fourmi", "Moustique", "Coccinelle", "Cloporte")
#: The texts of the visible page: every text node shown, trimmed.
VISIBLE_TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    const skipped = !el || !el.checkVisibility() || el.closest("script, style, svg, code, .game-list, textarea");
    if (text && !skipped) out.push(text);
  }
  for (const el of document.querySelectorAll("[title], [placeholder], [aria-label]")) {
    if (!el.checkVisibility()) continue;
    for (const name of ["title", "placeholder", "aria-label"]) {
      if (el.getAttribute(name)) out.push(el.getAttribute(name).trim());
    }
  }
  return out;
}"""


def english_only(url: str, lang: str) -> set[str]:
    """The English catalog's texts (no placeholder, not a word or two the languages share) that ``lang`` words
    otherwise."""
    english = httpx.get(f"{url}i18n/en.json", timeout=10).json()["messages"]
    other = httpx.get(f"{url}i18n/{lang}.json", timeout=10).json()["messages"]
    found: set[str] = set()
    for key, text in english.items():
        forms = text.values() if isinstance(text, dict) else [text]
        theirs = other[key].values() if isinstance(other[key], dict) else [other[key]]
        for form in forms:
            if "{" not in form and form not in theirs and len(form) > 3:
                found.add(form)
    return found


def no_english(page: Page, url: str, lang: str) -> None:
    """No visible text of the page is an English text of the catalogs that ``lang`` translates."""
    shown = set(page.evaluate(VISIBLE_TEXTS))
    assert sorted(shown & english_only(url, lang)) == []


def shoot(page: Page, name: str, tmp_path: Path) -> None:
    shoot_for_review(page, name, shots_folder(tmp_path, "i18n"), top=True)


def fits(page: Page) -> None:
    """Nothing is wider than the window (the longer words of a language overflow nothing)."""
    width = page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    assert width <= page.evaluate("window.innerWidth")


def choose(page: Page, device: str, lang: str) -> None:
    """Switch the page's language with the top bar's switch (on a phone, in the ☰ menu); the page comes back in it."""
    if device == "phone":
        page.tap("#btn-menu")
    with page.expect_navigation():
        page.select_option("#language", lang)
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("html")).to_have_attribute("lang", lang)


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_the_page_speaks_french_german_and_spanish_and_remembers_the_choice(
    browser: Any, club: str, device: str, tmp_path: Path
) -> None:
    french = {**SIZES[device], "locale": "fr-FR", "extra_http_headers": {"accept-language": "fr-FR,fr;q=0.9"}}
    context = browser.new_context(**french)
    try:
        page = open_page(context, club)
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.locator("#btn-lobby-new")).to_have_text("Nouvelle partie")
        no_english(page, club, "fr")
        fits(page)
        shoot(page, f"lobby-fr-{device}.png", tmp_path)
        game = httpx.post(f"{club}api/games", json={"mode": "ai", "ai_level": "random"}, timeout=30).json()
        page = open_page(context, f"{club}game/{game['id']}#seat={game['token']}")
        hand = page.locator("#card-bottom .hand-piece")
        expect(hand.first).to_have_attribute("title", re.compile(r"^Reine \(1 en main\)$"))
        titles = hand.evaluate_all("(pieces) => pieces.map((p) => p.title.split(' (')[0])")
        assert titles == [*FRENCH_BUGS]
        expect(page.locator("#status")).to_contain_text("Blanc au trait")
        no_english(page, club, "fr")
        fits(page)
        shoot(page, f"game-fr-{device}.png", tmp_path)
        # why the game ended, as the state says it in English to every viewer, in the page's words
        seat = {"x-seat-token": game["token"]}
        resigned = httpx.post(f"{club}api/games/{game['id']}/resign", headers=seat, timeout=30)
        assert resigned.status_code == 200, resigned.text
        expect(page.locator("#banner-reason")).to_have_text("Blanc a abandonné")
        expect(page.locator("#banner-title")).to_have_text("Noir gagne")
        no_english(page, club, "fr")
        shoot(page, f"game-over-fr-{device}.png", tmp_path)
        # the switch: German, kept by this browser across pages and visits
        choose(page, device, "de")
        queen = page.locator("#card-bottom .hand-piece").first
        expect(queen).to_have_attribute("title", "Bienenkönigin (1 in der Hand)")
        no_english(page, club, "de")
        page = open_page(context, club)
        expect(page.locator("#btn-lobby-new")).to_have_text("Neue Partie")
    finally:
        context.close()
    # the account's choice: Spanish, chosen signed in, follows the account to a browser that speaks French
    name = f"Lena_{device}"
    english = browser.new_context(**SIZES[device])
    try:
        page = open_page(english, club)
        sign_up(page, device, name)
        choose(page, device, "es")
        expect(page.locator("#btn-lobby-new")).to_have_text("Nueva partida")
        no_english(page, club, "es")
    finally:
        english.close()
    other = browser.new_context(**french)
    try:
        page = open_page(other, club)
        expect(page.locator("#btn-lobby-new")).to_have_text("Nouvelle partie")  # a new browser: its own language
        # signed in by the page's own fetch (its cookie), then reloaded from outside: a reload inside the
        # script can end the script's context before its result comes back
        status = page.evaluate(
            """async (name) => (await fetch("/api/session", {method: "POST",
              headers: {"content-type": "application/json"},
              body: JSON.stringify({name, password: "correct horse 7"})})).status""",
            name,
        )
        assert status == 200
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        expect(page.locator("html")).to_have_attribute("lang", "es")  # signed in: the account's language
        expect(page.locator("#btn-lobby-new")).to_have_text("Nueva partida")
    finally:
        other.close()
