"""The community's server side on ``hive serve``, on SQLite and PostgreSQL: who is online (``GET /api/online``, a fact
every server process shares through the database), a game's state naming its accounts and, once a rated game is over,
the rating change (in the GET and on the game's socket alike), the pages of profiles and the leaderboard, which
``hive play`` has none of, and how many rated games establish a rating (on the leaderboard, the asker's own count)."""

from __future__ import annotations

import asyncio
import contextlib
import math
from pathlib import Path

import httpx
import websockets

from hive.ratings import ESTABLISHED_AFTER, Rating, games_to_establish, rate_game
from hive.web.players.routes import ONLINE_LIMIT
from hive.web.players.service import ONLINE_SECONDS
from hive.web.players.tables import online

from ...web_support import JSON, in_process, server_thread, state_where
from ..api_support import PASSWORD, SERVER, other, play_moves, sign_up


def names(answer: httpx.Response) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [player["name"] for player in answer.json()["players"]]


def test_who_is_online_across_server_processes(database: str) -> None:
    async def main() -> None:
        async with contextlib.AsyncExitStack() as stack:
            one, c = await stack.enter_async_context(in_process(database, settings=SERVER))
            if database.startswith("sqlite"):  # a SQLite file is one process's
                two, d = one, other(c)
            else:  # two processes on one PostgreSQL database
                two, d = await stack.enter_async_context(in_process(database, settings=SERVER))
            guest = (await other(c).get("/api/online")).json()
            assert guest == {"players": [], "seconds": ONLINE_SECONDS}
            ann = await sign_up(c, "ann")  # signed in on the first process
            bob = await sign_up(d, "bob")  # and on the second
            assert names(await other(d).get("/api/online")) == ["bob", "ann"]  # most recent first
            assert names(await other(c).get("/api/online")) == ["bob", "ann"]
            answer = (await other(c).get("/api/online")).json()["players"]
            assert answer[0]["bot"] is False and answer[0]["seen"] >= answer[1]["seen"]

            # a bot's account is marked so; an account unseen for the window is no longer online
            assert (await d.post("/api/account/bot", headers={"x-csrf-token": bob["csrf"]})).is_success
            assert [p["bot"] for p in (await other(c).get("/api/online")).json()["players"]] == [True, False]
            ann_id = (await one.store.accounts.find("ann")).id  # type: ignore[union-attr]
            with one.store.database.engine.begin() as connection:
                aged = online.update().where(online.c.account_id == ann_id)
                connection.execute(aged.values(seen=online.c.seen - ONLINE_SECONDS - 1))
            assert names(await other(c).get("/api/online")) == ["bob"]
            # seen again by a process that had not marked ann lately (on SQLite the same one, its marks forgotten):
            # back, on every process
            if one is two:
                two.accounts._marked.clear()
            again = other(d)
            again.cookies = c.cookies
            assert (await again.get("/api/session")).json()["name"] == "ann"
            assert names(await other(c).get("/api/online")) == ["ann", "bob"]
            bad = await other(c).get("/api/online", headers={"authorization": "Bearer nonsense"})
            assert names(bad) == ["ann", "bob"]  # a bad API token asks as a guest

            # a banned account is not listed; one signed out is no longer online
            bob_id = (await one.store.accounts.find("bob")).id  # type: ignore[union-attr]
            await one.store.accounts.update(bob_id, banned=True)
            assert names(await other(c).get("/api/online")) == ["ann"]
            assert (await c.delete("/api/session", headers={"x-csrf-token": ann["csrf"]})).is_success
            assert names(await other(d).get("/api/online")) == []

            # the list is bounded
            for number in range(ONLINE_LIMIT + 5):
                made = await one.store.accounts.create(f"id{number}", f"p{number}", f"p{number}", "x")
                await one.store.accounts.seen(made.id)
            listed = names(await other(c).get("/api/online"))
            assert len(listed) == ONLINE_LIMIT and listed[0] == f"p{ONLINE_LIMIT + 4}"
            # a deleted account goes with its mark
            await one.store.accounts.delete(f"id{ONLINE_LIMIT + 4}")
            assert names(await other(c).get("/api/online"))[0] == f"p{ONLINE_LIMIT + 3}"

    asyncio.run(main())


def test_a_game_names_its_accounts_and_shows_the_rating_change_on_its_socket(database: str) -> None:
    with server_thread(database, settings=SERVER) as url:
        ann, bob = httpx.Client(base_url=url, timeout=30), httpx.Client(base_url=url, timeout=30)
        try:
            csrf = {}
            for name, c in (("ann", ann), ("bob", bob)):
                made = c.post("/api/accounts", json={"name": name, "password": PASSWORD}).json()
                csrf[name] = {"x-csrf-token": made["csrf"]}
            assert bob.post("/api/account/bot", headers=csrf["bob"]).is_success
            offer = {"game": "Base", "time_control": "blitz", "rated": True}
            seek = ann.post("/api/seeks", json=offer, headers=csrf["ann"])
            game_id = bob.post(f"/api/seeks/{seek.json()['id']}/accept", headers=csrf["bob"]).json()["id"]
            state: JSON = ann.get(f"/api/games/{game_id}").json()
            # each with the rating the game began with, shown beside the name during play
            began = {"rating": 1500, "provisional": True}
            accounts = {"ann": {"name": "ann", "bot": False, **began}, "bob": {"name": "bob", "bot": True, **began}}
            assert state["accounts"] == [accounts[name] for name in state["names"]]
            assert "ratings" not in state
            first, second = ("ann", "bob") if state["names"][0] == "ann" else ("bob", "ann")
            clients = {"ann": ann, "bob": bob}

            async def follow() -> JSON:
                async with websockets.connect(f"{url.replace('http', 'ws')}ws/games/{game_id}") as ws:
                    await state_where(ws, lambda s: True)
                    for ply, name in enumerate((first, second)):
                        await asyncio.to_thread(sync_play, clients[name], csrf[name], game_id, ply)
                    ended = clients[first].post(f"/api/games/{game_id}/resign", json={}, headers=csrf[first])
                    assert ended.status_code == 200, ended.text
                    answered.update(ended.json())  # the resignation's own answer shows the change too
                    return await state_where(ws, lambda s: s["result"] is not None)

            answered: JSON = {}
            shown = asyncio.run(follow())
            assert answered["ratings"] == shown["ratings"]
            expected = rate_game(Rating(), Rating(), 0.0)  # the first player resigned
            assert shown["accounts"] == state["accounts"]
            assert shown["ratings"]["speed"] == "blitz" and shown["ratings"]["before"] == [1500.0, 1500.0]
            assert all(math.isclose(a, e.rating) for a, e in zip(shown["ratings"]["after"], expected, strict=True))
            assert ann.get(f"/api/games/{game_id}").json()["ratings"] == shown["ratings"]
            # a guest's game says nothing of accounts
            guest = httpx.post(f"{url}api/games", json={"mode": "local"}, timeout=30).json()
            assert "accounts" not in guest["state"] and "ratings" not in guest["state"]
        finally:
            ann.close()
            bob.close()


def sync_play(c: httpx.Client, headers: dict[str, str], game_id: str, seed: int) -> None:
    """One random move by the player signed in with ``c``, by the session alone."""

    async def move() -> None:
        async with httpx.AsyncClient(base_url=str(c.base_url), cookies=c.cookies, timeout=30) as a:
            await play_moves(a, headers["x-csrf-token"], game_id, "Base", 1, seed)

    asyncio.run(move())


def test_the_pages_of_profiles_and_the_leaderboard_are_hive_serves_alone(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "serve.sqlite3", settings=SERVER) as (_, c):
            await sign_up(c, "ann")
            for path in ("/player/ann", "/player/nobody", "/leaderboard"):
                page = await c.get(path)
                assert page.status_code == 200 and page.headers["content-type"].startswith("text/html"), path
        async with in_process(tmp_path / "play.sqlite3") as (_, c):  # hive play's settings: no accounts
            for path in ("/player/ann", "/leaderboard", "/api/online", "/api/leaderboard", "/api/live"):
                assert (await c.get(path)).status_code == 404, path
            assert (await c.get("/api/assets")).json()["accounts"] is False

    asyncio.run(main())


def test_the_leaderboard_and_the_profile_say_how_many_games_establish_a_rating(database: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (app, c):
            await sign_up(c, "ann")
            bob = other(c)
            await sign_up(bob, "bob")
            board = (await c.get("/api/leaderboard", params={"game": "Base", "speed": "blitz"})).json()
            assert board["established_after"] == ESTABLISHED_AFTER == games_to_establish(Rating()) == 13
            assert board["leaders"] == []
            assert board["you"] == {"name": "ann", "games": 0, "provisional": True, "more": ESTABLISHED_AFTER}
            async with other(c) as guest:
                assert (await guest.get("/api/leaderboard")).json()["you"] is None
            ids = [(await app.store.accounts.find(name)) for name in ("ann", "bob")]
            assert ids[0] is not None and ids[1] is not None
            with app.store.database.engine.begin() as connection:  # one rated game, as its end stores it
                app.store.ratings.rate_within(connection, "g1", "Base", "blitz", (ids[0].id, ids[1].id), 1.0)
            board = (await c.get("/api/leaderboard", params={"game": "Base", "speed": "blitz"})).json()
            after = rate_game(Rating(), Rating(), 1.0)[0]
            assert board["you"] == {"name": "ann", "games": 1, "provisional": True, "more": games_to_establish(after)}
            assert 0 < board["you"]["more"] < ESTABLISHED_AFTER
            rating = (await c.get("/api/players/ann")).json()["ratings"]["Base"]["blitz"]
            assert rating["provisional"] and rating["games"] == 1 and rating["more"] == board["you"]["more"]
            await bob.aclose()

    asyncio.run(main())
