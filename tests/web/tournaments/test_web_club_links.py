"""The club's smaller pages and links in Chromium driven by Playwright, at phone (360x740, touch) size, desktop too in
the slow set, on a server that keeps accounts (as ``hive serve`` does):

- A tournament by invitation: the invited player is told by a notice, which opens the tournament; the page lists who
  is invited and shows Join to them alone (not to a player uninvited); a notice on the tournament's page (an
  invitation, a challenge) covers no control, Join and Leave among them; a refused invitation's error goes once the
  next one succeeds; the records' link is a button; a bye row reads "NAME +1 bye"; a tournament's game says "Round 1
  of NAME" and links back to the tournament; over, it offers no rematch (neither its end banner nor the list of games).
- The ☰ menu (a phone's) has the player's own profile, the leaderboard and the lobby's tournaments; the account
  dialog links to the profile. The leaderboard says how many rated games establish a rating and how many the player
  has; the profile says how many more a provisional rating needs; the graph of one rated game is a line from the
  start rating to the rating after it, both marked, and "1 rated game".

The tournament's page and the leaderboard are photographed into the test's folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from hive.ratings import ESTABLISHED_AFTER, Rating, games_to_establish, rate_game
from hive.web.storage import open_store

from ..browser_support import SIZES, Player, covered_controls, open_page, overflow, press, sizes

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.once
#: How long a page may take to notice a change made elsewhere (a tournament's page asks every 3 s).
NOTICED = 15_000


def menu(page: Any, device: str) -> None:
    """Open the ☰ menu (a phone's: the wide top bar shows its buttons)."""
    if device == "phone":
        press(page, device, "#btn-menu")


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_a_tournament_by_invitation_and_its_games_links(browser: Any, club: str, device: str, tmp_path: Path) -> None:
    url = club
    ada, ben, cyd = (Player(browser, url, name, device) for name in ("Ada", "Ben", "Cyd"))
    try:
        body = {"name": "Club night", "rated": False, "rounds": 2, "invite_only": True}
        tid = ada.post("/api/tournaments", body)["id"]
        path = f"/tournament/{tid}"

        # Ben, in the lobby, is told of his invitation by a notice that opens the tournament, where he may join
        ben.page = open_page(ben.context, url)
        expect(ben.page.locator("body")).to_have_attribute("data-lobby", "live")
        ada.post(f"/api/tournaments/{tid}/invite", {"name": "Ben"})
        notice = ben.page.locator(".notice", has_text="Ada invites you to the tournament Club night")
        expect(notice).to_be_visible(timeout=NOTICED)
        press(ben.page, device, ".notice a")
        ben.page.wait_for_url(f"**{path}")
        expect(ben.page.locator("#t-name")).to_have_text("Club night")
        expect(ben.page.locator("#btn-t-join")).to_be_visible()
        expect(ben.page.locator("#t-invited li")).to_have_text(["Ben"])

        # Cyd, not invited, is shown no Join
        cyd.page = open_page(cyd.context, url + path.lstrip("/"))
        expect(cyd.page.locator("#t-name")).to_have_text("Club night")
        expect(cyd.page.locator("#t-facts")).to_contain_text("by invitation")
        expect(cyd.page.locator("#btn-t-join")).to_be_hidden()

        # Ada's page: a refused invitation's error goes once the next succeeds; Cyd is then shown Join
        ada.page = open_page(ada.context, url + path.lstrip("/"))
        page = ada.page
        expect(page.locator("#form-t-invite")).to_be_visible()
        page.fill("#t-invite-name", "Nobody")
        page.press("#t-invite-name", "Enter")
        expect(page.locator("#t-error")).to_contain_text("No account is named")
        page.fill("#t-invite-name", "Cyd")
        page.press("#t-invite-name", "Enter")
        expect(page.locator("#t-invited li")).to_have_text(["Ben", "Cyd"])
        expect(page.locator("#t-error")).to_have_text("")
        expect(cyd.page.locator("#btn-t-join")).to_be_visible(timeout=NOTICED)
        # told on the tournament's page too, by a notice that covers no control (its Join among them)
        expect(cyd.page.locator(".notice", has_text="Ada invites you")).to_be_visible(timeout=NOTICED)
        assert covered_controls(cyd.page, "#notices") == []

        # three players: round 1 is a game and a bye, which reads "NAME +1 bye"
        press(page, device, "#btn-t-join")
        ben.post(f"/api/tournaments/{tid}/join")
        cyd.post(f"/api/tournaments/{tid}/join")
        expect(page.locator("#t-players li")).to_have_count(3, timeout=NOTICED)
        # Ben, joined, is shown Leave; a challenge's notice on the page covers it no more than any other control
        expect(ben.page.locator("#btn-t-leave")).to_be_visible(timeout=NOTICED)
        challenge = cyd.post("/api/challenges", {"to": "Ben", "game": "Base", "time_control": {"days": 1}})
        expect(ben.page.locator(".notice", has_text="Cyd challenges you")).to_be_visible(timeout=NOTICED)
        assert covered_controls(ben.page, "#notices") == []
        expect(ben.page.locator("#btn-t-leave")).to_be_visible()
        ben.post(f"/api/challenges/{challenge['id']}/decline")
        expect(page.locator("#t-invited-box")).to_be_hidden()  # every one invited has joined
        press(page, device, "#btn-t-start")
        bye = page.locator("[data-round='1'] tbody tr").filter(has_text="bye")
        expect(bye).to_have_count(1)
        cells = bye.locator("td")
        expect(cells.nth(2)).to_have_text("+1")
        expect(cells.nth(3)).to_have_text("bye")
        assert "bye bye" not in bye.inner_text()

        # the records' link is a button, as the project's links to files are
        records = page.locator("#t-records")
        expect(records).to_be_visible()
        expect(records).to_have_class("button-link")
        style = records.evaluate("a => [getComputedStyle(a).borderTopWidth, getComputedStyle(a).textDecorationLine]")
        assert style == ["1px", "none"], style
        assert overflow(page) == 0
        page.evaluate("document.querySelectorAll('.notice-close').forEach((b) => b.click())")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(tmp_path / f"tournament-invited-{device}.png"), full_page=True)

        # a player's game links back to its tournament: "Round 1 of Club night"
        t = ada.get(f"/api/tournaments/{tid}")
        (game,) = [g for g in t["paired"][0] if g["second"] is not None]
        players = {"Ada": ada, "Ben": ben, "Cyd": cyd}
        player = players[game["first"]]
        mine = player.page.locator("[data-round='1'] tr.mine [data-action=play]")
        expect(mine).to_be_visible(timeout=NOTICED)
        press(player.page, device, "[data-round='1'] tr.mine [data-action=play]")
        player.page.wait_for_url("**/game/*")
        back = player.page.locator("#game-tournament")
        expect(back).to_be_visible()
        expect(back).to_have_text("Round 1 of Club night")
        expect(back).to_have_attribute("href", path)
        player.page.screenshot(path=str(tmp_path / f"tournament-game-{device}.png"))
        press(player.page, device, "#game-tournament")
        player.page.wait_for_url(f"**{path}")
        expect(player.page.locator("#t-name")).to_have_text("Club night")

        # the game over, neither its end banner nor the player's list of games offers a rematch of it
        player.post(f"/api/games/{game['game_id']}/resign")
        player.page.goto(f"{url}game/{game['game_id']}")
        expect(player.page.locator("#banner")).to_be_visible()
        expect(player.page.locator("#btn-banner-rematch")).to_be_hidden()
        player.page.goto(url)
        row = player.page.locator(f"#game-list li[data-id='{game['game_id']}']")
        expect(row.locator("button[data-action=review]")).to_be_visible()
        expect(row.locator("button[data-action=rematch]")).to_have_count(0)
        for p in (ada, ben, cyd):
            assert p.page.errors == []
    finally:
        for p in (ada, ben, cyd):
            p.context.close()


def rate_one_game(db: Path, winner: str, loser: str) -> None:
    """Store one rated Base+MLP blitz game won by ``winner``, as its end would."""
    store = open_store(f"sqlite:///{db}", "test")
    try:
        with store.database.engine.begin() as connection:
            find = sa.text("SELECT id FROM accounts WHERE name = :n")
            ids = [connection.execute(find, {"n": name}).scalar_one() for name in (winner, loser)]
            store.ratings.rate_within(connection, "rated-1", "Base+MLP", "blitz", (ids[0], ids[1]), 1.0)
    finally:
        store.close()


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_the_menu_links_and_what_a_rating_needs(
    browser: Any, club: str, club_db: Path, device: str, tmp_path: Path
) -> None:
    url, db = club, club_db
    ada, ben = Player(browser, url, "Ada", device), Player(browser, url, "Ben", device)
    try:
        page = ada.page = open_page(ada.context, url)
        expect(page.locator("#btn-account")).to_have_text("Ada")

        # the menu: the leaderboard, which says what it takes to be listed
        menu(page, device)
        for link in ("#menu-profile", "#menu-leaderboard", "#menu-tournaments"):
            shown = expect(page.locator(link))
            (shown.to_be_visible if device == "phone" else shown.to_be_hidden)()  # the wide bar has the lobby's
        if device == "phone":
            press(page, device, "#menu-leaderboard")
        else:
            press(page, device, "#link-leaderboard")
        page.wait_for_url("**/leaderboard")
        expect(page.locator("#lb-empty")).to_be_visible()
        expect(page.locator("#lb-threshold")).to_contain_text(f"after about {ESTABLISHED_AFTER} rated games")
        expect(page.locator("#lb-you")).to_have_text(
            f"You have 0 rated games in Base+MLP Blitz: about {ESTABLISHED_AFTER} more games to go."
        )

        # one rated game later: the leaderboard counts it, the profile says how many more, its graph is readable
        rate_one_game(db, "Ada", "Ben")
        more = games_to_establish(rate_game(Rating(), Rating(), 1.0)[0])
        page.reload()
        expect(page.locator("#lb-you")).to_have_text(
            f"You have 1 rated game in Base+MLP Blitz: about {more} more games to go."
        )
        assert overflow(page) == 0
        page.screenshot(path=str(tmp_path / f"leaderboard-{device}.png"), full_page=True)
        if device == "phone":
            menu(page, device)
            press(page, device, "#menu-profile")
        else:
            press(page, device, "#btn-account")
            expect(page.locator("#account-profile")).to_be_visible()
            press(page, device, "#account-profile")
            expect(page.locator("#dlg-account")).to_be_hidden()
        page.wait_for_url("**/player/Ada")
        expect(page.locator("#p-name")).to_contain_text("Ada")
        expect(page.locator("#p-provisional li")).to_have_text(
            [f"Base+MLP Blitz: provisional, about {more} more rated games to establish it"]
        )
        graph = page.locator("#p-graphs svg.rating-graph")
        expect(graph).to_have_count(1)
        expect(graph.locator(".one-game")).to_have_text("1 rated game")
        won = round(rate_game(Rating(), Rating(), 1.0)[0].rating)
        expect(graph.locator(".rating-values text")).to_have_text(["1500", str(won)])
        line = graph.locator("line.rating-start")
        expect(line).to_have_count(1)
        ends = "[l.x1, l.y1, l.x2, l.y2].map((v) => v.baseVal.value)"
        x1, y1, x2, y2 = line.evaluate(f"l => {ends}")
        assert x2 - x1 > 100 and y2 < y1  # a line across the graph, rising to the rating won, not a dot
        assert overflow(page) == 0
        page.screenshot(path=str(tmp_path / f"profile-one-game-{device}.png"), full_page=True)

        # the menu's Tournaments: the lobby's list of them, in view
        if device == "phone":
            menu(page, device)
            press(page, device, "#menu-tournaments")
            page.wait_for_url(url)
            expect(page.locator("#tournaments")).to_be_in_viewport()
        assert page.errors == []
    finally:
        ada.context.close()
        ben.context.close()
