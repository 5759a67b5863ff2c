"""Review with the engine in the browser (Chromium by Playwright, against ``hive play``) at phone and desktop sizes:
the button starts it, a progress bar shows while it runs, then the evaluation graph with its marks; a click on a
blunder shows that position, the marks are in the move list, and a reload shows the review at once. HiveQueen too.

The desktop review is photographed into docs/screenshots/engine-review.png when the picture is missing or
HIVE_SCREENSHOT=1.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.games import find_game

from ...web_support import WON, ServerProcess
from ..browser_support import DEVICES, create, overflow, seat_page, shoot, show_tab, sizes

Page = Any
MOVES = WON.split(";")[3:]
BASE = {"tournament_opening": False}
NARROW: dict[str, Any] = {**DEVICES["phone"], "viewport": {"width": 360, "height": 740}}
SIZES = {"phone": NARROW, "desktop": DEVICES["desktop"]}


def start_review(page: Page) -> None:
    """Choose the fastest level and start the review; its progress shows at once."""
    page.wait_for_selector("#engine-review:not([hidden]) #btn-engine-review:not([hidden])", state="attached")
    show_tab(page, "review")  # a wide window shows the review in a tab beside the moves
    page.select_option("#er-level", "easy")
    page.click("#btn-engine-review")
    page.wait_for_selector("#er-progress-row:not([hidden])", timeout=5_000)
    assert "Analysing position" in page.inner_text("#er-progress-text")


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_a_finished_game_is_reviewed_and_a_blunder_shown(
    browser: Any, own_server: ServerProcess, device: str, tmp_path: Path
) -> None:
    game = create(own_server, mode="local", game_string=WON, options=BASE)
    context = browser.new_context(bypass_csp=True, **SIZES[device])
    page = seat_page(context, own_server, game)
    page.click("#btn-banner-close")
    start_review(page)
    page.wait_for_selector("#er-graph:not([hidden]) circle.er-dot.blunder", timeout=60_000)
    page.wait_for_selector("#er-progress-row", state="hidden")
    assert page.locator("#er-graph polyline.er-line").get_attribute("points").count(",") == len(MOVES) + 1
    axes = page.eval_on_selector_all("#er-graph text.er-axis", "labels => labels.map((t) => t.textContent)")
    assert axes == ["White wins", "even", "Black wins", f"move {(len(MOVES) + 1) // 2}"]  # the axes, in words
    assert page.inner_text("#movelist li[data-ply='14'] .mark.blunder") == "??"
    assert "30 or more, a blunder (??)" in page.inner_text("#er-rules")
    page.locator("#er-graph circle.er-dot[data-ply='14']").dispatch_event("click")
    page.wait_for_selector("#review:not([hidden])")
    page.wait_for_selector("#movelist li.reviewed[data-ply='14']", state="attached")  # (in the moves' tab)
    assert page.inner_text("#review-text").startswith("After 7… bB1 /bQ")
    assert "Blunder by Black: 7… bB1 /bQ" in page.inner_text("#toast")
    page.click("#er-marks button[data-ply='14']")
    page.wait_for_selector("#movelist li.reviewed[data-ply='14']", state="attached")
    page.locator("#er-graph").scroll_into_view_if_needed()  # the review's box may scroll
    box = page.locator("#er-graph").bounding_box()
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)  # the graph's left edge: the start
    page.wait_for_function("document.getElementById('review-text').textContent === 'The start of the game'")
    assert overflow(page) == 0
    if device == "desktop":
        page.click("#btn-review-exit")
        page.wait_for_selector("#review", state="hidden")
        page.evaluate("document.getElementById('toast').hidden = true")
        shoot(page, "engine-review.png", tmp_path)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#tab-review:not([hidden])", state="attached")
    show_tab(page, "review")
    page.wait_for_selector("#er-graph:not([hidden]) circle.er-dot.blunder")  # stored: shown at once
    assert page.is_hidden("#btn-engine-review") and page.is_hidden("#er-progress-row")
    assert not page.errors
    context.close()


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_a_hivequeen_game_is_reviewed_too(browser: Any, own_server: ServerProcess, device: str) -> None:
    game = create(own_server, mode="local", kind="hivequeen")
    context = browser.new_context(bypass_csp=True, **SIZES[device])
    page = seat_page(context, own_server, game)
    spec, rng = find_game("HiveQueen"), random.Random(5)
    board = spec()
    for _ in range(3):  # three turns of the random mover, by the rules as they stand
        move = board.move_text(spec.ai.random_move(board, rng))
        board.push_text(move)
        headers = {"X-Seat-Token": game["token"]}
        reply = httpx.post(f"{own_server.url}api/games/{game['id']}/move", json={"move": move}, headers=headers)
        assert reply.status_code == 200, reply.text
    page.wait_for_selector("#movelist li[data-ply='3']")
    start_review(page)  # a game in progress on one screen is its players' own: the engine may look at it
    page.wait_for_selector("#er-graph:not([hidden])", timeout=60_000)
    page.wait_for_selector("#er-progress-row", state="hidden")
    assert page.locator("#er-graph polyline.er-line").get_attribute("points").count(",") == 4
    assert "not winning chances" in page.inner_text("#er-rules")
    page.locator("#er-graph").scroll_into_view_if_needed()  # the review's box may scroll
    box = page.locator("#er-graph").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 3, box["y"] + box["height"] / 2)  # ply 1 of 3
    page.wait_for_selector("#movelist li.reviewed[data-ply='1']", state="attached")
    assert overflow(page) == 0
    assert not page.errors
    context.close()
