"""Quick pairing in the lobby, in Chromium at phone and desktop sizes, two players in two browsers: the grid shows
the common time controls with their speeds; a guest's click asks them to sign in; B's seek from the dialog with a
rating range shows it, and waits in its grid cell for A; A's click seeks (the cell marked as A's, a second click
withdrawing it, a third seeking again); B sees one player waiting in that cell, clicks it, and both pages land on
the same game, each holding its own seat. The lobby's grid and the dialog are photographed at both sizes into
``$HIVE_SHOTS`` (default: the test's own folder)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ..browser_support import SIZES, expect, game_of, open_page, overflow, press, shots_folder, sign_up, sizes

pytest.importorskip("playwright.sync_api")
Page = Any

CELL = '#quick-grid [data-cell="3+2"]'


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_a_click_on_the_same_cell_in_two_browsers_starts_a_game(
    browser: Any, club: str, device: str, tmp_path: Path
) -> None:
    shots = shots_folder(tmp_path)
    contexts = [browser.new_context(bypass_csp=True, **SIZES[device]) for _ in range(2)]
    try:
        a, b = (open_page(context, club) for context in contexts)
        expect(a.locator("#quick-grid .pairing-cell")).to_have_count(13)
        expect(a.locator(CELL)).to_contain_text("Blitz")
        expect(a.locator('#quick-grid [data-cell="1 day"]')).to_contain_text("Correspondence")
        assert overflow(a) == 0
        press(a, device, CELL)  # a guest is asked to sign in
        expect(a.locator("#dlg-sign")).to_be_visible()
        a.keyboard.press("Escape")
        expect(a.locator("#dlg-sign")).to_be_hidden()
        sign_up(a, device, f"Ann_{device}")
        sign_up(b, device, f"Bob_{device}")
        press(b, device, "#btn-seek")  # the seek dialog takes the ratings an opponent may have
        expect(b.locator("#seek-low")).to_be_visible()
        assert overflow(b) == 0
        b.fill("#seek-low", "1000")
        b.locator("#dlg-seek").screenshot(path=str(shots / f"seek-dialog-{device}.png"))
        press(b, device, "#btn-seek-send")  # a blitz 5+3 seek: it waits in the grid's 5+3 cell too
        expect(b.locator("#dlg-seek")).to_be_hidden()
        expect(b.locator("#seek-list .seek-detail")).to_contain_text("for 1000+")
        expect(a.locator('#quick-grid [data-cell="5+3"]')).to_contain_text("1 waiting", timeout=15_000)

        press(a, device, CELL)
        expect(a.locator(CELL)).to_have_attribute("aria-pressed", "true")
        press(a, device, CELL)  # one's own waiting cell: the seek is withdrawn
        expect(a.locator(CELL)).to_have_attribute("aria-pressed", "false")
        press(a, device, CELL)
        expect(a.locator(CELL)).to_have_attribute("aria-pressed", "true")
        expect(b.locator(CELL)).to_contain_text("1 waiting", timeout=15_000)
        b.evaluate("document.getElementById('toast').hidden = true")
        b.locator("#quick").scroll_into_view_if_needed()
        b.screenshot(path=str(shots / f"quick-grid-{device}.png"))
        a.evaluate("document.getElementById('toast').hidden = true")
        a.locator("#quick").screenshot(path=str(shots / f"quick-grid-waiting-{device}.png"))

        press(b, device, CELL)
        for page in (b, a):
            page.wait_for_url(re.compile(r"/game/[\w-]+$"), timeout=15_000)
            page.wait_for_function("app.state && app.state.seats.length === 1")
        (game_a, token_a), (game_b, token_b) = game_of(a), game_of(b)
        assert game_a == game_b and token_a != token_b
        assert a.evaluate("app.state.time_control") == "3+2" and a.evaluate("app.state.rated")
        assert a.errors == [] and b.errors == []
    finally:
        for context in contexts:
            context.close()
