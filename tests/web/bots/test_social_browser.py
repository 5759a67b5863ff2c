"""The bot screen and the players followed, in Chromium driven by Playwright at a phone's size and a desktop's, on a
server that keeps accounts: a player makes their new account a bot and an API token from the page (the token shown
once, copied with its button, listed without its secret), and ``hive bot`` (the real command, a subprocess) plays a
game with that token; another player finds the bot by the start of its name (written in look-alikes), follows it,
sees it online, then playing with a link to watch, and its game shows on the bot screen."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

import hive

from ...web_support import AXE, ROOT, wait_for
from ..browser_support import (
    PASSWORD,
    SIZES,
    TAGS,
    api_account,
    expect,
    header_button,
    no_serious,
    open_page,
    overflow,
    settle,
    shoot_for_review,
    shots_folder,
    sign,
    sizes,
)
from ..browser_support import sign_up as page_sign_up

pytest.importorskip("playwright.sync_api")

#: How long a page may take to notice a change.
NOTICED = 20_000


def followed_audited(page: Any) -> None:
    """axe-core finds nothing serious or critical in the lobby's "Players you follow" (the section alone: the rest of
    the lobby is other tests' to audit), where axe-core is installed."""
    if not AXE.exists():
        return
    settle(page)
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async (tags) => (await axe.run("#follows", {runOnly: {type: "tag", values: tags}})).violations
            .filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)""",
        TAGS,
    )
    assert found == [], found


def play_until_the_bot_moved(alice: httpx.Client, game_id: str, moves: int) -> dict[str, Any]:
    """Alice plays random moves at her turns until the bot has made ``moves``; the state then."""
    spec, rng = hive.find_game("Base"), random.Random(5)

    def turn() -> dict[str, Any] | None:
        state: dict[str, Any] = alice.get(f"/api/games/{game_id}").json()
        if len(state["moves"][1::2]) >= moves or state["result"] is not None:
            return state
        if state["view"]["turn"] == 0:
            board = spec()
            for text in state["moves"]:
                board.push_text(text)
            move = board.move_text(spec.ai.random_move(board, rng))
            alice.post(f"/api/games/{game_id}/move", json={"move": move, "ply": len(state["moves"])})
        return None

    found: dict[str, Any] = wait_for(turn, 90, "the bot's moves")
    return found


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_a_player_makes_a_bot_and_a_token_from_the_page_and_hive_bot_plays_with_it(
    browser: Any, club: str, device: str, tmp_path: Path
) -> None:
    url = club.rstrip("/")
    context = browser.new_context(bypass_csp=True, **SIZES[device])  # axe's script is injected
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    helper = browser.new_context(bypass_csp=True, **SIZES[device])
    process: subprocess.Popen[bytes] | None = None
    try:
        page = open_page(context, club)
        page_sign_up(page, device, "Robotina")
        header_button(page, device)
        expect(page.locator("#dlg-account")).to_be_visible()
        expect(page.locator("#btn-bots")).to_be_visible()
        shoot_for_review(page, f"account-{device}.png", shots_folder(tmp_path, "social"))
        page.click("#btn-bots")
        dialog = page.locator("#dlg-bots")
        expect(dialog).to_be_visible()
        expect(page.locator("#bots-status")).to_contain_text("player's")
        expect(page.locator("#bots-command")).to_contain_text(f"hive bot --server {url}")
        page.click("#btn-make-bot")  # its confirmation is accepted
        expect(page.locator("#bots-status")).to_contain_text("a bot's")
        expect(page.locator("#btn-make-bot")).to_be_hidden()
        page.fill("#bots-label", "test rig")
        page.click("#btn-mint")
        secret = page.locator("#bots-secret")
        expect(secret).to_have_value(re.compile(r"^hive_[\w-]{40,}$"))
        token = secret.input_value()
        expect(page.locator("#bots-secret-warning")).to_contain_text("shown this once")
        page.click("#btn-copy-token")
        expect(page.locator("#btn-copy-token")).to_have_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == token
        rows = page.locator("#bots-tokens .token-row")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("test rig")
        expect(rows.first).to_contain_text("never used")
        assert token not in rows.first.inner_text()
        assert overflow(page) == 0
        shoot_for_review(page, f"bots-{device}.png", shots_folder(tmp_path, "social"))
        no_serious(page, f"bot screen {device}", tmp_path)
        page.locator("#bots-command").scroll_into_view_if_needed()
        shoot_for_review(page, f"bots-{device}-walkthrough.png", shots_folder(tmp_path, "social"))
        listed = page.evaluate("fetch('/api/account/tokens').then((r) => r.text())")
        assert token not in listed and token[5:25] not in listed and "test rig" in listed
        page.click("#dlg-bots .dialog-buttons button")
        expect(dialog).to_be_hidden()
        expect(secret).to_have_value("")  # no secret stays in the page
        # the real command plays with the token
        log = tmp_path / "bot.log"
        with open(log, "w") as out:
            command = [sys.executable, "-m", "hive", "bot", "--server", url, "--token", token, "--player", "random"]
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
        wait_for(lambda: "is online" in log.read_text(), 60, "the bot to start")
        # another player finds the bot by the start of its name, written in look-alikes, and follows it
        alice = api_account(url, "alice")
        other = open_page(helper, club)
        sign(other, device, "alice", PASSWORD)
        expect(other.locator("#follows")).to_be_visible()
        expect(other.locator("#follow-empty")).to_be_visible()
        other.fill("#find-name", "R0B")
        found = other.locator("#find-results li", has_text="Robotina")
        expect(found).to_have_count(1)
        expect(found.locator(".bot-mark")).to_have_count(1)
        found.locator("[data-action=follow]").click()
        followed = other.locator("#follow-list li", has_text="Robotina")
        expect(followed).to_have_class("followed is-online", timeout=NOTICED)
        expect(followed).to_contain_text("online")
        expect(found.locator("[data-action=follow]")).to_have_text("Following")
        # alice challenges it; the bot accepts and plays; the followed list shows it playing, to watch
        body = {"to": "robotina", "game": "Base", "time_control": "blitz", "rated": False, "colour": "white"}
        challenge = alice.post("/api/challenges", json=body)
        assert challenge.status_code == 200, challenge.text
        game_id = wait_for(
            lambda: alice.get(f"/api/seeks/{challenge.json()['id']}").json().get("game_id"), 60, "the acceptance"
        )
        state = play_until_the_bot_moved(alice, game_id, 2)
        assert state["names"] == ["alice", "Robotina"] and len(state["moves"]) >= 4, state["moves"]
        other.click("#brand")  # her page opened the game her challenge began: back to the lobby
        expect(followed).to_have_class("followed is-playing", timeout=NOTICED)
        watch = followed.locator("[data-action=watch]")
        expect(watch).to_have_attribute("href", f"/game/{game_id}")
        assert overflow(other) == 0
        shoot_for_review(other, f"follows-{device}.png", shots_folder(tmp_path, "social"), full=True)
        followed_audited(other)
        assert alice.post(f"/api/games/{game_id}/resign", json={}).status_code == 200
        wait_for(lambda: f"game {game_id} is over" in log.read_text(), 30, "the bot to see the end")
        # the bot screen lists its game; its token was used
        header_button(page, device)
        page.click("#btn-bots")
        expect(page.locator("#bots-games .token-row")).to_have_count(1)
        expect(page.locator("#bots-games a.button-link")).to_have_attribute("href", f"/game/{game_id}")
        expect(rows.first).not_to_contain_text("never used")
        # unfollowed, it leaves the list
        followed.locator("[data-action=unfollow]").click()
        expect(followed).to_have_count(0)
        assert page.errors == [] and other.errors == []
    finally:
        if process is not None:
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        context.close()
        helper.close()
