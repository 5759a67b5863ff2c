"""The live lobby and the games' chat across ``hive serve`` processes sharing one PostgreSQL database, through
PostgreSQL's NOTIFY and through Redis: a seek opened on one process reaches a lobby socket on the other, and so do a
challenge (to its player alone), the seek taken, whose turn it is after a move made on the first process, and a chat
message. Real processes on real ports."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import websockets

from ...web_support import ServeProcess
from ..api_support import LIMITS
from ..socket_support import account, both, lobby, message, until_pong, ws_url


async def across(one: str, two: str) -> None:
    """Changes made through the server at ``one`` reach sockets opened on the server at ``two``."""
    async with (
        httpx.AsyncClient(base_url=one, timeout=30) as a,
        httpx.AsyncClient(base_url=one, timeout=30) as b,
        httpx.AsyncClient(base_url=one, timeout=30) as c,
    ):
        ann, bob, carol = await account(a, "ann"), await account(b, "bob"), await account(c, "carol")
        guest, at_bob, at_carol = await lobby(two), await lobby(two, bob), await lobby(two, carol)
        body = {"game": "Base", "time_control": {"days": 1}, "rated": False, "colour": "black"}
        seek = (await a.post("/api/seeks", json=body, headers=ann["headers"])).json()
        for ws in (guest, at_bob, at_carol):
            opened = await message(ws, lambda m: m["type"] == "seek")
            assert (opened["change"], opened["seek"]["id"]) == ("opened", seek["id"])
        challenge = {"to": "bob", "game": "Base", "rated": False}
        await a.post("/api/challenges", json=challenge, headers=ann["headers"])
        told = await message(at_bob, lambda m: m["type"] == "challenge")
        assert told["change"] == "opened" and told["challenge"]["player"] == "ann"
        assert not [m for m in await until_pong(at_carol) if m["type"] == "challenge"]

        # bob takes the seek on the first process: he plays white and moves; ann's socket on the second hears it
        at_ann = await lobby(two, ann)
        accepted = (await b.post(f"/api/seeks/{seek['id']}/accept", headers=bob["headers"])).json()
        game_id = accepted["id"]
        taken, turn = await both(
            at_ann, lambda m: m["type"] == "seek" and m["change"] == "accepted", lambda m: m["type"] == "turn"
        )
        assert taken["game_id"] == game_id and not turn["your_turn"]
        state = accepted["state"]
        move = state["view"]["legal"][next(iter(state["view"]["legal"]))][0]["move"]
        moved = await b.post(f"/api/games/{game_id}/move", json={"move": move, "ply": 0}, headers=bob["headers"])
        assert moved.status_code == 200, moved.text
        turn = await message(at_ann, lambda m: m["type"] == "turn" and m["moves"] == 1)
        assert turn["game_id"] == game_id and turn["your_turn"] and turn["opponent"] == "bob"

        # a message written on the first process reaches the player's game socket on the second
        token = (await a.get(f"/api/games/{game_id}/seat")).json()["token"]
        playing = await websockets.connect(ws_url(two, f"ws/games/{game_id}?token={token}&chat=1"))
        await message(playing, lambda m: "moves" in m)
        said = await b.post(
            f"/api/games/{game_id}/chat", json={"room": "players", "text": "hello"}, headers=bob["headers"]
        )
        told = await message(playing, lambda m: m.get("type") == "chat")
        assert told == {"type": "chat", "room": "players", "id": said.json()["id"]}
        for ws in (guest, at_bob, at_carol, at_ann, playing):
            await ws.close()


def test_a_seek_opened_on_one_process_reaches_a_lobby_socket_on_the_other(upgraded: str) -> None:
    with ServeProcess(upgraded, *LIMITS) as one, ServeProcess(upgraded, *LIMITS) as two:
        asyncio.run(across(one.url, two.url))
        for process in (one, two):
            assert process.stop() == 0
            assert "Traceback" not in process.output()


@pytest.mark.slow
def test_the_lobby_reaches_the_other_process_over_redis(upgraded: str, redis_url: str) -> None:
    with (
        ServeProcess(upgraded, *LIMITS, "--redis", redis_url) as one,
        ServeProcess(upgraded, *LIMITS, "--redis", redis_url) as two,
    ):
        asyncio.run(across(one.url, two.url))
