"""The live lobby of ``hive serve`` (``/ws/lobby``) and the games' chat kept live over their sockets, on SQLite and
PostgreSQL, through a real server and real WebSockets:

- a guest's socket sees the open seeks come and go, never a challenge; a challenge reaches its two players' sockets
  alone, and so does its answer; a seek taken tells everyone, with its game; each player's socket is told whose
  turn it is after every move of their games (a correspondence game's "your turn");
- a game's socket opened with ``chat=1`` is told of the messages of the rooms it may read, and only those;
- a game between accounts says which seats accounts hold, and an account's seat cannot be renamed;
- the socket's limits: per client, binary frames, a bad API token, a server without accounts.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from hive.web.shared.settings import Settings

from ...web_support import server_thread
from ..api_support import SERVER
from ..socket_support import account, both, lobby, message, until_pong, ws_url


def test_the_lobby_socket_pushes_seeks_challenges_and_turns_to_whom_may_see_them(database: str) -> None:
    async def main(url: str) -> None:
        async with (
            httpx.AsyncClient(base_url=url, timeout=30) as a,
            httpx.AsyncClient(base_url=url, timeout=30) as b,
            httpx.AsyncClient(base_url=url, timeout=30) as c,
        ):
            ann, bob, carol = await account(a, "ann"), await account(b, "bob"), await account(c, "carol")
            guest = await lobby(url)
            sockets = {name: await lobby(url, who) for name, who in (("ann", ann), ("bob", bob), ("carol", carol))}
            assert guest.hello["name"] is None and guest.hello["seeks"] == [] and guest.hello["incoming"] == []
            assert sockets["bob"].hello["name"] == "bob" and sockets["bob"].hello["turns"] == []

            # a seek is everyone's news
            body = {"game": "Base", "time_control": {"days": 2}, "rated": False, "colour": "white"}
            seek = (await a.post("/api/seeks", json=body, headers=ann["headers"])).json()
            for ws in (guest, *sockets.values()):
                opened = await message(ws, lambda m: m["type"] == "seek")
                assert opened["change"] == "opened" and opened["seek"]["id"] == seek["id"], opened
                assert "route" not in opened and opened["player"] == "ann"

            # a challenge is its two players' alone, and so is its answer
            offer = {"to": "bob", "game": "Base", "rated": False}
            challenge = (await a.post("/api/challenges", json=offer, headers=ann["headers"])).json()
            for name in ("ann", "bob"):
                told = await message(sockets[name], lambda m: m["type"] == "challenge")
                assert told["change"] == "opened" and told["challenge"]["to"] == "bob", told
            declined = await b.post(f"/api/challenges/{challenge['id']}/decline", headers=bob["headers"])
            assert declined.status_code == 200
            for name in ("ann", "bob"):
                told = await message(sockets[name], lambda m: m["type"] == "challenge")
                assert (told["change"], told["by"], told["id"]) == ("declined", "bob", challenge["id"])
            for ws in (guest, sockets["carol"]):
                assert not [m for m in await until_pong(ws) if m["type"] == "challenge"]
            withdrawn = (await a.post("/api/challenges", json=offer, headers=ann["headers"])).json()
            await a.post(f"/api/challenges/{withdrawn['id']}/decline", headers=ann["headers"])
            told = await message(sockets["bob"], lambda m: m["type"] == "challenge" and m["change"] != "opened")
            assert told["change"] == "withdrawn" and told["by"] == "ann"

            # a new socket's hello holds what stands; a seek taken is everyone's news, with its game
            again = await lobby(url, bob)
            assert [s["id"] for s in again.hello["seeks"]] == [seek["id"]]
            await again.close()
            accepted = (await b.post(f"/api/seeks/{seek['id']}/accept", headers=bob["headers"])).json()
            game_id = accepted["id"]
            taken_by = lambda m: m["type"] == "seek" and m["change"] != "opened"  # noqa: E731
            turned = lambda m: m["type"] == "turn"  # noqa: E731
            for ws in (guest, sockets["carol"]):
                taken = await message(ws, taken_by)
                assert (taken["change"], taken["game_id"], taken["by"]) == ("accepted", game_id, "bob")
            # and whose turn it is, to each player's socket: ann plays white and moves first
            taken, turn = await both(sockets["ann"], taken_by, turned)
            assert (taken["change"], taken["game_id"], taken["by"]) == ("accepted", game_id, "bob")
            assert (turn["game_id"], turn["your_turn"], turn["opponent"]) == (game_id, True, "bob")
            taken, turn = await both(sockets["bob"], taken_by, turned)
            assert taken["game_id"] == game_id and not turn["your_turn"]
            state = (await a.get(f"/api/games/{game_id}")).json()
            assert state["seat_accounts"] == [True, True] and state["seats"] == [0]
            move = state["view"]["legal"][next(iter(state["view"]["legal"]))][0]["move"]
            moved = await a.post(f"/api/games/{game_id}/move", json={"move": move, "ply": 0}, headers=ann["headers"])
            assert moved.status_code == 200, moved.text
            turn = await message(sockets["bob"], lambda m: m["type"] == "turn")
            assert (turn["game_id"], turn["your_turn"], turn["moves"]) == (game_id, True, 1)
            assert not (await message(sockets["ann"], lambda m: m["type"] == "turn"))["your_turn"]
            fresh = await lobby(url, bob)
            assert [g["id"] for g in fresh.hello["turns"]] == [game_id]
            await fresh.close()
            assert not [m for m in await until_pong(sockets["carol"]) if m["type"] == "turn"]

            # an account's seat is named by the account
            renamed = await a.post(f"/api/games/{game_id}/name", json={"name": "X"}, headers=ann["headers"])
            assert renamed.status_code == 400 and "account" in renamed.json()["error"]
            await guest.close()
            for ws in sockets.values():
                await ws.close()

    with server_thread(database, settings=SERVER) as url:
        asyncio.run(main(url))


def test_a_games_socket_is_told_of_the_chat_rooms_it_may_read(database: str) -> None:
    async def main(url: str) -> None:
        async with (
            httpx.AsyncClient(base_url=url, timeout=30) as a,
            httpx.AsyncClient(base_url=url, timeout=30) as b,
            httpx.AsyncClient(base_url=url, timeout=30) as c,
        ):
            ann, bob, carol = await account(a, "ann"), await account(b, "bob"), await account(c, "carol")
            seek = (await a.post("/api/seeks", json={"game": "Base", "rated": False}, headers=ann["headers"])).json()
            game_id = (await b.post(f"/api/seeks/{seek['id']}/accept", headers=bob["headers"])).json()["id"]
            token = (await a.get(f"/api/games/{game_id}/seat")).json()["token"]
            path = f"ws/games/{game_id}"
            player = await websockets.connect(ws_url(url, f"{path}?token={token}&chat=1"))
            watcher = await websockets.connect(ws_url(url, f"{path}?chat=1"))
            plain = await websockets.connect(ws_url(url, path))  # a client that did not ask (a bot)
            chat = f"/api/games/{game_id}/chat"
            said = await b.post(chat, json={"room": "players", "text": "<script>hi</script>"}, headers=bob["headers"])
            told = await message(player, lambda m: m.get("type") == "chat")
            assert told == {"type": "chat", "room": "players", "id": said.json()["id"]}
            read = (await a.get(chat, params={"room": "players"})).json()
            assert read["messages"][0]["text"] == "<script>hi</script>" and read["length"] == 300
            cheer = await c.post(chat, json={"room": "spectators", "text": "go"}, headers=carol["headers"])
            told = await message(watcher, lambda m: m.get("type") == "chat")
            assert told == {"type": "chat", "room": "spectators", "id": cheer.json()["id"]}
            for ws, room in ((player, "spectators"), (watcher, "players")):  # each was told of its own room only
                assert not [m for m in await until_pong(ws) if m.get("type") == "chat" and m["room"] == room]
            assert not [m for m in await until_pong(plain) if m.get("type") == "chat"]
            for ws in (player, watcher, plain):
                await ws.close()

    with server_thread(database, settings=SERVER) as url:
        asyncio.run(main(url))


def test_the_lobby_sockets_limits(tmp_path: Path) -> None:
    async def closed_with(url: str, **options: Any) -> tuple[int | None, str | None]:
        ws = await websockets.connect(ws_url(url, "ws/lobby"), **options)
        try:
            await asyncio.wait_for(ws.recv(), 10)
            await asyncio.wait_for(ws.recv(), 10)
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None
            return closed.rcvd.code, closed.rcvd.reason
        raise AssertionError("the socket stayed open")

    async def main(url: str) -> None:
        kept = [await lobby(url) for _ in range(2)]
        code, reason = await closed_with(url)
        assert code == 4429 and "At most 2 lobby sockets" in str(reason)
        await kept.pop().close()
        await asyncio.sleep(0.3)
        kept.append(await lobby(url))  # a socket closed makes room
        await kept[0].send("ping")
        assert await asyncio.wait_for(kept[0].recv(), 10) == "pong"
        await kept[0].send(b"\x00")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(kept[0].recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003
        await kept[1].close()
        await asyncio.sleep(0.3)
        code, _ = await closed_with(url, additional_headers={"authorization": "Bearer nonsense"})
        assert code == 1008

    with server_thread(tmp_path / "db.sqlite3", settings=Settings(accounts=True, lobby_sockets=2)) as url:
        asyncio.run(main(url))
    with server_thread(tmp_path / "play.sqlite3") as url:  # hive play: no accounts, no lobby
        code, _ = asyncio.run(closed_with(url))
        assert code == 4404
