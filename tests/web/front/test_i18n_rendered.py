"""The page rendered in English and again in French, German and Spanish, in Chromium at phone (360x740, touch) and
desktop sizes, state by state: no visible text of a translated page (its text nodes, its title, a placeholder, an
aria-label, a list's choices, an SVG's tooltips and the parts of a text put together with " · ") is a text the English
rendering of the same state shows, other than names, numbers, notation and the few words the languages share
(:data:`SHARED`, :data:`SHARED_IN`). Unlike :func:`.test_i18n_browser.no_english`, which knows only the catalogs'
texts, this finds an English literal no catalog has. The states: the lobby, New game, the account and bots dialogs,
the admin screen (all signed in as an admin), a profile, the leaderboard, a tournament, a game against the AI in play
and ended, a HiveQueen game, and the How to play pages. Each translated state fits the window's width; the server's
English texts the page shows as they come (:data:`SERVER_TEXTS`) come out in the page's language; the lobby and a
game are photographed in German and Spanish into ``$HIVE_SHOTS/i18n`` (or the test's folder)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.web.http.pages import how_to_play_page

from ..browser_support import (
    PASSWORD,
    SIZES,
    api_account,
    header_button,
    open_page,
    overflow,
    press,
    shoot_for_review,
    shots_folder,
    sizes,
)

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

Page = Any
pytestmark = pytest.mark.once

#: The translated languages, each with the locale its browser context says.
LANGUAGES = {"fr": "fr-FR", "de": "de-DE", "es": "es-ES"}
#: The accounts and the tournament the test makes: names, the same in every language.
ADMIN, PLAYER, TOURNAMENT = "Xaver", "Ylva", "Zwolle Open"
#: Words a translated page may show as English does: in every language, and in one (why each is allowed).
SHARED = {
    "Hive",  # the game's published name, in every edition
    "HiveQueen",  # the name of L. Lynn Smith's game
    "Blitz",  # a time control's name, which French, German and Spanish players use as it is (lichess, FIDE)
    "Bullet",  # likewise
    "Bots",  # the word, borrowed by the three languages
    "Admin",  # likewise (the admin screen's link)
    "English",  # the language switch names each language in its own words
    "Français",
    "Deutsch",
    "Español",
}
SHARED_IN = {
    # French words spelt as the English ones (Base: the game without expansions; Max: the strongest AI level)
    "fr": {"Menu", "Notifications", "Format", "Base", "Max", "Import", "Export"},
    # German words spelt so (Warm: a side of the hand-made set, Warm and Kalt; Max: the strongest AI level)
    "de": {"Format", "Chat", "Live", "optional", "Warm", "Max", "Import", "Export"},
    # Spanish words spelt so (Mosquito: the Spanish rule book's name of the piece)
    "es": {"Chat", "Base", "Mosquito"},
}
#: A text that is a number, a clock, a score, a date's figures, or punctuation.
FIGURES = re.compile(r"^[\W\d_]*$")
#: Notation: a piece's letter or label (Q, A1), a move (wQ, bS1 -wQ, wA2 bG1/, pass), a HiveQueen cell or file (e4, a),
#: the expansions' letters of a game type (Base+MLP), a UHP game string (a picture's title: Base+L;InProgress;White[3]).
NOTATION = re.compile(
    r"^[A-Z]\d?$|^[a-z]\d*$|^(?:\d+\.\s*)?(?:[wb][A-Z]\d?|pass)(?:\s+[-/\\]?[wb][A-Z]\d?[-/\\]?)?$"
    r"|^[MLP]{1,3}$|^Base(?:\+[MLP]+)?;\w+;\w+\[\d+\]$"
)


def foreign(texts: set[str], english: set[str], names: set[str], lang: str) -> list[str]:
    """The texts of a translated rendering that the English one shows too, names, figures, notation and the
    :data:`SHARED` words left out."""
    kept = {word.lower() for word in names | SHARED | SHARED_IN[lang]}
    found = []
    for text in sorted(texts & english):
        if NOTATION.match(text):
            continue
        words = [word for word in re.split(r"[\s·,:()+]+", text) if word]
        if all(word.lower() in kept or FIGURES.match(word) or NOTATION.match(word) for word in words):
            continue
        found.append(text)
    return found


#: The texts a person sees: every text node shown (an SVG's titles too: they are its tooltips) but those of scripts,
#: styles, code and commands, and every title, placeholder and aria-label, trimmed.
VISIBLE_TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest("script, style, code, pre, kbd, textarea")) continue;
    const svg = el.closest("svg");
    const shown = svg ? svg.checkVisibility() : el.checkVisibility();
    if (shown) out.push(text);
  }
  for (const el of document.querySelectorAll("[title], [placeholder], [aria-label]")) {
    if (!el.checkVisibility()) continue;
    for (const name of ["title", "placeholder", "aria-label"]) {
      if (el.getAttribute(name)) out.push(el.getAttribute(name).trim());
    }
  }
  for (const select of document.querySelectorAll("select")) { // a list's choices, shown when it opens
    if (select.checkVisibility()) for (const option of select.options) out.push(option.text.trim());
  }
  return out;
}"""


def texts(page: Page) -> set[str]:
    """The visible texts of the page, with its title, and the parts of those a page puts together ("Base+MLP ·
    tournament opening · Blitz 5+3", "White to move — your turn")."""
    shown = set(page.evaluate(VISIBLE_TEXTS))
    shown.add(page.title().strip())
    return shown | {part for text in shown for part in re.split(r"\s+[·—]\s+", text)}


def the_club(url: str, db: Path) -> dict[str, Any]:
    """Make what the states show: an admin, a player, a tournament, a game between them with a reported line, games
    against the AI (in play, ended, of HiveQueen); their addresses and seat tokens."""
    admin, player = api_account(url, ADMIN), api_account(url, PLAYER)
    with sqlite3.connect(db) as connection:  # hive db admin
        assert connection.execute("UPDATE accounts SET admin = 1 WHERE name = ?", (ADMIN,)).rowcount == 1
    body: dict[str, object] = {
        "name": TOURNAMENT,
        "format": "swiss",
        "rounds": 3,
        "game": "Base",
        "time_control": "blitz",
    }
    made = admin.post("/api/tournaments", json=body)
    assert made.status_code == 200, made.text
    assert player.post(f"/api/tournaments/{made.json()['id']}/join").status_code == 200
    # a correspondence game between the two (in the live games, on the profile) and a line of its chat reported
    seek = admin.post("/api/seeks", json={"game": "Base", "time_control": {"days": 3}}).json()
    between = player.post(f"/api/seeks/{seek['id']}/accept").json()["id"]
    said = player.post(f"/api/games/{between}/chat", json={"room": "players", "text": "1:0 !!"})  # no words
    assert admin.post(f"/api/chat/{said.json()['id']}/report").is_success
    games = {}
    for name, asked in {
        "playing": {"mode": "ai", "ai_level": "random", "time_control": "blitz"},
        "ended": {"mode": "ai", "ai_level": "random"},
        "hivequeen": {"mode": "ai", "ai_level": "random", "kind": "hivequeen"},
    }.items():
        game = player.post("/api/games", json=asked).json()
        assert "id" in game, game
        games[name] = f"{url}game/{game['id']}#seat={game['token']}"
        if name == "ended":
            seat = {"x-seat-token": game["token"]}
            assert player.post(f"/api/games/{game['id']}/resign", headers=seat).status_code == 200
    admin.close()
    player.close()
    return {"tournament": f"{url}tournament/{made.json()['id']}", **games}


def states(url: str, club: dict[str, Any], device: str) -> dict[str, tuple[str, Callable[[Page], None]]]:
    """Each state: the address it opens and what is done there before its texts are read."""

    def nothing(page: Page) -> None:
        return None

    def bots(page: Page) -> None:
        header_button(page, device)
        press(page, device, "#btn-bots")
        expect(page.locator("#bots-status")).not_to_be_empty()

    def account(page: Page) -> None:
        header_button(page, device)
        expect(page.locator("#dlg-account")).to_be_visible()

    def ended(page: Page) -> None:
        expect(page.locator("#banner-reason")).not_to_be_empty()

    def new_game(page: Page) -> None:
        press(page, device, "#btn-lobby-new")
        expect(page.locator("#dlg-new")).to_be_visible()

    return {
        "lobby": (url, nothing),
        "new game": (url, new_game),
        "account": (url, account),
        "bots": (url, bots),
        "admin": (f"{url}admin", nothing),
        "profile": (f"{url}player/{PLAYER}", nothing),
        "leaderboard": (f"{url}leaderboard", nothing),
        "tournament": (club["tournament"], nothing),
        "game in play": (club["playing"], nothing),
        "game ended": (club["ended"], ended),
        "hivequeen game": (club["hivequeen"], nothing),
        "how to play hive": (f"{url}how-to-play/hive", nothing),
        "how to play hivequeen": (f"{url}how-to-play/hivequeen", nothing),
    }


#: The elements that reach past the window's right edge (the innermost first), for a failure's message.
WIDER = """() => [...document.querySelectorAll("body *")]
  .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && el.checkVisibility())
  .reverse().slice(0, 6)
  .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className} ${el.textContent.trim().slice(0, 40)}`)
"""


#: Texts the server sends in English and the page shows as they come (a game state's note, the AI's error, a
#: socket's close reason, HiveQueen's why-not answer, a game type), each put in the page's language by serverText().
SERVER_TEXTS = [
    "White has no legal move: no piece can be placed or moved, so White must pass.",
    "Black had no legal move and passed.",
    "The AI could not move: its worker stopped 3 times.",
    "The game was deleted.",
    "At most 4 spectators' sockets from one address: close one first.",
    "The Worker on e5 is North's; it is South's turn.",
    "The Worker on e5 has no legal movement here. A Worker steps to an adjacent vacant cell.",
    "There is no piece on e5.",
    "Base+MLP",
]
#: The English words of :data:`SERVER_TEXTS`' values, none of which a translation keeps.
VALUES = re.compile(r"\b(?:White|Black|Worker|North|South|Base)\b")
#: serverText() of each text, in the page's own i18n module.
SERVER_TEXT = """(texts) => import("/static/i18n.js").then((m) => texts.map((text) => m.serverText(text)))"""


#: The states photographed in German and Spanish (into the French pictures' folder), to be looked at.
PHOTOGRAPHED = {"lobby", "game in play"}


def rendered(
    browser: Any, url: str, club: dict[str, Any], device: str, lang: str | None, tmp_path: Path
) -> dict[str, set[str]]:
    """The visible texts of every state, in a browser context of its own speaking ``lang`` (English: None), signed
    in as the admin; each translated state fits the window's width (the longer words overflow nothing)."""
    settings = {**SIZES[device]}
    if lang:
        settings |= {"locale": LANGUAGES[lang], "extra_http_headers": {"accept-language": f"{LANGUAGES[lang]},{lang}"}}
    context = browser.new_context(**settings)
    try:
        signed = context.request.post(f"{url}api/session", data={"name": ADMIN, "password": PASSWORD})
        assert signed.ok, signed.text()
        seen = {}
        for name, (address, action) in states(url, club, device).items():
            page = open_page(context, address)
            if lang and "/how-to-play/" not in address:
                expect(page.locator("html")).to_have_attribute("lang", lang)
            action(page)
            seen[name] = texts(page)
            assert page.errors == [], (name, page.errors)
            if lang:
                assert overflow(page) == 0, (lang, name, page.evaluate(WIDER))
            if lang and name == "lobby":
                said = page.evaluate(SERVER_TEXT, SERVER_TEXTS)
                same = {"Base+MLP"} if lang != "de" else set()  # Base: a French and Spanish word too
                pairs = zip(SERVER_TEXTS, said, strict=True)
                kept = [t for t, s in pairs if t not in same and (s == t or VALUES.search(s))]
                assert kept == [], (lang, kept)
            if lang in ("de", "es") and name in PHOTOGRAPHED:
                shoot_for_review(
                    page, f"{name.replace(' ', '-')}-{lang}-{device}.png", shots_folder(tmp_path, "i18n"), top=True
                )
            page.close()
        return seen
    finally:
        context.close()


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_no_state_of_the_translated_page_shows_a_text_of_the_english_one(
    browser: Any, club: str, club_db: Path, device: str, tmp_path: Path
) -> None:
    made = the_club(club, club_db)
    english = rendered(browser, club, made, device, None, tmp_path)
    names = {ADMIN, PLAYER, TOURNAMENT, *TOURNAMENT.split()}
    found: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        theirs = rendered(browser, club, made, device, lang, tmp_path)
        for state, shown in theirs.items():
            left = foreign(shown, english[state], names, lang)
            if left:
                found[f"{lang} {state}"] = left
    assert found == {}
    assert httpx.get(f"{club}healthz", timeout=10).status_code == 200


def test_the_check_flags_an_english_literal_and_lets_names_figures_and_notation_pass() -> None:
    english = {"New game", "Resign", "Ylva", "12:03", "wQ", "bS1 -wQ", "Base+MLP", "Grundspiel", "Max", "Warm"}
    shown = {"Neue Partie", "Resign", "Ylva", "12:03", "wQ", "bS1 -wQ", "Base+MLP", "Max", "Warm"}
    assert foreign(shown, english, {"Ylva"}, "de") == ["Base+MLP", "Resign"]  # German says Grundspiel
    assert foreign(shown, english, {"Ylva"}, "fr") == ["Resign", "Warm"]


def test_the_rules_pages_pictures_are_worded_in_the_readers_language() -> None:
    hive, queen = how_to_play_page("hive", "Hive", "de"), how_to_play_page("hivequeen", "HiveQueen", "es")
    assert "<title>Bienenkönigin (Weiß, wQ)</title>" in hive and "White Queen Bee" not in hive
    assert "Reina (Sur)" in queen and "South Queen" not in queen and "mueve Sur" in queen
    assert "<title>White Queen Bee (wQ)</title>" in how_to_play_page("hive", "Hive", "en")
