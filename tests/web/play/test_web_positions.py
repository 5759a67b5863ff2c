"""Games set up from a position: the board editor's check, games created from a position record, their start kept
(on SQLite and PostgreSQL) across a restart, undone back to, written in their record and kept by a rematch; refusals
naming the rule."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.games.hive import Board as HiveBoard
from hive.games.hivequeen import Board as QueenBoard
from hive.web.storage import open_store

from ...web_support import JSON, in_process, new_game, release_0_1

pytestmark = pytest.mark.anyio

#: Reached by wS1; bS1 wS1-; wQ -wS1; bQ bS1-; wB1 \wQ; bB1 bQ/; wB1 wQ: White's Beetle on its Queen, Black to move.
PLAYED = ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wB1 \\wQ", "bB1 bQ/", "wB1 wQ"]
#: The same position as a record, its stacks in another order and another place on the table.
STACKED = "Position;Base;Black[4];wS1@3,3 bS1@4,3 bQ@5,3 bB1@6,2 wQ/wB1@2,3;last=wB1"
QUEEN_POSITION = "Position;HiveQueen;North[3];Qc1 Hb1 Hd1 Wc3 Wd4 Nb2 Se5;Qg9 Hf9 Hh9 Wf7 Sd7 Ng8"


def played_board() -> HiveBoard:
    board = HiveBoard("Base")
    for text in PLAYED:
        board.push_text(text)
    return board


def legal_texts(view: JSON) -> set[str]:
    return {entry["move"] for entries in view["legal"].values() for entry in entries}


async def check(c: httpx.AsyncClient, **body: Any) -> JSON:
    r = await c.post("/api/positions", json=body)
    assert r.status_code == 200, r.text
    answer: JSON = r.json()
    return answer


async def post(c: httpx.AsyncClient, game: JSON, action: str, **body: Any) -> httpx.Response:
    return await c.post(f"/api/games/{game['id']}/{action}", json=body, headers={"x-seat-token": game["token"]})


async def test_the_editor_check_answers_the_position_as_a_game_shows_it_with_its_legal_moves() -> None:
    async with in_process(":memory:") as (_, c):
        answer = await check(c, kind="hive", options={"game_type": "Base+MLP"}, position=STACKED)
        board = played_board()
        assert answer["valid"] and answer["error"] is None and answer["over"] is None
        assert answer["position"] == board.position_text()
        assert answer["options"]["game_type"] == "Base"  # the record's game type, not the options'
        assert legal_texts(answer["view"]) == {board.move_text(m) for m in board.legal_moves}
        stack = next(cell["stack"] for cell in answer["view"]["cells"] if len(cell["stack"]) > 1)
        assert stack == ["wQ", "wB1"] and answer["view"]["turn_string"] == "Black[4]"
        start = await check(c, kind="hivequeen")
        assert start["valid"] and start["position"] == QueenBoard().position_text()
        assert len(start["view"]["cells"]) == 61 and start["view"]["legal"]


@pytest.mark.parametrize(
    ("kind", "position", "rule"),
    [
        ("hive", "Position;Base;White[3];wS1@0,0 bS1@3,0", "two hives"),
        ("hive", "Position;Base;White[3];wS1@0,0 bS1@1,0 wS3@-1,0 bS2@2,0", "Base has 2"),
        (
            "hive",
            "Position;Base;White[5];wS1@0,0 bS1@1,0 wS2@-1,0 bS2@2,0 wA1@-2,0 bQ@3,0 wA2@-3,0 bA1@4,0",
            "White's Queen Bee is not placed by White's fourth turn",
        ),
        ("hive", "Position;Base;White[3];wB1/bS1@0,0 bQ@1,0 wQ@-1,0", "only a Beetle or a Mosquito"),
        ("hive", "Position;Base;White[2];wQ@0,0 bS1@1,0", "tournament opening"),
        ("hivequeen", "Position;HiveQueen;South[2];Qc1 Qd1;Qg9", "South has 2 Queens"),
        ("hivequeen", "Position;HiveQueen;South[2];Qz9;Qg9", "not a cell of the 61-cell field"),
    ],
)
async def test_an_illegal_position_is_answered_with_the_rule_it_breaks(kind: str, position: str, rule: str) -> None:
    async with in_process(":memory:") as (_, c):
        answer = await check(c, kind=kind, position=position)
        assert not answer["valid"] and answer["view"] is None and answer["position"] is None
        assert rule in answer["error"], answer["error"]
        r = await c.post("/api/games", json={"kind": kind, "mode": "local", "position": position})
        assert r.status_code == 400 and rule in r.json()["error"]


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"kind": "hive", "position": 7}, "'position' must be a position record"),
        ({"kind": "hive", "position": "Base;InProgress;White[1]"}, "must start with 'Position;'"),
        ({"kind": "hive", "position": "Position;" + "x" * 3000}, "at most 2,000"),
        ({"kind": "chess", "position": STACKED}, "Unknown game kind 'chess'"),
        ({"kind": "hive", "options": {"speed": 1}, "position": STACKED}, "Unknown option 'speed'"),
    ],
)
async def test_a_request_that_is_not_a_position_is_refused_naming_the_field(body: JSON, named: str) -> None:
    async with in_process(":memory:") as (_, c):
        for url in ("/api/positions", "/api/games"):
            r = await c.post(url, json=body)
            assert r.status_code == 400 and named in r.json()["error"], r.text
        both = await c.post("/api/games", json={"position": STACKED, "game_string": "wS1"})
        assert both.status_code == 400 and "not both" in both.json()["error"]


async def test_a_game_from_a_position_plays_undoes_to_its_start_and_writes_a_record_that_reads_back(
    database: str,
) -> None:
    async with in_process(database) as (_, c):
        game = await new_game(c, kind="hive", mode="local", position=STACKED, options={"tournament_opening": False})
        state = game["state"]
        board = played_board()
        assert state["start"] == board.position_text() and state["moves"] == []
        assert state["game_string"] == board.position_text() and state["options"]["game_type"] == "Base"
        assert legal_texts(state["view"]) == {board.move_text(m) for m in board.legal_moves}
        for ply, text in enumerate(["bS2 bQ-", "wB1 wS1"]):
            state = (await post_move(c, game, text, ply)).json()
            board.push_text(text)
        assert state["moves"] == ["bS2 bQ-", "wB1 wS1"]
        assert state["game_string"] == ";".join([STARTED, *state["moves"]])
        again = HiveBoard.from_record(state["game_string"], tournament_opening=False)
        assert again.position_text() == board.position_text() and again.move_texts() == state["moves"]
        for ply in (2, 1):
            state = (await post(c, game, "undo", ply=ply)).json()
        assert state["moves"] == [] and state["view"]["turn_string"] == "Black[4]" and state["redo"] == 2
        nothing = await post(c, game, "undo", ply=0)
        assert nothing.status_code == 409 and "Nothing to undo" in nothing.json()["error"]
        position = (await c.get(f"/api/games/{game['id']}/position?ply=0")).json()
        assert position["view"]["turn_string"] == "Black[4]"


STARTED = played_board().position_text()


async def post_move(c: httpx.AsyncClient, game: JSON, text: str, ply: int) -> httpx.Response:
    r = await post(c, game, "move", move=text, ply=ply)
    assert r.status_code == 200, r.text
    return r


async def test_the_start_is_kept_across_a_restart_and_by_a_rematch_and_the_game_list(database: str) -> None:
    async with in_process(database) as (_, c):
        made = await new_game(c, kind="hivequeen", mode="local", position=QUEEN_POSITION)
        board = QueenBoard.from_position(QUEEN_POSITION)
        await post_move(c, made, board.move_text(next(iter(board.legal_moves))), 0)
    async with in_process(database) as (_, c):  # the server started again
        state = (await c.get(f"/api/games/{made['id']}", headers={"x-seat-token": made["token"]})).json()
        assert state["start"] == QueenBoard.from_position(QUEEN_POSITION).position_text()
        assert len(state["moves"]) == 1 and state["view"]["turn"] == 0
        again = QueenBoard.from_record(state["game_string"])
        assert again.move_texts() == state["moves"] and f'[Position "{state["start"]}"]' in state["game_string"]
        listed = (await c.get("/api/games")).json()["games"]
        assert [g["start"] for g in listed if g["id"] == made["id"]] == [state["start"]]
        undone = (await post(c, made, "undo", ply=1)).json()
        assert undone["moves"] == [] and undone["view"]["turn"] == 1
        resigned = (await post(c, made, "resign")).json()
        assert resigned["result"] is not None
        rematch = (await post(c, made, "rematch")).json()
        assert rematch["state"]["start"] == state["start"] and rematch["state"]["view"]["turn"] == 1


async def test_the_ai_plays_from_the_position_and_an_undo_takes_back_the_players_move_too(database: str) -> None:
    async with in_process(database) as (_, c):
        game = await new_game(c, kind="hive", mode="ai", colour="black", ai_level="random", position=STACKED)
        state = game["state"]
        assert state["ai"]["seat"] == 0 and state["view"]["turn"] == 1
        await post_move(c, game, "bS2 bQ-", 0)
        for _ in range(200):
            state = (await c.get(f"/api/games/{game['id']}", headers={"x-seat-token": game["token"]})).json()
            if len(state["moves"]) == 2:
                break
            await asyncio.sleep(0.05)
        board = played_board()
        board.push_text("bS2 bQ-")
        assert len(state["moves"]) == 2 and board.parse_move(state["moves"][1]) in board.legal_moves
        undone = (await post(c, game, "undo", ply=2)).json()
        assert undone["moves"] == [] and undone["view"]["turn_string"] == "Black[4]"


async def test_an_imported_record_of_a_game_from_a_position_keeps_its_start(database: str) -> None:
    async with in_process(database) as (_, c):
        text = f"{STACKED};bS2 bQ-"
        game = await new_game(c, kind="hive", mode="local", game_string=text, options={"game_type": "Base"})
        assert game["state"]["start"] == STARTED and game["state"]["moves"] == ["bS2 bQ-"]
        plain = await new_game(c, kind="hive", mode="local", game_string="wS1;bS1 wS1-")
        assert plain["state"]["start"] is None


def test_an_older_database_gains_the_start_column_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    release_0_1(path)
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE games DROP COLUMN start")  # as a release before games set up from a position
    db.execute(
        "INSERT INTO games (id, kind, options, mode, token0, token1, length, created, updated) VALUES"
        " ('old1', 'hive', ?, 'local', 'a', 'a', 1, 1.0, 2.0)",
        (json.dumps({"game_type": "Base", "tournament_opening": True, "repetition_draw": False}),),
    )
    db.execute("INSERT INTO moves VALUES ('old1', 0, 'wS1')")
    db.commit()
    db.close()

    async def read() -> None:
        store = open_store(path, "reader")
        try:
            record = await store.games.load("old1")
            assert record is not None and record.moves == ["wS1"] and record.start is None
        finally:
            store.close()

    asyncio.run(read())
    with sqlite3.connect(path) as raw:
        assert "start" in {row[1] for row in raw.execute("PRAGMA table_info(games)")}
