"""The page under its Content Security Policy, in Chromium: it draws, plays and stays live with no violation,
while an inline script slipped into it is blocked."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ...web_support import ServerProcess, serving
from ..browser_support import chromium

playwright_api = pytest.importorskip("playwright.sync_api")
JSON = dict[str, Any]


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with serving(tmp_path / "games.sqlite3") as process:
        yield process


def state(server: ServerProcess, game_id: str, token: str) -> JSON:
    data: JSON = httpx.get(f"{server.url}api/games/{game_id}", headers={"x-seat-token": token}, timeout=10).json()
    return data


def start_local_game(page: Any) -> tuple[str, str]:
    """A game on one screen with every expansion, from the New game dialog; returns its id and the page's token."""
    page.click("#btn-new")
    page.click("#form-new input[name=mode][value=local] + span")
    for bug in "MLP":
        page.set_checked(f"#form-new input[name={bug}]", True)
    page.click("#btn-start")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_selector("#movelist")
    match = re.search(r"/game/([\w-]+)$", page.url)
    assert match, page.url
    token = page.evaluate(f"localStorage.getItem('hive.token.{match.group(1)}')")
    assert token, "the page keeps no token for its game"
    return match.group(1), token


def violations(page: Any) -> list[str]:
    """The Content Security Policy messages Chromium has logged on the page so far."""
    messages: list[str] = page.csp
    return messages


def watched_page(browser: Any, url: str) -> Any:
    """A page under its policy (never bypassed) once drawn, noting the policy's messages in ``page.csp`` and its
    errors in ``page.errors``."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=False)
    page = context.new_page()
    page.csp = []
    page.errors = []
    page.on("console", lambda msg: "Content Security Policy" in msg.text and page.csp.append(msg.text))
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


def test_the_page_plays_under_its_policy_with_no_violation(server: ServerProcess) -> None:
    with chromium(playwright_api) as browser:
        page = watched_page(browser, server.url)
        game_id, token = start_local_game(page)
        page.wait_for_selector("#conn:text-is('Live')", timeout=20000)
        st = state(server, game_id, token)
        (to,) = [move["to"] for move in st["view"]["legal"]["wS1"] if move["move"] == "wS1"]
        page.click('.hand [data-piece="wS1"]')
        page.click(f'#board .dest[data-to="{to[0]},{to[1]}"]')
        page.wait_for_selector("#movelist li[data-ply]", timeout=20000)
        assert state(server, game_id, token)["moves"] == ["wS1"]
        page.click("#btn-new")
        page.wait_for_selector("#dlg-new[open]")
        page.keyboard.press("Escape")
        page.goto(server.url + "how-to-play/hivequeen")
        page.wait_for_load_state("load")
        page.goto(server.url)
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_timeout(300)
        assert violations(page) == [] and page.errors == []
        page.evaluate(
            "document.body.insertAdjacentHTML('beforeend', '<img src=\"/nothing\" onerror=\"window.injected = 1\">')"
        )
        page.wait_for_timeout(500)
        assert page.evaluate("window.injected") is None
        assert any("script-src" in message for message in violations(page)), violations(page)
