"""The analysis board in the browser (Chromium by Playwright, against ``hive play``), at phone and desktop sizes: a
variation played on the board for either side, shown in the move list under the move it branches from, kept over a
reload, while the game's own record stays as it was; the same for HiveQueen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from ...web_support import JSON, QUEEN_GAME, ServerProcess
from ..browser_support import DEVICES, click_move, create, overflow, seat_page, shoot, sizes

Page = Any
OPENING = "wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


def game_moves(server: ServerProcess, game: JSON) -> list[str]:
    reply = httpx.get(f"{server.url}api/games/{game['id']}", headers={"x-seat-token": game["token"]}, timeout=30)
    moves: list[str] = reply.json()["moves"]
    return moves


def enter_analysis(page: Page, device: str, ply: int) -> None:
    """Show the game's position after ``ply`` moves, then analyse it."""
    press = page.tap if device == "phone" else page.click
    press(f"#movelist li[data-ply='{ply}']")
    page.wait_for_selector("#review:not([hidden])")
    press("#btn-analyse")
    page.wait_for_selector("#analysis:not([hidden])")
    assert page.inner_text(".analysis-title") == "Analysis — not part of the game"
    page.wait_for_function(f"app.analysis && app.analysis.ply === {ply} && app.lines")


def analysed_move(page: Page, device: str, text: str) -> None:
    """Play ``text`` on the analysis board by clicks (taps on a phone) and wait for the position after it."""
    ply = page.evaluate("app.analysis.ply")
    st = page.evaluate("({moves: app.state.moves, view: app.analysis.view})")
    click_move(page, st, text, touch=device == "phone")
    page.wait_for_function(f"app.analysis.ply === {ply + 1}")


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_a_hive_variation_is_shown_in_the_move_list_and_survives_a_reload(
    browser: Any, server: ServerProcess, device: str, tmp_path: Path
) -> None:
    game = create(server, mode="local", game_string=OPENING, options={"game_type": "Base"})
    context = browser.new_context(bypass_csp=True, **DEVICES[device])
    page = seat_page(context, server, game)
    press = page.tap if device == "phone" else page.click
    page.wait_for_selector("#movelist li[data-ply='4']")
    enter_analysis(page, device, 2)
    analysed_move(page, device, "wG1 -wS1")
    analysed_move(page, device, "bA1 bS1/")
    page.wait_for_selector("#movelist .line .lmove.shown")
    assert page.inner_text("#movelist .line[data-line='1'] .lmove[data-ply='3']") == "wG1 -wS1"
    assert page.inner_text("#analysis-where") == "Line 1 · after 2… bA1 bS1/"
    assert game_moves(server, game) == OPENING.split(";")  # the record is untouched
    # a variation of the variation, from the line's first move
    press("#movelist .lmove[data-ply='3']")
    page.wait_for_function("app.analysis.ply === 3")
    analysed_move(page, device, "bQ bS1\\")
    page.wait_for_selector("#movelist .line[data-line='1'] .line[data-line='2']")
    if device == "desktop":
        page.evaluate("document.querySelector('.moves-box').scrollIntoView({block: 'center'})")
        shoot(page, "analysis-board.png", tmp_path)
    assert overflow(page) == 0
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#movelist .line[data-line='1'] .line[data-line='2'] .lmove")
    assert page.inner_text("#movelist .line[data-line='2'] .lmove") == "bQ bS1\\"
    assert page.eval_on_selector_all("#movelist > :not(li)", "items => items.length") == 0  # valid HTML in the <ol>
    assert page.is_hidden("#analysis")
    press("#movelist .line[data-line='2'] .lmove")
    page.wait_for_selector("#analysis:not([hidden])")
    page.wait_for_function("app.analysis.line === 2 && app.analysis.ply === 4")
    press("#btn-analysis-exit")
    page.wait_for_selector("#analysis", state="hidden")
    assert page.evaluate("app.analysis") is None and page.evaluate("app.state.moves.length") == 4
    press("#movelist .line[data-line='2'] > .line-delete")  # the confirmation is accepted
    page.wait_for_selector("#movelist .line[data-line='2']", state="detached")
    assert page.is_visible("#movelist .line[data-line='1']")
    assert overflow(page) == 0 and page.errors == []
    context.close()


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_a_hivequeen_variation_is_shown_in_the_move_list_and_survives_a_reload(
    browser: Any, server: ServerProcess, device: str
) -> None:
    game = create(server, kind="hivequeen", mode="local", game_string="\n".join(QUEEN_GAME[:2]))
    context = browser.new_context(bypass_csp=True, **DEVICES[device])
    page = seat_page(context, server, game)
    page.wait_for_selector("#movelist li[data-ply='2']")
    press = page.tap if device == "phone" else page.click
    enter_analysis(page, device, 1)
    press('#board .qpiece[data-cell="f8"]')
    press('#board .qdest[data-cell="f6"]')
    page.wait_for_function("app.analysis.ply === 2 || !!document.querySelector('#qpanel[data-phase=production]')")
    if page.evaluate("app.analysis.ply") == 1:
        press("#qbtn-end")
    page.wait_for_function("app.analysis.ply === 2")
    page.wait_for_selector("#movelist .line[data-line='1'] .lmove")
    assert page.inner_text("#movelist .line[data-line='1'] .lmove") == "Df8-f6"
    assert game_moves(server, game) == QUEEN_GAME[:2]
    assert overflow(page) == 0
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#movelist .line[data-line='1'] .lmove")
    press("#movelist .line[data-line='1'] .lmove")
    page.wait_for_function("app.analysis && app.analysis.line === 1 && app.analysis.ply === 2")
    assert page.evaluate("app.analysis.view.turn") == 0
    assert overflow(page) == 0 and page.errors == []
    context.close()
