"""The game page's layout in Chromium driven by Playwright, on a server that keeps accounts (as ``hive serve`` does),
at a phone's size (390x844, touch) and a desktop's (1440x900) in the default run, 1280x800 and 1920x1080 in the slow
set. Two accounts with names of 20 letters, one of them a bot's, play a rated game of 30 random legal moves through
the API; the human player's page then shows:

- every row of the move list whole at its text's height (no row lower than its text, none clipped, none overlapping
  the next), the last move scrolled into the list's view; the list steps through the positions by the keyboard;
- both names whole (never cut), the BOT mark beside the bot's name with a gap and in sight, each player's rating
  beside the name;
- the opponent's card at the top and the player's own at the bottom, both clocks in the window without scrolling (on
  the phone, the opponent's above the board and the player's below it); on a desktop the column beside the board
  fits the window (it does not scroll on its own) and the top bar's buttons are all of one size;
- a message (the "Your turn" notice in the lobby, a refusal on the game page) covering no control.

``hive play`` against the AI, 30 moves in, at the same sizes (1280x800 in the default run): the move list's rows
whole, the last in view, the column beside the board fitting a desktop's window.

The game page is photographed into docs/screenshots/game-desktop.png and game-phone.png when the pictures are missing
or HIVE_SCREENSHOT=1.
"""

from __future__ import annotations

import itertools
import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from ...web_support import JSON, ServerProcess
from ..browser_support import PHONE, api_account, covered_controls, establish, open_page, overflow, shoot

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

Page = Any
pytestmark = pytest.mark.once

SIZES: dict[str, dict[str, Any]] = {
    "phone": PHONE,
    "1440x900": {"viewport": {"width": 1440, "height": 900}},
    "1280x800": {"viewport": {"width": 1280, "height": 800}},
    "1920x1080": {"viewport": {"width": 1920, "height": 1080}},
}
SHOTS = {"phone": "game-phone.png", "1440x900": "game-desktop.png"}
ANN, BOT = "Annabelle_Quartermai", "Bartholomew_Botwrite"  # 20 letters each, the longest a name may be
PLIES = 30
PUSHED = 15_000


def play_randomly(url: str, game_id: str, tokens: list[str], plies: range, seed: int) -> None:
    """Play random legal moves (chosen by ``seed``) through the API, each by the seat whose turn it is."""
    rng = random.Random(seed)
    for ply in plies:
        st = httpx.get(f"{url}api/games/{game_id}", timeout=30).json()
        assert st["result"] is None, f"the game ended at ply {ply}: choose another seed"
        random_move(url, game_id, st, tokens[st["view"]["turn"]], rng)


def random_move(url: str, game_id: str, st: JSON, token: str, rng: random.Random) -> None:
    """Play one of the legal moves of the game's state ``st`` (a pass when there is none) with ``token``."""
    moves = sorted(m["move"] for ms in st["view"]["legal"].values() for m in ms) or ["pass"]
    played = httpx.post(
        f"{url}api/games/{game_id}/move",
        json={"move": rng.choice(moves), "ply": len(st["moves"])},
        headers={"x-seat-token": token},
        timeout=30,
    )
    assert played.status_code == 200, played.text


def against_the_random_ai(url: str, plies: int, seed: int, tries: int = 5) -> tuple[str, str]:
    """A game in play of ``plies`` moves against ``hive play``'s random AI, White's moves random (chosen by ``seed``)
    through the API, each answered by the AI; its id and White's token. The AI's moves are its own random choices, so
    a game that ends sooner is left for a new one."""
    rng = random.Random(seed)
    for _ in range(tries):
        made = httpx.post(f"{url}api/games", json={"mode": "ai", "ai_level": "random"}, timeout=30).json()
        if played_to(url, made["id"], made["token"], plies, rng):
            return made["id"], made["token"]
    raise AssertionError(f"{tries} games against the random AI all ended before {plies} plies")


def played_to(url: str, game_id: str, token: str, plies: int, rng: random.Random) -> bool:
    """Whether White's random moves and the AI's answers reach ``plies`` moves with the game still in play."""
    for ply in range(0, plies, 2):
        random_move(url, game_id, httpx.get(f"{url}api/games/{game_id}", timeout=30).json(), token, rng)
        deadline = time.monotonic() + 30
        while (st := httpx.get(f"{url}api/games/{game_id}", timeout=30).json())["result"] is None:
            if len(st["moves"]) >= ply + 2:
                break
            assert time.monotonic() < deadline, f"the AI did not answer ply {ply}"
            time.sleep(0.05)
        else:
            return False  # White's move or the AI's answer ended the game
    return True


def rows(page: Page) -> list[dict[str, Any]]:
    """Each item of the move list: its box, its text's height, whether its content is clipped, and the list's box."""
    found: list[dict[str, Any]] = page.evaluate(
        """() => {
          const list = document.getElementById("movelist");
          const box = list.getBoundingClientRect();
          return [...list.children].map((li) => {
            const r = li.getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(li);
            const text = range.getBoundingClientRect();
            return {
              text: li.textContent, cls: li.className, top: r.top, bottom: r.bottom, height: r.height,
              textHeight: text.height,
              lineHeight: parseFloat(getComputedStyle(li).lineHeight), clipped: li.scrollHeight > li.clientHeight,
              listTop: box.top, listBottom: box.bottom, column: Math.round(r.left),
            };
          });
        }"""
    )
    return found


def rows_whole(page: Page, plies: int) -> None:
    """Assert that the move list holds ``plies`` moves, every row whole at its text's height and none over the next,
    and the last move in the list's view, marked as the current one."""
    items = rows(page)
    assert len([r for r in items if "num" not in r["cls"].split()]) == plies
    for item in items:
        assert item["height"] >= item["textHeight"] - 0.5 and item["height"] >= item["lineHeight"], item
        assert not item["clipped"], item
    by_column: dict[int, list[dict[str, Any]]] = {}
    for item in items:
        by_column.setdefault(item["column"], []).append(item)
    for column in by_column.values():
        for above, below in itertools.pairwise(column):
            assert below["top"] >= above["bottom"] - 0.5, (above, below)
    last = items[-1]
    assert last["top"] >= last["listTop"] - 0.5 and last["bottom"] <= last["listBottom"] + 0.5, last
    assert "current" in page.get_attribute("#movelist li:last-child", "class")


def box(page: Page, selector: str) -> dict[str, float]:
    found: dict[str, float] | None = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


@pytest.mark.parametrize(
    "size", [pytest.param(name, marks=[pytest.mark.slow] if name not in SHOTS else []) for name in SIZES]
)
def test_the_game_page_reads_at_every_size(browser: Any, club: str, club_db: Path, size: str, tmp_path: Path) -> None:
    url, db = club, club_db
    ann, bot = api_account(url, ANN), api_account(url, BOT)
    assert bot.post("/api/account/bot").status_code == 200
    establish(db, {ANN: (1712.4, 60.0)})  # Ann's rating is established, the bot's new one provisional
    seek = ann.post("/api/seeks", json={"game": "Base+MLP", "time_control": "blitz", "rated": True, "colour": "white"})
    assert seek.status_code == 200, seek.text
    started = bot.post(f"/api/seeks/{seek.json()['id']}/accept")
    assert started.status_code == 200, started.text
    game_id = started.json()["id"]
    tokens = [ann.get(f"/api/games/{game_id}/seat").json()["token"], started.json()["token"]]
    play_randomly(url, game_id, tokens, range(PLIES - 1), seed=4)

    context = browser.new_context(bypass_csp=True, **SIZES[size])
    context.add_cookies([{"name": k, "value": v, "url": url} for k, v in ann.cookies.items()])
    try:
        # in the lobby, the bot's last move brings a "Your turn" notice, which covers no control
        page = open_page(context, url)
        page.wait_for_selector("body[data-lobby='live']")
        play_randomly(url, game_id, tokens, range(PLIES - 1, PLIES), seed=5)
        notice = page.locator("#notices .notice").filter(has_text="Your turn")
        expect(notice).to_be_visible(timeout=PUSHED)
        assert covered_controls(page, "#notices") == []
        notice.locator("a").click()
        page.wait_for_url(re.compile(rf"/game/{game_id}$"))
        page.wait_for_function(f"app.state && app.state.moves.length === {PLIES} && app.state.seats.length === 1")
        page.wait_for_function("document.querySelectorAll('#movelist li').length > 30")
        assert page.evaluate("window.scrollY") == 0

        # every row of the move list whole at its text's height, none over the next, the last move in view
        rows_whole(page, PLIES)

        # the names whole, the BOT mark beside the bot's with a gap, the ratings beside the names
        cards = {"top": "#card-top", "bottom": "#card-bottom"}
        expect(page.locator("#card-top .card-player")).to_have_text(BOT)
        expect(page.locator("#card-bottom .card-player")).to_have_text(ANN)
        for card in cards.values():
            sizes = "(n) => [n.scrollWidth, n.clientWidth, n.scrollHeight, n.clientHeight]"
            fits = page.eval_on_selector(f"{card} .card-player", sizes)
            assert fits[0] <= fits[1] and fits[2] <= fits[3], (card, fits)
        expect(page.locator("#card-top .card-rating")).to_have_text("1500?")
        expect(page.locator("#card-bottom .card-rating")).to_have_text("1712")
        expect(page.locator("#card-bottom .bot-mark")).to_have_count(0)
        mark = page.locator("#card-top .bot-mark")
        expect(mark).to_be_visible()
        expect(mark).to_have_text("BOT")
        whole = "(n) => n.scrollWidth <= n.clientWidth && n.clientWidth > 20"
        assert page.eval_on_selector("#card-top .bot-mark", whole)
        name, beside = box(page, "#card-top .card-player"), box(page, "#card-top .bot-mark")
        assert beside["x"] >= name["x"] + name["width"] + 2, (name, beside)  # a gap, no "uhpbotBOT"
        assert beside["y"] < name["y"] + name["height"] and name["y"] < beside["y"] + beside["height"]  # one line

        # the opponent at the top, the player at the bottom, both clocks in the window without scrolling
        height = page.evaluate("window.innerHeight")
        top_clock, own_clock = box(page, "#card-top .clock"), box(page, "#card-bottom .clock")
        for clock in (top_clock, own_clock):
            assert clock["y"] >= 0 and clock["y"] + clock["height"] <= height, (clock, height)
        assert top_clock["y"] < own_clock["y"]
        board = box(page, "#board-area")
        if size == "phone":
            assert box(page, "#card-top")["y"] + box(page, "#card-top")["height"] <= board["y"] + 0.5
            assert box(page, "#card-bottom")["y"] >= board["y"] + board["height"] - 0.5
        else:
            side = page.eval_on_selector(".game-side", "(n) => [n.scrollHeight, n.clientHeight]")
            assert side[0] <= side[1], f"the column beside the board scrolls on its own: {side}"
            assert page.evaluate("document.documentElement.scrollHeight") <= height
            assert box(page, "#side-tabs")["height"] < 48  # the list's head on one line
            heights = page.eval_on_selector_all(
                ".actions > button, .actions > .button-link",
                "(all) => all.filter((n) => n.checkVisibility()).map((n) => n.getBoundingClientRect().height)",
            )
            assert len(heights) >= 6 and max(heights) - min(heights) < 0.5, heights
        assert overflow(page) == 0
        if size in SHOTS:
            page.mouse.move(0, 0)
            shoot(page, SHOTS[size], tmp_path)

        # the keyboard steps through the positions from the move list
        page.focus("#movelist")
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#review-text")).to_contain_text(f"· {PLIES - 1}/{PLIES}")
        expect(page.locator(f"#movelist li[data-ply='{PLIES - 1}']")).to_have_class(re.compile("reviewed"))
        page.keyboard.press("Home")
        expect(page.locator("#review-text")).to_have_text("The start of the game")
        page.keyboard.press("End")
        expect(page.locator("#review")).to_be_hidden()

        # a refusal's message covers no control
        page.keyboard.press("e")  # the evaluation, which a fair game refuses
        expect(page.locator("#toast")).to_have_text("Engine help is off in this game.")
        assert covered_controls(page, "#toast") == []
        assert page.errors == []
    finally:
        context.close()
        ann.close()
        bot.close()


@pytest.mark.parametrize(
    "size", [pytest.param(name, marks=[pytest.mark.slow] if name != "1280x800" else []) for name in SIZES]
)
def test_a_game_against_the_ai_on_hive_play_reads_at_every_size(browser: Any, server: ServerProcess, size: str) -> None:
    """``hive play`` against the AI, 30 moves in: the move list's rows whole, the last in view, the column beside the
    board (on a desktop) not scrolling on its own, both cards in the window, the player's at the bottom."""
    game_id, token = against_the_random_ai(server.url, PLIES, seed=7)

    context = browser.new_context(bypass_csp=True, **SIZES[size])
    try:
        page = open_page(context, f"{server.url}game/{game_id}#seat={token}")
        page.wait_for_function(f"app.state && app.state.moves.length === {PLIES} && app.state.seats.length === 1")
        page.wait_for_function(f"document.querySelectorAll('#movelist li').length > {PLIES}")
        rows_whole(page, PLIES)
        height = page.evaluate("window.innerHeight")
        top, bottom = box(page, "#card-top"), box(page, "#card-bottom")
        assert top["y"] < bottom["y"] and top["y"] >= 0, (top, bottom)
        expect(page.locator("#card-bottom")).to_contain_text("You")
        if size != "phone":
            assert bottom["y"] + bottom["height"] <= height, (bottom, height)
            side = page.eval_on_selector(".game-side", "(n) => [n.scrollHeight, n.clientHeight]")
            assert side[0] <= side[1], f"the column beside the board scrolls on its own: {side}"
            assert page.evaluate("document.documentElement.scrollHeight") <= height
            assert box(page, "#side-tabs")["height"] < 48
        assert overflow(page) == 0
        assert page.errors == []
    finally:
        context.close()
