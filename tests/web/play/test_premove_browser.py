"""A move chosen before it is sent, in Chromium at phone and desktop sizes, Black's page of a game between two
browsers whose White moves through the API:

- on White's turn Black pre-selects a placement (a piece of the hand, then a free cell): it shows on the board and in
  a bar; Cancel drops it; pre-selected again, it is played as soon as White has moved, once;
- a pre-selected move that White's move makes illegal (White takes its cell) is cancelled, with a notice, and nothing
  is sent;
- with "Confirm moves" on (kept in the browser), a move made on Black's turn waits, shown, until Confirm is pressed;
  and so does a pre-selected move once Black's turn comes.

Screenshots of the pre-selected move at both sizes go to ``$HIVE_SHOTS`` (default: the test's own folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ...web_support import JSON, ServerProcess
from ..browser_support import SIZES, click_move, create, expect, open_page, open_settings, press, shots_folder, sizes
from .premove_support import move, placements, slots

pytest.importorskip("playwright.sync_api")
Page = Any


def preselect(page: Page, device: str, piece: str, cell: tuple[int, int]) -> None:
    press(page, device, f'.hand [data-piece="{piece}"]')
    press(page, device, f'#board .slot[data-cell="{cell[0]},{cell[1]}"]')
    expect(page.locator("#pending-bar")).to_be_visible()
    expect(page.locator("#board .pending-to")).to_have_attribute("data-to", f"{cell[0]},{cell[1]}")


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_a_move_chosen_early_is_played_dropped_or_confirmed(
    browser: Any, server: ServerProcess, device: str, tmp_path: Path
) -> None:
    shots = shots_folder(tmp_path)
    context = browser.new_context(bypass_csp=True, **SIZES[device])
    try:
        game = create(server, mode="online", colour="white", options={"game_type": "Base"})
        twin = create(server, mode="online", colour="white", options={"game_type": "Base"})  # where White's move goes
        white, black = game["token"], game["invite"]
        for ply, text in enumerate(("wS1", "bS1 wS1-")):
            move(server, game, white if ply % 2 == 0 else black, text, ply)
            move(server, twin, twin["token"] if ply % 2 == 0 else twin["invite"], text, ply)
        page = open_page(context, f"{server.url}game/{game['id']}#seat={black}")
        page.wait_for_function("app.state && app.state.moves.length === 2")
        now: JSON = page.evaluate("app.state")

        # White will place wG1; Black's grasshopper goes where it may after that, on a cell free now
        white_move = placements(now, "wG1")[0][0]
        after = move(server, twin, twin["token"], white_move, 2)
        text, cell = next((t, c) for t, c in placements(after, "bG1") if c in slots(now))
        preselect(page, device, "bG1", cell)
        expect(page.locator("#btn-pending-confirm")).to_be_hidden()
        press(page, device, "#btn-pending-cancel")
        expect(page.locator("#pending-bar")).to_be_hidden()
        expect(page.locator("#board .pending-to")).to_have_count(0)
        preselect(page, device, "bG1", cell)
        page.screenshot(path=str(shots / f"premove-{device}.png"))
        move(server, game, white, white_move, 2)
        page.wait_for_function("app.state.moves.length === 4", timeout=15_000)
        assert page.evaluate("app.state.moves")[2:] == [white_move, text]
        expect(page.locator("#pending-bar")).to_be_hidden()

        # a pre-selected move White's move makes illegal is cancelled, and nothing is sent
        now = page.evaluate("app.state")
        white_move, taken = next((t, c) for t, c in placements(move(server, twin, twin["invite"], text, 3), "wA1"))
        preselect(page, device, "bG2", taken)
        move(server, game, white, white_move, 4)
        expect(page.locator("#toast")).to_contain_text("not legal now")
        expect(page.locator("#pending-bar")).to_be_hidden()
        page.wait_for_timeout(300)
        assert len(page.evaluate("app.state.moves")) == 5

        # Confirm moves on: Black's move waits for Confirm
        open_settings(page, device)
        press(page, device, "#btn-confirm")
        expect(page.locator("#btn-confirm")).to_have_attribute("aria-pressed", "true")
        assert page.evaluate("localStorage.getItem('hive.confirm-moves')") == "on"
        st: JSON = page.evaluate("app.state")
        chosen = placements(st, "bG2")[0][0]
        click_move(page, st, chosen, touch=device == "phone")
        expect(page.locator("#btn-pending-confirm")).to_be_visible()
        page.wait_for_timeout(500)
        assert len(page.evaluate("app.state.moves")) == 5
        press(page, device, "#btn-pending-confirm")
        page.wait_for_function("app.state.moves.length === 6")
        assert page.evaluate("app.state.moves")[5] == chosen
        expect(page.locator("#pending-bar")).to_be_hidden()

        # with Confirm moves on, a move pre-selected waits for Confirm once the turn comes
        for ply, done in ((4, white_move), (5, chosen)):
            move(server, twin, twin["token"] if ply % 2 == 0 else twin["invite"], done, ply)
        now = page.evaluate("app.state")
        white_move = next(m["move"] for moves in now["view"]["legal"].values() for m in moves)
        after = move(server, twin, twin["token"], white_move, 6)
        text, cell = next((t, c) for t, c in placements(after, "bQ") if c in slots(now))
        preselect(page, device, "bQ", cell)
        move(server, game, white, white_move, 6)
        expect(page.locator("#btn-pending-confirm")).to_be_visible()
        page.wait_for_timeout(500)
        assert len(page.evaluate("app.state.moves")) == 7
        press(page, device, "#btn-pending-confirm")
        page.wait_for_function("app.state.moves.length === 8")
        assert page.evaluate("app.state.moves")[7] == text
        expect(page.locator("#pending-bar")).to_be_hidden()
        assert page.errors == []
    finally:
        context.close()
