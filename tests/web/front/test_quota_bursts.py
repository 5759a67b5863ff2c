"""Limits a burst cannot race: 60 seeks opened at once by one account, 60 chat lines written at once, and 60
tournaments made at once, over two ``hive serve`` processes sharing one PostgreSQL database, store exactly the limit
(5 open seeks, 10 lines a minute, 5 open tournaments); the others are refused (409, 429). Real processes on real
ports."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from hive.web.chat.service import RATE
from hive.web.lobby.service import OPEN_SEEKS
from hive.web.tournaments.service import LIMITS as TOURNAMENTS

from ...web_support import ServeProcess
from ..api_support import LIMITS
from ..socket_support import account


async def burst(clients: list[httpx.AsyncClient], n: int, path: str, body: Any, headers: dict[str, str]) -> list[int]:
    """``n`` requests at once, taking turns among ``clients`` (each on its own process); their statuses."""
    sent = [clients[i % len(clients)].post(path, json=body, headers=headers) for i in range(n)]
    return [r.status_code for r in await asyncio.gather(*sent)]


async def bursts(one: str, two: str) -> None:
    async with (
        httpx.AsyncClient(base_url=one, timeout=60) as a,
        httpx.AsyncClient(base_url=one, timeout=60) as b,
    ):
        ann, bob = await account(a, "ann"), await account(b, "bob")
        # the same session on the second process: its cookie is in the shared database
        a2 = httpx.AsyncClient(base_url=two, timeout=60, cookies=a.cookies)
        async with a2:
            seek = {"game": "Base", "time_control": {"days": 1}, "rated": False, "colour": "white"}
            opened = (await a.post("/api/seeks", json=seek, headers=ann["headers"])).json()
            game_id = (await b.post(f"/api/seeks/{opened['id']}/accept", headers=bob["headers"])).json()["id"]

            line = {"room": "players", "text": "hello"}
            said = await burst([a, a2], 60, f"/api/games/{game_id}/chat", line, ann["headers"])
            assert sorted(set(said)) == [200, 429] and said.count(200) == RATE, said
            stored = (await b.get(f"/api/games/{game_id}/chat", params={"room": "players"})).json()["messages"]
            assert len(stored) == RATE

            seeks = await burst([a, a2], 60, "/api/seeks", {"game": "Base", "rated": False}, ann["headers"])
            assert sorted(set(seeks)) == [200, 409] and seeks.count(200) == OPEN_SEEKS, seeks
            listed = (await b.get("/api/seeks")).json()["seeks"]
            assert [s["player"] for s in listed] == ["ann"] * OPEN_SEEKS

            cup = {"name": "Cup", "rated": False, "rounds": 1}
            made = await burst([a, a2], 60, "/api/tournaments", cup, ann["headers"])
            assert sorted(set(made)) == [200, 429] and made.count(200) == TOURNAMENTS.open, made
            assert len((await b.get("/api/tournaments")).json()["tournaments"]) == TOURNAMENTS.open


def test_bursts_over_two_processes_store_exactly_the_limit(upgraded: str) -> None:
    with ServeProcess(upgraded, *LIMITS) as one, ServeProcess(upgraded, *LIMITS) as two:
        asyncio.run(bursts(one.url, two.url))
        for process in (one, two):
            assert process.stop() == 0
            assert "Traceback" not in process.output()
