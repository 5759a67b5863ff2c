"""Accessibility of the page by axe-core (Deque's rules: WCAG 2.0 and 2.1 at levels A and AA, and the best
practices), run in Chromium by Playwright against ``hive play``, at phone (360 px, touch) and desktop sizes: the game
list, a Hive game in progress against the AI (a piece picked up, its destinations lit), a HiveQueen game, the
analysis board with a variation, and the board editor. No rule is broken at the serious or critical level.

axe-core is the npm package, its version pinned in scripts/axe.sh, which bash scripts/test.sh runs to install it into
.venv/axe; the test is skipped while it is missing. Each check writes axe's whole answer (every violation, and what
it could not decide) to a JSON file, named in the failure message.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ...web_support import JSON, QUEEN_GAME, WON, ServerProcess
from ..browser_support import (
    SIZES,
    click_move,
    create,
    no_serious_violation,
    open_page,
    open_settings,
    press,
    seat_page,
    sizes,
)

Page = Any
pytestmark = pytest.mark.once  # the page's test: the compiled build's pass runs it (tests/conftest.py's ONCE by name)

OPENING = "wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
BASE = {"game_type": "Base"}
#: A Base game against the random mover, four moves in, White (ours) to move.
AGAINST_THE_AI: JSON = {"mode": "ai", "ai_level": "random", "colour": "white", "game_string": OPENING, "options": BASE}


def game_list(context: Any, server: ServerProcess, device: str) -> Page:
    """The home page with a game in progress and a finished one, both this browser's (their seats in its storage)."""
    for game in (create(server, **AGAINST_THE_AI), create(server, mode="local", game_string=WON, options=BASE)):
        seat_page(context, server, game).close()
    page = open_page(context, server.url)
    page.wait_for_selector("#game-list li.game-row.finished .game-buttons button")
    return page


def hive_against_the_ai(context: Any, server: ServerProcess, device: str) -> Page:
    """A Base game against the AI, White (ours) to move, a piece in hand picked up and its destinations lit."""
    game = create(server, **AGAINST_THE_AI)
    page = seat_page(context, server, game)
    page.wait_for_selector("#movelist li[data-ply='4']")
    page.wait_for_function("app.state && app.state.moves.length === 4 && !app.state.thinking")
    st: JSON = page.evaluate("app.state")
    on_board = {piece for cell in st["view"]["cells"] for piece in cell["stack"]}
    in_hand = [piece for piece in st["view"]["legal"] if piece not in on_board]
    assert in_hand, st["view"]["legal"]
    press(page, device, f'.hand [data-piece="{in_hand[0]}"]')
    page.wait_for_selector("#board .dest")
    return page


def hivequeen_game(context: Any, server: ServerProcess, device: str) -> Page:
    """A HiveQueen game on one screen, two moves in."""
    game = create(server, kind="hivequeen", mode="local", game_string="\n".join(QUEEN_GAME[:2]))
    page = seat_page(context, server, game)
    page.wait_for_selector("#movelist li[data-ply='2']")
    return page


def analysis_board(context: Any, server: ServerProcess, device: str) -> Page:
    """The analysis board of a Base game, from its second move, with a variation of one move played."""
    game = create(server, mode="local", game_string=OPENING, options=BASE)
    page = seat_page(context, server, game)
    page.wait_for_selector("#movelist li[data-ply='4']")
    press(page, device, "#movelist li[data-ply='2']")
    page.wait_for_selector("#review:not([hidden])")
    press(page, device, "#btn-analyse")
    page.wait_for_selector("#analysis:not([hidden])")
    page.wait_for_function("app.analysis && app.analysis.ply === 2 && app.lines")
    st = page.evaluate("({moves: app.state.moves, view: app.analysis.view})")
    click_move(page, st, "wG1 -wS1", touch=device == "phone")
    page.wait_for_function("app.analysis.ply === 3")
    page.wait_for_selector("#movelist .line .lmove")
    return page


def board_editor(context: Any, server: ServerProcess, device: str) -> Page:
    """The board editor, as the game list's button opens it."""
    page = open_page(context, server.url + "editor")
    page.wait_for_selector("#ed-status.legal")
    return page


def move_chosen_early(context: Any, server: ServerProcess, device: str) -> Page:
    """HiveQueen, North's page on South's turn: a movement pre-selected, another piece picked (every cell lit for
    it), and the page's options shown (behind the gear, or in the ☰ menu)."""
    game = create(server, kind="hivequeen", mode="online", colour="south")
    page = open_page(context, f"{server.url}game/{game['id']}#seat={game['invite']}")
    page.wait_for_function("app.state && app.state.seats[0] === 1")
    press(page, device, '#board .qpiece[data-cell="f8"]')
    press(page, device, '#board .qcell[data-cell="f5"]')
    page.wait_for_selector("#pending-bar:not([hidden])")
    press(page, device, '#board .qpiece[data-cell="g8"]')
    page.wait_for_selector("#board .qcell[data-lead]", state="attached")
    open_settings(page, device)
    return page


VIEWS: dict[str, Callable[[Any, ServerProcess, str], Page]] = {
    "game-list": game_list,
    "hive-against-the-ai": hive_against_the_ai,
    "hivequeen-game": hivequeen_game,
    "analysis-board": analysis_board,
    "board-editor": board_editor,
    "move-chosen-early": move_chosen_early,
}


@pytest.mark.parametrize("device", sizes(*SIZES))
@pytest.mark.parametrize("view", VIEWS)
def test_no_serious_or_critical_accessibility_violation(
    axe: Path, browser: Any, server: ServerProcess, view: str, device: str, tmp_path: Path
) -> None:
    context = browser.new_context(bypass_csp=True, **SIZES[device])  # axe's script is injected, and evaluated
    try:
        page = VIEWS[view](context, server, device)
        no_serious_violation(page, axe, f"{view} page at {device} size", tmp_path)
        assert page.errors == []
    finally:
        context.close()
