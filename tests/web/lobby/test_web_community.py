"""The club server's community features in the page, in Chromium driven by Playwright, at phone size (360x740,
touch) in the default run and desktop size in the slow set, on a server that keeps accounts:

- the live lobby: a seek opened in one browser shows in another browser's lobby through the lobby's WebSocket, with
  no polling of ``/api/seeks`` once the socket opened;
- a game between accounts (from that seek): no "Invite your opponent" box and no ✎ beside an account's name;
- its chat: the two players write in the players' room and each sees the other's message live, a ``<script>`` in a
  message shows as text; Report and Block (then Unblock) on the other's message; a spectator's room is separate
  (the spectator sees neither the players' room nor its messages, and the players do not see the spectator's); Mute
  hides the chat;
- correspondence: with the lobby open, a game of the player's becoming their turn shows a notice with a link (and
  the tab's title counts it), and the lobby's "Your turn" list holds the game; the link opens it;
- the tournament dialog shows the game's options (drawn by its page module, as New game's are).

The game with its chat and the lobby with a notice are photographed into docs/screenshots/ when the pictures are
missing or HIVE_SCREENSHOT=1, at both sizes.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..browser_support import (
    PASSWORD,
    SHOTS,
    SIZES,
    api_account,
    no_serious,
    open_page,
    overflow,
    press,
    shoot,
    show_tab,
    sign_up,
    sizes,
)

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

Page = Any
pytestmark = pytest.mark.once

#: How long a page may take to show what another player did (pushed, so a moment).
PUSHED = 10_000


def counting_seeks(page: Page) -> list[float]:
    """The times at which the page asks for ``GET /api/seeks``, from now on."""
    asked: list[float] = []

    def seen(request: Any) -> None:
        if request.method == "GET" and re.search(r"/api/seeks$", request.url):
            asked.append(time.monotonic())

    page.on("request", seen)
    return asked


def chat_open(page: Page) -> None:
    """Show the chat: its tab on a wide window; unfolded if it is folded (a phone's starts folded)."""
    page.wait_for_selector("#tab-chat:not([hidden])", state="attached")
    show_tab(page, "chat")
    toggle = page.locator("#btn-chat-toggle")
    expect(toggle).to_be_visible()
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    expect(page.locator("#chat-body")).to_be_visible()


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#btn-chat-send")
    expect(page.locator("#chat-text")).to_have_value("")


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_a_live_lobby_a_game_between_accounts_and_its_chat(
    browser: Any, club: str, device: str, tmp_path: Path
) -> None:
    ann, bob = f"Ann_{device}", f"Bob_{device}"
    contexts = [browser.new_context(bypass_csp=True, **SIZES[device]) for _ in range(3)]
    try:
        a = open_page(contexts[0], club)
        sign_up(a, device, ann)
        b = open_page(contexts[1], club)
        sign_up(b, device, bob)
        # the lobby's socket is open on B's page (its hello drew the lists): from then on nothing is polled
        asked = counting_seeks(b)
        b.wait_for_selector("body[data-lobby='live']")
        opened = time.monotonic()
        expect(b.locator("#seeks-empty")).to_be_visible()

        # A seeks a game; it shows in B's lobby without B's page asking for it
        press(a, device, "#btn-seek")
        a.select_option("#seek-time", "days:3")
        a.uncheck("#seek-rated")
        a.select_option("#seek-colour", index=0)  # A moves first
        press(a, device, "#btn-seek-send")
        expect(a.locator("#dlg-seek")).to_be_hidden()
        row = b.locator("#seek-list .seek-row").filter(has_text=ann)
        expect(row).to_have_count(1, timeout=PUSHED)
        b.wait_for_timeout(3500)  # longer than the old polling interval
        assert [t for t in asked if t > opened] == [], "the lobby polled /api/seeks with its socket open"

        # B accepts: both pages open the game between the two accounts
        press(b, device, "#seek-list [data-action=accept]")
        b.wait_for_url(re.compile(r"/game/[\w-]+$"))
        a.wait_for_url(re.compile(r"/game/[\w-]+$"), timeout=PUSHED)
        for page in (a, b):
            page.wait_for_function("app.state && app.state.seats.length === 1 && app.token")
            assert page.evaluate("app.state.seat_accounts") == [True, True]
            expect(page.locator("#share")).to_be_hidden()  # no invitation to send
            expect(page.locator(".rename")).to_have_count(0)  # an account's name is its own
            expect(page.locator("#tab-chat" if device == "desktop" else "#chat-box")).to_be_visible()  # a tab, or a box
        assert a.evaluate("app.state.view.turn") == a.evaluate("app.state.seats[0]")
        game_id = a.evaluate("app.state.id")

        # the players chat: each sees the other's message live, written as text
        chat_open(a)
        chat_open(b)
        expect(a.locator("#chat-title")).to_have_text("Chat with your opponent")
        assert a.locator("#chat-text").get_attribute("maxlength") == "300"
        say(a, "good luck <script>window.hacked = 1</script><b>bold</b>")
        message = b.locator("#chat-list li").filter(has_text="good luck")
        expect(message).to_have_count(1, timeout=PUSHED)
        expect(message.locator(".chat-text")).to_have_text("good luck <script>window.hacked = 1</script><b>bold</b>")
        assert b.locator("#chat-list script, #chat-list b").count() == 0
        assert b.evaluate("window.hacked") is None
        expect(message.locator("[data-action=block]")).to_be_visible()
        expect(message.locator("[data-action=report]")).to_be_visible()
        expect(a.locator("#chat-list li").filter(has_text="good luck").locator("[data-action]")).to_have_count(0)
        say(b, "thanks, you too")
        theirs = a.locator("#chat-list li").filter(has_text="thanks, you too")
        expect(theirs).to_have_count(1, timeout=PUSHED)

        # Report sends it to the admins; Block hides the player's messages until Unblock
        theirs.locator("[data-action=report]").click()
        expect(a.locator("#toast")).to_have_text("Reported to the admins. Thank you.")
        theirs.locator("[data-action=block]").click()
        expect(theirs).to_have_count(0)
        expect(a.locator("#chat-blocked")).to_contain_text(f"Unblock {bob}")
        a.locator("#chat-blocked button").click()
        expect(theirs).to_have_count(1)
        expect(a.locator("#chat-blocked")).to_be_hidden()

        # a spectator (a guest) sees the spectators' room, not the players'; a signed-in spectator writes there
        watcher = open_page(contexts[2], f"{club}game/{game_id}")
        watcher.wait_for_function("app.state && app.state.seats.length === 0")
        chat_open(watcher)
        expect(watcher.locator("#chat-title")).to_have_text("Spectators' chat")
        expect(watcher.locator("#chat-rooms")).to_be_hidden()
        expect(watcher.locator("#btn-chat-sign")).to_be_visible()
        expect(watcher.locator("#chat-empty")).to_be_visible()
        with httpx.Client(base_url=club, timeout=30) as carol:
            csrf = carol.post("/api/accounts", json={"name": f"Carol_{device}", "password": PASSWORD}).json()["csrf"]
            r = carol.post(
                f"/api/games/{game_id}/chat",
                json={"room": "spectators", "text": "go go"},
                headers={"x-csrf-token": csrf},
            )
            assert r.status_code == 200, r.text
        expect(watcher.locator("#chat-list li").filter(has_text="go go")).to_have_count(1, timeout=PUSHED)
        expect(watcher.locator("#chat-list")).not_to_contain_text("good luck")
        a.wait_for_timeout(1000)
        expect(a.locator("#chat-list")).not_to_contain_text("go go")
        expect(a.locator("#chat-rooms")).to_be_hidden()  # the spectators' room opens to the players at the end

        assert overflow(a) == 0 and overflow(watcher) == 0
        no_serious(a, f"a game's chat at {device} size", tmp_path)
        a.evaluate("document.getElementById('toast').hidden = true")
        picture(a, f"chat-{device}.png", tmp_path, "#chat-box")

        # Mute hides the chat (in every game) until it is turned on again
        press(b, device, "#btn-chat-mute")
        expect(b.locator("#chat-body")).to_be_hidden()
        expect(b.locator("#btn-chat-mute")).to_have_attribute("aria-pressed", "true")
        b.reload()
        b.wait_for_selector("body[data-ready='1']")
        expect(b.locator("#chat-body")).to_be_hidden()
        b.wait_for_selector("#tab-chat:not([hidden])", state="attached")
        show_tab(b, "chat")
        press(b, device, "#btn-chat-mute")
        expect(b.locator("#chat-list li").filter(has_text="thanks, you too")).to_have_count(1)
        assert a.errors == [] and b.errors == [] and watcher.errors == []
    finally:
        for context in contexts:
            context.close()


def picture(page: Page, name: str, tmp_path: Path, selector: str) -> None:
    """Photograph the page with ``selector`` in view into docs/screenshots/ (when the picture is missing or
    HIVE_SCREENSHOT=1), else into ``tmp_path``."""
    page.locator(selector).evaluate("(node) => node.scrollIntoView({block: 'end'})")
    target = SHOTS / name
    if target.exists() and os.environ.get("HIVE_SCREENSHOT") != "1":
        target = tmp_path / name
    page.screenshot(path=str(target))


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_a_your_turn_notice_and_list_for_a_correspondence_game(
    browser: Any, club: str, device: str, tmp_path: Path
) -> None:
    ann = f"Ann_{device}"
    context = browser.new_context(bypass_csp=True, **SIZES[device])
    try:
        page = open_page(context, club)
        sign_up(page, device, ann)
        expect(page.locator("#turns")).to_be_visible()
        expect(page.locator("#turns-empty")).to_be_visible()
        # Bob, through the API, challenges Ann to a correspondence game; the page says so
        bob = api_account(club, f"Bob_{device}")
        body = {"to": ann, "game": "Base", "time_control": {"days": 2}, "rated": False, "colour": "white"}
        challenge = bob.post("/api/challenges", json=body)
        assert challenge.status_code == 200, challenge.text
        notice = page.locator("#notices .notice").filter(has_text="challenges you")
        expect(notice).to_have_count(1, timeout=PUSHED)
        expect(page.locator("#challenge-in-list .seek-row")).to_have_count(1)
        # Ann accepts it in the lobby; she plays black: not her turn until Bob moves
        page.locator("#challenge-in-list [data-action=accept]").click()
        page.wait_for_url(re.compile(r"/game/[\w-]+$"))
        page.wait_for_function("app.state && app.state.seats.length === 1")
        expect(notice).to_have_count(0)  # answered: gone
        game_id = page.evaluate("app.state.id")
        page.evaluate("history.pushState(null, '', '/'); dispatchEvent(new PopStateEvent('popstate'))")
        page.wait_for_selector("body.at-lobby")
        expect(page.locator("#turns-empty")).to_be_visible()
        state = bob.get(f"/api/games/{game_id}").json()
        move = next(m["move"] for moves in state["view"]["legal"].values() for m in moves)
        assert bob.post(f"/api/games/{game_id}/move", json={"move": move, "ply": 0}).status_code == 200

        # her turn: a notice with a link, the title counts it, and the lobby's list holds the game
        turn = page.locator("#notices .notice").filter(has_text="Your turn")
        expect(turn).to_have_count(1, timeout=PUSHED)
        expect(turn).to_contain_text(f"Bob_{device}")
        assert re.match(r"^\(1\) ", page.title()), page.title()
        row = page.locator("#turn-list .turn-row")
        expect(row).to_have_count(1, timeout=PUSHED)
        expect(row).to_contain_text(f"vs Bob_{device}")
        expect(row).to_contain_text(re.compile(r"\d+d \d+h left"))  # as the game's own clock reads it
        assert overflow(page) == 0
        no_serious(page, f"the lobby with a notice at {device} size", tmp_path)
        page.evaluate("document.getElementById('toast').hidden = true")
        shoot(page, f"your-turn-{device}.png", tmp_path)
        turn.locator("a").click()
        page.wait_for_url(re.compile(rf"/game/{game_id}$"))
        page.wait_for_function("app.state && app.state.moves.length === 1 && app.token")
        expect(page.locator("#notices .notice")).to_have_count(0)
        assert not page.title().startswith("(")
        assert page.errors == []
        bob.close()
    finally:
        context.close()


def test_the_tournament_dialog_chooses_the_games_options(browser: Any, club: str, tmp_path: Path) -> None:
    context = browser.new_context(bypass_csp=True, **SIZES["phone"])
    try:
        page = open_page(context, club)
        sign_up(page, "phone", "Organiser")
        page.tap("#btn-tournament-new")
        expect(page.locator("#dlg-tournament")).to_be_visible()
        page.select_option("#tournament-game", "hive")
        page.locator("#dlg-tournament .seek-options summary").tap()
        fields = page.locator("#tournament-options .game-fields:visible")
        expect(fields).to_have_count(1)
        # Hive's own fields, drawn by its page module: the Pillbug left out, the Queen not played first
        fields.locator("input[name=P]").uncheck()
        fields.locator("select[name=opening]").select_option(index=1)
        assert overflow(page) == 0
        shoot(page, "tournament-options-phone.png", tmp_path)
        page.fill("#tournament-name", "Club open")
        page.tap("#btn-tournament-create")
        page.wait_for_url(re.compile(r"/tournament/[\w-]+$"))
        made = httpx.get(f"{club}api/tournaments/{page.url.rsplit('/', 1)[1]}", timeout=10).json()
        assert (
            made["game"] == "Base+ML" and made["kind"] == "hive" and made["options"]["tournament_opening"] is False
        ), made
        assert overflow(page) == 0
        assert page.errors == []
    finally:
        context.close()
