"""Games that belong to their players, in Chromium: on a club's server a player's game between accounts shows
"Play" on a device that holds no seat token (the account stands for the seat) and no "Delete" (the server keeps it);
a new guest's list is empty; a spectator of the game is shown no Undo, Offer draw or Resign, and none of the engine's
help (Hint, Evaluation, Analyse) while it is played."""

from __future__ import annotations

from typing import Any

import pytest

from ..browser_support import DESKTOP, PASSWORD, PHONE, api_account, open_page, sizes

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect


SIZES: dict[str, dict[str, Any]] = {"phone": PHONE, "desktop": DESKTOP}


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_own_games_play_from_any_device_and_spectators_get_no_players_buttons(
    browser: Any, club: str, device: str
) -> None:
    ann, bob = api_account(club, "ann"), api_account(club, "bob")
    seek = ann.post("/api/seeks", json={"game": "Base", "time_control": {"days": 1}, "colour": "white"}).json()
    game_id = bob.post(f"/api/seeks/{seek['id']}/accept").json()["id"]

    # ann on a second device: signed in, no seat token kept in this browser
    device_two = browser.new_context(**SIZES[device])
    signed = device_two.request.post(club + "api/session", data={"name": "ann", "password": PASSWORD})
    assert signed.ok, signed.text()
    page = open_page(device_two, club)
    row = page.locator(f"#game-list li[data-id='{game_id}']")
    expect(row.locator("button[data-action=play]")).to_be_visible()
    expect(row.locator("button[data-action=watch]")).to_have_count(0)
    expect(row.locator("button[data-action=delete]")).to_have_count(0)

    # a new guest's list has none of it; as a spectator of the game, none of the players' buttons
    guest = browser.new_context(**SIZES[device])
    lobby = open_page(guest, club)
    expect(lobby.locator("#lobby-empty")).to_be_visible()
    assert lobby.locator("#game-list li").count() == 0
    watching = open_page(guest, f"{club}game/{game_id}")
    expect(watching.locator("#board")).to_be_visible()
    for button in ("#btn-undo", "#btn-draw", "#btn-resign", "#btn-hint", "#btn-eval", "#btn-analyse"):
        expect(watching.locator(button)).to_be_hidden()
    # the players keep theirs
    mine = open_page(device_two, f"{club}game/{game_id}")
    for button in ("#btn-abort", "#btn-hint", "#btn-analyse"):  # Abort: neither side has moved
        expect(mine.locator(button)).to_be_visible()
    assert page.errors == [] and lobby.errors == [] and watching.errors == [] and mine.errors == []
    device_two.close()
    guest.close()
