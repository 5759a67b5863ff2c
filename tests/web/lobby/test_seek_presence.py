"""A seek is for a player who is there: it ends when its seeker has had no page open (no lobby socket) and no bot
event stream open for the grace, signs out, or starts another game; a correspondence seek waits for its seeker. In
process with a fake clock; through a real server and real sockets (a page's lobby socket, a bot's stream); and across
two ``hive serve`` processes on PostgreSQL, where a socket on one process holds a seek that the other sweeps."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.web.shared.events import LobbyEvent
from hive.web.shared.settings import Settings

from ...web_support import JSON, FakeTime, ServeProcess, in_process, server_thread
from ..api_support import LIMITS, SERVER, other, sign_up
from ..socket_support import account, lobby, message

BLITZ = {"game": "Base", "time_control": "blitz", "rated": False}
DAYS = {"game": "Base", "time_control": {"days": 1}, "rated": False}


async def open_seek(c: httpx.AsyncClient, who: JSON, **body: Any) -> JSON:
    r = await c.post("/api/seeks", json=body, headers={"x-csrf-token": who["csrf"]})
    assert r.status_code == 200, r.text
    seek: JSON = r.json()
    return seek


async def listed(c: httpx.AsyncClient) -> list[str]:
    return [seek["id"] for seek in (await c.get("/api/seeks")).json()["seeks"]]


def test_a_seek_ends_when_its_seeker_is_gone_for_the_grace_but_a_correspondence_one_waits(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (app, c):
            now = FakeTime()
            app.store.seeks.now = now
            heard: list[JSON] = []
            told = app.seeks.announce

            async def announce(change: LobbyEvent) -> None:
                heard.append(change.message())
                await told(change)

            app.seeks.announce = announce
            ann = await sign_up(c, "ann")
            bo = other(c)
            bob = await sign_up(bo, "bob")
            ann_id = (await app.store.accounts.find("ann")).id  # type: ignore[union-attr]
            blitz = await open_seek(c, ann, **BLITZ)
            daily = await open_seek(c, ann, **DAYS)
            app.bot_routes.streams[ann_id] += 1  # a page (or stream) of ann's open on this process
            for _ in range(12):  # a minute, held all along
                now.t += 5
                assert await app.news.hold_seeks() == []
            assert sorted(await listed(bo)) == sorted([blitz["id"], daily["id"]])
            del app.bot_routes.streams[ann_id]  # her last page closed
            now.t += 5
            assert await app.news.hold_seeks() == []  # within the grace: still open
            now.t += app.settings.seek_grace
            await app.news.hold_seeks()  # (or the server's own look every few seconds, at the same time)
            assert await listed(bo) == [daily["id"]]  # a correspondence seek waits for its seeker
            late = await bo.post(f"/api/seeks/{blitz['id']}/accept", headers={"x-csrf-token": bob["csrf"]})
            assert late.status_code == 404 and "cancelled" in late.json()["error"]
            ended = [change for change in heard if change["change"] == "cancelled"]
            assert [(e["id"], e["why"], e["player"]) for e in ended] == [(blitz["id"], "gone", "ann")]
            now.t += 86400
            assert await app.news.hold_seeks() == []  # only its seeker, signing out, ends it
            out = await c.delete("/api/session", headers={"x-csrf-token": ann["csrf"]})
            assert out.status_code == 200
            assert await listed(bo) == []
            assert heard[-1]["id"] == daily["id"] and heard[-1]["why"] == "signed out"

    asyncio.run(main())


def test_starting_a_game_ends_both_players_other_seeks_and_challenges(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            ann = await sign_up(c, "ann")
            bo, ca = other(c), other(c)
            bob, carol = await sign_up(bo, "bob"), await sign_up(ca, "carol")
            first = await open_seek(c, ann, **BLITZ)
            second = await open_seek(c, ann, **BLITZ)
            daily = await open_seek(c, ann, **DAYS)
            challenge = await c.post(
                "/api/challenges", json={"to": "carol", **BLITZ}, headers={"x-csrf-token": ann["csrf"]}
            )
            bobs = await open_seek(bo, bob, **BLITZ)
            to_bob = await ca.post(
                "/api/challenges", json={"to": "bob", **BLITZ}, headers={"x-csrf-token": carol["csrf"]}
            )
            taken = await bo.post(f"/api/seeks/{first['id']}/accept", headers={"x-csrf-token": bob["csrf"]})
            assert taken.status_code == 200, taken.text
            # ann plays now: her other real-time seek and her challenge end; bob's own seek too; the correspondence
            # seek waits, and so does the challenge carol made to bob (his to answer)
            assert await listed(ca) == [daily["id"]]
            assert (await c.get(f"/api/seeks/{second['id']}")).status_code == 404
            assert (await c.get(f"/api/seeks/{bobs['id']}")).status_code == 404
            assert (await ca.get("/api/challenges")).json()["incoming"] == []
            assert [x["id"] for x in (await bo.get("/api/challenges")).json()["incoming"]] == [to_bob.json()["id"]]
            assert challenge.status_code == 200

    asyncio.run(main())


@pytest.mark.timing
def test_a_pages_lobby_socket_and_a_bots_stream_hold_their_seeks_and_closing_them_ends_them(tmp_path: Path) -> None:
    grace = 1.0
    settings = Settings(accounts=True, seek_grace=grace)

    async def main(url: str) -> None:
        async with (
            httpx.AsyncClient(base_url=url, timeout=30) as a,
            httpx.AsyncClient(base_url=url, timeout=30) as b,
            httpx.AsyncClient(base_url=url, timeout=30) as r,
        ):
            ann, bob, robo = await account(a, "ann"), await account(b, "bob"), await account(r, "robo")
            watching = await lobby(url, bob)
            page = await lobby(url, ann)
            seek = (await a.post("/api/seeks", json=BLITZ, headers=ann["headers"])).json()
            await asyncio.sleep(3 * grace)  # held by her page all along
            assert seek["id"] in await listed(b)
            await page.close()
            started = time.monotonic()
            gone = await message(watching, lambda m: m.get("change") == "cancelled" and m["id"] == seek["id"])
            took = time.monotonic() - started
            assert gone["why"] == "gone" and gone["player"] == "ann" and took < 10 * grace, took
            assert seek["id"] not in await listed(b)

            # a bot's seek, made by its API token, is held by its event stream
            assert (await r.post("/api/account/bot", headers=robo["headers"])).status_code == 200
            token = (await r.post("/api/account/token", headers=robo["headers"])).json()["token"]
            bearer = {"authorization": f"Bearer {token}"}
            async with httpx.AsyncClient(base_url=url, timeout=30, headers=bearer) as bot:
                async with bot.stream("GET", "/api/bot/stream") as stream:
                    offered = (await bot.post("/api/seeks", json=BLITZ)).json()
                    await asyncio.sleep(3 * grace)
                    assert offered["id"] in await listed(b)
                    assert stream.status_code == 200
                gone = await message(watching, lambda m: m.get("change") == "cancelled" and m["id"] == offered["id"])
                assert gone["why"] == "gone" and gone["player"] == "robo"
            await watching.close()

    with server_thread(tmp_path / "db.sqlite3", settings=settings) as url:
        asyncio.run(main(url))


@pytest.mark.timing
@pytest.mark.slow
def test_a_seek_held_by_a_socket_on_one_process_is_swept_by_the_other_once_it_closes(upgraded: str) -> None:
    grace = 2.0
    options = (*LIMITS, "--seek-grace", str(grace))

    async def main(one: str, two: str) -> None:
        async with httpx.AsyncClient(base_url=one, timeout=30) as a, httpx.AsyncClient(base_url=one, timeout=30) as b:
            ann, bob = await account(a, "ann"), await account(b, "bob")
            watching = await lobby(one, bob)
            page = await lobby(two, ann)  # her page is on the second process
            seek = (await a.post("/api/seeks", json=BLITZ, headers=ann["headers"])).json()
            await asyncio.sleep(3 * grace)  # the first process sweeps, the second holds it
            assert seek["id"] in await listed(b)
            await page.close()
            started = time.monotonic()
            gone = await message(watching, lambda m: m.get("change") == "cancelled" and m["id"] == seek["id"])
            assert gone["why"] == "gone" and time.monotonic() - started < 10 * grace
            await watching.close()

    with ServeProcess(upgraded, *options) as one, ServeProcess(upgraded, *options) as two:
        asyncio.run(main(one.url, two.url))
        for process in (one, two):
            assert process.stop() == 0
            assert "Traceback" not in process.output()
