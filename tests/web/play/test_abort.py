"""Aborting a game before both sides moved: either player of a game between two players online aborts it
(``POST /api/games/{id}/abort``), the server aborts one whose side to move makes no first move in time (through the
flag watcher, once), and an aborted game moves no rating and counts as no win, draw or loss in a profile; games
against the AI, on one screen, once both sides moved, or a tournament's are not aborted. The profile's W/D/L counts
no game that ended before both sides moved, as the ratings do not."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx

from hive.web.shared.settings import Settings

from ...web_support import JSON, FakeTime, in_process, new_game
from ..api_support import PASSWORD, SERVER, open_seek, other, play_moves, sign_up


async def seek_game(c: httpx.AsyncClient, **seek: Any) -> tuple[str, dict[httpx.AsyncClient, str], list[Any]]:
    """ann (on ``c``) seeks, bob accepts: the game, each client's CSRF token, and the clients by seat."""
    ann = await sign_up(c, "ann")
    bo = other(c)
    bob = await sign_up(bo, "bob")
    body = {"game": "Base", "time_control": "blitz", "rated": True, "colour": "white", **seek}
    offered = (await open_seek(c, ann["csrf"], **body)).json()
    taken = await bo.post(f"/api/seeks/{offered['id']}/accept", headers={"x-csrf-token": bob["csrf"]})
    assert taken.status_code == 200, taken.text
    return taken.json()["id"], {c: ann["csrf"], bo: bob["csrf"]}, [c, bo]


async def post(c: httpx.AsyncClient, csrf: str, game_id: str, action: str) -> httpx.Response:
    return await c.post(f"/api/games/{game_id}/{action}", json={}, headers={"x-csrf-token": csrf})


async def act(c: httpx.AsyncClient, game: JSON, action: str) -> httpx.Response:
    """``action`` on a guest's game, by the seat token it was created with."""
    return await c.post(f"/api/games/{game['id']}/{action}", json={}, headers={"x-seat-token": game["token"]})


def test_either_player_aborts_before_both_moved_and_the_game_is_neither_won_nor_lost(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            game_id, csrf, (white, black) = await seek_game(c)
            state = (await white.get(f"/api/games/{game_id}")).json()
            assert state["abortable"] and state["names"] == ["ann", "bob"]
            assert not (await other(c).get(f"/api/games/{game_id}")).json()["seats"]  # a spectator's view
            await play_moves(white, csrf[white], game_id, "Base", 1, 0)
            assert (await black.get(f"/api/games/{game_id}")).json()["abortable"]  # black has not moved
            aborted = await post(black, csrf[black], game_id, "abort")
            assert aborted.status_code == 200, aborted.text
            done = aborted.json()
            assert (done["result"], done["winner"], done["reason"]) == ("Aborted", None, "Black aborted the game")
            assert not done["abortable"] and done["event"]["what"] == "abort" and done["clock"]["running"] is None
            assert "ratings" not in (await white.get(f"/api/games/{game_id}")).json()
            again = await post(white, csrf[white], game_id, "abort")
            assert again.status_code == 409 and "over" in again.json()["error"]
            for name in ("ann", "bob"):
                profile = (await c.get(f"/api/players/{name}")).json()
                assert profile["ratings"] == {} and profile["history"] == {}
                games = (await c.get(f"/api/players/{name}/games")).json()
                assert (games["wins"], games["draws"], games["losses"]) == (0, 0, 0)
                assert [g["result"] for g in games["games"]] == ["aborted"]
                only = (await c.get(f"/api/players/{name}/games", params={"result": "aborted"})).json()
                assert len(only["games"]) == 1
            assert (await c.get("/api/players/ann/records")).text == ""  # nothing was played

    asyncio.run(main())


def test_a_game_is_not_aborted_once_both_moved_nor_against_the_ai_nor_on_one_screen(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            game_id, csrf, (white, black) = await seek_game(c)
            await play_moves(white, csrf[white], game_id, "Base", 1, 0)
            await play_moves(black, csrf[black], game_id, "Base", 1, 1)
            assert not (await white.get(f"/api/games/{game_id}")).json()["abortable"]
            late = await post(white, csrf[white], game_id, "abort")
            assert late.status_code == 409 and "Both sides have moved" in late.json()["error"]
            for mode in ("ai", "local"):
                game = await new_game(c, mode=mode)
                assert not game["state"]["abortable"]
                refused = await act(c, game, "abort")
                assert refused.status_code == 409 and "between two players online" in refused.json()["error"]
            # a guests' game between two browsers: its creator aborts it, even before the invitation is opened
            guests = await new_game(c, mode="online", time_control="blitz")
            assert guests["state"]["abortable"]
            ended = await act(c, guests, "abort")
            assert ended.status_code == 200 and ended.json()["result"] == "Aborted"

    asyncio.run(main())


def test_the_server_aborts_a_game_whose_side_to_move_makes_no_first_move_in_time(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (app, c):
            now = FakeTime()
            app.service.now = app.store.games.now = now
            first_move = app.settings.first_move
            game_id, csrf, (white, black) = await seek_game(c)
            # the first move's deadline is the game's flag: any process's flag watcher aborts it, once
            assert await app.store.games.deadlines(now.t + 3600) == [(game_id, now.t + first_move)]
            now.t += first_move - 1
            assert not await app.service.check_clock(game_id)
            await play_moves(white, csrf[white], game_id, "Base", 1, 0)  # white moves in time
            assert await app.store.games.deadlines(now.t + 3600) == [(game_id, now.t + first_move)]
            now.t += first_move
            assert await app.service.check_clock(game_id)
            assert not await app.service.check_clock(game_id)  # once
            state = (await white.get(f"/api/games/{game_id}")).json()
            assert (state["result"], state["reason"]) == ("Aborted", "Black made no first move")
            assert state["event"] == {"what": "abort", "by": None}
            assert await app.store.games.deadlines(now.t + 3600) == []
            assert (await c.get("/api/players/ann")).json()["ratings"] == {}
            moved = await post(black, csrf[black], game_id, "move")
            assert moved.status_code in (400, 409)

    asyncio.run(main())


def test_a_correspondence_games_first_move_has_its_days_and_a_guests_game_waits_for_its_invitation(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (app, c):
            now = FakeTime()
            app.service.now = app.store.games.now = now
            game_id, _, _ = await seek_game(c, time_control={"days": 2}, rated=False)
            assert await app.store.games.deadlines(now.t + 10 * 86400) == [(game_id, now.t + 2 * 86400)]
            guests = await new_game(c, mode="online", time_control="blitz")
            untimed = await new_game(c, mode="online")
            found = [found for found, _ in await app.store.games.deadlines(now.t + 10 * 86400)]
            assert guests["id"] not in found and untimed["id"] not in found
            now.t += 2 * 86400
            assert await app.service.check_clock(game_id)
            assert (await c.get(f"/api/games/{game_id}")).json()["reason"] == "White made no first move"

    asyncio.run(main())


def test_the_flag_watcher_aborts_the_game_with_nobody_asking(tmp_path: Path) -> None:
    async def main() -> None:
        settings = Settings(accounts=True, first_move=0.5)
        async with in_process(tmp_path / "db.sqlite3", settings=settings) as (_, c):
            game_id, _, _ = await seek_game(c)
            deadline = time.monotonic() + 30
            state: JSON = {}
            while time.monotonic() < deadline and state.get("result") is None:
                await asyncio.sleep(0.2)
                state = (await c.get(f"/api/games/{game_id}")).json()
            assert (state["result"], state["reason"]) == ("Aborted", "White made no first move")

    asyncio.run(main())


def test_a_tournaments_game_is_not_aborted(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (app, c):
            now = FakeTime()
            app.service.now = app.store.games.now = now
            clients = {}
            for number, name in enumerate(["ada", "ben"], start=1):
                await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.6.0.{number}")
                client = other(c)
                made = (await client.post("/api/session", json={"name": name, "password": PASSWORD})).json()
                clients[name] = (client, made["csrf"])
            ada, ada_csrf = clients["ada"]
            body = {"name": "Cup", "rounds": 1, "time_control": "blitz", "rated": False, "forfeit_after": None}
            tid = (await ada.post("/api/tournaments", json=body, headers={"x-csrf-token": ada_csrf})).json()["id"]
            for client, csrf in clients.values():
                await client.post(f"/api/tournaments/{tid}/join", headers={"x-csrf-token": csrf})
            started = (await ada.post(f"/api/tournaments/{tid}/start", headers={"x-csrf-token": ada_csrf})).json()
            game_id = started["paired"][0][0]["game_id"]
            assert not (await ada.get(f"/api/games/{game_id}")).json()["abortable"]
            refused = await post(ada, ada_csrf, game_id, "abort")
            assert refused.status_code == 409 and "tournament" in refused.json()["error"]
            assert await app.store.games.deadlines(now.t + 86400) == []  # its tournament's forfeit rule holds
            now.t += 3600
            assert not await app.service.check_clock(game_id)

    asyncio.run(main())


def test_a_profile_counts_no_win_or_loss_for_a_game_that_ended_before_both_sides_moved(tmp_path: Path) -> None:
    """A resignation after one move (as a flag after one move was before the abort) rates nobody: the profile counted
    it as a win and a loss all the same, beside a ratings table without either."""

    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            game_id, csrf, (white, black) = await seek_game(c)
            await play_moves(white, csrf[white], game_id, "Base", 1, 0)
            assert (await post(black, csrf[black], game_id, "resign")).json()["result"] == "WhiteWins"
            assert (await c.get("/api/players/ann")).json()["ratings"] == {}
            games = (await c.get("/api/players/ann/games")).json()
            assert (games["wins"], games["draws"], games["losses"]) == (0, 0, 0)
            assert [g["result"] for g in games["games"]] == ["aborted"]

    asyncio.run(main())
