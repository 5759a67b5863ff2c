"""The tests' third game, Hexline (:mod:`tests.toygame`), in the browser (Chromium by Playwright), at phone (360 px,
touch) and desktop sizes, served by ``hive play`` in a process of its own that learns of the game only by the entry
point of an installed package, as a player's game package would declare it: the New game dialog offers it, a whole
game is played against the AI by taps or clicks and one move by the keyboard, a move is taken back, the result is
shown, reviewed and analysed; the board editor sets up a Hexline position and a game starts from it; a stone chosen
on the opponent's turn is played when the turn comes, or cancelled when its cell is taken. The page's
modules are the shell's and the toy's own page module (tests/toygame/page), nothing else."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ...toygame import NAME, NAMES, Board
from ...web_support import JSON, ROOT, ServerProcess
from ..browser_support import SIZES, expect, open_page, press, shoot, sizes

Page = Any
#: The editor's position: X on 0,0 and 0,1, O on 1,0; O to move.
SET_UP = [("x", "0,0"), ("o", "1,0"), ("x", "0,1")]


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``hive play`` with Hexline installed: a package's metadata on its path declares the game's plug-in in the
    entry-point group ``hive.games`` (its AI worker processes find it the same way)."""
    folder = tmp_path_factory.mktemp("installed")
    info = folder / "hexline-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hexline\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[hive.games]\nhexline = tests.toygame:PLUGIN\n")
    path = [str(folder), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    process = ServerProcess(tmp_path_factory.mktemp("served") / "games.sqlite3")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PYTHONPATH", os.pathsep.join(path))
        process.start()
    try:
        yield process
    finally:
        process.stop()


def cell(name: str) -> str:
    return f'#board .hxcell[data-cell="{name}"]'


def settled(page: Page, plies: int, *, more: bool = False) -> JSON:
    """The game once it has ``plies`` moves (more: more than that) and it is over or the player's turn."""
    page.wait_for_function(
        f"app.state && app.state.moves.length {'>' if more else '==='} {plies} && !app.state.thinking"
        " && (!!app.state.result || app.state.seats.includes(app.state.view.turn))"
    )
    state: JSON = page.evaluate("app.state")
    return state


def by_keyboard(page: Page, plies: int) -> str:
    """Tab to the board, step to another cell with an arrow key and play it with Enter; returns the cell played."""
    for _ in range(80):
        if page.evaluate("!!document.activeElement.closest('#board [data-focus]')"):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the board")
    first = page.evaluate("document.activeElement.dataset.focus")
    page.keyboard.press("ArrowRight")
    played: str = page.evaluate("document.activeElement.dataset.focus")
    assert played != first and page.evaluate("document.activeElement.getAttribute('aria-label')").startswith(played)
    page.keyboard.press("Enter")
    page.wait_for_function(f"app.state.moves.length > {plies}")
    return played


def test_the_third_game_has_its_own_page_module(toy_server: ServerProcess) -> None:
    """The server offers the game the installed package declares, with the files of its page module."""
    assets = httpx.get(f"{toy_server.url}api/assets", timeout=10).json()
    assert [info["kind"] for info in assets["games"]] == ["hive", "hivequeen", "toygame"]
    for name in ("toygame.js", "toygame.css"):
        assert httpx.get(f"{toy_server.url}static/games/{name}", timeout=10).status_code == 200, name


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_hexline_is_played_and_set_up_in_the_browser(
    browser: Any, toy_server: ServerProcess, device: str, tmp_path: Path
) -> None:
    context = browser.new_context(bypass_csp=True, **SIZES[device])
    page = open_page(context, toy_server.url)
    press(page, device, "#btn-lobby-new")
    press(page, device, "#game-choices input[value=toygame] + span")
    page.wait_for_selector("#colour option[value=x]", state="attached")
    assert "Three stones in a row" in page.inner_text("#game-options")  # the module's words on the game
    page.select_option("#ai-level", "easy")
    page.select_option("#colour", "x")
    press(page, device, "#btn-start")
    page.wait_for_function("app.state && app.state.kind === 'toygame'")
    assert page.inner_text("#brand-name") == "Hexline" and page.locator("#board .hxcell").count() == 19
    assert page.inner_text("#status").startswith("X to move")

    played = by_keyboard(page, 0)  # X's first stone
    state = settled(page, 2)  # and the AI's answer
    assert state["moves"][0] == played and page.locator("#board .hxstone[data-stone=x]").count() == 1
    taken = state["moves"][1]
    press(page, device, cell(taken))  # a taken cell: the server's rule
    page.wait_for_selector("#toast:not([hidden])")
    assert "the cell is taken" in page.inner_text("#toast")

    press(page, device, cell(state["view"]["legal"][0]))
    state = settled(page, 4)
    press(page, device, "#btn-undo")  # X's stone and the AI's answer taken back
    state = settled(page, 2)
    assert page.locator("#board .hxstone").count() == 2

    while not state["result"]:
        plies = len(state["moves"])
        press(page, device, cell(state["view"]["legal"][0]))
        state = settled(page, plies, more=True)
    page.wait_for_selector("#banner:not([hidden])")
    reason = page.inner_text("#banner-reason")
    assert reason in ("X has three in a row", "O has three in a row", "the field is full"), reason
    assert page.inner_text("#banner-title") == ("Draw" if reason == "the field is full" else f"{reason[0]} wins")
    assert page.locator("#board .hxwin").count() == (0 if reason == "the field is full" else 1)
    press(page, device, "#btn-banner-close")  # the field in full, the result in the status
    page.evaluate("document.getElementById('toast').hidden = true")  # the taken cell's message, long answered
    shoot(page, f"hexline-{device}.png", tmp_path)
    stones = len(state["moves"])
    press(page, device, "#btn-prev")  # the review of the position before the last move
    page.wait_for_function(f"app.review && app.review.ply === {stones - 1}")
    assert page.locator("#board .hxstone").count() == stones - 1 and page.locator("#board .hxwin").count() == 0
    press(page, device, "#btn-review-exit")
    press(page, device, "#btn-analyse")  # the analysis board, a move before the end: another stone tried
    page.wait_for_function("app.analysis")
    press(page, device, "#btn-analysis-prev")
    page.wait_for_function(f"app.analysis.ply === {stones - 1} && app.analysis.view.legal.length > 0")
    tried = page.evaluate("app.analysis.view.legal.find((c) => c !== app.state.moves[app.state.moves.length - 1])")
    press(page, device, cell(tried))
    page.wait_for_function(f"app.analysis.ply === {stones} && app.analysis.line !== null")
    press(page, device, "#btn-analysis-exit")

    if device == "phone":
        press(page, device, "#btn-menu")
    press(page, device, "#link-editor")
    page.wait_for_selector("#ed-game")
    page.select_option("#ed-game", "toygame")
    page.wait_for_function("app.editor.kind === 'toygame' && app.editor.answer && app.editor.answer.valid")
    assert "19 legal moves" in page.inner_text("#ed-status")
    for stone, name in SET_UP:
        press(page, device, f'.ed-piece[data-piece="{stone}"]')
        press(page, device, cell(name))
        page.wait_for_function(f"app.editor.cells[{name!r}] && app.editor.answer && app.editor.answer.valid")
    page.select_option("#ed-side", "1")
    page.fill("#ed-number", "2")  # the number the editor raised for X to move (X[3]) is O's turn 2
    page.dispatch_event("#ed-number", "change")
    page.wait_for_function("app.editor.answer.valid && app.editor.answer.position.includes(';O[2];')")
    text = page.input_value("#ed-text")
    board = Board.from_position(text)
    assert text == board.position_text() and text.startswith(f"Position;{NAME};O[2];")
    assert [board.cells[NAMES.index(name)] for _, name in SET_UP] == [1, 2, 1] and sum(map(bool, board.cells)) == 3
    assert "O to move, 16 legal moves" in page.inner_text("#ed-status")
    press(page, device, "#ed-play")
    press(page, device, "#form-new input[name=mode][value=local] + span")
    press(page, device, "#btn-start")
    page.wait_for_function("app.state && app.state.start")
    state = page.evaluate("app.state")
    assert state["kind"] == "toygame" and state["start"] == text and state["view"]["turn"] == 1
    press(page, device, cell("-1,0"))  # O's stone, then X's
    press(page, device, cell("0,-1"))
    state = settled(page, 2)
    assert state["result"] and "X has three in a row" in page.inner_text("#banner-reason")
    assert not page.errors, page.errors
    context.close()


@pytest.mark.parametrize("device", sizes("phone"))
def test_a_hexline_stone_chosen_early_is_played_or_cancelled(
    browser: Any, toy_server: ServerProcess, device: str
) -> None:
    """O's page on X's turn: a cell pressed pre-selects O's stone, shown as in every game; pressed again, it is
    cancelled; X's stone elsewhere lets it be played, X's stone on it cancels it."""
    game = httpx.post(f"{toy_server.url}api/games", json={"kind": "toygame", "mode": "online", "colour": "x"}).json()
    context = browser.new_context(bypass_csp=True, **SIZES[device])
    page = open_page(context, f"{toy_server.url}game/{game['id']}#seat={game['invite']}")
    page.wait_for_function("app.state && app.state.seats[0] === 1")

    def x_plays(name: str, ply: int) -> None:
        body = {"move": name, "ply": ply}
        answer = httpx.post(
            f"{toy_server.url}api/games/{game['id']}/move", json=body, headers={"x-seat-token": game["token"]}
        )
        assert answer.status_code == 200, answer.text

    press(page, device, cell("0,0"))
    expect(page.locator("#board .pending-to")).to_have_attribute("data-to", "0,0")
    expect(page.locator("#pending-bar")).to_contain_text("Pre-selected: 0,0")
    press(page, device, cell("0,0"))  # pressed again: cancelled
    expect(page.locator("#pending-bar")).to_be_hidden()
    press(page, device, cell("0,0"))
    x_plays("1,0", 0)
    page.wait_for_function("app.state.moves.length === 2")
    assert page.evaluate("app.state.moves") == ["1,0", "0,0"]
    press(page, device, cell("-1,0"))
    x_plays("-1,0", 2)
    expect(page.locator("#toast")).to_contain_text("not legal now")
    expect(page.locator("#pending-bar")).to_be_hidden()
    page.wait_for_timeout(300)
    assert page.evaluate("app.state.moves") == ["1,0", "0,0", "-1,0"]
    assert not page.errors, page.errors
    context.close()
