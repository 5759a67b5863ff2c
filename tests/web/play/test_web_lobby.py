"""The game list and fair play between two browsers, through the HTTP API, on SQLite and PostgreSQL where the games
are stored: the list's order and contents, display names, deleting by a seat holder only, rematches with the colours
swapped, the engine kept from everyone in a fair game (403), and which seats have opened and are watching a game."""

from __future__ import annotations

import asyncio
import ipaddress
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from hive.web.http.network import reach
from hive.web.play.access import HELP_OFF, PLAYERS_ONLY
from hive.web.storage import open_store

from ...web_support import JSON, in_process, new_game, server_thread, state_where

pytestmark = pytest.mark.anyio


def seat(token: str | None) -> dict[str, str]:
    return {"x-seat-token": token} if token else {}


async def post(c: httpx.AsyncClient, game: JSON, action: str, token: str | None, **body: Any) -> httpx.Response:
    return await c.post(f"/api/games/{game['id']}/{action}", json=body, headers=seat(token))


async def test_the_list_shows_games_in_progress_first_with_names_kind_result_and_dates(database: str) -> None:
    async with in_process(database) as (_, c):
        done = await new_game(c, mode="online", name="Ann", options={"game_type": "Base"})
        await post(c, done, "name", done["invite"], name="  Bob \t Smith ")
        assert (await post(c, done, "resign", done["invite"])).json()["result"] == "WhiteWins"
        queen = await new_game(c, kind="hivequeen", mode="local")
        live = await new_game(c, mode="ai", ai_level="random", colour="black", name="Cy")
        listed = (await c.get("/api/games")).json()["games"]
        assert [g["id"] for g in listed] == [live["id"], queen["id"], done["id"]]
        first, second, last = listed
        assert first["names"] == [None, "Cy"] and first["ai"] == {"level": "random", "seat": 0}
        assert second["kind"] == "hivequeen" and second["sides"] == ["South", "North"] and second["result"] is None
        assert last["names"] == ["Ann", "Bob Smith"] and last["winner"] == 0 and last["reason"] == "Black resigned"
        assert last["kind"] == "hive" and last["options"]["game_type"] == "Base" and last["length"] == 0
        assert all(g["created"] <= g["updated"] for g in listed)
        assert not any("tokens" in g or "moves" in g for g in listed)


@pytest.mark.parametrize(
    ("name", "error"),
    [
        (42, "'name' must be a text, not 42"),
        ("x" * 25, "at most 24 characters"),
        ("a\u200bb", "control or format characters"),
    ],
)
async def test_a_display_name_is_checked_and_set_for_the_token_s_own_seat(name: object, error: str) -> None:
    async with in_process(":memory:") as (_, c):
        game = await new_game(c, mode="online", colour="black")
        r = await post(c, game, "name", game["token"], name=name)
        assert r.status_code == 400 and error in r.json()["error"]
        assert (await post(c, game, "name", None, name="Eve")).status_code == 403
        r = await post(c, game, "name", game["token"], name="Dee")
        assert r.json()["names"] == [None, "Dee"]
        local = await new_game(c, mode="local")
        r = await post(c, local, "name", local["token"], name="Flo")
        assert r.status_code == 400 and "'seat' must say which of your seats" in r.json()["error"]
        assert (await post(c, local, "name", local["token"], name="Flo", seat=1)).json()["names"] == [None, "Flo"]


async def test_only_a_seat_holder_deletes_a_game(database: str) -> None:
    async with in_process(database) as (_, c):
        game = await new_game(c, mode="online")
        url = f"/api/games/{game['id']}"
        assert (await c.delete(url)).status_code == 403
        assert (await c.delete(url, headers=seat("not-a-token"))).status_code == 403
        assert (await c.get(url)).status_code == 200
        r = await c.delete(url, headers=seat(game["invite"]))
        assert r.status_code == 200 and r.json() == {"deleted": game["id"]}
        assert (await c.get(url)).status_code == 404
        assert (await c.get("/api/games")).json()["games"] == []


async def test_deleting_a_game_the_ai_is_thinking_about_stops_it(database: str) -> None:
    async with in_process(database) as (app, c):
        game = await new_game(c, mode="ai", ai_level="hard", colour="black")
        assert game["state"]["thinking"]
        assert (await c.delete(f"/api/games/{game['id']}", headers=seat(game["token"]))).status_code == 200
        await asyncio.sleep(0.2)
        assert (await c.get("/api/games")).json()["games"] == []
        assert await app.store.jobs.waiting() == 0  # its AI move went with it


async def test_a_rematch_swaps_the_colours_and_both_players_reach_the_same_game(database: str) -> None:
    async with in_process(database) as (_, c):
        first = await new_game(c, mode="online", colour="white", name="Ann", help=True, options={"game_type": "Base"})
        await post(c, first, "name", first["invite"], name="Bob")
        assert (await post(c, first, "rematch", first["token"])).status_code == 409  # not over yet
        await post(c, first, "resign", first["token"])
        assert (await post(c, first, "rematch", None)).status_code == 403
        r = await post(c, first, "rematch", first["invite"])
        assert r.status_code == 200, r.text
        second = r.json()
        state = second["state"]
        assert state["names"] == ["Bob", "Ann"] and state["seats"] == [0] and state["moves"] == []
        assert state["options"] == first["state"]["options"] and state["result"] is None
        assert state["help"]["choices"] == [None, True]
        ann = (await post(c, first, "rematch", first["token"])).json()
        assert ann["id"] == second["id"] and ann["state"]["seats"] == [1] and ann["token"] == second["invite"]
        old = (await c.get(f"/api/games/{first['id']}")).json()
        assert old["rematch"] == second["id"]


async def test_a_rematch_against_the_ai_gives_the_ai_the_other_colour(database: str) -> None:
    async with in_process(database) as (_, c):
        game = await new_game(c, mode="ai", ai_level="random", colour="white", kind="hivequeen")
        await post(c, game, "resign", game["token"])
        again = (await post(c, game, "rematch", game["token"])).json()
        assert again["state"]["ai"] == {"level": "random", "seat": 0} and again["state"]["seats"] == [1]
        assert again["state"]["kind"] == "hivequeen" and again["invite"] is None


async def test_engine_help_is_off_in_a_fair_two_browser_game_for_seats_and_spectators() -> None:
    async with in_process(":memory:") as (_, c):
        game = await new_game(c, mode="online", options={"game_type": "Base"})
        assert game["state"]["help"] == {"on": False, "choices": [False, None]}
        await post(c, game, "move", game["token"], move="wS1")
        hint = f"/api/games/{game['id']}/hint"
        for token, error in ((game["token"], HELP_OFF), (game["invite"], HELP_OFF), (None, PLAYERS_ONLY)):
            for query in ("", "?ply=0"):
                r = await c.get(hint + query, headers=seat(token))
                assert r.status_code == 403 and r.json()["error"] == error
        r = await post(c, game, "help", game["invite"], help=True)
        assert r.json()["help"] == {"on": False, "choices": [False, True]}
        r = await post(c, game, "help", game["token"], help=True)
        assert r.status_code == 409 and "made once" in r.json()["error"]
        await post(c, game, "resign", game["invite"])
        for token in (game["token"], None):  # a finished game is open to the engine, for review
            r = await c.get(hint + "?ply=0", headers=seat(token))
            assert r.status_code == 200 and r.json()["ply"] == 0 and r.json()["move"].startswith("w")
        r = await c.get(hint + "?ply=1")
        assert r.status_code == 409 and "nothing to suggest" in r.json()["error"]


async def test_a_casual_game_gives_help_to_its_seats_only_once_both_chose_it() -> None:
    async with in_process(":memory:") as (_, c):
        game = await new_game(c, mode="online", help=True, options={"game_type": "Base"})
        hint = f"/api/games/{game['id']}/hint"
        assert (await c.get(hint, headers=seat(game["token"]))).status_code == 403
        r = await post(c, game, "help", game["invite"], help=True)
        assert r.json()["help"] == {"on": True, "choices": [True, True]}
        r = await c.get(hint, headers=seat(game["invite"]))
        assert r.status_code == 200 and r.json()["move"].startswith("w") and r.json()["ply"] == 0
        assert (await c.get(hint)).status_code == 403
        assert (await post(c, game, "help", game["token"], help=False)).json()["help"]["on"] is False
        assert (await c.get(hint, headers=seat(game["invite"]))).status_code == 403


async def test_a_review_hint_is_for_the_position_asked_and_checked() -> None:
    async with in_process(":memory:") as (_, c):
        game = await new_game(c, mode="local", options={"game_type": "Base"})
        for move in ("wS1", "bS1 wS1-"):
            await post(c, game, "move", game["token"], move=move)
        hint = f"/api/games/{game['id']}/hint"
        r = await c.get(hint + "?ply=1", headers=seat(game["token"]))
        assert r.json()["ply"] == 1 and r.json()["move"].startswith("b")
        r = await c.get(hint + "?ply=9", headers=seat(game["token"]))
        assert r.status_code == 400 and r.json()["error"] == "'ply' must be a number from 0 to 2, not '9'."


def test_the_creator_sees_when_the_invited_player_opens_the_game_and_is_connected(tmp_path: Path) -> None:
    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as c:
            game = await new_game(c, mode="online")
            assert game["state"]["joined"] == [True, False] and game["state"]["present"] == [False, False]
            ws_url = url.replace("http", "ws") + f"ws/games/{game['id']}?token="
            async with websockets.connect(ws_url + game["token"]) as mine:
                first = await state_where(mine, lambda s: s["present"] == [True, False])
                assert first["joined"] == [True, False]
                async with websockets.connect(ws_url + game["invite"]):
                    seen = await state_where(mine, lambda s: s["present"] == [True, True])
                    assert seen["joined"] == [True, True]
                left = await state_where(mine, lambda s: s["present"] == [True, False])
                assert left["joined"] == [True, True]

    with server_thread(tmp_path / "games.db") as url:
        asyncio.run(main(url))


def test_an_older_database_gains_the_new_columns_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE games (id TEXT PRIMARY KEY, kind TEXT NOT NULL DEFAULT 'hive', options TEXT NOT NULL,"
        " mode TEXT NOT NULL, ai_level TEXT, ai_seat INTEGER, token0 TEXT, token1 TEXT,"
        " length INTEGER NOT NULL DEFAULT 0, result TEXT, reason TEXT, offer TEXT, created REAL NOT NULL,"
        " updated REAL NOT NULL);"
        "CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, ply INTEGER NOT NULL,"
        " move TEXT NOT NULL, PRIMARY KEY (game_id, ply));"
        'INSERT INTO games VALUES (\'old1\', \'hive\', \'{"game_type": "Base", "tournament_opening": true,'
        " \"repetition_draw\": false}', 'online', NULL, NULL, 'a', 'b', 1, NULL, NULL, NULL, 1.0, 2.0);"
        "INSERT INTO moves VALUES ('old1', 0, 'wS1');"
    )
    db.commit()
    db.close()

    async def read() -> None:
        store = open_store(path, "reader")
        try:
            record = await store.games.load("old1")
            assert record is not None and record.moves == ["wS1"] and record.joined == 3
            assert record.names == (None, None) and record.version == 0
            assert [s.record.id for s in await store.games.games()] == ["old1"]
        finally:
            store.close()

    asyncio.run(read())


@pytest.mark.parametrize(
    ("host", "only_here"),
    [("127.0.0.1", True), ("localhost", True), ("::1", True), ("[::1]", True), ("0.0.0.0", False), ("::", False)],
)
async def test_the_invitation_panel_knows_whether_other_machines_can_connect(host: str, only_here: bool) -> None:
    reached = reach(host, 8000)
    assert reached["local_only"] is only_here and reached["host"] == host and reached["port"] == 8000
    lan = reached["lan"]
    assert lan is None or not ipaddress.ip_address(lan).is_loopback
    async with in_process(":memory:") as (_, c):
        assert (await c.get("/api/assets")).json()["network"]["host"] is None  # not served by ``hive play``
