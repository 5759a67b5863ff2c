"""Players' pages in Chromium driven by Playwright, at phone (360x740, touch) and desktop sizes, on a server that keeps
accounts (as ``hive serve`` does):

- Two accounts, each signed in in a browser of its own, play a rated game from a seek: the lobby lists it among the
  live games (each name a link to its player's profile) and both among who is online, with a Challenge for the
  other that opens the seek dialog as a challenge. One opens the game from the lobby; its player resigns on the
  page; both pages show each side's rating before and after, and the change. A Rematch is offered, shown to the
  opponent with Accept and Decline, and declined.
- The profile (reached by a player's name on the game page) shows the player's name, rating (provisional, with
  "?"), the rating history as a graph with its summary in words, the game with its W/D/L, and the filters (opponent,
  result) narrow the list and the download of its records; an unknown name says so.
- None of these pages, the lobby with its lists included, breaks a serious accessibility rule (axe-core).
- The leaderboard (reached from the lobby) lists the established ratings of a game and speed, highest first, and the
  speed chosen changes the board.

The profile, the game's end and the leaderboard are photographed into docs/screenshots/ when the pictures are
missing or HIVE_SCREENSHOT=1.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import hive

from ..browser_support import SIZES, Player, establish, no_serious_violation, open_page, overflow, press, shoot, sizes

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

Page = Any
pytestmark = pytest.mark.once

#: How long the page may take to notice a change made elsewhere (the lobby asks every 8 s).
NOTICED = 20_000
GAME = "Base+MLP"


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_a_rated_game_its_rating_change_the_profiles_and_the_leaderboard(
    browser: Any, club: str, club_db: Path, device: str, tmp_path: Path
) -> None:
    url, db = club, club_db
    ada, ben = Player(browser, url, "Ada", device), Player(browser, url, "Ben", device)
    cyd, dee = Player(browser, url, "Cyd", device), Player(browser, url, "Dee", device)
    try:
        dee.post("/api/account/bot")
        establish(db, {"Cyd": (1720.0, 60.0), "Dee": (1650.4, 90.0)})
        seek = ada.post("/api/seeks", {"game": GAME, "time_control": "blitz", "rated": True})
        game_id = ben.post(f"/api/seeks/{seek['id']}/accept")["id"]

        # the lobby: the game among the live ones, both players among who is online
        ada.page = open_page(ada.context, url)
        page = ada.page
        live = page.locator(f"#live-list [data-id='{game_id}']")
        expect(live).to_be_visible()
        expect(live.locator("a.player-link")).to_have_count(2)
        expect(live.locator("a.player-link", has_text="Ben")).to_have_attribute("href", "/player/Ben")
        expect(live.locator("[data-action=play]")).to_be_visible()  # Ada plays it
        online = page.locator("#online-list")
        for name in ("Ada", "Ben", "Cyd", "Dee"):
            expect(online.locator(f"[data-id='{name}'] a.player-link")).to_have_text(name)
        expect(online.locator("[data-id='Dee'] .bot-mark")).to_have_text("BOT")
        expect(online.locator("[data-id='Ada']")).to_contain_text("(you)")
        expect(online.locator("[data-id='Ada'] button")).to_have_count(0)
        # a Challenge opens the seek dialog as a challenge to that player; cancelled, the dialog forgets the name
        press(page, device, "#online-list [data-id='Ben'] [data-action=challenge]")
        expect(page.locator("#dlg-seek")).to_be_visible()
        expect(page.locator("#seek-to")).to_have_value("Ben")
        expect(page.locator("#seek-title")).to_have_text("Challenge a player")
        press(page, device, "#dlg-seek [data-close]")
        expect(page.locator("#dlg-seek")).to_be_hidden()
        expect(page.locator("#seek-to")).to_have_value("")
        expect(page.locator("#seek-list a.player-link")).to_have_count(0)  # the seek was taken
        assert overflow(page) == 0
        shoot(page, f"lobby-players-{device}.png", tmp_path)

        # Ada opens the game from the lobby, with her seat; Ben watches it by its address, signed in
        press(page, device, f"#live-list [data-id='{game_id}'] [data-action=play]")
        page.wait_for_url(f"**/game/{game_id}")
        page.wait_for_function("app.state && app.state.seats.length === 1")
        ben.page = open_page(ben.context, f"{url}game/{game_id}")
        state = ada.get(f"/api/games/{game_id}")
        assert [a["name"] for a in state["accounts"]] == state["names"]
        first, second = (ada, ben) if state["names"][0] == "Ada" else (ben, ada)
        board = hive.Board(GAME)
        rng = random.Random(7)
        for mover in (first, second):
            text = board.move_text(rng.choice(list(board.legal_moves)))
            board.push_text(text)
            mover.post(f"/api/games/{game_id}/move", {"move": text})
        page.wait_for_function("app.state.moves.length === 2")
        press(page, device, "#btn-resign")  # the confirmation is accepted
        for player in (ada, ben):
            ratings = player.page.locator("#banner-ratings li")
            expect(ratings).to_have_count(2)
            mine, theirs = ratings.filter(has_text="Ada"), ratings.filter(has_text="Ben")
            expect(mine).to_contain_text(re.compile(r"1500 → 1[34]\d\d\s*\u2212\d+"))  # Ada resigned
            expect(theirs).to_contain_text(re.compile(r"1500 → 1[56]\d\d\s*\+\d+"))
            expect(player.page.locator(".card .rating-badge")).to_have_count(2)
        expect(page.locator(".card a.player-link", has_text="Ben")).to_have_attribute("href", "/player/Ben")
        assert overflow(page) == 0
        shoot(page, f"rating-change-{device}.png", tmp_path)

        # Ada's Rematch is an offer: her banner says it is offered, Ben's shows it with Accept and Decline; declined,
        # both banners offer a rematch again
        press(page, device, "#btn-banner-rematch")
        expect(page.locator("#btn-banner-rematch")).to_have_text("Rematch offered")
        expect(page.locator("#btn-banner-rematch")).to_be_disabled()
        expect(ben.page.locator("#banner-offer")).to_have_text("Ada offers a rematch.")
        expect(ben.page.locator("#btn-banner-rematch")).to_have_text("Accept rematch")
        press(ben.page, device, "#btn-banner-decline")
        for player in (ada, ben):
            expect(player.page.locator("#btn-banner-rematch")).to_have_text("Rematch")
        expect(ben.page.locator("#banner-offer")).to_be_hidden()
        assert page.evaluate("app.state.rematch") is None  # no game was started

        # Ada's profile, reached by her name on the game page
        press(page, device, ".card a.player-link:text('Ada')")
        page.wait_for_url("**/player/Ada")
        expect(page.locator("#profile")).to_be_visible()
        expect(page.locator("#layout")).to_be_hidden()
        expect(page.locator("#p-name")).to_have_text("Ada")
        expect(page.locator("#p-ratings tbody tr")).to_have_count(1)
        cells = page.locator("#p-ratings tbody tr td")
        expect(cells.nth(0)).to_have_text(GAME)
        expect(cells.nth(1)).to_have_text("Blitz")  # the speed by its name in the page's language
        expect(cells.nth(2)).to_have_text(re.compile(r"^1[34]\d\d\?$"))  # provisional
        expect(cells.nth(4)).to_have_text("0/0/1")
        graph = page.locator(f"#p-graphs figure[data-game='{GAME}'][data-speed='blitz'] svg[role=img]")
        expect(graph).to_be_visible()
        expect(graph.locator("title")).to_have_text(f"Rating history, {GAME}, Blitz")
        expect(graph.locator("desc")).to_contain_text("1 rated game on")
        expect(graph.locator("text.axis-title")).to_have_count(2)
        expect(graph.locator(".rating-dots circle")).to_have_count(2)  # one game: from the start rating to it
        expect(graph.locator(".rating-dots circle.start")).to_have_count(1)
        expect(graph.locator(".one-game")).to_have_text("1 rated game")
        width = graph.evaluate("svg => svg.getBoundingClientRect().width")
        assert width <= SIZES[device]["viewport"]["width"]
        games = page.locator("#p-games li")
        expect(games).to_have_count(1)
        expect(games.first).to_contain_text("Lost")
        expect(games.first.locator("a.player-link")).to_have_text("Ben")
        expect(games.first.locator("[data-action=review]")).to_have_attribute("href", f"/game/{game_id}")
        expect(page.locator("#p-totals")).to_have_text("0 wins, 0 draws, 1 loss")
        records = page.locator("#p-records")
        expect(records).to_have_attribute("href", "/api/players/Ada/records")
        assert ada.context.request.get(f"{url}api/players/Ada/records").text().startswith(f"{GAME};")
        assert overflow(page) == 0
        shoot(page, f"profile-{device}.png", tmp_path)
        # the filters: what Ada won (nothing), then her head-to-head with Ben
        page.select_option("#p-result", "win")
        expect(games).to_have_count(0)
        expect(page.locator("#p-games-empty")).to_have_text("No game matches these filters.")
        expect(records).to_be_hidden()
        page.select_option("#p-result", "")
        page.fill("#p-opponent", "ben")
        page.press("#p-opponent", "Enter")
        expect(page.locator("#p-totals")).to_have_text("Against ben: 0 wins, 0 draws, 1 loss")
        expect(games).to_have_count(1)
        expect(records).to_have_attribute("href", "/api/players/Ada/records?opponent=ben")
        assert page.url.endswith("/player/Ada?opponent=ben")
        # the game opens for review from the list
        press(page, device, "#p-games [data-action=review]")
        page.wait_for_url(f"**/game/{game_id}")
        expect(page.locator("#review")).to_be_visible()
        page.go_back()
        expect(page.locator("#profile")).to_be_visible()
        expect(page.locator("#p-opponent")).to_have_value("ben")

        # an unknown name
        page.goto(f"{url}player/Nobody")
        page.wait_for_selector("body[data-ready='1']")
        expect(page.locator("#p-name")).to_have_text("No such player")
        expect(page.locator("#p-since")).to_contain_text("No account is named")
        expect(page.locator("#p-found")).to_be_hidden()

        # the leaderboard, from the lobby: the established ratings, highest first
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        press(page, device, "#link-leaderboard")
        page.wait_for_url("**/leaderboard")
        expect(page.locator("#lb-game")).to_have_value(GAME)
        expect(page.locator("#lb-speed")).to_have_value("blitz")
        rows = page.locator("#lb-table tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text("1Cyd1720")
        expect(rows.nth(1)).to_contain_text("2Dee BOT1650")
        expect(rows.nth(0).locator("a.player-link")).to_have_attribute("href", "/player/Cyd")
        assert overflow(page) == 0
        shoot(page, f"leaderboard-{device}.png", tmp_path)
        page.select_option("#lb-speed", "bullet")
        expect(page.locator("#lb-empty")).to_be_visible()
        assert page.url.endswith("/leaderboard?game=Base%2BMLP&speed=bullet")
        for player in (ada, ben):
            assert player.page.errors == []
    finally:
        for player in (ada, ben, cyd, dee):
            player.context.close()


def finished_game(first: Player, second: Player, seed: int) -> str:
    """A rated blitz game between two players, from a seek to the first player's resignation after a move each."""
    seek = first.post("/api/seeks", {"game": GAME, "time_control": "blitz", "rated": True, "colour": "white"})
    game_id: str = second.post(f"/api/seeks/{seek['id']}/accept")["id"]
    board = hive.Board(GAME)
    rng = random.Random(seed)
    for mover in (first, second):
        text = board.move_text(rng.choice(list(board.legal_moves)))
        board.push_text(text)
        mover.post(f"/api/games/{game_id}/move", {"move": text})
    first.post(f"/api/games/{game_id}/resign")
    return game_id


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_the_players_pages_break_no_serious_accessibility_rule(
    axe: Path, browser: Any, club: str, club_db: Path, device: str, tmp_path: Path
) -> None:
    url, db = club, club_db
    ada, ben = Player(browser, url, "Ada", device), Player(browser, url, "Ben", device)
    try:
        for seed, (first, second) in enumerate([(ada, ben), (ben, ada), (ada, ben)]):
            finished_game(first, second, seed)
        establish(db, {"Ben": (1700.0, 80.0)})
        seek = ada.post("/api/seeks", {"game": GAME, "time_control": "blitz", "rated": True})
        ben.post(f"/api/seeks/{seek['id']}/accept")  # in progress: a live game
        page = open_page(ada.context, url)
        expect(page.locator("#live-list li")).to_have_count(1)
        expect(page.locator("#online-list li")).to_have_count(2)
        no_serious_violation(page, axe, f"lobby with players at {device} size", tmp_path)
        page.goto(f"{url}player/Ada")
        page.wait_for_selector("body[data-ready='1']")
        expect(page.locator("#p-games li")).to_have_count(4)
        expect(page.locator("#p-graphs svg .rating-dots circle")).to_have_count(3)
        assert overflow(page) == 0
        no_serious_violation(page, axe, f"profile at {device} size", tmp_path)
        page.goto(f"{url}leaderboard")
        page.wait_for_selector("body[data-ready='1']")
        expect(page.locator("#lb-table tbody tr")).to_have_count(1)
        no_serious_violation(page, axe, f"leaderboard at {device} size", tmp_path)
        assert page.errors == []
    finally:
        ada.context.close()
        ben.context.close()
