"""The lobby's seeks and challenges in the page, in Chromium driven by Playwright, at phone (360x740, touch) and
desktop sizes, on a server that keeps accounts (as ``hive serve`` does), two players in two browsers:

- A signs up and seeks a rated blitz game of the first game on offer through the "Seek a game" dialog; the seek shows
  in A's list with Cancel.
- B, a guest, sees the seek (its rating marked provisional) with "Sign in to play" instead of Accept; B signs up and
  accepts it. Both pages end on the same game, each holding its own seat (A's page opened it by itself, once its
  seek was taken); B's page stops asking for the seeks once the game shows. A plays a move by clicks; B sees it.
- Back in the lobby, B challenges A by name; the challenge shows in B's "Your challenges" and in A's "Challenges to
  you"; A declines it, and it is gone from both.

On a server without accounts (``hive play``) the page shows nothing of this. axe-core (when installed) finds nothing
serious on the lobby with its seeks, nor in the dialog. The lobby with a seek listed and the dialog open is
photographed into docs/screenshots/ when the pictures are missing or HIVE_SCREENSHOT=1.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from ...web_support import JSON, ServerProcess
from ..browser_support import (
    SIZES,
    click_move,
    game_of,
    no_serious,
    open_page,
    overflow,
    press,
    seek_row,
    shoot,
    sign_up,
    sizes,
)

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

Page = Any
pytestmark = pytest.mark.once

#: How long a page may take to notice a change another player made (it asks every 3 s).
NOTICED = 15_000


def to_lobby(page: Page, device: str) -> None:
    """Back to the game list by the header's Games link (on a phone, in the ☰ menu)."""
    if device == "phone":
        press(page, device, "#btn-menu")
    press(page, device, "#link-games")
    page.wait_for_selector("body.at-lobby")


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_two_players_meet_by_a_seek_and_a_challenge(browser: Any, club: str, device: str, tmp_path: Path) -> None:
    ann, bob = f"Ann_{device}", f"Bob_{device}"
    contexts = [browser.new_context(bypass_csp=True, **SIZES[device]) for _ in range(2)]
    try:
        a = open_page(contexts[0], club)
        expect(a.locator("#seeks")).to_be_visible()
        expect(a.locator("#btn-seek")).to_have_text("Sign in to play")
        expect(a.locator("#seeks-empty")).to_be_visible()
        sign_up(a, device, ann)
        expect(a.locator("#btn-seek")).to_have_text("Seek a game")

        # A seeks a rated blitz game of the first game on offer, moving first
        offer = "(({kind, sides, first}) => ({kind, side: sides[first].toLowerCase()}))(app.assets.games[0])"
        first: JSON = a.evaluate(offer)
        press(a, device, "#btn-seek")
        expect(a.locator("#dlg-seek")).to_be_visible()
        expect(a.locator("#seek-game")).to_be_focused()
        expect(a.locator("#seek-game")).to_have_value(first["kind"])
        expect(a.locator("#seek-time")).to_have_value("blitz")
        expect(a.locator("#seek-rated")).to_be_checked()
        a.select_option("#seek-colour", first["side"])
        press(a, device, "#btn-seek-send")
        expect(a.locator("#dlg-seek")).to_be_hidden()
        mine = seek_row(a, ann)
        expect(mine.locator("[data-action=cancel]")).to_be_visible()
        expect(mine.locator("[data-action=accept]")).to_have_count(0)
        expect(mine.locator(".seek-detail")).to_contain_text("Blitz 5+3 · rated")

        # B, a guest, sees it with a sign-in hint; signed up, accepts it
        b = open_page(contexts[1], club)
        theirs = seek_row(b, ann)
        expect(theirs.locator(".seek-hint")).to_have_text("Sign in to play")
        expect(theirs.locator(".seek-rating")).to_have_text(re.compile(r"^\d+\?$"))  # provisional: no games yet
        expect(theirs.locator("button")).to_have_count(0)
        sign_up(b, device, bob)
        expect(theirs.locator("[data-action=accept]")).to_be_visible()
        no_serious(b, f"lobby with a seek at {device} size", tmp_path)

        # the dialog, photographed over the list (then closed)
        press(b, device, "#btn-seek")
        expect(b.locator("#dlg-seek")).to_be_visible()
        assert overflow(b) == 0
        no_serious(b, f"seek dialog at {device} size", tmp_path)
        b.evaluate("document.getElementById('toast').hidden = true")  # "Signed in as", in the picture's way
        shoot(b, f"seeks-{device}.png", tmp_path)
        press(b, device, "#dlg-seek [data-close]")
        expect(b.locator("#dlg-seek")).to_be_hidden()

        seeks_asked: list[float] = []
        b.on("request", lambda r: seeks_asked.append(time.monotonic()) if r.url.endswith("/api/seeks") else None)
        press(b, device, "#seek-list [data-id] [data-action=accept]")
        b.wait_for_url(re.compile(r"/game/[\w-]+$"))
        b.wait_for_function("app.state && app.state.seats.length === 1")
        entered = time.monotonic()
        a.wait_for_url(re.compile(r"/game/[\w-]+$"), timeout=NOTICED)  # A's page noticed its seek taken
        a.wait_for_function("app.state && app.state.seats.length === 1")
        (game_a, token_a), (game_b, token_b) = game_of(a), game_of(b)
        assert game_a == game_b and token_a != token_b
        seat_a, seat_b = a.evaluate("app.state.seats[0]"), b.evaluate("app.state.seats[0]")
        assert {seat_a, seat_b} == {0, 1}
        st: JSON = a.evaluate("app.state")
        assert st["kind"] == first["kind"] and st["view"]["turn"] == seat_a
        assert sorted(st["names"]) == sorted([ann, bob])

        # A plays a move by clicks; B sees it
        move = next(m["move"] for moves in st["view"]["legal"].values() for m in moves)
        click_move(a, st, move, touch=device == "phone")
        b.wait_for_function("app.state.moves.length === 1", timeout=NOTICED)
        assert b.evaluate("app.state.moves") == a.evaluate("app.state.moves") == [move]
        assert [t for t in seeks_asked if t > entered] == []  # the game page asks nothing of the lobby

        # B challenges A from the lobby; A declines
        to_lobby(b, device)
        press(b, device, "#btn-seek")
        b.fill("#seek-to", ann)
        expect(b.locator("#seek-title")).to_have_text("Challenge a player")
        expect(b.locator("#btn-seek-send")).to_have_text("Challenge")
        press(b, device, "#btn-seek-send")
        expect(b.locator("#dlg-seek")).to_be_hidden()
        outgoing = b.locator("#challenge-out-list .seek-row")
        expect(outgoing).to_have_count(1)
        expect(outgoing.locator(".seek-player")).to_have_text(ann)
        expect(outgoing.locator("[data-action=withdraw]")).to_be_visible()
        to_lobby(a, device)
        incoming = a.locator("#challenge-in-list .seek-row")
        expect(incoming).to_have_count(1, timeout=NOTICED)
        expect(incoming.locator(".seek-player")).to_have_text(bob)
        expect(incoming.locator("[data-action=accept]")).to_be_visible()
        press(a, device, "#challenge-in-list [data-action=decline]")
        expect(a.locator("#challenges-in")).to_be_hidden()
        expect(b.locator("#challenges-out")).to_be_hidden(timeout=NOTICED)
        expect(b.locator("#toast")).to_have_text(f"{ann} declined your challenge.")
        assert a.errors == [] and b.errors == []
    finally:
        for context in contexts:
            context.close()


def test_a_server_without_accounts_shows_no_seeks(browser: Any, server: ServerProcess) -> None:
    context = browser.new_context(bypass_csp=True, **SIZES["phone"])
    try:
        page = open_page(context, server.url)
        page.wait_for_selector("body.at-lobby")
        expect(page.locator("#seeks")).to_be_hidden()
        expect(page.locator("#dlg-seek")).to_be_hidden()
        assert page.errors == []
    finally:
        context.close()
