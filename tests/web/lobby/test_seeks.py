"""The lobby's seeks and rated games on ``hive serve``: two accounts made through the API play a rated blitz game
from a seek to its end, the session standing for the seat's token, and both ratings move as Glicko-2 says; on
SQLite and PostgreSQL, for both games."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

from hive.ratings import Rating, rate_game

from ...web_support import in_process
from ..api_support import SERVER, open_seek, other, play_moves, sign_up


@pytest.mark.parametrize("game", ["Base+MLP", pytest.param("HiveQueen", marks=pytest.mark.slow)])
def test_a_rated_blitz_game_from_a_seek_moves_both_ratings_as_glicko2_says(database: str, game: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (_, c):
            ann = await sign_up(c, "ann")
            bo = other(c)
            bob = await sign_up(bo, "bob")
            r = await open_seek(c, ann["csrf"], game=game, time_control="blitz", rated=True, colour="random")
            assert r.status_code == 200, r.text
            seek = r.json()
            assert seek["speed"] == "blitz" and seek["rated"] and seek["player"] == "ann" and seek["rating"] == 1500
            assert [s["id"] for s in (await bo.get("/api/seeks")).json()["seeks"]] == [seek["id"]]
            accepted = await bo.post(f"/api/seeks/{seek['id']}/accept", headers={"x-csrf-token": bob["csrf"]})
            assert accepted.status_code == 200, accepted.text
            game_id = accepted.json()["id"]
            assert (await c.get(f"/api/seeks/{seek['id']}")).json()["game_id"] == game_id  # how the seeker learns
            assert (await bo.get("/api/seeks")).json()["seeks"] == []
            state = (await c.get(f"/api/games/{game_id}")).json()
            assert state["rated"] and sorted(state["names"]) == ["ann", "bob"] and state["time_control"] == "Blitz 5+3"
            assert len(state["seats"]) == 1  # the session stands for ann's seat alone
            mine = (await c.get(f"/api/games/{game_id}/seat")).json()
            assert mine["seat"] == state["seats"][0] and len(mine["token"]) > 10
            assert (await other(c).get(f"/api/games/{game_id}/seat")).status_code == 401
            first = c if state["names"][0] == "ann" else bo
            second = bo if first is c else c
            csrf = {c: ann["csrf"], bo: bob["csrf"]}
            for ply in range(2):
                mover = first if ply % 2 == 0 else second
                state = await play_moves(mover, csrf[mover], game_id, game, 1, ply)
            # a change by the cookie needs the CSRF token
            refused = await first.post(f"/api/games/{game_id}/resign", json={})
            assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
            ended = await first.post(f"/api/games/{game_id}/resign", json={}, headers={"x-csrf-token": csrf[first]})
            assert ended.status_code == 200 and ended.json()["winner"] == 1
            winner, loser = ("bob", "ann") if first is c else ("ann", "bob")
            expected = rate_game(Rating(), Rating(), 0.0)  # the first player resigned
            final = (await c.get(f"/api/games/{game_id}")).json()
            assert math.isclose(final["ratings"]["after"][0], expected[0].rating)
            assert math.isclose(final["ratings"]["after"][1], expected[1].rating)
            assert final["ratings"]["before"] == [1500.0, 1500.0] and final["ratings"]["speed"] == "blitz"
            profiles = {name: (await c.get(f"/api/players/{name}")).json() for name in ("ann", "bob")}
            won, lost = profiles[winner]["ratings"][game]["blitz"], profiles[loser]["ratings"][game]["blitz"]
            assert won["rating"] == round(expected[1].rating) and lost["rating"] == round(expected[0].rating)
            assert (won["wins"], won["losses"], lost["wins"], lost["losses"]) == (1, 0, 0, 1)
            assert won["provisional"] and won["deviation"] == round(expected[1].deviation)
            # a rematch by the session is offered; asked by the other too, it starts: the same two accounts, colours
            # swapped, rated again, each answer carrying its asker's own token alone
            again = await first.post(f"/api/games/{game_id}/rematch", headers={"x-csrf-token": csrf[first]})
            assert again.status_code == 200, again.text
            assert again.json()["offered"]["rated"] and again.json()["token"] is None
            taken = await second.post(f"/api/games/{game_id}/rematch", headers={"x-csrf-token": csrf[second]})
            following = taken.json()["state"]
            assert following["names"] == final["names"][::-1] and following["rated"]
            seat = (await second.get(f"/api/games/{following['id']}/seat")).json()
            assert seat["seat"] == 0 and taken.json()["token"] == seat["token"] and taken.json()["invite"] is None

    asyncio.run(main())


def test_a_game_aborted_before_both_moved_and_a_casual_game_are_not_rated(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            ann = await sign_up(c, "ann")
            bo = other(c)
            bob = await sign_up(bo, "bob")
            for rated, moves in [(True, 1), (False, 2)]:
                seek = (await open_seek(c, ann["csrf"], game="Base", time_control="bullet", rated=rated)).json()
                accepted = await bo.post(f"/api/seeks/{seek['id']}/accept", headers={"x-csrf-token": bob["csrf"]})
                game_id = accepted.json()["id"]
                state = (await c.get(f"/api/games/{game_id}")).json()
                first, second = (c, bo) if state["names"][0] == "ann" else (bo, c)
                csrf = {c: ann["csrf"], bo: bob["csrf"]}
                for ply in range(moves):
                    mover = first if ply % 2 == 0 else second
                    await play_moves(mover, csrf[mover], game_id, "Base", 1, ply)
                done = await first.post(f"/api/games/{game_id}/resign", json={}, headers={"x-csrf-token": csrf[first]})
                assert done.status_code == 200
                assert "ratings" not in (await c.get(f"/api/games/{game_id}")).json()
            assert (await c.get("/api/players/ann")).json()["ratings"] == {}

    asyncio.run(main())


def test_seeks_refuse_what_they_should(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            ann = await sign_up(c, "ann")
            bo = other(c)
            bob = await sign_up(bo, "bob")
            assert (await c.post("/api/seeks", json={"game": "Base"})).status_code == 403  # no CSRF token
            assert (await other(c).post("/api/seeks", json={"game": "Base"})).status_code == 401  # a guest
            bad: list[tuple[dict[str, object], str]] = [
                ({"game": "Chess", "time_control": "blitz"}, "Chess"),
                ({"game": "Base"}, "A rated game needs a time control"),
                ({"game": "Base", "time_control": "blitz", "rated": "yes"}, "'rated' is true or false"),
                ({"game": "Base", "time_control": "blitz", "colour": "green"}, "Unknown colour 'green'"),
                ({"game": "Base", "time_control": "blitz", "rating_range": [1600, 1400]}, "from the lowest"),
                ({"game": "Base", "time_control": "hours"}, "time_control"),
            ]
            for body, message in bad:
                r = await open_seek(c, ann["csrf"], **body)
                assert r.status_code == 400 and message in r.json()["error"], (body, r.text)
            casual = (await open_seek(c, ann["csrf"], game="Base", rated=False)).json()  # a casual game may be untimed
            assert casual["speed"] == "correspondence" and casual["time_control"] == "Untimed"
            own = await c.post(f"/api/seeks/{casual['id']}/accept", headers={"x-csrf-token": ann["csrf"]})
            assert own.status_code == 403 and "your own seek" in own.json()["error"]
            strong = await open_seek(c, ann["csrf"], game="Base", time_control="blitz", rating_range=[1800, None])
            narrow = await bo.post(f"/api/seeks/{strong.json()['id']}/accept", headers={"x-csrf-token": bob["csrf"]})
            assert narrow.status_code == 403 and "out of this seek's range" in narrow.json()["error"]
            cancel = await bo.delete(f"/api/seeks/{casual['id']}", headers={"x-csrf-token": bob["csrf"]})
            assert cancel.status_code == 403
            taken = await bo.post(f"/api/seeks/{casual['id']}/accept", headers={"x-csrf-token": bob["csrf"]})
            assert taken.status_code == 200
            again = await other(bo).post("/api/seeks/x/accept")
            assert again.status_code == 401
            late = await bo.post(f"/api/seeks/{casual['id']}/accept", headers={"x-csrf-token": bob["csrf"]})
            assert late.status_code == 404 and "was accepted, cancelled" in late.json()["error"]
            # ann plays now: her other seek ended with the game's start (see test_seek_presence.py)
            assert (await c.get(f"/api/seeks/{strong.json()['id']}")).status_code == 404
            for _ in range(5):
                await open_seek(c, ann["csrf"], game="HiveQueen", rated=False)
            many = await open_seek(c, ann["csrf"], game="HiveQueen", rated=False)
            assert many.status_code == 409 and "5 seeks open" in many.json()["error"]
            # a stranger's session does not stand for a seat
            game_id = taken.json()["id"]
            carol = other(c)
            await sign_up(carol, "carol")
            watched = (await carol.get(f"/api/games/{game_id}")).json()
            assert watched["seats"] == []

    asyncio.run(main())


def test_two_accepts_at_once_start_one_game(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            ann = await sign_up(c, "ann")
            seek = (await open_seek(c, ann["csrf"], game="Base", time_control="blitz")).json()
            players = [other(c) for _ in range(3)]
            made = [await sign_up(p, f"player{i}") for i, p in enumerate(players)]
            answers = await asyncio.gather(
                *(p.post(f"/api/seeks/{seek['id']}/accept", headers={"x-csrf-token": m["csrf"]})
                  for p, m in zip(players, made, strict=True))
            )  # fmt: skip
            assert sorted(a.status_code for a in answers) in ([200, 404, 404], [200, 409, 409], [200, 404, 409])
            games = (await c.get("/api/games")).json()
            assert len([g for g in games["games"] if g.get("rated")]) == 1

    asyncio.run(main())


def test_profiles_list_games_with_filters_head_to_head_records_history_and_turns(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            ann = await sign_up(c, "ann")
            bo = other(c)
            bob = await sign_up(bo, "bob")
            csrf = {c: ann["csrf"], bo: bob["csrf"]}
            ended = []
            for number, rated in enumerate([True, False, True]):
                seek = (await open_seek(c, ann["csrf"], game="Base", time_control="blitz", rated=rated)).json()
                taken = await bo.post(f"/api/seeks/{seek['id']}/accept", headers={"x-csrf-token": csrf[bo]})
                game_id = taken.json()["id"]
                state = (await c.get(f"/api/games/{game_id}")).json()
                first, second = (c, bo) if state["names"][0] == "ann" else (bo, c)
                turns = {who: (await who.get("/api/account/turns")).json()["games"] for who in (c, bo)}
                watched = (await other(c).get("/api/live")).json()["games"]
                assert [g["id"] for g in watched] == [game_id] and len(watched[0]["ratings"]) == 2
                assert [g["id"] for g in turns[first]] == [game_id] and turns[second] == []
                if number == 2:
                    break  # left in progress
                for ply in range(2):
                    mover = first if ply % 2 == 0 else second
                    await play_moves(mover, csrf[mover], game_id, "Base", 1, ply)
                loser = c if number == 0 else bo  # ann loses the first, bob the second
                headers = {"x-csrf-token": csrf[loser]}
                resigned = await loser.post(f"/api/games/{game_id}/resign", json={}, headers=headers)
                assert resigned.is_success
                ended.append(game_id)
            games = (await c.get("/api/players/ann/games")).json()
            assert (games["wins"], games["draws"], games["losses"]) == (1, 0, 1)
            assert [g["result"] for g in games["games"]] == ["ongoing", "win", "loss"]
            assert [g["moves"] for g in games["games"]] == [0, 2, 2]
            assert {g["opponent"] for g in games["games"]} == {"bob"} and games["games"][1]["rated"] is False
            rated = (await c.get("/api/players/BOB/games", params={"opponent": "Ann", "result": "win"})).json()
            assert [g["id"] for g in rated["games"]] == [ended[0]] and rated["wins"] == 1  # head-to-head
            none = (await c.get("/api/players/bob/games", params={"speed": "bullet"})).json()
            assert none["games"] == []
            bad = await c.get("/api/players/bob/games", params={"result": "maybe"})
            assert bad.status_code == 400 and "'result' is one of" in bad.json()["error"]
            records = (await c.get("/api/players/ann/records")).text.strip().splitlines()
            assert len(records) == 2 and all(r.startswith("Base;") for r in records)
            history = (await c.get("/api/players/ann")).json()["history"]
            assert [len(history["Base"]["blitz"])] == [1]  # the casual game moved no rating
            board = (await c.get("/api/leaderboard", params={"game": "Base", "speed": "blitz"})).json()
            listed = {key: board[key] for key in ("game", "speed", "leaders", "games")}
            assert listed == {"game": "Base", "speed": "blitz", "leaders": [], "games": ["Base"]}  # both provisional
            assert board["you"]["games"] == 1 and board["you"]["provisional"]
            assert (await c.get("/api/leaderboard", params={"speed": "warp"})).status_code == 400

    asyncio.run(main())
