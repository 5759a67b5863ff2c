"""Timed games in the browser (Chromium by Playwright, against ``hive play``): the time control chosen in the New
game dialog, both clocks ticking, the time used per move, and a flag that falls shown on both players' screens."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import hive

from ...web_support import ServerProcess, random_move
from ..browser_support import DESKTOP, PHONE, open_page, shoot, sizes

playwright_api = pytest.importorskip("playwright.sync_api")
Page = Any
JSON = dict[str, Any]
DEVICES: dict[str, dict[str, Any]] = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "has_touch": True,
        "is_mobile": True,
        "device_scale_factor": 2,
    },
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
#: How long the page may take to show what the server did, at most (a guard against a hang, not a bound on it).
SHOWN = 30_000


def create(server: ServerProcess, **body: Any) -> JSON:
    data: JSON = httpx.post(f"{server.url}api/games", json=body, timeout=30).json()
    assert "id" in data, data
    return data


def seat_page(context: Any, server: ServerProcess, game: JSON, token: str | None = None) -> Page:
    return open_page(context, f"{server.url}game/{game['id']}#seat={token or game['token']}")


def clock_text(page: Page, seat: int) -> str:
    text: str = page.inner_text(f"#card-top .clock[data-seat='{seat}'], #card-bottom .clock[data-seat='{seat}']")
    return text


def play(server: ServerProcess, game_id: str, token: str, move: str) -> None:
    reply = httpx.post(
        f"{server.url}api/games/{game_id}/move", json={"move": move}, headers={"X-Seat-Token": token}, timeout=30
    )
    assert reply.status_code == 200, reply.text


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_a_flag_falls_in_a_two_browser_game_and_both_players_see_it(
    browser: Any, own_server: ServerProcess, device: str
) -> None:
    game = create(own_server, mode="online", time_control={"initial": 4, "increment": 1})
    white_context = browser.new_context(bypass_csp=True, **DEVICES[device])
    black_context = browser.new_context(bypass_csp=True, **DEVICES[device])
    white = seat_page(white_context, own_server, game)
    black = seat_page(black_context, own_server, game, game["invite"])
    for page in (white, black):
        page.wait_for_selector(".clock[data-seat='1']")
        assert clock_text(page, 0) == clock_text(page, 1) == "4.0"
    sent = time.monotonic()
    play(own_server, game["id"], game["token"], "wS1")
    stored = time.monotonic()
    time.sleep(0.6)
    answering = time.monotonic()
    play(own_server, game["id"], game["invite"], "bS1 wS1-")
    answered = time.monotonic()
    play(own_server, game["id"], game["token"], "wQ -wS1")  # Black's clock runs now, about 4.6 s left, until it falls
    for page in (white, black):
        page.wait_for_selector("#card-top .clock.running, #card-bottom .clock.running", timeout=SHOWN)
        page.wait_for_selector("#movelist li small.used", timeout=SHOWN)
        used = page.inner_text("#movelist li[data-ply='2'] small.used")
        # Black's move took what the server saw between the two moves: at least the time between the answer to the
        # first and the second's request, at most the time from the first's request to the second's answer (the
        # page shows tenths of a second)
        assert used.endswith("s") and answering - stored - 0.05 <= float(used[:-1]) <= answered - sent + 0.05
    first = clock_text(black, 1)
    black.wait_for_function(  # ticking
        f'document.querySelector(\'#card-top .clock[data-seat="1"], #card-bottom .clock[data-seat="1"]\')'
        f".textContent !== {first!r}",
        timeout=SHOWN,
    )
    assert float(clock_text(black, 1)) < float(first)
    assert float(clock_text(black, 0)) == float(clock_text(white, 0))  # White's stands still
    for page in (white, black):
        page.wait_for_selector(".clock.low[data-seat='1']", timeout=SHOWN)
        page.wait_for_selector("#banner:not([hidden])", timeout=SHOWN)
        assert page.inner_text("#banner-title") == "White wins"
        assert "time ran out" in page.inner_text("#banner-reason")
        assert page.inner_text("#game-info").endswith("4s+1")
        assert not page.errors
    white_context.close()
    black_context.close()


def new_game(page: Page) -> None:
    """Open the New game dialog from the game list (a phone) or the top bar."""
    page.click("#btn-lobby-new" if page.is_visible("#btn-lobby-new") else "#btn-new")


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_the_new_game_dialog_offers_the_time_controls(browser: Any, own_server: ServerProcess, device: str) -> None:
    for kind, mode, choice, shown, label in [
        ("hive", "online", "custom", "2:00", "2+1"),
        ("hivequeen", "ai", "days:3", "3d 0h", "3 days per move"),
        ("hivequeen", "online", "bullet", "1:00", "Bullet 1+2"),
    ]:
        context = browser.new_context(bypass_csp=True, **DEVICES[device])
        page = open_page(context, own_server.url)
        new_game(page)
        page.click(f"#form-new input[name=game][value={kind}] + span")
        page.click(f"#form-new input[name=mode][value={mode}] + span")
        if mode == "ai":
            page.select_option("#ai-level", "random")
        page.select_option("#time-control", choice)
        if choice == "custom":
            page.fill("#tc-minutes", "2")
            page.fill("#tc-increment", "1")
        page.click("#btn-start")
        page.wait_for_function(f"document.querySelector('#game-info').textContent.endsWith({label!r})", timeout=SHOWN)
        assert clock_text(page, 0) == clock_text(page, 1) == shown
        assert not page.errors
        context.close()
    listed = {game["time_control"] for game in httpx.get(f"{own_server.url}api/games", timeout=30).json()["games"]}
    assert listed == {"2+1", "3 days per move", "Bullet 1+2"}


def test_a_timed_game_is_photographed_with_its_clocks(browser: Any, own_server: ServerProcess, tmp_path: Path) -> None:
    game = create(own_server, mode="online", time_control="blitz")
    board = hive.Board("Base+MLP")
    for ply in range(14):
        time.sleep(0.15)
        play(own_server, game["id"], (game["token"], game["invite"])[ply % 2], random_move(board, ply))
    context = browser.new_context(bypass_csp=True, **DEVICES["desktop"])
    page = seat_page(context, own_server, game)
    page.wait_for_selector("#card-top .clock.running, #card-bottom .clock.running", timeout=SHOWN)
    page.wait_for_selector("#movelist li[data-ply='13'] small.used", timeout=SHOWN)
    assert page.inner_text("#game-info").endswith("Blitz 5+3")
    shoot(page, "timed-game.png", tmp_path)
    assert not page.errors
    context.close()


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_a_correspondence_games_clocks_read_in_one_format_and_the_mover_is_told_it_is_their_move(
    browser: Any, own_server: ServerProcess, device: str
) -> None:
    """At a day a move, after the first move both clocks read in days, hours and minutes ("1d 0h" and "23h 59m"),
    never one of them as "23:59:07"; White, to move before Black opened the invitation, is told it is their move."""
    context = browser.new_context(bypass_csp=True, **(PHONE if device == "phone" else DESKTOP))
    game = create(own_server, mode="online", time_control={"days": 1})
    page = seat_page(context, own_server, game)
    status = page.inner_text("#status")
    assert "your move" in status and "has not opened the invitation" in status and "waiting" not in status, status
    play(own_server, game["id"], game["token"], "wS1")
    page.wait_for_function("app.state && app.state.moves.length === 1")
    page.wait_for_timeout(300)  # a tick of the running clock
    texts = [clock_text(page, seat) for seat in (0, 1)]
    assert texts[0] == "1d 0h" and re.fullmatch(r"23h 5\dm", texts[1]), texts
    assert page.evaluate("document.querySelector('.clock').getClientRects().length") == 1  # one line, not wrapped
    context.close()
