"""Playing without a mouse: every move made with Tab, the arrow keys, Enter and Esc alone, in both games, in
Chromium. The player reads the page (what is lit, what the hint says) as a sighted keyboard user would, and acts
only through the keyboard."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ...web_support import JSON, ServerProcess
from ..browser_support import DEVICES, create, seat_page, shoot, sizes

pytestmark = pytest.mark.once

ACTIVE = "document.activeElement"


def active(page: Any, attribute: str) -> str | None:
    """An attribute of the element that has the focus."""
    value: str | None = page.evaluate(f"{ACTIVE} && {ACTIVE}.getAttribute({attribute!r})")
    return value


def tab_to(page: Any, test: str, *, backwards: bool = False, most: int = 120) -> None:
    """Press Tab (or Shift+Tab) until the focused element passes ``test`` (a JavaScript expression of ``el``)."""
    for _ in range(most):
        if page.evaluate(f"(el => !!el && !!({test}))({ACTIVE})"):
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"Tab never reached {test}")


ARROWS = ("ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp")


def arrow_to(page: Any, focus: str, most: int = 200) -> None:
    """Walk the board's cells with the arrow keys to the one whose key is ``focus``, choosing each step by where the
    target lies on the screen, as the eye would; where every arrow was tried from a cell (the eye's way goes round in
    a circle), a step at random leaves the circle (the random mover's positions differ from run to run)."""
    tried: set[tuple[str | None, str]] = set()
    rng = random.Random(focus)
    for _ in range(most):
        where = page.evaluate(
            """(focus) => {
                const at = document.activeElement, to = document.querySelector(`#board [data-focus="${focus}"]`);
                if (!to) return null;
                return {at: at.dataset.focus, dx: to.dataset.x - at.dataset.x, dy: to.dataset.y - at.dataset.y};
            }""",
            focus,
        )
        assert where is not None, f"no cell {focus} on the board"
        if where["at"] == focus:
            return
        ranked = sorted(
            [
                ("ArrowRight", where["dx"]),
                ("ArrowLeft", -where["dx"]),
                ("ArrowDown", where["dy"]),
                ("ArrowUp", -where["dy"]),
            ],
            key=lambda pair: -pair[1],
        )
        for key, _gain in ranked:
            if (where["at"], key) not in tried:
                tried.add((where["at"], key))
                page.keyboard.press(key)
                break
        else:  # every arrow tried from here: a step aside, then the eye's way again
            tried.clear()
            page.keyboard.press(rng.choice(ARROWS))
    raise AssertionError(f"the arrows never reached {focus}")


def into_board(page: Any) -> None:
    """Tab (backwards from wherever the focus is) into the board."""
    tab_to(page, "el.closest('#board')", backwards=True)


def my_turn(page: Any, plies: int) -> bool:
    """Wait until the game has grown past ``plies`` and it is the player's turn or over; whether it is over."""
    page.wait_for_function(
        f"app.state && app.state.moves.length > {plies} && !app.state.thinking"
        " && (!!app.state.result || app.state.seats.includes(app.state.view.turn))",
        timeout=60_000,
    )
    return bool(page.evaluate("!!app.state.result"))


def hinted(page: Any) -> str:
    """Ask for a hint with the H key and read it off the toast."""
    page.evaluate("document.getElementById('toast').textContent = ''")
    page.keyboard.press("h")
    page.wait_for_function("document.getElementById('toast').textContent.startsWith('Hint: ')", timeout=60_000)
    return str(page.inner_text("#toast")).removeprefix("Hint: ")


def hive_move(page: Any, text: str) -> None:
    """A Hive move by the keyboard: its piece (Tab to the hand, or arrows on the board), Enter, arrows to the lit
    cell, Enter."""
    st: JSON = page.evaluate("app.state")
    for piece, moves in st["view"]["legal"].items():
        for move in moves:
            if move["move"] != text:
                continue
            cell = next((c for c in st["view"]["cells"] if c["stack"][-1] == piece), None)
            if cell is None:
                tab_to(page, f"el.dataset.keep === 'hand:{piece}'")
            else:
                into_board(page)
                arrow_to(page, f"{cell['q']},{cell['r']}")
            page.keyboard.press("Enter")
            page.wait_for_function(f"app.selected === {piece!r}")
            assert active(page, "data-lead") == "1", "the focus did not go to a lit cell"
            arrow_to(page, f"{move['to'][0]},{move['to'][1]}")
            page.keyboard.press("Enter")
            return
    raise AssertionError(f"{text} is not among the legal moves")


def queen_turn(page: Any, text: str) -> None:
    """A HiveQueen turn by the keyboard: the piece's cell, Enter, the lit cell, Enter (a chooser's button by Tab),
    then each production on its green cell, and End turn."""
    movement, *productions = text.split(";")
    plies = page.evaluate("app.state.moves.length")
    into_board(page)
    arrow_to(page, movement[1:3])
    page.keyboard.press("Enter")
    page.wait_for_function(f"app.selected === {movement[1:3]!r}")
    assert active(page, "data-lead") == "1"
    arrow_to(page, movement[-2:] if "=" not in movement else movement.split("=")[0][-2:])
    page.keyboard.press("Enter")
    choose(page, movement)
    for production in productions:
        page.wait_for_selector("#qpanel[data-phase=production]")
        kind = production[1]
        if not page.evaluate(f"!!document.querySelector('.qkind.selected[data-kind={kind}]')"):
            tab_to(page, f"el.dataset.keep === 'qkind:{kind}'")
            page.keyboard.press("Enter")  # the kind first; the focus goes on to a green cell
            page.wait_for_function(f"!!document.querySelector('.qkind.selected[data-kind={kind}]')")
        assert page.evaluate(f"!!{ACTIVE}.closest('#board')"), "choosing a kind did not lead to the field"
        arrow_to(page, production[2:4])
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelector('#qpanel .qturn code').textContent.endsWith({production!r})")
    page.wait_for_function(
        f"app.state.moves.length > {plies} || document.querySelector('#qpanel[data-phase=production]')"
    )
    if page.evaluate(f"app.state.moves.length > {plies}"):
        return  # a movement after which nothing can be produced is the whole turn
    tab_to(page, "el.id === 'qbtn-end'")
    page.keyboard.press("Enter")


def choose(page: Any, move: str) -> None:
    """Where a chooser opened beside the cell, Tab to the button of ``move`` and press Enter."""
    page.wait_for_timeout(150)
    if page.is_visible("#qpick"):
        assert active(page, "data-move") is not None, "the chooser did not take the focus"
        tab_to(page, f"el.dataset.move === {move!r}")
        page.keyboard.press("Enter")


@pytest.mark.parametrize(
    ("kind", "play"),
    [pytest.param("hive", hive_move, id="hive"), pytest.param("hivequeen", queen_turn, id="hivequeen")],
)
@pytest.mark.parametrize("size", sizes("desktop", "phone"))
@pytest.mark.slow
def test_a_whole_game_against_the_ai_by_keyboard(
    browser: Any, server: ServerProcess, kind: str, play: Any, size: str
) -> None:
    """From the first move to the result, the player (helped by hints, asked with H) beats the random mover with
    the keyboard alone; the live region says how it ended."""
    context = browser.new_context(bypass_csp=True, **DEVICES[size])
    options = {"game_type": "Base"} if kind == "hive" else {}
    game = create(server, kind=kind, mode="ai", ai_level="random", colour="white", options=options)
    page = seat_page(context, server, game)
    plies = -1
    for _ in range(60):
        if my_turn(page, plies):
            break
        plies = page.evaluate("app.state.moves.length")
        play(page, hinted(page))
    else:
        raise AssertionError("no result after 60 turns")
    result = page.evaluate("app.state.result")
    assert result in ("WhiteWins", "SouthWins"), result
    page.wait_for_function("document.getElementById('live').textContent.includes('Game over')")
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("size", sizes("phone", "desktop"))
def test_keys_pick_name_drop_and_cancel(browser: Any, server: ServerProcess, size: str, tmp_path: Any) -> None:
    """Tab reaches a piece in hand; Enter picks it and the focus goes to a lit cell named in words and notation;
    Esc gives the focus back to the hand; arrows walk the board's pieces; Enter drops; the focus stays on the board
    where the piece landed, and the move is announced."""
    context = browser.new_context(bypass_csp=True, **DEVICES[size])
    game = create(
        server, mode="local", options={"game_type": "Base"}, game_string="Base;InProgress;White[2];wS1;bS1 wS1-"
    )
    page = seat_page(context, server, game)
    assert page.get_attribute("#board", "role") == "group"
    tab_to(page, "el.dataset.keep === 'hand:wQ'")
    assert active(page, "aria-label") == "White Queen Bee: 1 in hand"
    page.keyboard.press("Enter")
    page.wait_for_function("app.selected === 'wQ'")
    assert active(page, "data-lead") == "1" and active(page, "aria-pressed") is None
    named = page.eval_on_selector_all("#board .dest", "ds => ds.map((d) => d.getAttribute('aria-label'))")
    assert "Place White Queen Bee left of White Spider 1 (wQ -wS1)" in named, named
    assert page.is_visible("#board .key-focus"), "no ring shows the cell in focus"
    page.keyboard.press("Escape")
    page.wait_for_function("app.selected === null")
    assert active(page, "data-keep") == "hand:wQ", "Esc did not give the focus back to the hand"
    assert page.get_attribute(".hand-cover[data-keep='hand:wQ']", "aria-pressed") == "false"
    page.keyboard.press("Enter")
    page.wait_for_function("app.selected === 'wQ'")
    arrow_to(page, "-1,0")
    assert active(page, "aria-label") == "Place White Queen Bee left of White Spider 1 (wQ -wS1)"
    shoot(page, f"keyboard-{size}.png", tmp_path)
    page.keyboard.press("Enter")
    page.wait_for_function("app.state.moves.length === 3")
    page.wait_for_function("document.getElementById('live').textContent === 'White played wQ -wS1.'")
    page.wait_for_function("document.activeElement.dataset.focus === '-1,0'")
    assert active(page, "aria-label") == "White Queen Bee"
    page.keyboard.press("ArrowRight")  # along the board's pieces: the Spider, then Black's
    assert active(page, "aria-label") == "White Spider 1"
    page.keyboard.press("ArrowRight")
    assert active(page, "aria-label") == "Black Spider 1"
    page.keyboard.press("ArrowLeft")  # a review step only where the focus is not on the board
    assert page.evaluate("app.review") is None and active(page, "aria-label") == "White Spider 1"
    page.keyboard.press("End")  # the last cell in reading order, then the first
    assert active(page, "aria-label") == "Black Spider 1"
    page.keyboard.press("Home")
    assert active(page, "aria-label") == "White Queen Bee"
    assert page.errors == []
    context.close()


def test_hivequeen_cells_by_keyboard(browser: Any, server: ServerProcess, tmp_path: Any) -> None:
    """HiveQueen's 61 cells are the board's controls: arrows reach a piece, Enter picks it (its movements lit and
    named), a movement by Enter opens the production phase, whose kind buttons lead back to the green cells, and
    End turn plays the turn."""
    context = browser.new_context(bypass_csp=True, **DEVICES["phone"])
    page = seat_page(context, server, create(server, kind="hivequeen", mode="local"))
    into_board(page)
    arrow_to(page, "c3")
    assert active(page, "aria-label") == "c3: South Worker"
    page.keyboard.press("Enter")
    page.wait_for_function("app.selected === 'c3'")
    assert active(page, "data-lead") == "1"
    arrow_to(page, "d4")
    assert active(page, "aria-label") == "d4: empty, move here: Wc3-d4"
    page.keyboard.press("Enter")
    page.wait_for_selector("#qpanel[data-phase=production]")
    tab_to(page, "el.dataset.keep === 'qkind:W'")
    page.keyboard.press("Enter")
    page.wait_for_function("!!document.querySelector('.qkind.selected[data-kind=W]')")
    assert active(page, "data-lead") == "1", "choosing a kind did not lead to a green cell"
    assert "produce here: Worker" in str(active(page, "aria-label"))
    shoot(page, "keyboard-hivequeen-phone.png", tmp_path)
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#qpanel .qturn code').textContent.includes(';+W')")
    tab_to(page, "el.id === 'qbtn-end'")
    page.keyboard.press("Enter")
    page.wait_for_function("app.state.moves.length === 1")
    assert page.evaluate("app.state.moves[0]").startswith("Wc3-d4;+W")
    assert page.errors == []
    context.close()
