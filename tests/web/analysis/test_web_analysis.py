"""The analysis board's API: variations stored as a tree beside the game (never in its record; on SQLite and
PostgreSQL), checked by the game's own rules, kept over a restart and in an older database, for the people the
fair-play rules let analyse."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

import hive
from hive.games.hivequeen import Board as QueenBoard
from hive.web.analysis.tables import lines
from hive.web.views import view_for

from ...web_support import JSON, in_process, new_game, play, release_0_1

pytestmark = pytest.mark.anyio
OPENING = ["wS1", "bG1 -wS1", "wQ wS1/", "bQ /bG1"]


def hive_board(moves: list[str]) -> Any:
    board = hive.Board("Base+MLP")
    for text in moves:
        board.push_text(text)
    return board


def legal_texts(view: JSON) -> set[str]:
    return {m["move"] for moves in view["legal"].values() for m in moves}


def hive_legal(moves: list[str]) -> set[str]:
    board = hive_board(moves)
    return {board.move_text(m) for m in board.legal_moves if board.move_text(m) != "pass"}


async def opened(c: httpx.AsyncClient, moves: list[str], **body: Any) -> tuple[JSON, dict[str, str]]:
    game = await new_game(c, mode="local", **body)
    headers = {"x-seat-token": game["token"]}
    for ply, text in enumerate(moves):
        r = await play(c, game, game["token"], move=text, ply=ply)
        assert r.status_code == 200, r.text
    return game, headers


async def explore(c: httpx.AsyncClient, game: JSON, headers: dict[str, str], **body: Any) -> JSON:
    r = await c.post(f"/api/games/{game['id']}/lines", json=body, headers=headers)
    assert r.status_code == 200, r.text
    answer: JSON = r.json()
    return answer


async def test_variations_form_a_tree_beside_the_game_and_never_touch_its_record(database: str) -> None:
    async with in_process(database) as (_, c):
        game, headers = await opened(c, OPENING)
        gid = game["id"]
        first = await explore(c, game, headers, line=None, ply=2, move="wA1 wS1/")
        assert first["line"] == 1 and first["ply"] == 3
        assert legal_texts(first["view"]) == hive_legal([*OPENING[:2], "wA1 wS1/"])
        longer = await explore(c, game, headers, line=1, move="bA1 /bG1")
        assert longer["line"] == 1 and longer["ply"] == 4  # played at its end: the line grows
        side = await explore(c, game, headers, line=1, ply=3, move="bQ /bG1")
        assert side["line"] == 2 and side["ply"] == 4  # a variation of the variation
        assert side["lines"] == [
            {"id": 1, "parent": None, "ply": 2, "moves": ["wA1 wS1/", "bA1 /bG1"]},
            {"id": 2, "parent": 1, "ply": 3, "moves": ["bQ /bG1"]},
        ]
        again = await explore(c, game, headers, line=None, ply=2, move="wA1 wS1/")
        main_line = await explore(c, game, headers, ply=1, move="bG1 -wS1")
        assert (again["line"], again["ply"]) == (1, 3) and (main_line["line"], main_line["ply"]) == (None, 2)
        assert len(main_line["lines"]) == 2  # moves already explored are followed, not stored twice
        state = (await c.get(f"/api/games/{gid}", headers=headers)).json()
        assert state["moves"] == OPENING and state["game_string"] == hive_board(OPENING).record()
        r = await c.get(f"/api/games/{gid}/position?line=2&ply=4", headers=headers)
        expected = [*OPENING[:2], "wA1 wS1/", "bQ /bG1"]
        assert r.status_code == 200 and legal_texts(r.json()["view"]) == hive_legal(expected)
        r = await c.get(f"/api/games/{gid}/position?line=&ply=3", headers=headers)
        assert r.json()["line"] is None and legal_texts(r.json()["view"]) == hive_legal(OPENING[:3])


async def test_bad_lines_positions_and_moves_are_refused_by_name() -> None:
    async with in_process(":memory:") as (_, c):
        game, headers = await opened(c, OPENING)
        gid = game["id"]
        await explore(c, game, headers, ply=2, move="wA1 wS1/")
        cases: list[tuple[str, str, JSON | None, int, str]] = [
            ("POST", "lines", {"line": 9, "move": "wA1 wS1/"}, 404, "no line 9"),
            ("POST", "lines", {"line": "x", "move": "wA1 wS1/"}, 400, "'line' must be a whole number, not 'x'"),
            ("POST", "lines", {"ply": 7, "move": "bA1"}, 400, "from 0 to 4"),
            ("POST", "lines", {"line": 1, "move": "bQ wS1/"}, 400, "'bQ wS1/' cannot be played here: You can't"),
            ("POST", "lines", {"line": 1, "move": "zz9"}, 400, "zz9"),
            ("POST", "lines", {"ply": True, "move": "wA1"}, 400, "'ply' must be a whole number, not true"),
            ("GET", "position?line=5", None, 404, "no line '5'"),
            ("GET", "position?line=1&ply=-1", None, 400, "'ply' must be a whole number, not '-1'"),
            ("GET", "hint?line=1&ply=9", None, 400, "line 1 has 3 moves"),
            ("DELETE", "lines/7", None, 404, "no line '7'"),
        ]
        for method, path, body, status, words in cases:
            r = await c.request(method, f"/api/games/{gid}/{path}", json=body, headers=headers)
            assert r.status_code == status and words in r.json()["error"], (path, body, r.text)


async def test_who_may_analyse_follows_the_fair_play_rules() -> None:
    async with in_process(":memory:") as (_, c):
        local, _ = await opened(c, OPENING[:2])
        r = await c.post(f"/api/games/{local['id']}/lines", json={"move": "wQ wS1/"})
        assert r.status_code == 403 and "only its players" in r.json()["error"]  # a spectator of a live game
        online = await new_game(c, mode="online")
        seats = [{"x-seat-token": online["token"]}, {"x-seat-token": online["invite"]}]
        for seat in seats:
            r = await c.post(f"/api/games/{online['id']}/lines", json={"move": "wS1"}, headers=seat)
            assert r.status_code == 403 and "both players must choose" in r.json()["error"]
            r = await c.get(f"/api/games/{online['id']}/lines", headers=seat)
            assert r.status_code == 403
        await c.post(f"/api/games/{online['id']}/resign", headers=seats[0])
        mine = await explore(c, online, seats[1], move="wS1")
        assert mine["line"] == 1
        r = await c.get(f"/api/games/{online['id']}/lines")
        assert r.status_code == 200 and r.json()["writable"] is False and len(r.json()["lines"]) == 1
        r = await c.post(f"/api/games/{online['id']}/lines", json={"move": "wG1"})
        assert r.status_code == 403 and "spectator may look" in r.json()["error"]
        r = await c.delete(f"/api/games/{online['id']}/lines/1")
        assert r.status_code == 403
        casual = await new_game(c, mode="online", help=True)
        both = [{"x-seat-token": casual["token"]}, {"x-seat-token": casual["invite"]}]
        r = await c.post(f"/api/games/{casual['id']}/help", json={"help": True}, headers=both[1])
        assert r.status_code == 200, r.text
        assert (await explore(c, casual, both[1], move="wS1"))["line"] == 1


async def test_deleting_a_line_deletes_its_variations_and_deleting_the_game_deletes_them_all(database: str) -> None:
    async with in_process(database) as (app, c):
        game, headers = await opened(c, OPENING)
        await explore(c, game, headers, ply=2, move="wA1 wS1/")
        shared = await explore(c, game, headers, line=1, ply=2, move="wB1 wS1/")  # a position it shares
        assert (shared["line"], shared["ply"]) == (2, 3)
        await explore(c, game, headers, line=1, move="bA1 /bG1")
        await explore(c, game, headers, line=1, ply=3, move="bQ /bG1")
        listed = (await c.get(f"/api/games/{game['id']}/lines", headers=headers)).json()["lines"]
        assert [(line["id"], line["parent"], line["ply"]) for line in listed] == [
            (1, None, 2),
            (2, None, 2),
            (3, 1, 3),
        ]
        r = await c.delete(f"/api/games/{game['id']}/lines/1", headers=headers)
        assert r.status_code == 200 and [line["id"] for line in r.json()["lines"]] == [2]
        await explore(c, game, headers, ply=0, move="wG1")
        r = await c.delete(f"/api/games/{game['id']}", headers=headers)
        assert r.status_code == 200
        with app.store.database.engine.connect() as connection:
            assert connection.execute(sa.select(sa.func.count()).select_from(lines)).scalar_one() == 0


async def test_lines_survive_a_restart(database: str) -> None:
    async with in_process(database) as (_, c):
        game, headers = await opened(c, OPENING)
        await explore(c, game, headers, ply=2, move="wA1 wS1/")
    async with in_process(database) as (_, c):  # the server started again
        r = await c.get(f"/api/games/{game['id']}/lines", headers=headers)
        assert r.json()["lines"] == [{"id": 1, "parent": None, "ply": 2, "moves": ["wA1 wS1/"]}]
        assert (await c.get(f"/api/games/{game['id']}", headers=headers)).json()["moves"] == OPENING


async def test_an_older_database_gains_the_lines_table_in_place(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    release_0_1(db)
    options = json.dumps(view_for("hive").options({}))
    with sqlite3.connect(db) as raw:
        raw.execute("DROP TABLE lines")  # the games' own tables only, as a version before the analysis board
        raw.execute(
            "INSERT INTO games (id, kind, options, mode, token0, token1, length, result, created, updated)"
            " VALUES ('g1', 'hive', ?, 'local', 't0', 't0', 1, 'WhiteWins', 1.0, 2.0)",
            (options,),
        )
        raw.execute("INSERT INTO moves VALUES ('g1', 0, 'wS1')")
    async with in_process(db) as (_, c):
        r = await c.get("/api/games/g1/lines")  # a finished game is open to anyone
        assert r.status_code == 200 and r.json() == {"lines": [], "writable": False}
        line = await explore(c, {"id": "g1"}, {"x-seat-token": "t0"}, move="bS1 wS1-")
        assert (line["line"], line["ply"]) == (1, 2)
        assert (await c.get("/api/games/g1")).json()["moves"] == ["wS1"]
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT game_id, line FROM lines").fetchall() == [("g1", 1)]


async def test_the_hint_and_evaluation_follow_a_position_in_a_line() -> None:
    async with in_process(":memory:") as (_, c):
        game, headers = await opened(c, OPENING)
        await explore(c, game, headers, ply=2, move="wA1 wS1/")
        r = await c.get(f"/api/games/{game['id']}/hint?line=1&ply=3", headers=headers)
        assert r.status_code == 200, r.text
        hint = r.json()
        assert (hint["line"], hint["ply"]) == (1, 3) and 0 <= hint["white"] <= 1
        assert hint["move"] in hive_legal([*OPENING[:2], "wA1 wS1/"]) | {"pass"}


#: A game of random moves that ends on its fourteenth: Black's last move surrounds its own Queen Bee.
SELF_MATE = [
    "wS1", "bA1 -wS1", "wQ wS1\\", "bA2 \\bA1", "wB1 wQ\\", "bS1 -bA2", "wB2 wB1/",
    "bQ /bA2", "wS2 wS1/", "bA3 /bQ", "wG1 wB1-", "bB1 /bS1", "wB1 wQ", "bS2 /bA1",
]  # fmt: skip


async def test_a_finished_position_in_a_line_takes_no_move() -> None:
    outcome = hive_board(SELF_MATE).outcome()
    assert outcome is not None and outcome.winner == 0
    async with in_process(":memory:") as (_, c):
        game, headers = await opened(c, SELF_MATE[:-2])
        await explore(c, game, headers, move=SELF_MATE[-2])
        end = await explore(c, game, headers, line=1, move=SELF_MATE[-1])
        assert end["end"] == outcome.reason and end["view"]["legal"] == {}
        r = await c.post(f"/api/games/{game['id']}/lines", json={"line": 1, "move": "wG2"}, headers=headers)
        assert r.status_code == 409 and "over in this position" in r.json()["error"]
        r = await c.get(f"/api/games/{game['id']}/hint?line=1", headers=headers)
        assert r.status_code == 409 and "nothing to suggest" in r.json()["error"]


async def test_hivequeen_variations_take_whole_turns_and_answer_previews_and_whys_in_the_line() -> None:
    async with in_process(":memory:") as (_, c):
        game, headers = await opened(c, ["Wc3-c4;+Sd4"], kind="hivequeen")
        line = await explore(c, game, headers, ply=0, move="Wc3-d4;+Sd5")
        assert (line["line"], line["ply"]) == (1, 1)
        board = QueenBoard()
        board.push_text("Wc3-d4;+Sd5")
        expected = {board.move_text(t) for t in board.legal_movements}
        assert legal_texts(line["view"]) == expected
        r = await c.post(
            f"/api/games/{game['id']}/preview",
            json={"line": 1, "ply": 1, "move": next(iter(expected))},
            headers=headers,
        )
        assert r.status_code == 200 and "productions" in r.json(), r.text
        r = await c.post(f"/api/games/{game['id']}/why", json={"line": 1, "ply": 1, "piece": "d4"}, headers=headers)
        assert r.status_code == 200 and "turn" in r.json()["reason"], r.text
        r = await c.post(f"/api/games/{game['id']}/lines", json={"line": 1, "move": "Wc3-c4"}, headers=headers)
        assert r.status_code == 400 and r.json()["error"] == "'Wc3-c4': There is no piece on c3 to move."
        state = (await c.get(f"/api/games/{game['id']}", headers=headers)).json()
        assert state["moves"] == ["Wc3-c4;+Sd4"]


async def test_a_line_keeps_its_moves_when_the_game_takes_moves_back(database: str) -> None:
    async with in_process(database) as (_, c):
        game, headers = await opened(c, OPENING)
        await explore(c, game, headers, move="wA1 wQ-")  # from the game's last position
        r = await c.post(f"/api/games/{game['id']}/undo", json={"ply": 4}, headers=headers)
        assert r.status_code == 200 and r.json()["moves"] == OPENING[:3]
        listed = (await c.get(f"/api/games/{game['id']}/lines", headers=headers)).json()["lines"]
        assert listed == [{"id": 1, "parent": None, "ply": 3, "moves": [OPENING[3], "wA1 wQ-"]}]
        r = await c.get(f"/api/games/{game['id']}/position?line=1&ply=5", headers=headers)
        assert legal_texts(r.json()["view"]) == hive_legal([*OPENING, "wA1 wQ-"])
