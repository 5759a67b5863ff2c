"""The lobby's lists are live, in Chromium: with the lobby open, a player who signs up elsewhere shows among who is
online, a game of the player's begun from a seek shows in "Your games" and the live games, and a move made in it
shows in both, each within a few seconds and without a reload (the lists are asked for again when the lobby's socket
says so, not at the next poll, which comes every 8 seconds). The Your-turn list reads the time left as the game's
clock does: a correspondence game's in days, hours and minutes, a blitz game's in minutes and seconds."""

from __future__ import annotations

import re
from typing import Any

import pytest

import hive

from ..browser_support import DESKTOP, PASSWORD, PHONE, api_account, open_page, sizes

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

SIZES: dict[str, dict[str, Any]] = {"phone": PHONE, "desktop": DESKTOP}
#: Well under the lists' poll (8 s): what shows within it was pushed.
PUSHED = 4_000


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_the_lobbys_lists_follow_what_happens(browser: Any, club: str, device: str) -> None:
    context = browser.new_context(**SIZES[device])
    signed = context.request.post(club + "api/accounts", data={"name": "ann", "password": PASSWORD})
    assert signed.ok, signed.text()
    page = open_page(context, club)
    page.wait_for_function("window.app && document.body.classList.contains('at-lobby')")
    page.wait_for_timeout(1_000)  # the lists' first look is over: what follows comes by the socket
    expect(page.locator("#online-list")).to_contain_text("ann")

    bob = api_account(club, "bob")
    expect(page.locator("#online-list")).to_contain_text("bob", timeout=PUSHED)

    # bob's seek, taken by ann on another device of hers (the lobby page stays where it is)
    seek = bob.post("/api/seeks", json={"game": "Base", "time_control": {"days": 1}, "colour": "white"}).json()
    csrf = {"x-csrf-token": signed.json()["csrf"]}
    taken = context.request.post(club + f"api/seeks/{seek['id']}/accept", headers=csrf)
    assert taken.ok, taken.text()
    game_id = taken.json()["id"]
    row = page.locator(f"#game-list li[data-id='{game_id}']")
    expect(row).to_contain_text("not started", timeout=PUSHED)
    live = page.locator(f"#live-list li[data-id='{game_id}']")
    expect(live).to_contain_text("0 moves", timeout=PUSHED)

    board = hive.Board("Base")
    move = board.move_text(next(iter(board.legal_moves)))
    assert bob.post(f"/api/games/{game_id}/move", json={"move": move, "ply": 0}).status_code == 200
    expect(row).to_contain_text("1 move", timeout=PUSHED)
    expect(live).to_contain_text("1 move", timeout=PUSHED)
    # ann's turn: the Your-turn list reads her time as her game's clock does (days, hours and minutes)
    turn = page.locator(f"#turn-list li[data-id='{game_id}']")
    expect(turn).to_contain_text(re.compile(r"(23h 5\dm|1d 0h) left"), timeout=PUSHED)

    # and a blitz game's in minutes and seconds, never rounded to whole minutes ("5 min left")
    seek = bob.post("/api/seeks", json={"game": "Base", "time_control": "blitz", "colour": "white"}).json()
    blitz = context.request.post(club + f"api/seeks/{seek['id']}/accept", headers=csrf).json()["id"]
    assert bob.post(f"/api/games/{blitz}/move", json={"move": move, "ply": 0}).status_code == 200
    turn = page.locator(f"#turn-list li[data-id='{blitz}']")
    expect(turn).to_contain_text(re.compile(r"(?<!\d)[1-5]:[0-5]\d left"), timeout=PUSHED)
    assert page.errors == []
    context.close()
