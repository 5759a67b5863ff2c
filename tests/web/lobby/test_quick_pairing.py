"""Quick pairing (``/api/quickpair``): the grid of common time controls; a click accepts the oldest fitting seek of
its pool by someone else, or opens a seek, or withdraws the clicker's own; ratings ranges weighed both ways; bad
clicks refused with a 4xx, and a player who plays a real-time game refused; and two players clicking the same cell
at once, on two ``hive serve`` processes sharing PostgreSQL (and in one process on SQLite), get one game, never two
waiting seeks."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from ...web_support import ServeProcess, in_process
from ..api_support import LIMITS, SERVER, open_seek, other, sign_up
from ..socket_support import account

CASUAL = {"game": "Base", "rated": False}


async def click(c: httpx.AsyncClient, csrf: str, cell: Any, **more: Any) -> httpx.Response:
    """A click on the grid's cell of time control ``cell``, for a casual game of Base unless ``more`` says."""
    return await c.post("/api/quickpair", json={**CASUAL, "time_control": cell, **more}, headers={"x-csrf-token": csrf})


def test_a_click_accepts_a_fitting_seek_or_opens_one_or_withdraws_ones_own(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            grid = (await c.get("/api/quickpair")).json()["cells"]
            assert [cell["id"] for cell in grid][:4] == ["1+0", "2+1", "3+0", "3+2"] and len(grid) == 13
            speeds = {cell["id"]: cell["speed"] for cell in grid}
            assert (speeds["2+1"], speeds["5+3"], speeds["10+0"], speeds["30+20"]) == (
                "bullet", "blitz", "rapid", "classical",
            )  # fmt: skip
            assert speeds["3 days"] == "correspondence"
            ann = await sign_up(c, "ann")
            bo, ca = other(c), other(c)
            bob, carol = await sign_up(bo, "bob"), await sign_up(ca, "carol")
            three = {"initial": 180, "increment": 2}

            # nobody waits: a seek is opened; clicked again, it is withdrawn
            first = (await click(c, ann["csrf"], three)).json()
            assert first["paired"] == "waiting" and first["seek"]["pool"] == "3+2" and not first["seek"]["rated"]
            assert [s["id"] for s in (await c.get("/api/seeks")).json()["seeks"]] == [first["seek"]["id"]]
            again = (await click(c, ann["csrf"], three)).json()
            assert again == {"paired": "cancelled", "seek": first["seek"]["id"]}
            assert (await c.get("/api/seeks")).json()["seeks"] == []

            # a rated click does not meet a casual seek; a casual one does, and the game starts for both
            waiting = (await click(c, ann["csrf"], three)).json()["seek"]
            rated = (await click(bo, bob["csrf"], three, rated=True)).json()
            assert rated["paired"] == "waiting" and rated["seek"]["id"] != waiting["id"]
            started = await click(bo, bob["csrf"], three)
            assert started.status_code == 200, started.text
            game = started.json()
            assert game["paired"] == "started" and sorted(game["state"]["names"]) == ["ann", "bob"]
            assert (await c.get(f"/api/seeks/{waiting['id']}")).json()["game_id"] == game["id"]
            assert (await c.get(f"/api/games/{game['id']}/seat")).json()["token"] != game["token"]
            assert (await c.get("/api/seeks")).json()["seeks"] == []  # bob plays now: his rated seek ended

            # a seek from the dialog asked as "blitz" is the 5+3 cell's, and is taken by a click there, once the
            # clicker plays no real-time game any more
            dialog = (await open_seek(ca, carol["csrf"], time_control="blitz", **CASUAL)).json()
            assert dialog["pool"] == "5+3"
            playing = await click(c, ann["csrf"], {"initial": 300, "increment": 3})
            assert playing.status_code == 409 and "playing" in playing.json()["error"]
            ann_h = {"x-csrf-token": ann["csrf"]}
            assert (await c.post(f"/api/games/{game['id']}/resign", json={}, headers=ann_h)).is_success
            taken = (await click(c, ann["csrf"], {"initial": 300, "increment": 3})).json()
            assert taken["paired"] == "started" and "carol" in taken["state"]["names"]
            assert (await c.post(f"/api/games/{taken['id']}/resign", json={}, headers=ann_h)).is_success

            # ratings ranges are weighed both ways: a seek for 1600 and above is not for a new player's 1500, nor a
            # seeker of 1500 for a click asking 1800 and above
            da, ed = other(c), other(c)
            dan, eve = await sign_up(da, "dan"), await sign_up(ed, "eve")
            strong = (await click(da, dan["csrf"], {"initial": 600}, rating_range=[1600, None])).json()
            assert strong["paired"] == "waiting" and strong["seek"]["rating_range"] == [1600, None]
            weak = (await click(ed, eve["csrf"], {"initial": 600, "increment": 0})).json()
            assert weak["paired"] == "waiting"
            picky = (await click(c, ann["csrf"], {"initial": 600}, rating_range=[1800, 3000])).json()
            assert picky["paired"] == "waiting"
            listed = (await c.get("/api/seeks")).json()["seeks"]
            assert sorted(s["player"] for s in listed if s["pool"] == "10+0") == ["ann", "dan", "eve"]

            # what is not a click is refused, naming the field
            refused = [
                {"time_control": "untimed"}, {"time_control": {"days": 2}}, {"time_control": {"initial": 61}},
                {"time_control": three, "rated": "yes"}, {"time_control": three, "rating_range": [1, "x"]},
                {"time_control": three, "rating_range": [2000, 1000]}, {"time_control": three, "colour": "white"},
                {"time_control": three, "kind": "chess"}, {"time_control": three, "game": "Base\u202e"},
            ]  # fmt: skip
            for body in refused:
                r = await ca.post("/api/quickpair", json=body, headers={"x-csrf-token": carol["csrf"]})
                assert r.status_code == 400 and r.json()["error"], (body, r.text)
            assert (await other(c).post("/api/quickpair", json={**CASUAL, "time_control": three})).status_code == 401
            assert (await c.post("/api/quickpair", json={**CASUAL, "time_control": three})).status_code == 403
            assert (await c.post("/api/quickpair", json=[1], headers={"x-csrf-token": ann["csrf"]})).status_code == 400

    asyncio.run(main())


def test_two_clicks_at_once_in_one_process_make_one_game(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            clients = [other(c) for _ in range(2)]
            csrfs = [(await sign_up(cl, name))["csrf"] for cl, name in zip(clients, ("ann", "bob"), strict=True)]
            for minutes in (1, 3, 5, 10, 30):
                control = {"initial": minutes * 60}
                answers = await asyncio.gather(*(click(cl, cs, control) for cl, cs in zip(clients, csrfs, strict=True)))
                paired = sorted(a.json().get("paired", a.text) for a in answers)
                assert paired == ["started", "waiting"], [a.text for a in answers]
                assert (await c.get("/api/seeks")).json()["seeks"] == []
                # resigned, so that the two play no real-time game when they click the next cell
                winner = next(i for i, a in enumerate(answers) if a.json()["paired"] == "started")
                game_id, resigner = answers[winner].json()["id"], (clients[winner], csrfs[winner])
                resigned = await resigner[0].post(
                    f"/api/games/{game_id}/resign", json={}, headers={"x-csrf-token": resigner[1]}
                )
                assert resigned.is_success, resigned.text

    asyncio.run(main())


async def race(one: str, two: str) -> None:
    """Two players click the same cells at the same moment, one on each process: each time, one game."""
    async with httpx.AsyncClient(base_url=one, timeout=30) as a, httpx.AsyncClient(base_url=two, timeout=30) as b:
        ann, bob = await account(a, "ann"), await account(b, "bob")
        for cell in ({"initial": 60}, {"initial": 120, "increment": 1}, {"initial": 180}, {"days": 1}, {"days": 3}):
            answers = await asyncio.gather(
                *(click(who["client"], who["headers"]["x-csrf-token"], cell) for who in (ann, bob))
            )
            assert sorted(r.json()["paired"] for r in answers) == ["started", "waiting"], [r.text for r in answers]
            game = next(r.json() for r in answers if r.json()["paired"] == "started")
            assert sorted(game["state"]["names"]) == ["ann", "bob"]
            assert (await a.get("/api/seeks")).json()["seeks"] == []
            resigned = await a.post(f"/api/games/{game['id']}/resign", json={}, headers=ann["headers"])
            assert resigned.is_success, resigned.text  # the two play no real-time game when they click the next cell


def test_two_clicks_at_once_on_two_processes_make_one_game(upgraded: str) -> None:
    with ServeProcess(upgraded, *LIMITS) as one, ServeProcess(upgraded, *LIMITS) as two:
        asyncio.run(race(one.url, two.url))
        for process in (one, two):
            assert process.stop() == 0
            assert "Traceback" not in process.output()
