"""Offers, not surprises, in Chromium driven by Playwright, two players in two browsers on a server that keeps
accounts:

- A seeks a game; B (a guest) sees it in the lobby while A's page is open, past the grace; A closes the page, and the
  seek is gone from B's lobby within the grace (and the few seconds the server takes to look).
- A and B meet by a seek: before both sides moved each page shows Abort in place of Resign; A aborts, and both pages'
  end banners say the game was aborted and why it was not rated.
- A rated game between Ada and Ben over, Ada offers a rematch; it starts only once Ben accepts it from his banner,
  which takes him to it, and Ada's banner then leads her to it, each with their own seat, the colours swapped.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from hive.web.shared.settings import Settings

from ..browser_support import DESKTOP, Player, open_page, seek_row, sign_up

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.once

#: The seek's grace on the test's server, in seconds.
GRACE = 2.0
#: How long a page may take to notice a change another player made.
NOTICED = 15_000


@pytest.fixture()
def club_settings() -> Settings:
    """The club keeps accounts, with a short grace for seeks."""
    return Settings(accounts=True, seek_grace=GRACE)


def seek(page: Any) -> None:
    """Seek a game through the "Seek a game" dialog, as offered."""
    page.click("#btn-seek")
    expect(page.locator("#dlg-seek")).to_be_visible()
    page.click("#btn-seek-send")
    expect(page.locator("#dlg-seek")).to_be_hidden()


@pytest.mark.timing
def test_a_seek_leaves_the_lobby_when_its_seekers_page_closes(browser: Any, club: str) -> None:
    contexts = [browser.new_context(bypass_csp=True, **DESKTOP) for _ in range(2)]
    try:
        a = open_page(contexts[0], club)
        sign_up(a, "desktop", "Ann")
        seek(a)
        b = open_page(contexts[1], club)
        theirs = seek_row(b, "Ann")
        expect(theirs).to_have_count(1, timeout=NOTICED)
        a.wait_for_timeout(3 * GRACE * 1000)  # A's page holds it, well past the grace
        expect(theirs).to_have_count(1)
        contexts[0].close()
        closed = time.monotonic()
        expect(theirs).to_have_count(0, timeout=10 * GRACE * 1000)
        took = time.monotonic() - closed
        assert took < GRACE + 6, took  # the grace, and the server's look every few seconds
    finally:
        for context in contexts:
            context.close()


def test_before_both_sides_moved_a_player_aborts_and_the_banner_says_why_it_was_not_rated(
    browser: Any, club: str
) -> None:
    contexts = [browser.new_context(bypass_csp=True, **DESKTOP) for _ in range(2)]
    try:
        a = open_page(contexts[0], club)
        sign_up(a, "desktop", "Ann")
        seek(a)
        b = open_page(contexts[1], club)
        sign_up(b, "desktop", "Bob")
        seek_row(b, "Ann").locator("[data-action=accept]").click()
        for page in (a, b):
            page.wait_for_url(re.compile(r"/game/[\w-]+$"), timeout=NOTICED)
            page.wait_for_function("app.state && app.state.seats.length === 1")
            expect(page.locator("#btn-abort")).to_be_visible()
            expect(page.locator("#btn-resign")).to_be_hidden()
        a.once("dialog", lambda dialog: dialog.accept())
        a.click("#btn-abort")
        for page in (a, b):
            page.wait_for_function("app.state.result === 'Aborted'", timeout=NOTICED)
            expect(page.locator("#banner")).to_be_visible()
            expect(page.locator("#banner-title")).to_have_text("Game aborted")
            expect(page.locator("#banner-reason")).to_contain_text("aborted the game")
            expect(page.locator("#banner-reason")).to_contain_text("Not rated, and no win or loss")
            expect(page.locator("#btn-abort")).to_be_hidden()
    finally:
        for context in contexts:
            context.close()


def test_a_rematch_offer_accepted_starts_the_game_for_both_with_the_colours_swapped(browser: Any, club: str) -> None:
    ada, ben = Player(browser, club, "Ada", "desktop"), Player(browser, club, "Ben", "desktop")
    try:
        seek = ada.post("/api/seeks", {"game": "Base", "time_control": "blitz", "rated": True, "colour": "white"})
        game_id = ben.post(f"/api/seeks/{seek['id']}/accept")["id"]
        for mover, move in ((ada, "wA1"), (ben, "bA1 wA1-")):
            mover.post(f"/api/games/{game_id}/move", {"move": move})
        ben.post(f"/api/games/{game_id}/resign")
        for player in (ada, ben):
            player.page = open_page(player.context, f"{club}game/{game_id}")
            expect(player.page.locator("#btn-banner-rematch")).to_have_text("Rematch")

        # Ada offers; nothing starts until Ben accepts it from his banner, which takes him to the new game
        ada.page.click("#btn-banner-rematch")
        expect(ada.page.locator("#btn-banner-rematch")).to_have_text("Rematch offered")
        expect(ben.page.locator("#banner-offer")).to_have_text("Ada offers a rematch.", timeout=NOTICED)
        assert ada.get(f"/api/games/{game_id}")["rematch"] is None
        ben.page.click("#btn-banner-rematch")
        ben.page.wait_for_url(re.compile(r"/game/[\w-]+$"))
        ben.page.wait_for_function(f"app.state && app.state.id !== '{game_id}' && app.state.seats.length === 1")
        rematch = ben.page.evaluate("app.state")
        assert rematch["names"] == ["Ben", "Ada"] and rematch["seats"] == [0] and rematch["rated"], rematch

        # Ada's banner now leads to it, where she holds her seat
        expect(ada.page.locator("#btn-banner-rematch")).to_have_text("Go to the rematch", timeout=NOTICED)
        ada.page.click("#btn-banner-rematch")
        ada.page.wait_for_url(f"**/game/{rematch['id']}")
        ada.page.wait_for_function("app.state && app.state.seats.length === 1")
        assert ada.page.evaluate("app.state.seats") == [1]
        for player in (ada, ben):
            assert player.page.errors == []
    finally:
        for player in (ada, ben):
            player.context.close()
