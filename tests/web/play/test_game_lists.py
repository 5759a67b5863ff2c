"""Games belong to their players: on a server with accounts, the game list is the asker's own (its account's games
and those of the seats its browser holds), never every game on the server; ``hive play`` lists every game, all its
user's."""

from __future__ import annotations

import asyncio
from pathlib import Path

from ...web_support import in_process
from ..api_support import SERVER, open_seek, other, sign_up


def ids(answer: dict[str, object]) -> dict[str, object]:
    games = answer["games"]
    assert isinstance(games, list)
    return {game["id"]: game.get("seat") for game in games}


def test_a_players_list_holds_only_their_games(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            ann, bo = await sign_up(c, "ann"), other(c)
            bob = await sign_up(bo, "bob")
            seek = (await open_seek(c, ann["csrf"], game="Base", time_control="blitz", colour="white")).json()
            accepted = await bo.post(f"/api/seeks/{seek['id']}/accept", headers={"x-csrf-token": bob["csrf"]})
            rated = accepted.json()["id"]
            guest, stranger, carol_browser = other(c), other(c), other(c)
            made = (await guest.post("/api/games", json={"mode": "ai", "ai_level": "random"})).json()
            await sign_up(carol_browser, "carol")

            # a new guest, and an account that plays nothing, see no game; the live list is for watching
            assert ids((await stranger.get("/api/games")).json()) == {}
            assert ids((await carol_browser.get("/api/games")).json()) == {}
            assert rated in {g["id"] for g in (await stranger.get("/api/live")).json()["games"]}
            # each account sees its game with its seat, from any device (no token held)
            assert ids((await c.get("/api/games")).json()) == {rated: 0}
            assert [g["tournament"] for g in (await c.get("/api/games")).json()["games"]] == [None]
            assert ids((await bo.get("/api/games")).json()) == {rated: 1}
            # a guest's game is listed by the seat token its browser holds, and only so
            held = {"x-seat-tokens": f"{made['token']},someoneelsestoken"}
            assert ids((await guest.get("/api/games", headers=held)).json()) == {made["id"]: 0}
            assert ids((await guest.get("/api/games")).json()) == {}
            # ann holding the guest's token as well sees both
            assert ids((await c.get("/api/games", headers=held)).json()) == {rated: 0, made["id"]: 0}
            for bad in (b"x" * 65, b"a b", "tok\u00e9n".encode(), b",".join([b"t"] * 501)):
                r = await guest.get("/api/games", headers={b"x-seat-tokens": bad})
                assert r.status_code == 400 and "X-Seat-Tokens" in r.json()["error"], (bad[:10], r.text)
            for client in (bo, guest, stranger, carol_browser):
                await client.aclose()

    asyncio.run(main())


def test_hive_play_lists_every_game(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3") as (_, c):
            made = [(await c.post("/api/games", json={"mode": "local"})).json()["id"] for _ in range(2)]
            assert set(ids((await other(c).get("/api/games")).json())) == set(made)

    asyncio.run(main())
