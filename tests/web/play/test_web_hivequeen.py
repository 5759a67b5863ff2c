"""HiveQueen in the web app's API: whole turns in notation, productions previewed, seats, restarts, the rules page."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hive.games import plugin_of
from hive.games.hivequeen import Board
from hive.games.hivequeen.records import read_record
from hive.web import create_app
from hive.web.http.pages import how_to_play_page, markdown

from ...web_support import client, new_game, play

JSON = dict[str, Any]


def run(coro: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(coro())


async def queen_game(c: httpx.AsyncClient, **body: Any) -> JSON:
    return await new_game(c, kind="hivequeen", **body)


async def wait_for(c: httpx.AsyncClient, game: JSON, token: str, test: Callable[[JSON], bool]) -> JSON:
    """The game once ``test`` holds for it (waiting a minute at most: a guard against a hang)."""
    deadline = time.monotonic() + 60
    while True:
        state: JSON = (await c.get(f"/api/games/{game['id']}", headers={"x-seat-token": token})).json()
        if test(state):
            return state
        assert time.monotonic() < deadline, f"the game never reached the expected state: {state['moves']}"
        await asyncio.sleep(0.05)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


def test_a_hivequeen_game_is_created_with_the_whole_field() -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await queen_game(c, mode="local")
            state = game["state"]
            assert state["kind"] == "hivequeen" and state["options"] == {} and state["moves"] == []
            view = state["view"]
            assert len(view["cells"]) == 61 and sum(1 for cell in view["cells"] if cell["piece"]) == 30
            assert view["units"] == [24, 24] and view["capacity"] == [25, 25] and view["turn"] == 0
            assert view["counts"]["W"] == [5, 5] and view["limits"] == {"D": 2, "N": 2, "W": 8}
            board = Board()
            assert sorted(m["move"] for moves in view["legal"].values() for m in moves) == sorted(
                board.move_text(t) for t in board.legal_movements
            )
            assert state["game_string"] == '[Game "HiveQueen"]\n[Result "InProgress"]\n'
        await app.close()

    run(main)


def test_turns_with_productions_are_previewed_played_and_stored_in_notation() -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await queen_game(c, mode="local")
            token, url = game["token"], f"/api/games/{game['id']}"
            preview = (await c.post(f"{url}/preview", json={"move": "Wc3-c4"})).json()
            assert preview["move"] == "Wc3-c4" and preview["done"] is False
            assert preview["left"] == 1 and preview["units"] == 24 and preview["capacity"] == 25
            assert {"kind": "S", "cell": "d4", "move": "+Sd4"} in preview["productions"]
            assert {p["kind"] for p in preview["productions"]} == {"S", "W"}  # Nurses and Drones are at their limit
            moved = {cell["cell"]: cell["piece"] for cell in preview["view"]["cells"]}
            assert moved["c4"] == {"side": 0, "kind": "W"} and moved["c3"] is None
            full = (await c.post(f"{url}/preview", json={"move": "Wc3-c4;+Sd4"})).json()
            assert full["done"] is True and full["productions"] == [] and full["view"]["units"][0] == 25
            r = await play(c, game, token, move="Wc3-c4;+Sd4", ply=0)
            assert r.status_code == 200, r.text
            state = r.json()
            assert state["moves"] == ["Wc3-c4;+Sd4"] and state["view"]["turn"] == 1
            assert state["view"]["last"] == {"from": "c3", "to": "c4", "promote": False, "productions": ["d4"]}
            north = next(iter(state["view"]["legal"].values()))[0]["move"]
            r = await play(c, game, token, move=north, ply=1)
            assert r.json()["moves"] == ["Wc3-c4;+Sd4", north]
            board = read_record(r.json()["game_string"])
            assert [Board().move_text(t) for t in board.turns()][:1] == ["Wc3-c4;+Sd4"]
            back = (await c.get(f"{url}/position?ply=1")).json()
            assert back["view"]["ply"] == 1 and back["view"]["turn"] == 1
        await app.close()

    run(main)


BAD_REQUESTS: list[tuple[str, JSON, int, str]] = [
    ("move", {"move": "Zz9"}, 400, "is not a HiveQueen move"),
    ("move", {"move": "Wc3-c5"}, 400, "A Worker steps to an adjacent vacant cell"),
    ("move", {"move": "Wc3-c4;+Qd4"}, 400, "cannot be produced"),
    ("move", {"move": "Wc3-c4;+Sd4;+Se4"}, 400, "would exceed the capacity 25"),
    ("move", {"move": "Wg7-g6"}, 400, "belongs to North; it is South's turn"),
    ("move", {"move": 7}, 400, "'move' must be a turn in HiveQueen notation"),
    ("move", {"from": "c3", "to": "z1"}, 400, "'z1' is not a cell"),
    ("move", {"from": "c2", "to": "d2"}, 400, "A Drone leaps to a vacant cell"),
    ("move", {"piece": "wQ", "to": [0, 0]}, 400, "'from' must be a cell name"),
    ("preview", {"move": "Sd3-d4"}, 400, "A Soldier only moves to capture"),
    ("preview", {"from": "c3", "to": "c4", "promote": "yes"}, 400, "'promote' must be true or false"),
    ("why", {"piece": "q9"}, 400, "'q9' is not a cell"),
]


@pytest.mark.parametrize(("action", "body", "status", "message"), BAD_REQUESTS)
def test_bad_turns_get_a_4xx_naming_the_problem(action: str, body: JSON, status: int, message: str) -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await queen_game(c, mode="local")
            r = await c.post(f"/api/games/{game['id']}/{action}", json=body, headers={"x-seat-token": game["token"]})
            assert r.status_code == status, r.text
            assert message in r.json()["error"], r.json()
            assert (await c.get(f"/api/games/{game['id']}")).json()["moves"] == []
        await app.close()

    run(main)


queen_bodies = st.dictionaries(
    st.sampled_from(["move", "from", "to", "promote", "piece", "ply", "what", "accept", "game_string", "options"]),
    json_values | st.sampled_from(["c3", "c4", "Wc3-c4", "Wc3-c4;+Sd4", "Hd1=Q", "e5"]),
    max_size=4,
)


@pytest.mark.slow  # 60 games made and answered
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action=st.sampled_from(["move", "preview", "why", "undo", "resign", "offer", "create"]), body=queen_bodies)
def test_random_hivequeen_requests_never_cause_a_500(action: str, body: JSON) -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await queen_game(c, mode="online")
            if action == "create":
                r = await c.post("/api/games", json={**body, "kind": "hivequeen"})
            else:
                headers = {"x-seat-token": game["token"]}
                r = await c.post(f"/api/games/{game['id']}/{action}", json=body, headers=headers)
            assert r.status_code < 500, r.text
            assert r.status_code == 200 or r.json()["error"]
        await app.close()

    run(main)


def test_bad_new_games_and_the_reasons_a_piece_cannot_move() -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            r = await c.post("/api/games", json={"kind": "hivequeen", "options": {"game_type": "Base"}})
            assert r.status_code == 400 and "takes no options" in r.json()["error"]
            r = await c.post("/api/games", json={"kind": "hivequeen", "game_string": "Wc3-c4\nWc3-c4"})
            assert r.status_code == 400 and "line 2, turn 2" in r.json()["error"]
            # the lines are numbered as they were pasted, blank ones and headers included
            for record, line in (("Wc3-c4;+Sd4\nWg7-g6;+Sf6\nZZ", 3), ("\ngarbage", 2), ('[Game "HiveQueen"]\nZZ', 2)):
                r = await c.post("/api/games", json={"kind": "hivequeen", "game_string": record})
                assert r.status_code == 400 and f"line {line}, turn" in r.json()["error"], (record, r.json())
            game = await queen_game(c, mode="local")
            url = f"/api/games/{game['id']}/why"
            soldier = (await c.post(url, json={"piece": "d3"})).json()["reason"]
            assert soldier.startswith("The Soldier on d3 has no legal movement here. A Soldier captures an adjacent")
            enemy = (await c.post(url, json={"piece": "g7"})).json()["reason"]
            assert enemy == "The Worker on g7 is North's; it is South's turn."
            assert (await c.post(url, json={"piece": "e5"})).json()["reason"] == "There is no piece on e5."
            assert (await c.post(url, json={"piece": "c3"})).json()["reason"] is None
        await app.close()

    run(main)


def test_a_record_is_imported_and_exported() -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await queen_game(c, mode="local", game_string="Wc3-c4;+Sd4\n\nWg7-g6;+Sf6\n")
            state = game["state"]
            assert state["moves"] == ["Wc3-c4;+Sd4", "Wg7-g6;+Sf6"] and state["view"]["ply"] == 2
            again = await queen_game(c, mode="ai", ai_level="random", colour="south", game_string=state["game_string"])
            assert again["state"]["moves"] == state["moves"] and again["state"]["ai"] == {"level": "random", "seat": 1}
        await app.close()

    run(main)


def test_seat_tokens_guard_hivequeen_turns() -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await queen_game(c, mode="online", colour="south")
            south, north = game["token"], game["invite"]
            r = await play(c, game, "not-a-token", move="Wc3-c4")
            assert r.status_code == 403 and "does not belong" in r.json()["error"]
            r = await play(c, game, north, move="Wc3-c4")
            assert r.status_code == 409 and r.json()["error"] == "It's South's turn, not yours."
            assert (await play(c, game, south, move="Wc3-c4")).status_code == 200
            r = await play(c, game, south, move="Wg7-g6")
            assert r.status_code == 409 and "North's turn" in r.json()["error"]
            r = await play(c, game, north, move="Wg7-g6;+Sf6")
            assert r.status_code == 200 and r.json()["moves"] == ["Wc3-c4", "Wg7-g6;+Sf6"]
            r = await c.post(f"/api/games/{game['id']}/resign", headers={"x-seat-token": north})
            assert r.json()["result"] == "SouthWins" and r.json()["reason"] == "North resigned"
        await app.close()

    run(main)


def test_hivequeen_games_survive_a_restart_with_their_undo_history(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"

    async def first() -> JSON:
        app = create_app(db, workers=0)
        async with client(app) as c:
            game = await queen_game(c, mode="local")
            for ply, move in enumerate(("Wc3-c4;+Sd4", "Wg7-g6;+Sf6", "Wc4-c5")):
                assert (await play(c, game, game["token"], move=move, ply=ply)).status_code == 200
            r = await c.post(f"/api/games/{game['id']}/undo", headers={"x-seat-token": game["token"]})
            assert r.json()["moves"] == ["Wc3-c4;+Sd4", "Wg7-g6;+Sf6"] and r.json()["redo"] == 1
        await app.close()
        return game

    async def second(game: JSON) -> None:
        app = create_app(db, workers=0)
        async with client(app) as c:
            headers = {"x-seat-token": game["token"]}
            state = (await c.get(f"/api/games/{game['id']}", headers=headers)).json()
            assert state["kind"] == "hivequeen" and state["moves"] == ["Wc3-c4;+Sd4", "Wg7-g6;+Sf6"]
            assert state["redo"] == 1 and state["view"]["units"] == [25, 25]
            r = await c.post(f"/api/games/{game['id']}/redo", headers=headers)
            assert r.json()["moves"][-1] == "Wc4-c5" and r.json()["view"]["turn"] == 1
        await app.close()

    game = asyncio.run(first())
    asyncio.run(second(game))


def test_the_ai_answers_a_hivequeen_turn_and_gives_hints() -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await queen_game(c, mode="ai", ai_level="easy", colour="north")
            token = game["token"]
            assert game["state"]["ai"] == {"level": "easy", "seat": 0}
            state = await wait_for(c, game, token, lambda s: len(s["moves"]) == 1 and not s["thinking"])
            board = Board()
            board.push_text(state["moves"][0])
            mine = board.move_text(next(board.legal_turns()))
            r = await play(c, game, token, move=mine, ply=1)
            assert r.status_code == 200, r.text
            state = await wait_for(c, game, token, lambda s: len(s["moves"]) == 3 and not s["thinking"])
            hint = (await c.get(f"/api/games/{game['id']}/hint", headers={"x-seat-token": token})).json()
            board.push_text(mine)
            board.push_text(state["moves"][2])
            assert hint["level"] == "easy" and board.parse_move(hint["move"])
            r = await c.post(f"/api/games/{game['id']}/undo", headers={"x-seat-token": token})
            assert r.json()["moves"] == state["moves"][:1]
        await app.close()

    run(main)


def test_the_rules_page_is_served_from_the_package() -> None:
    """The one copy of the rules is the package's Markdown, rendered as the page."""
    rules = plugin_of("hivequeen").rules
    assert rules is not None and rules.read_text().startswith("# How to play HiveQueen")
    page = how_to_play_page("hivequeen", "HiveQueen")
    assert "<h1>How to play HiveQueen</h1>" in page and "<th>piece</th>" in page
    assert "<code>Wc3-c4;+Sd4</code>" in page and "<strong>promote</strong>" in page

    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            r = await c.get("/how-to-play/hivequeen")
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
            assert r.text == page
        await app.close()

    run(main)


def test_the_markdown_subset() -> None:
    text = "# T\n\nA *b* and `c<d>`\nwraps.\n\n1. one\n   - inner\n     more\n2. two\n\n"
    text += "| a | b |\n| --- | --- |\n| 1 | 2 |"
    assert markdown(text) == (
        "<h1>T</h1>\n<p>A <em>b</em> and <code>c&lt;d&gt;</code> wraps.</p>\n"
        "<ol><li>one<ul><li>inner more</li></ul></li><li>two</li></ol>\n"
        "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>"
    )
