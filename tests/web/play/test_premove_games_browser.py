"""A move chosen early in every game, by the pointer and by the keyboard, and the page's options behind the top bar's
gear, in Chromium at phone (360x740, touch) and desktop (1280x800) sizes:

- HiveQueen, North's page of a game whose South moves through the API: on South's turn North pre-selects a Drone's
  flight (its piece, then a cell), shown on the field and in the bar as Hive's is; Cancel drops it; pre-selected
  again, it is played as soon as South has moved; one that South's move makes illegal is cancelled with a notice;
- in Hive, a Beetle picked early and the other side's piece pressed pre-select its climb;
- the keyboard alone pre-selects a move in Hive (a piece of the hand, then a free cell) and in HiveQueen (a piece on
  the field, then a cell): after the pick the focus is on a cell the piece may go to, Esc cancels the pending move,
  and a move pre-selected by keys is played when the turn comes;
- the gear opens the options (Sound, Confirm moves) by the keyboard and closes on Esc; on a phone they are in the ☰
  menu; Confirm moves turned on is remembered across visits; the top bar's row fits a 1280 px window in French.

Screenshots of the top bar (desktop in English and French, the phone's menu) and of HiveQueen's pre-selected move go
to ``$HIVE_SHOTS`` (default: the test's own folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.games.hivequeen import Board

from ...web_support import JSON, ServerProcess
from ..browser_support import DESKTOP, SIZES, create, expect, open_page, open_settings, press, shots_folder, sizes
from .premove_support import move, placements, slots

pytest.importorskip("playwright.sync_api")
Page = Any


def flights(board: Board, south: str) -> set[str]:
    """North's Drone flights once South has played ``south`` (a movement, the whole turn)."""
    after = board.copy()
    after.push_text(south)
    return {text for text in map(after.move_text, after.legal_movements) if text[0] == "D" and "-" in text}


def split(board: Board) -> tuple[str, str, str]:
    """South's movements ``played`` and ``blocking``, and a North Drone's flight legal after ``played`` but not
    after ``blocking`` (South lands where it would go)."""
    south = [board.move_text(turn) for turn in board.legal_movements]
    played = flights(board, south[0])
    for blocking in south[1:]:
        gone = sorted(played - flights(board, blocking))
        if gone:
            return south[0], blocking, gone[0]
    raise AssertionError("no movement of South blocks a flight")


def cells(flight: str) -> tuple[str, str]:
    """The cell a flight leaves and the one it goes to: "Df8-d4" -> ("f8", "d4")."""
    origin, to = flight[1:].split("-")
    return origin, to


def preselect_flight(page: Page, device: str, flight: str) -> None:
    origin, to = cells(flight)
    press(page, device, f'#board .qpiece[data-cell="{origin}"]')
    expect(page.locator("#qpanel")).to_contain_text("Pick the cell")
    press(page, device, f'#board .qcell[data-cell="{to}"]')
    expect(page.locator("#pending-bar")).to_be_visible()
    expect(page.locator("#pending-bar")).to_contain_text(f"Pre-selected: North Drone on {origin}")
    expect(page.locator("#board .pending-to")).to_have_attribute("data-to", to)
    expect(page.locator("#board .pending-from")).to_have_count(1)


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_a_hivequeen_movement_chosen_early_is_played_or_cancelled(
    browser: Any, server: ServerProcess, device: str, tmp_path: Path
) -> None:
    context = browser.new_context(bypass_csp=True, **SIZES[device])
    try:
        game = create(server, kind="hivequeen", mode="online", colour="south")
        south = game["token"]
        page = open_page(context, f"{server.url}game/{game['id']}#seat={game['invite']}")
        page.wait_for_function("app.state && app.state.seats[0] === 1")
        board = Board()
        played, _, flight = split(board)
        flight = sorted(flights(board, played))[0]
        preselect_flight(page, device, flight)
        expect(page.locator("#btn-pending-confirm")).to_be_hidden()
        press(page, device, "#btn-pending-cancel")
        expect(page.locator("#pending-bar")).to_be_hidden()
        expect(page.locator("#board .pending-to")).to_have_count(0)
        preselect_flight(page, device, flight)
        page.screenshot(path=str(shots_folder(tmp_path) / f"premove-hivequeen-{device}.png"))
        move(server, game, south, played, 0)
        page.wait_for_function("app.state.moves.length === 2", timeout=15_000)
        assert page.evaluate("app.state.moves") == [played, flight]
        expect(page.locator("#pending-bar")).to_be_hidden()

        # a flight South's move makes illegal (South lands on its cell) is cancelled, and nothing is sent
        for text in (played, flight):
            board.push_text(text)
        _, blocking, flight = split(board)
        preselect_flight(page, device, flight)
        move(server, game, south, blocking, 2)
        expect(page.locator("#toast")).to_contain_text("not legal now")
        expect(page.locator("#pending-bar")).to_be_hidden()
        page.wait_for_timeout(300)
        assert page.evaluate("app.state.moves")[2:] == [blocking]
        assert page.errors == []
    finally:
        context.close()


def focused(page: Page) -> JSON:
    """What has the keyboard's focus: its board cell's key (``focus``), its place, its classes, whether it is lit."""
    found: JSON = page.evaluate(
        "(() => { const e = document.activeElement; return { focus: e.dataset.focus || null, x: Number(e.dataset.x),"
        " y: Number(e.dataset.y), lead: !!e.dataset.lead, cls: e.getAttribute('class') || '', id: e.id }; })()"
    )
    return found


def key_to(page: Page, cell: str) -> None:
    """Take the board's focus to the cell ``cell`` by arrow keys, the nearest way each time."""
    target = page.locator(f'#board [data-focus="{cell}"]')
    tx, ty = float(target.get_attribute("data-x") or 0), float(target.get_attribute("data-y") or 0)
    for _ in range(60):
        here = focused(page)
        if here["focus"] == cell:
            return
        dx, dy = tx - here["x"], ty - here["y"]
        if abs(dx) >= abs(dy):
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        else:
            page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    raise AssertionError(f"the arrows never reached {cell}: {focused(page)}")


@pytest.mark.slow
def test_the_keyboard_alone_preselects_a_move_cancels_it_with_esc_and_it_is_played(
    browser: Any, server: ServerProcess
) -> None:
    context = browser.new_context(bypass_csp=True, **DESKTOP)
    try:
        # Hive: Black's page on White's turn, a piece of the hand, then a free cell
        game = create(server, mode="online", colour="white", options={"game_type": "Base"})
        twin = create(server, mode="online", colour="white", options={"game_type": "Base"})
        white, black = game["token"], game["invite"]
        for ply, text in enumerate(("wS1", "bS1 wS1-")):
            move(server, game, white if ply % 2 == 0 else black, text, ply)
            move(server, twin, twin["token"] if ply % 2 == 0 else twin["invite"], text, ply)
        page = open_page(context, f"{server.url}game/{game['id']}#seat={black}")
        page.wait_for_function("app.state && app.state.moves.length === 2")
        now: JSON = page.evaluate("app.state")
        white_move = placements(now, "wG1")[0][0]
        after = move(server, twin, twin["token"], white_move, 2)
        text, (q, r) = next((t, c) for t, c in placements(after, "bG1") if c in slots(now))
        hand = '#card-bottom .hand-piece[data-piece="bG1"] .hand-cover'
        page.focus(hand)
        page.keyboard.press("Enter")
        expect(page.locator("#board .slot[data-lead]").first).to_be_attached()
        here = focused(page)
        assert here["lead"] and "slot" in here["cls"], here  # the keyboard is on the free cells
        assert "Pre-select" in (page.evaluate("document.activeElement.getAttribute('aria-label')") or "")
        page.keyboard.press("Enter")
        expect(page.locator("#pending-bar")).to_be_visible()
        expect(page.locator("#board .pending-to")).to_have_attribute("data-to", here["focus"])
        page.keyboard.press("Escape")
        expect(page.locator("#pending-bar")).to_be_hidden()
        expect(page.locator("#board .pending-to")).to_have_count(0)
        expect(page.locator("#toast")).to_contain_text("Move cancelled")
        page.focus(hand)
        page.keyboard.press("Enter")
        key_to(page, f"{q},{r}")
        page.keyboard.press("Enter")
        expect(page.locator("#board .pending-to")).to_have_attribute("data-to", f"{q},{r}")
        move(server, game, white, white_move, 2)
        page.wait_for_function("app.state.moves.length === 4", timeout=15_000)
        assert page.evaluate("app.state.moves")[2:] == [white_move, text]

        # HiveQueen: North's page on South's turn, a piece on the field, then a cell
        queen = create(server, kind="hivequeen", mode="online", colour="south")
        page = open_page(context, f"{server.url}game/{queen['id']}#seat={queen['invite']}")
        page.wait_for_function("app.state && app.state.seats[0] === 1")
        played, _, _ = split(Board())
        flight = sorted(flights(Board(), played))[0]
        origin, to = cells(flight)
        page.focus('#board [data-focus][tabindex="0"]')  # the board's one tab stop
        key_to(page, origin)
        page.keyboard.press("Enter")
        expect(page.locator(f'#board .qpiece[data-cell="{origin}"]')).to_have_class("qpiece selected")
        here = focused(page)
        assert here["lead"] and here["focus"] != origin, here  # on to where it may go
        key_to(page, to)
        page.keyboard.press("Enter")
        expect(page.locator("#board .pending-to")).to_have_attribute("data-to", to)
        page.keyboard.press("Escape")
        expect(page.locator("#pending-bar")).to_be_hidden()
        key_to(page, origin)
        page.keyboard.press("Enter")
        key_to(page, to)
        page.keyboard.press("Enter")
        expect(page.locator("#pending-bar")).to_be_visible()
        move(server, queen, queen["token"], played, 0)
        page.wait_for_function("app.state.moves.length === 2", timeout=15_000)
        assert page.evaluate("app.state.moves") == [played, flight]
        assert page.errors == []
    finally:
        context.close()


def top_bar_fits(page: Page) -> None:
    """The top bar's controls are on its one row, right of the game's name, inside the window."""
    boxes: JSON = page.evaluate(
        "(() => { const box = (e) => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; };"
        " return { bar: box(document.querySelector('.topbar')), brand: box(document.getElementById('brand')),"
        " items: [...document.querySelectorAll('#actions > *')].filter((e) => e.offsetParent).map(box),"
        " width: window.innerWidth }; })()"
    )
    bar, brand = boxes["bar"], boxes["brand"]
    for left, top, right, bottom in boxes["items"]:
        assert left >= brand[2] and right <= boxes["width"] and top >= bar[1] and bottom <= bar[3], boxes


def shoot_top(page: Page, path: Path) -> None:
    """The top bar, with room below it for the options' box or the ☰ menu when open."""
    width = page.evaluate("window.innerWidth")
    height = page.evaluate("window.innerHeight") if width < 1000 else 200
    page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": width, "height": height})


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_the_options_are_behind_the_gear_and_confirm_moves_is_remembered(
    browser: Any, club: str, device: str, tmp_path: Path
) -> None:
    shots = shots_folder(tmp_path)
    context = browser.new_context(**SIZES[device])
    try:
        game = httpx.post(f"{club}api/games", json={"mode": "ai", "ai_level": "random"}, timeout=30).json()
        page = open_page(context, f"{club}game/{game['id']}#seat={game['token']}")
        expect(page.locator("#btn-confirm")).to_be_hidden()
        if device == "desktop":
            top_bar_fits(page)
            shoot_top(page, shots / "topbar-en-desktop.png")
            page.focus("#btn-settings")
            page.keyboard.press("Enter")
            expect(page.locator("#btn-settings")).to_have_attribute("aria-expanded", "true")
            expect(page.locator("#btn-sound")).to_be_focused()
            shoot_top(page, shots / "topbar-en-desktop-settings.png")
            page.keyboard.press("Tab")
            expect(page.locator("#btn-confirm")).to_be_focused()
            page.keyboard.press("Space")
            expect(page.locator("#btn-confirm")).to_have_attribute("aria-pressed", "true")
            page.keyboard.press("Escape")
            expect(page.locator("#btn-confirm")).to_be_hidden()
            expect(page.locator("#btn-settings")).to_be_focused()
            expect(page.locator("#btn-settings")).to_have_attribute("aria-expanded", "false")
            page.click("#btn-settings")
            page.mouse.click(5, 400)  # a press outside closes it too
            expect(page.locator("#btn-confirm")).to_be_hidden()
        else:
            expect(page.locator("#btn-settings")).to_be_hidden()  # no gear: the options are in the menu
            open_settings(page, device)
            expect(page.locator("#settings-head")).to_have_text("Settings")
            shoot_top(page, shots / "topbar-en-phone.png")
            press(page, device, "#btn-confirm")
            expect(page.locator("#actions")).to_be_hidden()  # the menu closes, as for its other items
        assert page.evaluate("localStorage.getItem('hive.confirm-moves')") == "on"
        page = open_page(context, f"{club}game/{game['id']}")
        open_settings(page, device)
        expect(page.locator("#btn-confirm")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#btn-confirm")).to_have_text("Confirm moves: on")
        assert page.errors == []
    finally:
        context.close()
    french = {**SIZES[device], "locale": "fr-FR", "extra_http_headers": {"accept-language": "fr-FR,fr;q=0.9"}}
    context = browser.new_context(**french)
    try:
        page = open_page(context, f"{club}game/{game['id']}")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        if device == "desktop":
            top_bar_fits(page)
            shoot_top(page, shots / "topbar-fr-desktop.png")
        open_settings(page, device)
        expect(page.locator("#btn-confirm")).to_have_text("Confirmer les coups : non")
        shoot_top(page, shots / f"topbar-fr-{device}-settings.png")
    finally:
        context.close()


#: A Base game where, White to move (its Queen among the pieces that may move), Black's Beetle may climb onto White's
#: Queen once White has placed a Spider.
CLIMB = ("wS1", "bB1 wS1-", "wQ /wS1", "bQ bB1/", "wQ /bB1", "bQ \\bB1")


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_a_climb_onto_the_other_side_s_piece_is_preselected(browser: Any, server: ServerProcess, device: str) -> None:
    """Black's Beetle picked on White's turn, then White's piece pressed: the climb is pre-selected (not refused as
    out of turn), and played once White has moved. The Beetle stays picked while the game's state comes again
    without a move (White opens the game in between)."""
    context = browser.new_context(bypass_csp=True, **SIZES[device])
    white = browser.new_context(bypass_csp=True, **DESKTOP)
    try:
        game = create(server, mode="online", colour="white", options={"game_type": "Base"})
        for ply, text in enumerate(CLIMB):
            move(server, game, game["token"] if ply % 2 == 0 else game["invite"], text, ply)
        page = open_page(context, f"{server.url}game/{game['id']}#seat={game['invite']}")
        page.wait_for_function(f"app.state && app.state.moves.length === {len(CLIMB)}")
        view: JSON = page.evaluate("app.state.view")
        assert view["turn"] == 0 and "wQ" in view["legal"]  # a press on it alone would pick it, were it White's page
        queen = next(f"{c['q']},{c['r']}" for c in view["cells"] if c["stack"][-1] == "wQ")
        press(page, device, '#board .piece[data-piece="bB1"]')
        page.wait_for_function("app.selected === 'bB1'")
        open_page(white, f"{server.url}game/{game['id']}#seat={game['token']}")
        page.wait_for_function("app.state.present[0]")  # White's arrival, told over the socket
        assert page.evaluate("app.selected") == "bB1"
        press(page, device, '#board .piece[data-piece="wQ"]')
        expect(page.locator("#board .pending-to")).to_have_attribute("data-to", queen)
        move(server, game, game["token"], "wS2 wQ\\", len(CLIMB))
        page.wait_for_function(f"app.state.moves.length === {len(CLIMB) + 2}", timeout=15_000)
        assert page.evaluate("app.state.moves")[-2:] == ["wS2 wQ\\", "bB1 wQ"]
        assert page.errors == []
    finally:
        context.close()
        white.close()
