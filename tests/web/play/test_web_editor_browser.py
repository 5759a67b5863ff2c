"""The board editor in the browser (Chromium by Playwright, against ``hive play``), at phone (390x844, touch) and
desktop (1280x800) sizes: a Hive position with a Beetle on its Queen set up by taps and a game started from it, the
legal moves shown for a piece those of the library, the library's message for an illegal position; a HiveQueen
position set up and a game started from it; nothing wider than a 360-pixel screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hive.games.hive import Board as HiveBoard
from hive.games.hivequeen import NAMES
from hive.games.hivequeen import Board as QueenBoard

from ...web_support import ServerProcess
from ..browser_support import DEVICES, open_page, overflow, press, shoot, sizes

Page = Any
#: (piece, where): the first piece at the start of the table, then each beside the last piece named, or on it.
#: White's Beetle on its Queen, Black to move (the hive anywhere on the table).
STACKED = "Position;Base;Black[4];wS1@3,3 bS1@4,3 bQ@5,3 bB1@6,2 wQ/wB1@2,3"
HIVE_SETUP = [("wS", None), ("bS", ("wS1", 1, 0)), ("wQ", ("wS1", -1, 0)), ("bQ", ("bS1", 1, 0))]


def tap_cell(page: Page, device: str, q: int, r: int) -> None:
    """Press the board's cell ``q, r`` (axial, as the page draws it) wherever the view box puts it."""
    page.locator("#board").scroll_into_view_if_needed()
    x, y = page.evaluate(
        """([q, r]) => {
            const svg = document.getElementById("board"), pt = svg.createSVGPoint();
            const f = document.body.classList.contains("flipped") ? -1 : 1;
            pt.x = f * 40 * Math.sqrt(3) * (q + r / 2); pt.y = f * 40 * 1.5 * r;
            const p = pt.matrixTransform(svg.getScreenCTM());
            return [p.x, p.y];
        }""",
        [q, r],
    )
    if device == "phone":
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def cell_of(page: Page, piece: str) -> tuple[int, int]:
    """Where the editor has ``piece`` (the top or inside of a stack)."""
    key: str = page.evaluate(f"Object.entries(app.editor.cells).find(([, s]) => s.includes('{piece}'))[0]")
    q, r = key.split(",")
    return int(q), int(r)


def put(page: Page, device: str, key: str, cell: tuple[int, int]) -> None:
    before = page.evaluate("Object.values(app.editor.cells).flat().length")
    press(page, device, f'.ed-piece[data-piece="{key}"]')
    tap_cell(page, device, *cell)
    page.wait_for_function(f"Object.values(app.editor.cells).flat().length === {before + 1}")
    page.wait_for_function("app.editor.answer && app.editor.answer.valid !== null")


def set_turn(page: Page, side: int, number: int) -> None:
    page.select_option("#ed-side", str(side))
    page.fill("#ed-number", str(number))
    page.dispatch_event("#ed-number", "change")


def open_editor(browser: Any, server: ServerProcess, device: str) -> tuple[Any, Page]:
    context = browser.new_context(bypass_csp=True, **DEVICES[device])
    page = open_page(context, server.url)
    press(page, device, "#btn-lobby-editor")
    page.wait_for_selector("#ed-status.legal")
    return context, page


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_a_hive_position_with_a_stack_is_set_up_and_a_game_started_from_it(
    browser: Any, server: ServerProcess, device: str, tmp_path: Path
) -> None:
    context, page = open_editor(browser, server, device)
    press(page, device, "#ed-clear")
    page.wait_for_function("Object.keys(app.editor.cells).length === 0")
    for key, where in HIVE_SETUP:
        if where is None:
            put(page, device, key, (0, 0))
        else:
            q, r = cell_of(page, where[0])
            put(page, device, key, (q + where[1], r + where[2]))
    assert page.evaluate("app.editor.answer.valid")
    q, r = cell_of(page, "wQ")
    put(page, device, "wB", (q, r))  # on top of the Queen: the turn number follows the pieces in play
    page.wait_for_selector("#ed-status.legal")
    set_turn(page, 0, 2)
    page.wait_for_selector("#ed-status.illegal")
    assert "White has 3 pieces in play at White[2], after 1 turn" in page.inner_text("#ed-status")  # the library's
    set_turn(page, 1, 4)
    page.wait_for_selector("#ed-status.legal")
    assert "Black to move" in page.inner_text("#ed-status")
    q, r = cell_of(page, "bQ")
    put(page, device, "bB", (q + 1, r))
    page.wait_for_selector("#ed-status.legal")
    text = page.input_value("#ed-text")
    board = HiveBoard.from_position(text)
    assert "wQ/wB1@" in text and text.split(";")[2] == "Black[4]" == board.turn_string
    assert page.locator("#board .piece[data-height='2'][data-piece='wB1']").count() == 1
    q, r = cell_of(page, "bB1")
    tap_cell(page, device, q, r)  # the Beetle's moves, as in a game
    page.wait_for_selector("#board .dest")
    shown = set(page.eval_on_selector_all("#board .dest", "els => els.map((e) => e.dataset.move)"))
    assert shown == {board.move_text(m) for m in board.legal_moves if m.piece == "bB1"} and shown
    shoot(page, f"editor-hive-{device}.png", tmp_path)
    if device == "phone":
        page.set_viewport_size({"width": 360, "height": 800})
        assert overflow(page) == 0
    press(page, device, "#ed-play")
    press(page, device, "#form-new input[name=mode][value=ai] + span")
    page.select_option("#ai-level", "random")
    press(page, device, "#btn-start")
    page.wait_for_function("app.state && app.state.start")
    state = page.evaluate("app.state")
    assert state["start"] == text and state["mode"] == "ai" and state["options"]["game_type"] == "Base+MLP"
    page.wait_for_function("app.state.moves.length === 1")  # the AI (Black) answers from the position
    board.push_text(page.evaluate("app.state.moves[0]"))
    page.wait_for_selector("#movelist li[data-ply]")
    assert page.eval_on_selector_all("#movelist .num", "els => els.map((e) => e.textContent)") == ["4.", "…"]
    assert page.locator("#board .piece[data-height='2']").count() >= 1
    assert not page.errors, page.errors
    context.close()


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_a_hivequeen_position_is_set_up_and_a_game_started_from_it(
    browser: Any, server: ServerProcess, device: str, tmp_path: Path
) -> None:
    context, page = open_editor(browser, server, device)
    page.select_option("#ed-game", "hivequeen")
    page.wait_for_function("app.editor.kind === 'hivequeen' && app.editor.answer && app.editor.answer.valid")
    coords = dict(page.evaluate("app.editor.view.cells.map((c) => [c.cell, [c.q, c.r]])"))
    tap_cell(page, device, *coords["e1"])  # South's Worker on e1 back to its hand
    page.wait_for_selector("#ed-remove:not([disabled])")
    press(page, device, "#ed-remove")
    page.wait_for_function("!app.editor.cells.e1")
    put(page, device, "sS", tuple(coords["e5"]))
    set_turn(page, 1, 3)
    page.wait_for_function("app.editor.answer.valid && app.editor.answer.position.includes('North[3]')")
    text = page.input_value("#ed-text")
    board = QueenBoard.from_position(text)
    assert "Se5" in text.split(";")[3] and "We1" not in text
    tap_cell(page, device, *coords["f8"])  # a North Drone: its movements, as in a game
    page.wait_for_function("app.selected === 'f8'")
    page.wait_for_selector("#board .qdest")
    shown = set(page.eval_on_selector_all("#board .qdest", "els => els.map((e) => e.dataset.cell)"))
    assert shown == {NAMES[t.destination] for t in board.legal_movements if NAMES[t.origin] == "f8"} and shown
    shoot(page, f"editor-hivequeen-{device}.png", tmp_path)
    press(page, device, "#ed-play")
    press(page, device, "#form-new input[name=mode][value=local] + span")
    press(page, device, "#btn-start")
    page.wait_for_function("app.state && app.state.start")
    state = page.evaluate("app.state")
    assert state["start"] == text and state["kind"] == "hivequeen" and state["view"]["turn"] == 1
    assert not page.errors, page.errors
    context.close()


def test_a_position_record_is_loaded_refused_with_its_rule_and_analysed(browser: Any, server: ServerProcess) -> None:
    context, page = open_editor(browser, server, "desktop")
    page.fill("#ed-text", "Position;Base;White[3];wS1@0,0 bS1@3,0")
    page.click("#ed-load")
    page.wait_for_selector("#toast:not([hidden])")
    assert "two hives" in page.inner_text("#toast")
    page.fill("#ed-text", STACKED)
    page.click("#ed-load")
    canonical = HiveBoard.from_position(STACKED).position_text()
    page.wait_for_function(f"app.editor.answer.position === {canonical!r}")
    assert page.input_value("#ed-text") == canonical and page.input_value("#ed-number") == "4"
    page.click("#ed-analyse")
    page.wait_for_function("app.state && app.state.start")
    state = page.evaluate("app.state")
    assert state["start"] == canonical and state["mode"] == "local" and not page.is_visible("#editor")
    assert page.evaluate("app.evalOn")
    assert not page.errors, page.errors
    context.close()
