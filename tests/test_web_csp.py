"""The page under its Content Security Policy, in Chromium: it draws, plays and stays live with no violation,
while an inline script slipped into it is blocked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_web_e2e import new_page, start_game, state
from .web_support import ServerProcess, chromium, serving

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with serving(tmp_path / "games.sqlite3") as process:
        yield process


def violations(page: Any) -> list[str]:
    """The Content Security Policy messages Chromium has logged on the page so far."""
    messages: list[str] = page.csp
    return messages


def watched_page(browser: Any, url: str) -> Any:
    """A page under its policy, noting the policy's messages in ``page.csp``."""
    page = new_page(browser, url, csp=True)
    page.csp = []
    page.on("console", lambda msg: "Content Security Policy" in msg.text and page.csp.append(msg.text))
    return page


def test_the_page_plays_under_its_policy_with_no_violation(server: ServerProcess) -> None:
    with chromium(playwright_api) as browser:
        page = watched_page(browser, server.url)
        game_id, token = start_game(page, "local", expansions="MLP")
        page.wait_for_selector("#conn:text-is('Live')", timeout=20000)
        st = state(server, game_id, token)
        (to,) = [move["to"] for move in st["view"]["legal"]["wS1"] if move["move"] == "wS1"]
        page.click('.hand [data-piece="wS1"]')
        page.click(f'#board .dest[data-to="{to[0]},{to[1]}"]')
        page.wait_for_selector("#movelist li", timeout=20000)
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
