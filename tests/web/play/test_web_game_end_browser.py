"""The end of a game and the answers to offers, as players meet them in Debian's Chromium at phone and desktop sizes:
a resignation is final (Undo disabled, and refused by the server), "Ask to undo" is disabled once the game is over,
a declined draw offer is told to the player who offered it, and the "your move" chime and title go to the player
whose turn it is in a game set up with Black to move first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from ...web_support import ServerProcess
from ..browser_support import sizes

playwright_api = pytest.importorskip("playwright.sync_api")
Page = Any
JSON = dict[str, Any]
SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


def create(server: ServerProcess, **body: Any) -> JSON:
    data: JSON = httpx.post(f"{server.url}api/games", json=body, timeout=30).json()
    assert "id" in data, data
    return data


def seat_page(context: Any, server: ServerProcess, game: JSON, token: str) -> Page:
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{server.url}game/{game['id']}#seat={token}")
    page.wait_for_selector("body[data-ready='1']")
    return page


def act(server: ServerProcess, game: JSON, token: str, action: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.url}api/games/{game['id']}/{action}", json=body, headers={"x-seat-token": token})


def open_menu(page: Page, size: str) -> None:
    """On a phone the game's actions are behind the menu button."""
    if size == "phone" and page.locator("#btn-menu").is_visible():
        page.click("#btn-menu")


@pytest.mark.parametrize("size", sizes(*SIZES))
def test_a_resignation_against_the_ai_is_final(browser: Any, server: ServerProcess, size: str, tmp_path: Path) -> None:
    context = browser.new_context(**SIZES[size])
    game = create(server, mode="ai", ai_level="random")
    page = seat_page(context, server, game, game["token"])
    assert act(server, game, game["token"], "move", move="wS1", ply=0).status_code == 200
    page.wait_for_function("() => document.querySelectorAll('#movelist li[data-ply]').length >= 2", timeout=30_000)
    assert act(server, game, game["token"], "resign").status_code == 200
    page.wait_for_function("() => document.getElementById('btn-undo').disabled", timeout=30_000)
    open_menu(page, size)
    page.screenshot(path=str(tmp_path / f"resigned-{size}.png"))
    undo = act(server, game, game["token"], "undo")
    assert undo.status_code == 409 and "its result stands" in undo.json()["error"]
    assert httpx.get(f"{server.url}api/games/{game['id']}").json()["result"] == "BlackWins"
    context.close()


@pytest.mark.parametrize("size", sizes(*SIZES))
def test_after_a_resignation_between_two_browsers_ask_to_undo_is_disabled(
    browser: Any, server: ServerProcess, size: str
) -> None:
    context = browser.new_context(**SIZES[size])
    game = create(server, mode="online")
    page = seat_page(context, server, game, game["token"])
    for ply, (token, text) in enumerate(((game["token"], "wS1"), (game["invite"], "bS1 wS1-"))):
        assert act(server, game, token, "move", move=text, ply=ply).status_code == 200
    page.wait_for_function("() => !document.getElementById('btn-undo').disabled", timeout=30_000)
    assert page.text_content("#btn-undo") == "Ask to undo"
    assert act(server, game, game["invite"], "resign").status_code == 200
    page.wait_for_function("() => document.getElementById('btn-undo').disabled", timeout=30_000)
    assert act(server, game, game["token"], "offer", what="undo").status_code == 409
    context.close()


@pytest.mark.parametrize("size", sizes(*SIZES))
def test_a_declined_draw_offer_is_told_to_the_player_who_offered(
    browser: Any, server: ServerProcess, size: str, tmp_path: Path
) -> None:
    context = browser.new_context(**SIZES[size])
    game = create(server, mode="online", name="Ada")
    white, black = game["token"], game["invite"]
    assert act(server, game, black, "name", name="Grace").status_code == 200
    offerer = seat_page(context, server, game, black)
    assert act(server, game, white, "move", move="wS1", ply=0).status_code == 200
    assert act(server, game, black, "offer", what="draw").status_code == 200
    offerer.wait_for_selector("#offer:not([hidden])", timeout=30_000)
    assert act(server, game, white, "answer", accept=False).status_code == 200
    offerer.wait_for_selector("#toast:not([hidden])", timeout=30_000)
    assert offerer.text_content("#toast") == "Ada declined your draw offer."
    assert offerer.locator("#offer").is_hidden()
    offerer.screenshot(path=str(tmp_path / f"declined-{size}.png"))
    context.close()


def test_the_chime_goes_to_the_player_to_move_in_a_game_set_up_with_black_first(
    browser: Any, server: ServerProcess
) -> None:
    """``alerts.js`` took the mover from the number of moves, which is wrong when Black moves first: the player who
    had just moved got the chime and the "Your move" title."""
    position = "Position;Base;Black[3];wQ@0,0 bQ@1,0 wS1@-1,0 bS1@2,0 wG1@-2,0;last=wG1"
    game = create(server, mode="online", position=position, colour="white")
    contexts = [browser.new_context(**SIZES["desktop"]) for _ in range(2)]  # two browsers: a seat each
    white = seat_page(contexts[0], server, game, game["token"])
    black = seat_page(contexts[1], server, game, game["invite"])
    titles = {"white": white.title(), "black": black.title()}
    state = httpx.get(f"{server.url}api/games/{game['id']}").json()
    text = next(entry["move"] for entries in state["view"]["legal"].values() for entry in entries)
    assert act(server, game, game["invite"], "move", move=text, ply=0).status_code == 200
    white.wait_for_function("() => document.title.startsWith('●')", timeout=30_000)
    assert "Your move" in white.title()
    black.wait_for_function("() => document.querySelectorAll('#movelist li[data-ply]').length >= 1", timeout=30_000)
    assert not black.title().startswith("●"), (titles, black.title())
    for context in contexts:
        context.close()
