"""The browser game end to end: real Chromium (Debian's package) driven by Playwright against ``hive play``."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import hive
from hive.games.hive import Searcher
from hive.games.hive.ai import LEVELS

from ...shared import POSITIONS, TESTDATA
from ...web_support import ROOT, ServerProcess, serving
from ..browser_support import click_move, game_of, state

Page = Any


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The module's server (one test stops it and starts it again, on the same port and file)."""
    with serving(tmp_path_factory.mktemp("e2e") / "games.sqlite3") as process:
        yield process


def new_page(browser: Any, url: str, *, csp: bool = False, language: str = "en") -> Page:
    """A page at ``url`` once drawn, in a browser that asks for ``language``; Playwright's waits evaluate code,
    which the page's policy forbids unless ``csp`` is false (the policy bypassed)."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        bypass_csp=not csp,
        locale=language,
        extra_http_headers={"accept-language": language},
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.errors = errors
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


def start_game(
    page: Page, mode: str, *, level: str = "random", expansions: str = "MLP", repetition: bool = False
) -> tuple[str, str]:
    """Fill in the New game dialog; returns the game id and this page's seat token."""
    if not page.is_visible("#dlg-new"):
        page.click("#btn-new")
    page.click(f"#form-new input[name=mode][value={mode}] + span")
    if mode == "ai":
        page.select_option("#ai-level", level)
    for bug in "MLP":
        page.set_checked(f"#form-new input[name={bug}]", bug in expansions)
    page.set_checked("#form-new input[name=repetition]", repetition)
    page.click("#btn-start")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_function("!!app.state")  # (a two-browser game opens on its Invite tab, not on the moves)
    return game_of(page)


def wait_moves(page: Page, count: int, *, at_least: bool = False) -> None:
    test = ">=" if at_least else "==="
    page.wait_for_function(f"document.querySelectorAll('#movelist li[data-ply]').length {test} {count}", timeout=20000)


def test_a_whole_game_against_the_ai_played_by_clicks(browser: Any, server: ServerProcess) -> None:
    """Our side's moves come from the easy AI, played by clicking; the random mover answers until a result.

    The repetition draw is on, so that a game in which neither side makes progress ends too.
    """
    page = new_page(browser, server.url)
    game_id, token = start_game(page, "ai", level="random", expansions="", repetition=True)
    searcher = Searcher(seed=1)
    deadline = time.monotonic() + 100
    while time.monotonic() < deadline:
        st = state(server, game_id, token)
        if st["result"]:
            break
        if st["thinking"] or st["view"]["turn"] != 0:
            page.wait_for_timeout(50)
            continue
        board = hive.Board.from_game_string(st["game_string"], repetition_draw=True)
        move = searcher.search(board, LEVELS["easy"]).move
        count = len(st["moves"])
        click_move(page, st, board.uhp(move))
        wait_moves(page, count + 1, at_least=True)
    st = state(server, game_id, token)
    assert st["result"] in ("WhiteWins", "BlackWins", "Draw"), (len(st["moves"]), st["game_string"])
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner-title") in ("White wins", "Black wins", "Draw")
    assert page.locator("#movelist li[data-ply]").count() == len(st["moves"])
    assert page.eval_on_selector_all("#movelist > :not(li)", "items => items.length") == 0  # valid HTML in the <ol>
    assert page.errors == []


def test_two_browsers_see_each_others_moves_and_a_spectator_watches(browser: Any, server: ServerProcess) -> None:
    white = new_page(browser, server.url)
    game_id, white_token = start_game(white, "online")
    # the share box fills in once the page has the game's state, which can come after the URL changes
    white.wait_for_function("document.getElementById('invite-link').value.includes('#seat=')")
    invite = white.input_value("#invite-link")
    assert invite.startswith(f"{server.url}game/{game_id}#seat=")
    black = new_page(browser, invite)
    spectator = new_page(browser, white.input_value("#watch-link"))
    black.wait_for_selector("#card-bottom .hand")
    for ply, text in enumerate(["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]):
        mover, other = (white, black) if ply % 2 == 0 else (black, white)
        click_move(mover, state(server, game_id, white_token), text)
        for page in (white, black, spectator):
            wait_moves(page, ply + 1)
        assert other.inner_text("#movelist li[data-ply]:last-child") == text
    assert "your move" in white.inner_text("#status")
    spectator.click('.hand [data-piece="wB1"]')
    spectator.wait_for_selector("#toast:not([hidden])")
    assert "watching" in spectator.inner_text("#toast")
    black.click("#btn-undo")  # online undo is a request the other side answers
    white.wait_for_selector("#offer:not([hidden]) #btn-accept:not([hidden])")
    white.click("#btn-accept")
    for page in (white, black, spectator):
        wait_moves(page, 3)
    assert white.errors == black.errors == spectator.errors == []


def test_a_reload_and_a_server_restart_resume_the_game(browser: Any, server: ServerProcess) -> None:
    page = new_page(browser, server.url)
    game_id, token = start_game(page, "local", expansions="")
    for ply, text in enumerate(["wG1", "bG1 wG1-", "wQ -wG1"]):
        click_move(page, state(server, game_id, token), text)
        wait_moves(page, ply + 1)
    page.reload()
    wait_moves(page, 3)
    assert page.locator("#board .piece").count() == 3
    page.keyboard.press("Control+z")
    wait_moves(page, 2)
    # a redo pressed before the undo's answer arrived waits for it, and is not lost
    with page.expect_response(lambda response: response.url.endswith("/redo")):
        page.keyboard.press("Control+z")
        page.keyboard.press("Control+y")
    wait_moves(page, 2)
    page.keyboard.press("Control+y")
    wait_moves(page, 3)
    assert state(server, game_id, token)["moves"] == ["wG1", "bG1 wG1-", "wQ -wG1"]
    server.stop()
    page.wait_for_selector("#conn.down")
    server.start()
    page.wait_for_function("document.getElementById('conn').textContent === 'Live'", timeout=20000)
    click_move(page, state(server, game_id, token), "bQ bG1-")
    wait_moves(page, 4)
    assert state(server, game_id, token)["moves"] == ["wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-"]
    page.click("#movelist li[data-ply='1']")  # review an earlier position
    page.wait_for_selector("#review:not([hidden])")
    assert page.locator("#board .piece").count() == 1
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    assert page.locator("#board .piece").count() == 4
    assert page.errors == []


def test_an_illegal_move_shows_its_reason(browser: Any, server: ServerProcess) -> None:
    page = new_page(browser, server.url)
    game_id, token = start_game(page, "local")
    page.click('.hand [data-piece="wQ"]')
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast") == "You can't play your Queen Bee on your first turn."
    for ply, text in enumerate(["wS1", "bS1 wS1-"]):
        click_move(page, state(server, game_id, token), text)
        wait_moves(page, ply + 1)
    page.click('.hand [data-piece="wA1"]')
    page.click('#board .slot[data-cell="2,0"]')  # next to Black's spider only
    page.wait_for_function("document.getElementById('toast').textContent.includes('none of your opponent')")
    assert "You can't place a piece there" in page.inner_text("#toast")
    assert state(server, game_id, token)["moves"] == ["wS1", "bS1 wS1-"]


def test_importing_a_game_string_shows_that_position(browser: Any, server: ServerProcess, tmp_path: Path) -> None:
    """Also takes the README's screenshot: the imported midgame, a piece picked up and its moves lit.

    It is written to docs/ when missing or when HIVE_SCREENSHOT=1 (Chromium's PNG bytes vary from run to run).
    """
    page = new_page(browser, server.url)
    text = (POSITIONS / "midgame_mlp.txt").read_text().strip()
    board = hive.Board.from_game_string(text)
    page.click("#btn-io")
    page.fill("#import-text", text)
    page.select_option("#import-mode", "local")
    page.click("#btn-import")
    wait_moves(page, len(board.history))
    assert page.input_value("#export-text") == board.game_string()
    drawn = {
        page.get_attribute(f"#board .piece >> nth={i}", "data-piece")
        for i in range(page.locator("#board .piece").count())
    }
    game = page.evaluate("app.state")
    assert drawn == {cell["stack"][-1] for cell in game["view"]["cells"]}
    assert len(drawn) == len(game["view"]["cells"]) == len({board.pos[p] for p in range(28) if board.pos[p] >= 0})
    page.click('.hand [data-piece="bA2"]')
    page.wait_for_selector("#board .dest")
    page.mouse.move(10, 10)
    target = ROOT / "docs" / "screenshot.png"
    if target.exists() and os.environ.get("HIVE_SCREENSHOT") != "1":
        target = tmp_path / "screenshot.png"
    page.screenshot(path=str(target))
    assert target.read_bytes().startswith(b"\x89PNG") and target.stat().st_size > 50_000
    bad = "Base+MLP;InProgress;White[2];wS1;bQ wS1-"
    page.click("#btn-io")
    page.fill("#import-text", bad)
    page.click("#btn-import")
    page.wait_for_selector("#toast:not([hidden])")
    assert "bQ wS1-" in page.inner_text("#toast") and "first turn" in page.inner_text("#toast")
    assert page.errors == []


def test_records_of_other_sites_pasted_into_import_open_as_games(browser: Any, server: ServerProcess) -> None:
    """A hivegame.com PGN and a Boardspace SGF pasted into the Import dialog open as games; what the record's reader
    accepted with a warning (here a Boardspace event that changes nothing) is shown, as hive replay prints it."""
    page = new_page(browser, server.url)
    records = TESTDATA / "records"
    pgn = (records / "hivegame_valid_plm_draw.pgn").read_text(encoding="utf-8")
    page.click("#btn-io")
    page.fill("#import-text", pgn)
    page.select_option("#import-mode", "local")
    page.click("#btn-import")
    wait_moves(page, 49)
    assert page.evaluate("app.state.result") == "Draw"
    sgf = (records / "HV-Dumbot-Kaur50-2023-01-17-0059.sgf").read_text(encoding="utf-8", errors="replace")
    sgf = sgf.replace("; P0[2 Done ]", "; P0[2 Done ]\n; P1[2 DontUndo ]", 1)
    page.click("#btn-io")
    page.fill("#import-text", sgf)
    page.click("#btn-import")
    wait_moves(page, 88)
    assert page.evaluate("app.state.result") == "BlackWins"
    page.wait_for_selector("#toast:not([hidden])")
    toast = page.inner_text("#toast")
    assert toast.startswith("Imported with a warning: move ") and "ignored the Boardspace event 'DontUndo'" in toast
    assert page.errors == []


# ---------------------------------------------------------------------------- HiveQueen


def start_queen_game(page: Page, mode: str, *, level: str = "random", colour: str = "south") -> tuple[str, str]:
    """Start a HiveQueen game from the New game dialog; returns the game id and this page's seat token."""
    if not page.is_visible("#dlg-new"):
        page.click("#btn-new")
    page.click("#form-new input[name=game][value=hivequeen] + span")
    page.click(f"#form-new input[name=mode][value={mode}] + span")
    if mode == "ai":
        page.select_option("#ai-level", level)
    if mode != "local":
        page.select_option("#form-new select[name=colour]", colour)
    page.click("#btn-start")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_selector("#board .qpiece")
    return game_of(page)


def click_queen_turn(page: Page, board: Any, turn: Any) -> None:
    """Play a whole HiveQueen turn by clicks: the piece, its lit destination, then each production and End turn."""
    from hive.games.hivequeen import NAMES

    count = page.evaluate("app.state.moves.length")
    text = board.move_text(turn)
    movement = text.split(";")[0]
    page.click(f'#board .qpiece[data-cell="{NAMES[turn.origin]}"]')
    page.click(f'#board .qdest[data-cell="{NAMES[turn.destination]}"]')
    if page.is_visible("#qpick"):  # a Highborn that may also be promoted: choose
        page.click(f'#qpick button[data-move="{movement}"]')
    producing = "!!document.querySelector('#qpanel[data-phase=production]')"
    page.wait_for_function(f"app.state.moves.length > {count} || {producing}")
    if page.evaluate(f"app.state.moves.length > {count}"):
        assert not turn.productions, text  # the turn ended with its movement: nothing could be produced
        return
    assert page.inner_text("#qpanel .qturn") == movement
    for i, production in enumerate(turn.productions):
        letter = str(production)[1]
        page.click(f'.qkind[data-kind="{letter}"]')
        page.click(f'#board .qprod[data-cell="{NAMES[production.cell]}"]')
        partial = ";".join(text.split(";")[: i + 2])
        page.wait_for_function(f"document.querySelector('#qpanel .qturn').textContent === {partial!r}")
    page.click("#qbtn-end")
    page.wait_for_function(f"app.state.moves.length > {count}")


@pytest.mark.slow
def test_a_hivequeen_game_against_the_ai_played_by_clicks(browser: Any, server: ServerProcess) -> None:
    """South's turns come from the easy AI and are clicked in, productions included; the random mover answers."""
    from hive.games.hivequeen import Board as QueenBoard
    from hive.games.hivequeen.ai import best_turn

    page = new_page(browser, server.url)
    game_id, token = start_queen_game(page, "ai", level="random", colour="south")
    assert page.inner_text("#brand-name") == "HiveQueen"
    assert page.get_attribute("#link-rules", "href") == "/how-to-play/hivequeen"
    assert page.locator("#board .qcell").count() == 61 and page.locator("#board .qpiece").count() == 30
    assert page.inner_text("#card-bottom .qunits") == "24 / 25 units"
    produced = 0
    deadline = time.monotonic() + 50
    while time.monotonic() < deadline:
        st = state(server, game_id, token)
        if st["result"]:
            break
        if st["thinking"] or st["view"]["turn"] != 0:
            page.wait_for_timeout(50)
            continue
        page.wait_for_function(f"app.state.moves.length === {len(st['moves'])} && !app.state.thinking")
        board = QueenBoard()
        for text in st["moves"]:
            board.push_text(text)
        turn = best_turn(board, "easy", seed=len(st["moves"]))
        produced += len(turn.productions)
        click_queen_turn(page, board, turn)
    st = state(server, game_id, token)
    assert st["result"] in ("SouthWins", "NorthWins", "Draw"), st["moves"]
    assert produced > 0
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner-title") in ("South wins", "North wins", "Draw")
    assert page.inner_text("#banner-reason") == st["reason"]
    assert [page.inner_text(f"#movelist li[data-ply] >> nth={i}") for i in range(len(st["moves"]))] == st["moves"]
    assert page.errors == []


def test_hivequeen_explains_illegal_clicks_and_imports_a_record(
    browser: Any, server: ServerProcess, tmp_path: Path
) -> None:
    """Also takes the README's HiveQueen screenshot (written when missing or when HIVE_SCREENSHOT=1)."""
    page = new_page(browser, server.url)
    game_id, token = start_queen_game(page, "local")
    page.click('#board .qpiece[data-cell="d3"]')  # a Soldier with nothing to capture
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast").startswith("The Soldier on d3 has no legal movement here.")
    page.click('#board .qpiece[data-cell="c3"]')
    page.click('#board .qcell[data-cell="c6"]')  # not lit: the server names the rule
    page.wait_for_function("document.getElementById('toast').textContent.includes('adjacent vacant cell')")
    page.click('#board .qdest[data-cell="c4"]')
    page.wait_for_selector("#qpanel[data-phase=production]")
    assert "capacity 25" in page.inner_text("#qprod-info")
    assert page.is_disabled('.qkind[data-kind="N"]') and not page.is_disabled('.qkind[data-kind="S"]')
    page.click("#qbtn-back")  # take the movement back: nothing was stored
    page.wait_for_selector("#qpanel[data-phase=movement]")
    assert state(server, game_id, token)["moves"] == []

    record = '[Game "HiveQueen"]\nWc3-c4;+Wa3\nWg7-g6;+Sf6\nDc2-e5;+Sd4;+Wg3\nSf6xe5\n'
    page.click("#btn-io")
    page.select_option("#import-kind", "hivequeen")
    page.fill("#import-text", record)
    page.select_option("#import-mode", "local")
    page.click("#btn-import")
    wait_moves(page, 4)
    assert page.input_value("#export-text").endswith(record.split("\n", 1)[1])
    assert page.inner_text("#card-bottom .qunits") == "26 / 35 units"
    page.click('#board .qpiece[data-cell="d4"]')
    page.click('#board .qdest[data-cell="e5"]')  # the Soldier takes back the Drone's cell
    page.wait_for_selector("#qpanel[data-phase=production]")
    page.click('.qkind[data-kind="S"]')
    page.evaluate("document.getElementById('toast').hidden = true")  # the earlier explanation
    page.mouse.move(10, 10)
    target = ROOT / "docs" / "screenshot-hivequeen.png"
    if target.exists() and os.environ.get("HIVE_SCREENSHOT") != "1":
        target = tmp_path / "screenshot-hivequeen.png"
    page.screenshot(path=str(target))
    assert target.read_bytes().startswith(b"\x89PNG") and target.stat().st_size > 50_000

    page.click("#btn-io")
    page.select_option("#import-kind", "hivequeen")
    page.fill("#import-text", "Wc3-c4\nWc3-c4")
    page.click("#btn-import")
    page.wait_for_function("document.getElementById('toast').textContent.includes('line 2, turn 2')")
    rules = httpx.get(f"{server.url}how-to-play/hivequeen", timeout=10)
    assert rules.status_code == 200 and "How to play HiveQueen" in rules.text
    assert page.errors == []


@pytest.mark.slow
def test_hivequeen_asks_whether_a_highborn_is_promoted(browser: Any, server: ServerProcess) -> None:
    """North's Queen was taken: its Highborn's capture may end in a promotion, and a chooser asks which."""
    record = "Wc3-d4;+Wg3\nDf8-b6;+Se6\nDc2-f8;+Se7;+Wa3\nNd8-i8\nSe7xg9;+Se7;+Sd6\n"
    created = httpx.post(
        f"{server.url}api/games", json={"kind": "hivequeen", "mode": "local", "game_string": record}, timeout=10
    ).json()
    page = new_page(browser, f"{server.url}game/{created['id']}#seat={created['token']}")
    wait_moves(page, 5)
    assert page.inner_text("#card-top .qwarn") == "Queen lost: a Highborn must be promoted"
    page.click('#board .qpiece[data-cell="f9"]')
    page.click('#board .qdest[data-cell="g9"]')
    page.wait_for_selector("#qpick:not([hidden])")
    assert page.locator("#qpick button[data-move]").all_inner_texts() == [
        "Capture on g9 and stay a Highborn (Hf9xg9)",
        "Capture on g9, then promote to Queen (Hf9xg9=Q)",
    ]
    assert page.inner_text("#qpick .qpick-cancel") == "Cancel"
    french = new_page(browser, f"{server.url}game/{created['id']}#seat={created['token']}", language="fr")
    wait_moves(french, 5)
    french.click('#board .qpiece[data-cell="f9"]')
    french.click('#board .qdest[data-cell="g9"]')
    french.wait_for_selector("#qpick:not([hidden])")
    assert french.inner_text("#qpick .qpick-cancel") == "Annuler"  # the chooser speaks the page's language
    french.click("#qpick .qpick-cancel")
    french.wait_for_selector("#qpick", state="hidden")
    assert french.errors == []
    french.context.close()
    page.click('#qpick button[data-move="Hf9xg9=Q"]')
    page.wait_for_selector("#qpanel[data-phase=production]")
    page.click("#qbtn-end")
    wait_moves(page, 6)
    st = state(server, created["id"], created["token"])
    assert st["moves"][-1] == "Hf9xg9=Q" and st["view"]["counts"]["Q"] == [1, 1] and st["result"] is None
    page.click("#movelist li[data-ply='2']")  # review an earlier position
    page.wait_for_selector("#review:not([hidden])")
    assert page.locator("#board .qpiece").count() == 32
    assert page.errors == []
