"""Tournaments in the page, in Chromium driven by Playwright, at phone (360x740, touch) and desktop sizes, on a
server that keeps accounts (as ``hive serve`` does):

- Four accounts are made through the API; one of them signs in in the browser, and creates a Swiss tournament of 2
  rounds through the lobby's "New tournament" dialog; the page goes to the tournament's own page.
- The three others join through the API; the page shows them (it asks again every few seconds). The browser's
  player joins and starts it: round 1's pairings show, each game with its link, and the standings at 0.
- Round 1's games end through the API (a resignation and a draw): the page shows their results, round 2 paired and
  the standings updated, by itself. The page's player opens their own round 2 game from it, with their seat.

The page with round 1's standings is photographed into docs/screenshots/ when the pictures are missing or
HIVE_SCREENSHOT=1.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import hive

from ...web_support import JSON
from ..browser_support import PASSWORD, SIZES, game_of, open_page, overflow, press, shoot, sign, signed_in_as, sizes

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

Page = Any
Player = tuple[httpx.Client, dict[str, str]]
pytestmark = pytest.mark.once

#: How long the page may take to notice a change made elsewhere (it asks every 3 s).
NOTICED = 15_000


@pytest.fixture()
def players(club: str) -> Iterator[dict[str, Player]]:
    """Four accounts, each signed in by an HTTP client of its own (with its CSRF header), by name."""
    made: dict[str, Player] = {}
    try:
        for name in ("Ada", "Ben", "Cyd", "Dee"):
            c = httpx.Client(base_url=club, timeout=30)
            r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert r.status_code == 201, r.text
            made[name] = (c, {"x-csrf-token": r.json()["csrf"]})
        yield made
    finally:
        for c, _ in made.values():
            c.close()


def finish(game_id: str, players: dict[str, Player], game: str, how: int) -> None:
    """Two moves, then the end: ``how`` 0, the first player resigns; 2, a draw agreed."""
    state: JSON = players["Ada"][0].get(f"/api/games/{game_id}").json()
    first, second = (players[name] for name in state["names"])
    board = hive.Board(game)
    rng = random.Random(game_id)
    for mover in (first, second):
        text = board.move_text(rng.choice(list(board.legal_moves)))
        board.push_text(text)
        r = mover[0].post(f"/api/games/{game_id}/move", json={"move": text}, headers=mover[1])
        assert r.status_code == 200, r.text
    if how == 2:
        assert first[0].post(f"/api/games/{game_id}/offer", json={"what": "draw"}, headers=first[1]).is_success
        assert second[0].post(f"/api/games/{game_id}/answer", json={"accept": True}, headers=second[1]).is_success
    else:
        assert first[0].post(f"/api/games/{game_id}/resign", json={}, headers=first[1]).is_success


def rows(page: Page, table: str) -> list[list[str]]:
    """A table's body, cell by cell."""
    texts: list[list[str]] = page.eval_on_selector(
        table, "t => [...t.tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent.trim()))"
    )
    return texts


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_a_swiss_tournament_is_made_joined_started_and_followed_live(
    browser: Any, club: str, players: dict[str, Player], device: str, tmp_path: Path
) -> None:
    context = browser.new_context(bypass_csp=True, **SIZES[device])
    try:
        page = open_page(context, club)
        expect(page.locator("#tournaments")).to_be_visible()
        expect(page.locator("#tournaments-empty")).to_be_visible()
        sign(page, device, "Ada", PASSWORD)
        expect(page.locator("#dlg-sign")).to_be_hidden()
        signed_in_as(page, "Ada")

        # Ada makes a Swiss tournament of 2 rounds in the dialog; the page goes to it
        press(page, device, "#btn-tournament-new")
        expect(page.locator("#dlg-tournament")).to_be_visible()
        expect(page.locator("#tournament-name")).to_be_focused()
        page.fill("#tournament-name", "Friday Swiss")
        expect(page.locator("#tournament-format")).to_have_value("swiss")
        expect(page.locator("#tournament-double")).to_be_hidden()
        page.fill("#tournament-rounds", "2")
        expect(page.locator("#tournament-time")).to_have_value("blitz")
        press(page, device, "#btn-tournament-create")
        expect(page.locator("#dlg-tournament")).to_be_hidden()
        page.wait_for_url("**/tournament/*")
        tid = page.url.rsplit("/", 1)[1]
        expect(page.locator("#t-name")).to_have_text("Friday Swiss")
        facts = page.locator("#t-facts")
        for text in ("Ada", "Swiss, 2 rounds", "Blitz 5+3 · rated", "Open"):
            expect(facts).to_contain_text(text)
        expect(page.locator("#btn-t-start")).to_be_visible()
        expect(page.locator("#btn-t-start")).to_be_disabled()
        expect(page.locator("#t-standings-box")).to_be_hidden()

        # the others join through the API; the page shows them by itself
        for name in ("Ben", "Cyd", "Dee"):
            c, headers = players[name]
            assert c.post(f"/api/tournaments/{tid}/join", headers=headers).is_success
        expect(page.locator("#t-players li")).to_have_text(["Ben", "Cyd", "Dee"], timeout=NOTICED)

        # Ada joins and starts it
        press(page, device, "#btn-t-join")
        expect(page.locator("#btn-t-leave")).to_be_visible()
        expect(page.locator("#btn-t-join")).to_be_hidden()
        expect(page.locator("#t-players li")).to_have_count(4)
        press(page, device, "#btn-t-start")
        expect(page.locator("#t-records")).to_have_attribute("href", f"/api/tournaments/{tid}/records")
        expect(page.locator("#btn-t-start")).to_be_hidden()
        expect(facts).to_contain_text("round 1 of 2")

        # the organiser and the players chat on the page; what is written shows as text
        expect(page.locator("#t-chat-box")).to_be_visible()
        page.fill("#t-chat-text", "Good luck, <b>all</b>")
        page.keyboard.press("Enter")
        # the box empties once Ada's line is stored, so Ben's answer comes after it
        expect(page.locator("#t-chat-text")).to_have_value("", timeout=NOTICED)
        c, headers = players["Ben"]
        assert c.post(f"/api/tournaments/{tid}/chat", json={"text": "thanks!"}, headers=headers).is_success
        expect(page.locator("#t-chat li")).to_have_text(["Ada Good luck, <b>all</b>", "Ben thanks!"], timeout=NOTICED)
        expect(page.locator("#t-chat b")).to_have_count(0)
        expect(page.locator("#t-rounds .t-round")).to_have_count(1)
        first_round = page.locator("[data-round='1'] tbody tr")
        expect(first_round).to_have_count(2)
        expect(page.locator("[data-round='1'] .t-result")).to_have_text(["Result", "…", "…"])
        headers = page.eval_on_selector_all("#t-standings thead th", "ths => ths.map(th => th.textContent)")
        assert headers == ["#", "Player", "Pts", "W/D/L", "Bch-1", "Bch", "SB", "H2H"]
        assert [row[2] for row in rows(page, "#t-standings")] == ["0"] * 4

        # round 1's games end through the API; round 2 shows, and the standings move
        t: JSON = players["Ada"][0].get(f"/api/tournaments/{tid}").json()
        (one, two) = t["paired"][0]
        finish(one["game_id"], players, t["game"], 0)  # the first player resigns
        finish(two["game_id"], players, t["game"], 2)  # a draw
        expect(page.locator("#t-rounds .t-round")).to_have_count(2, timeout=NOTICED)
        expect(facts).to_contain_text("round 2 of 2")
        expect(page.locator("[data-round='1'] tbody .t-result")).to_have_text(["0-1", "½-½"])
        expect(page.locator("[data-round='1'] [data-action=review]")).to_have_count(2)
        standings = rows(page, "#t-standings")
        assert standings[0][1] == one["second"]  # the winner
        assert [row[2] for row in standings] == ["1", "½", "½", "0"]
        assert [row[3] for row in standings] == ["1/0/0", "0/1/0", "0/1/0", "0/0/1"]
        assert overflow(page) == 0
        shoot(page, f"tournament-{device}.png", tmp_path)

        # Ada opens her round 2 game from the page, with her seat
        mine = page.locator("[data-round='2'] tr.mine")
        expect(mine).to_have_count(1)
        expect(mine.locator("[data-action=play]")).to_be_visible()
        press(page, device, "[data-round='2'] tr.mine [data-action=play]")
        page.wait_for_url("**/game/*")
        expect(page.locator("#tournament")).to_be_hidden()
        expect(page.locator("#board")).to_be_visible()
        game_id, token = game_of(page)
        seat: JSON = players["Ada"][0].get(f"/api/games/{game_id}/seat").json()
        assert token == seat["token"]
        assert page.errors == []
    finally:
        context.close()


def test_an_organiser_invites_players_to_a_tournament_by_invitation(
    browser: Any, club: str, players: dict[str, Player]
) -> None:
    context = browser.new_context(bypass_csp=True, **SIZES["phone"])
    try:
        page = open_page(context, club)
        sign(page, "phone", "Ada", PASSWORD)
        signed_in_as(page, "Ada")
        press(page, "phone", "#btn-tournament-new")
        page.fill("#tournament-name", "Invitational")
        page.select_option("#tournament-game", index=len(page.locator("#tournament-game option").all()) - 1)
        page.check("#tournament-invite-only")
        page.uncheck("#tournament-bots")
        press(page, "phone", "#btn-tournament-create")
        page.wait_for_url("**/tournament/*")
        tid = page.url.rsplit("/", 1)[1]
        shown = players["Ada"][0].get(f"/api/tournaments/{tid}").json()
        assert shown["invite_only"] and not shown["bots"]
        expect(page.locator("#t-facts")).to_contain_text("by invitation")
        ben, headers = players["Ben"]
        assert ben.post(f"/api/tournaments/{tid}/join", headers=headers).status_code == 403
        expect(page.locator("#form-t-invite")).to_be_visible()
        page.fill("#t-invite-name", "ben")
        page.keyboard.press("Enter")
        expect(page.locator("#t-invite-name")).to_have_value("")
        assert ben.post(f"/api/tournaments/{tid}/join", headers=headers).is_success
        expect(page.locator("#t-players li")).to_have_text(["Ben"], timeout=NOTICED)
        assert page.errors == []
    finally:
        context.close()
