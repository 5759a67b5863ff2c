"""A tournament by invitation and a tournament's games on ``hive serve``, on SQLite and PostgreSQL, through a real
server and real WebSockets: the invited player is told on their lobby socket (nobody else is), the tournament lists
who is invited and what a bye scores, and a tournament's game, in progress and over, names its place in the
tournament (its round and the tournament's name, for the game page's link back); another game names none."""

from __future__ import annotations

import asyncio

import httpx

from ...web_support import server_thread
from ..api_support import SERVER
from ..socket_support import account, lobby, message, until_pong


def test_an_invitation_is_told_to_the_invited_and_a_game_names_its_tournament(database: str) -> None:
    async def main(url: str) -> None:
        async with (
            httpx.AsyncClient(base_url=url, timeout=30) as a,
            httpx.AsyncClient(base_url=url, timeout=30) as b,
            httpx.AsyncClient(base_url=url, timeout=30) as c,
        ):
            ada, ben, cyd = await account(a, "ada"), await account(b, "ben"), await account(c, "cyd")
            ben_ws, cyd_ws = await lobby(url, ben), await lobby(url, cyd)
            body = {"name": "Club night", "rated": False, "rounds": 2, "invite_only": True}
            made = await a.post("/api/tournaments", json=body, headers=ada["headers"])
            assert made.status_code == 200, made.text
            tid = made.json()["id"]
            assert made.json()["invited"] == []  # its organiser is not listed as invited
            invited = await a.post(f"/api/tournaments/{tid}/invite", json={"name": "BEN"}, headers=ada["headers"])
            assert invited.status_code == 200, invited.text
            assert invited.json()["invited"] == ["ben"] and invited.json()["bye_points"] == 1.0

            # ben's lobby socket is told, with what a page needs to link to it; cyd's is not
            told = await message(ben_ws, lambda m: m["type"] == "invite")
            assert told == {"type": "invite", "id": tid, "name": "Club night", "by": "ada", "to": "ben"}
            assert not [m for m in await until_pong(cyd_ws) if m["type"] == "invite"]

            assert (
                await a.post(f"/api/tournaments/{tid}/invite", json={"name": "cyd"}, headers=ada["headers"])
            ).is_success
            for client, who in ((a, ada), (b, ben), (c, cyd)):
                joined = await client.post(f"/api/tournaments/{tid}/join", headers=who["headers"])
                assert joined.status_code == 200, joined.text
            shown = (await a.get(f"/api/tournaments/{tid}")).json()
            assert shown["invited"] == ["ben", "cyd"] and sorted(shown["players"]) == ["ada", "ben", "cyd"]

            # three players: round 1 is a game and a bye; the game names its place in the tournament
            started = await a.post(f"/api/tournaments/{tid}/start", headers=ada["headers"])
            assert started.status_code == 200, started.text
            (round_one,) = started.json()["paired"]
            (game,) = [g for g in round_one if g["second"] is not None]
            assert [g["second"] for g in round_one if g is not game] == [None]
            place = {"id": tid, "name": "Club night", "round": 1, "board": game["board"]}
            state = (await a.get(f"/api/games/{game['game_id']}")).json()
            assert state["result"] is None
            assert state["tournament"] == tid and state["tournament_game"] == place
            players = {"ada": (a, ada), "ben": (b, ben), "cyd": (c, cyd)}
            loser, who = players[game["first"]]
            resigned = await loser.post(f"/api/games/{game['game_id']}/resign", json={}, headers=who["headers"])
            assert resigned.status_code == 200, resigned.text
            state = (await c.get(f"/api/games/{game['game_id']}")).json()
            assert state["result"] is not None and state["tournament_game"] == place

            # a game of no tournament names none
            offer = {"to": "ben", "game": "Base", "rated": False}
            challenge = (await a.post("/api/challenges", json=offer, headers=ada["headers"])).json()
            other = (await b.post(f"/api/challenges/{challenge['id']}/accept", headers=ben["headers"])).json()
            assert other["state"]["tournament"] is None and other["state"]["tournament_game"] is None
            for ws in (ben_ws, cyd_ws):
                await ws.close()

    with server_thread(database, settings=SERVER) as url:
        asyncio.run(main(url))
