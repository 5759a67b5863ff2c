"""The browser game on a phone (390x844, touch) and a desktop (1280x800), in Debian's Chromium driven by Playwright:
no horizontal overflow on any page or dialog of either game, whole games played by taps, the game list (resume,
review, rematch, delete) and the seat links (tokens out of the address bar, a wrong token, one's own invitation).

The phone games and the game list are photographed into docs/screenshots/ when the pictures are missing or
HIVE_SCREENSHOT=1 (Chromium's PNG bytes vary from run to run).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.games.hivequeen import NAMES
from hive.games.hivequeen import Board as QueenBoard

from ...web_support import QUEEN_GAME, ServerProcess
from ..browser_support import (
    DESKTOP,
    DEVICES,
    PHONE,
    click_move,
    create,
    game_of,
    open_page,
    overflow,
    seat_page,
    shoot,
    sizes,
    state,
)

Page = Any
#: A short decisive Hive game (the easy AI against the random mover, original opening): White surrounds Black's Queen.
HIVE_GAME = [
    "wQ",
    "bQ -wQ",
    "wQ bQ\\",
    "bA1 bQ/",
    "wQ /bQ",
    "bA1 wQ\\",
    "wB1 -wQ",
    "bS1 bA1\\",
    "wB1 -bQ",
    "bG1 bS1/",
    "wB1 bQ",
    "bS2 /bA1",
    "wB2 wB1/",
    "bA2 bS1\\",
    "wA1 wB1-",
    "bA2 bS1-",
    "wA2 -wB2",
    "bA2 /bS1",
    "wA3 /wA2",
    "bA2 bS1-",
    "wB1 /wA1",
]


def visible_without_scrolling(page: Page, selector: str) -> bool:
    """Whether the element is drawn wholly within the window as it stands, measured in one step of the page's script
    (a redraw, such as the socket's copy of a move's state, replaces the hands between two steps)."""
    inside: bool = page.evaluate(
        """(selector) => {
          const element = document.querySelector(selector);
          const box = element && element.getBoundingClientRect();
          return !!box && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
        }""",
        selector,
    )
    return inside


@pytest.mark.parametrize("device", sizes(*DEVICES))
def test_no_page_or_dialog_is_wider_than_the_screen(browser: Any, server: ServerProcess, device: str) -> None:
    context = browser.new_context(bypass_csp=True, **DEVICES[device])
    hive = create(server, mode="online", name="Maximilian Longname-Xy", options={"game_type": "Base+MLP"})
    for text in ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"):
        httpx.post(
            f"{server.url}api/games/{hive['id']}/move",
            json={"move": text},
            headers={"x-seat-token": hive["token"] if text[0] == "w" else hive["invite"]},
            timeout=30,
        )
    queen = create(server, kind="hivequeen", mode="local", game_string=QUEEN_GAME[0])
    over = create(server, mode="local", game_string="wS1;bS1 wS1-", options={"game_type": "Base"})
    httpx.post(f"{server.url}api/games/{over['id']}/resign", headers={"x-seat-token": over["token"]}, timeout=30)
    seen: dict[str, int] = {}
    page = open_page(context, server.url)
    seen["game list"] = overflow(page)
    for name, game in (("hive", hive), ("hivequeen", queen), ("finished", over)):
        page = seat_page(context, server, game)
        page.wait_for_selector("#movelist")
        seen[name] = overflow(page)
        if device != "desktop":
            page.tap("#btn-menu")
            seen[f"{name} menu"] = overflow(page)
            page.tap("#btn-menu")
        for button, dialog in (("#btn-new", "#dlg-new"), ("#btn-io", "#dlg-io")):
            if device != "desktop":
                page.tap("#btn-menu")
            page.click(button)
            page.wait_for_selector(f"{dialog}[open]")
            if dialog == "#dlg-new":
                page.click("#form-new input[name=mode][value=online] + span")
            seen[f"{name} {dialog}"] = overflow(page)
            page.keyboard.press("Escape")
        page.click("#btn-prev")
        page.wait_for_selector("#review:not([hidden])")
        seen[f"{name} review"] = overflow(page)
    for kind in ("hive", "hivequeen"):
        page = open_page(context, f"{server.url}how-to-play/{kind}")
        seen[f"rules of {kind}"] = overflow(page)
    assert seen == dict.fromkeys(seen, 0)
    context.close()


def tap_hive_move(page: Page, text: str) -> None:
    """Play a MoveString by taps: the piece (in a hand or on the board), then its lit cell."""
    click_move(page, page.evaluate("app.state"), text, touch=True)


def start_on_phone(page: Page, kind: str, mode: str) -> tuple[str, str]:
    """Start a game from the game list's New game button by taps; returns its id and this page's token."""
    page.tap("#btn-lobby-new")
    page.tap(f"#form-new input[name=game][value={kind}] + span")
    page.tap(f"#form-new input[name=mode][value={mode}] + span")
    if kind == "hive":
        for bug in "MLP":
            page.set_checked(f"#form-new input[name={bug}]", False)
        page.select_option("#form-new select[name=opening]", "original")
    if mode == "ai":
        page.select_option("#ai-level", "random")
        page.fill("#player-name", "Ann")
    page.tap("#btn-start")
    page.wait_for_url(re.compile(r"/game/[\w-]+$"))
    return game_of(page)


def phone_game(browser: Any, server: ServerProcess, kind: str, own: str) -> tuple[Any, Page, str, str]:
    """A new game of ``kind`` on one phone's screen, the board and the player's own side (``own``) in view."""
    context = browser.new_context(bypass_csp=True, **PHONE)
    page = open_page(context, server.url)
    game_id, token = start_on_phone(page, kind, "local")
    page.wait_for_selector(own)
    assert visible_without_scrolling(page, "#board") and visible_without_scrolling(page, own)
    return context, page, game_id, token


def test_a_whole_hive_game_by_taps_on_a_phone(browser: Any, server: ServerProcess, tmp_path: Path) -> None:
    context, page, game_id, token = phone_game(browser, server, "hive", "#card-bottom .hand")
    for ply, text in enumerate(HIVE_GAME):
        page.wait_for_function(f"app.state && app.state.moves.length === {ply}")
        scrolled = page.evaluate("window.scrollY")
        tap_hive_move(page, text)
        page.wait_for_function(f"app.state.moves.length === {ply + 1}")
        if ply == 6:
            shoot(page, "phone-hive.png", tmp_path)
        assert page.evaluate("window.scrollY") == scrolled  # a redraw never scrolls to the move list
        if ply + 1 < len(HIVE_GAME):  # on one shared phone, the hand of the side to move is under the board
            page.wait_for_function(f"app.state.moves.length === {ply + 1} && !!document.querySelector('.card.to-move')")
            assert visible_without_scrolling(page, "#board") and visible_without_scrolling(page, ".card.to-move .hand")
    st = state(server, game_id, token)
    assert st["moves"] == HIVE_GAME and st["result"] == "WhiteWins"
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner-title") == "White wins"
    page.tap("#btn-banner-close")
    page.wait_for_selector("#banner", state="hidden")
    page.tap("#btn-prev")  # review by the on-screen buttons
    page.wait_for_selector("#review:not([hidden])")
    assert page.inner_text("#review-text") == f"After 10… {HIVE_GAME[-2]} · 20/21"
    page.tap("#btn-review-next")
    page.wait_for_selector("#review", state="hidden")
    piece = page.locator("#board .piece").first  # a finger resting on a piece opens what is there
    box = piece.bounding_box()
    assert box is not None
    at = {"pointerType": "touch", "clientX": box["x"] + box["width"] / 2, "clientY": box["y"] + box["height"] / 2}
    piece.dispatch_event("pointerdown", {**at, "button": 0, "isPrimary": True})
    page.wait_for_selector("#stack-pop.held:not([hidden])")
    assert page.get_attribute("#board .piece >> nth=0", "data-piece") in page.inner_text("#stack-pop")
    assert page.errors == []
    context.close()


def tap_queen_turn(page: Page, text: str) -> None:
    """Play a whole HiveQueen turn by taps: the piece, its lit destination, each production, then End turn."""
    board = QueenBoard()
    for earlier in page.evaluate("app.state.moves"):
        board.push_text(earlier)
    turn = board.parse_move(text)
    count = len(board.move_stack)
    page.tap(f'#board .qpiece[data-cell="{NAMES[turn.origin]}"]')
    page.tap(f'#board .qdest[data-cell="{NAMES[turn.destination]}"]')
    producing = "!!document.querySelector('#qpanel[data-phase=production]')"
    page.wait_for_function(f"app.state.moves.length > {count} || {producing}")
    if page.evaluate(f"app.state.moves.length > {count}"):
        return
    for production in turn.productions:
        page.tap(f'.qkind[data-kind="{str(production)[1]}"]')
        page.tap(f'#board .qprod[data-cell="{NAMES[production.cell]}"]')
    page.tap("#qbtn-end")
    page.wait_for_function(f"app.state.moves.length > {count}")


@pytest.mark.slow
def test_a_whole_hivequeen_game_by_taps_on_a_phone(browser: Any, server: ServerProcess, tmp_path: Path) -> None:
    context, page, game_id, token = phone_game(browser, server, "hivequeen", "#card-bottom .qcounts")
    for ply, text in enumerate(QUEEN_GAME):
        page.wait_for_function(f"app.state.moves.length === {ply}")
        tap_queen_turn(page, text)
        if ply == 2:
            shoot(page, "phone-hivequeen.png", tmp_path)
    st = state(server, game_id, token)
    assert st["moves"] == QUEEN_GAME and st["result"] == "SouthWins"
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner-title") == "South wins"
    assert overflow(page) == 0 and page.errors == []
    context.close()


def test_the_game_list_resumes_reviews_rematches_and_deletes(
    browser: Any, own_server: ServerProcess, tmp_path: Path
) -> None:
    server = own_server
    context = browser.new_context(bypass_csp=True, **PHONE)
    page = open_page(context, server.url)
    game_id, token = start_on_phone(page, "hive", "ai")
    page.wait_for_function("app.state && app.state.names[0] === 'Ann'")
    tap_hive_move(page, page.evaluate("Object.values(app.state.view.legal)[0][0].move"))
    page.wait_for_function("app.state.moves.length === 2 && !app.state.thinking")
    page.tap("#btn-resign")
    page.wait_for_selector("#banner:not([hidden])")
    page.tap("#btn-menu")
    page.tap("#link-games")
    row = f'.game-row[data-id="{game_id}"]'
    page.wait_for_selector(row)
    assert "Ann" in page.inner_text(row) and "Black won" in page.inner_text(row)
    page.tap(f"{row} button[data-action=rematch]")
    page.wait_for_function(f"app.state && app.state.id !== '{game_id}'")
    rematch = page.evaluate("app.state")
    assert rematch["seats"] == [1] and rematch["ai"]["seat"] == 0 and rematch["names"] == [None, "Ann"]
    page.wait_for_function("app.state.moves.length === 1")  # the AI opens, now with White
    page.tap("#btn-menu")
    page.tap("#link-games")
    page.wait_for_selector(f'.game-row[data-id="{rematch["id"]}"]')
    ids = page.eval_on_selector_all(".game-row", "rows => rows.map((r) => r.dataset.id)")
    assert ids.index(rematch["id"]) < ids.index(game_id)  # in progress first
    shoot(page, "phone-game-list.png", tmp_path)
    page.tap(f"{row} button[data-action=review]")
    page.wait_for_selector("#review:not([hidden])")
    assert page.inner_text("#review-text") == "The start of the game"
    page.tap("#btn-menu")
    page.tap("#link-games")
    page.tap(f"{row} button[data-action=delete]")
    page.wait_for_selector(row, state="detached")
    assert httpx.get(f"{server.url}api/games/{game_id}", timeout=10).status_code == 404
    page.tap(f'.game-row[data-id="{rematch["id"]}"] button[data-action=play]')
    page.wait_for_function(f"app.state && app.state.id === '{rematch['id']}'")
    assert page.url.endswith(f"/game/{rematch['id']}") and token != page.evaluate("app.token")
    assert page.errors == []
    context.close()


def test_seat_links_leave_the_address_bar_and_never_overwrite_a_seat(browser: Any, server: ServerProcess) -> None:
    mine = browser.new_context(bypass_csp=True, **DESKTOP)
    page = open_page(mine, server.url)
    page.click("#btn-new")
    page.click("#form-new input[name=mode][value=online] + span")
    page.click("#btn-start")
    page.wait_for_url(re.compile(r"/game/[\w-]+$"))
    game_id, token = game_of(page)
    page.wait_for_function("document.getElementById('invite-link').value.includes('#seat=')")
    invite = page.input_value("#invite-link")
    assert "Send this link to your opponent only" in page.inner_text("#share")
    assert "--host 0.0.0.0" in page.inner_text("#reach-note")  # the test server listens on 127.0.0.1 only
    assert "your move (your opponent has not opened the invitation yet)" in page.inner_text("#status")
    own = open_page(mine, invite)  # one's own invitation, opened in the same browser
    own.wait_for_selector("#seat-warning:not([hidden])")
    assert "your opponent's seat" in own.inner_text("#seat-warning")
    assert (
        own.evaluate("app.state.seats") == [0]
        and own.evaluate(f"localStorage.getItem('hive.token.{game_id}')") == token
    )
    assert "#seat=" not in own.url
    theirs = browser.new_context(bypass_csp=True, **DESKTOP)
    wrong = open_page(theirs, f"{server.url}game/{game_id}#seat=not-a-seat")
    wrong.wait_for_selector("#seat-warning:not([hidden])")
    assert "does not belong to this game" in wrong.inner_text("#seat-warning")
    assert wrong.evaluate("app.state.seats") == [] and "#seat=" not in wrong.url
    opened = open_page(theirs, invite)
    opened.wait_for_function("app.state && app.state.seats.length === 1")
    assert opened.evaluate("app.state.seats") == [1] and "#seat=" not in opened.url
    assert opened.evaluate(f"localStorage.getItem('hive.token.{game_id}')") == invite.split("#seat=")[1]
    page.wait_for_selector("#card-top .presence[data-state=connected]")
    assert "your move" in page.inner_text("#status")
    assert page.is_disabled("#btn-hint") and opened.is_disabled("#btn-hint")  # a fair game: no engine help
    click_move(page, page.evaluate("app.state"), "wS1")  # the other page chimes and marks its tab's title
    opened.wait_for_function("document.title.startsWith('● Your move')")
    opened.click("#btn-settings")  # the options are behind the top bar's gear
    opened.click("#btn-sound")
    assert opened.inner_text("#btn-sound") == "Sound off"
    assert opened.evaluate("localStorage.getItem('hive.sound')") == "off"
    assert page.errors == own.errors == wrong.errors == opened.errors == []
    mine.close()
    theirs.close()


def test_the_warm_cool_set_names_its_sides_and_marks_them_apart_from_the_bugs(
    browser: Any, server: ServerProcess
) -> None:
    game = create(server, mode="local", options={"game_type": "Base", "set": "warm-cool", "first": "cool"})
    context = browser.new_context(bypass_csp=True, **PHONE)
    page = seat_page(context, server, game)
    page.wait_for_selector("#card-bottom .hand-piece")
    assert (
        page.inner_text("#card-bottom .card-player") == "Cool" and page.inner_text("#card-top .card-player") == "Warm"
    )
    assert page.inner_text("#status").startswith("Cool to move")
    assert page.evaluate("document.body.classList.contains('theme-warm-cool')")
    click_move(page, page.evaluate("app.state"), "wS1", touch=True)
    page.wait_for_selector("#board .piece .side-rim")
    rims = page.eval_on_selector_all("#board .side-rim", "rims => rims.map((r) => r.getAttribute('stroke'))")
    assert rims == ["#10141c"]  # the first player is Cool: a dark rim, whatever the bug's own colour
    page.tap("#btn-resign")
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner-title") == "Cool wins" and page.inner_text("#banner-reason") == "Warm resigned"
    assert page.errors == []
    context.close()


def test_a_game_page_is_drawn_once_its_game_s_stylesheet_has_come(browser: Any, server: ServerProcess) -> None:
    """The game's own stylesheet answered late: the page says it is ready only once the sheet has loaded, so that its
    hands are never shown unstyled (a count in the tile's corner, not after it)."""
    context = browser.new_context(**PHONE)

    def late(route: Any) -> None:
        time.sleep(1.5)
        route.continue_()

    context.route("**/hive.css", late)
    game = create(server, mode="online", options={"game_type": "Base+MLP"})
    page = seat_page(context, server, game)
    corner = page.evaluate(
        """() => {
            const piece = [...document.querySelectorAll('.hand .hand-piece')].find(p => p.querySelector('.count'));
            const tile = piece.querySelector('svg').getBoundingClientRect();
            const count = piece.querySelector('.count').getBoundingClientRect();
            return count.left < tile.right && count.bottom <= tile.top + tile.height * 0.45; }"""
    )
    assert corner and page.errors == []
    context.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_menu_closes_the_header_names_the_game_type_and_the_list_has_no_flip(
    browser: Any, server: ServerProcess, device: str
) -> None:
    """The ☰ menu closes on a tap outside it and on Esc; the moves' header names the whole game type; the game list,
    which has no board, has no Flip button, and a game's message does not follow the player there."""
    context = browser.new_context(**(PHONE if device == "phone" else DESKTOP))
    game = create(server, mode="online", options={"game_type": "Base+MLP"})  # no engine help: E says so
    page = seat_page(context, server, game)
    assert page.inner_text("#game-info").startswith("Base+MLP · tournament opening")
    # a count sits by the tile's top point, clear of the letters along its bottom
    # measured in one step: the hands are drawn again when the game's socket answers, which may fall between steps
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.hand .hand-piece')].filter(p => p.querySelector('.count'))
            .map(p => [p.querySelector('svg'), p.querySelector('.count')]
                .map(e => e.getBoundingClientRect().toJSON()))"""
    )
    assert boxes
    for tile, count in boxes:
        assert count["y"] + count["height"] <= tile["y"] + tile["height"] * 0.45, (tile, count)
    page.keyboard.press("e")
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast") == "Engine help is off in this game."
    if device == "phone":
        for close in ("tap", "escape"):
            page.tap("#btn-menu")
            assert page.evaluate("document.body.classList.contains('menu-open')")
            assert page.get_attribute("#btn-menu", "aria-expanded") == "true"
            if close == "tap":
                page.mouse.click(195, 700)  # on the board, outside the menu
            else:
                page.keyboard.press("Escape")
            assert not page.evaluate("document.body.classList.contains('menu-open')"), close
            assert page.get_attribute("#btn-menu", "aria-expanded") == "false"
        page.tap("#btn-menu")
        assert page.is_visible("#btn-flip")
        page.tap("#link-games")
    else:
        assert page.is_visible("#btn-flip")
        page.click("#link-games")
    page.wait_for_selector("body.at-lobby")
    assert not page.is_visible("#toast")  # the game's message stayed with the game
    if device == "phone":
        page.tap("#btn-menu")
    assert not page.is_visible("#btn-flip")
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_the_evaluation_bar_names_the_leading_side_and_the_winner(
    browser: Any, server: ServerProcess, device: str
) -> None:
    """The bar's label is the leading side's winning chance, on that side's colour, its title in words; once the game
    is over it says who won, not a bare "end"."""
    context = browser.new_context(bypass_csp=True, **(PHONE if device == "phone" else DESKTOP))
    game = create(server, mode="local", options={"game_type": "Base"})
    page = seat_page(context, server, game)
    for move in ("wS1", "bS1 wS1-", "wQ -wS1"):
        httpx.post(
            f"{server.url}api/games/{game['id']}/move",
            json={"move": move},
            headers={"x-seat-token": game["token"]},
            timeout=30,
        )
    page.wait_for_function("app.state.moves.length === 3")
    page.keyboard.press("e")
    page.wait_for_function("document.getElementById('eval-text').textContent !== ''")
    label = page.inner_text("#eval-text")
    title = page.get_attribute("#evalbar", "title") or ""
    assert re.fullmatch(r"\d{2}%|100|=", label), label
    assert re.fullmatch(r"(White|Black)'s chance to win: \d+% \(the AI at depth \d+\)", title), title
    side = page.get_attribute("#eval-text", "data-side")
    assert (label == "=") == (side == "") and title.startswith(("White", "Black")[int(side or 0)])
    page.evaluate("document.getElementById('btn-resign').click()")
    page.wait_for_function("app.state.result && document.getElementById('eval-text').textContent === 'won'")
    winner = page.evaluate("app.state.winner")
    assert page.get_attribute("#evalbar", "title") == f"{('White', 'Black')[winner]} won."
    assert page.get_attribute("#eval-text", "data-side") == str(winner)
    assert page.errors == []
    context.close()


def test_moves_and_the_result_are_announced_to_screen_readers(browser: Any, server: ServerProcess) -> None:
    """A polite live region reads out each move as it arrives (by whom) and how the game ended."""
    context = browser.new_context(bypass_csp=True, **PHONE)
    game = create(server, mode="local", options={"game_type": "Base"})
    page = seat_page(context, server, game)
    assert page.get_attribute("#live", "aria-live") == "polite"
    url, headers = f"{server.url}api/games/{game['id']}", {"x-seat-token": game["token"]}
    httpx.post(f"{url}/move", json={"move": "wS1"}, headers=headers, timeout=30)
    page.wait_for_function("document.getElementById('live').textContent === 'White played wS1.'")
    httpx.post(f"{url}/move", json={"move": "bS1 wS1-", "ply": 1}, headers=headers, timeout=30)
    page.wait_for_function("document.getElementById('live').textContent === 'Black played bS1 wS1-.'")
    httpx.post(f"{url}/resign", json={"ply": 2}, headers=headers, timeout=30)
    page.wait_for_function("document.getElementById('live').textContent === 'Game over: White resigned.'")
    box = page.locator("#live").bounding_box()
    assert box is not None and box["width"] <= 1 and box["height"] <= 1  # heard, not seen
    assert page.errors == []
    context.close()


def test_pieces_have_accessible_names(browser: Any, server: ServerProcess) -> None:
    """Each piece on the board, each kind in a hand and each cell of HiveQueen's field is a control with a name a
    screen reader reads: side, bug, number, stack; the cell and what stands on it."""
    context = browser.new_context(bypass_csp=True, **PHONE)
    moves = ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wB1 /wS1", "bB1 bQ/", "wB1 wS1"]
    game = create(
        server, mode="local", options={"game_type": "Base"}, game_string="Base;InProgress;Black[4];" + ";".join(moves)
    )
    page = seat_page(context, server, game)
    names = "ns => ns.map((n) => n.getAttribute('aria-label'))"
    labels = page.eval_on_selector_all("#board .piece [role=button]", names)
    assert "White Beetle 1, on top of a stack of 2" in labels and "Black Queen Bee" in labels, labels
    assert len(labels) == 5, labels  # one a cell: the Beetle on the Spider is one
    hands = page.eval_on_selector_all(".hand-piece [role=button]", names)
    assert "White Soldier Ant: 3 in hand" in hands and "Black Grasshopper: 3 in hand" in hands, hands
    queen = seat_page(context, server, create(server, kind="hivequeen", mode="local"))
    labels = queen.eval_on_selector_all("#board .qcell[role=button]", names)
    assert "c1: South Queen" in labels and "d7: North Soldier" in labels and "e5: empty" in labels, labels
    assert len(labels) == 61, labels  # every cell of the field, a piece on it or not
    context.close()
