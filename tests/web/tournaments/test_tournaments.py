"""Tournaments on ``hive serve``: a 4-account Swiss tournament of 3 rounds runs through the API from its creation
to its final standings, the server pairing each round when the last one's games end; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import httpx

from ...web_support import JSON, FakeTime, in_process
from ..api_support import PASSWORD, SERVER, finish, other


def test_a_swiss_tournament_of_four_accounts_runs_to_its_final_standings(database: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (app, c):
            players: dict[str, tuple[httpx.AsyncClient, dict[str, str]]] = {}
            for number, name in enumerate(["ada", "ben", "cyd", "dee"], start=1):
                await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.2.0.{number}")
                client = other(c)
                signed = (await client.post("/api/session", json={"name": name, "password": PASSWORD})).json()
                players[name] = (client, {"x-csrf-token": signed["csrf"]})
            ada, ada_csrf = players["ada"]
            body = {"name": "Friday Swiss", "format": "swiss", "rounds": 3, "game": "Base", "time_control": "blitz"}
            made = await ada.post("/api/tournaments", json=body, headers=ada_csrf)
            assert made.status_code == 200, made.text
            tournament = made.json()
            tid = tournament["id"]
            assert (tournament["status"], tournament["rounds"], tournament["game"]) == ("open", 3, "Base")
            for client, csrf in players.values():
                joined = await client.post(f"/api/tournaments/{tid}/join", headers=csrf)
                assert joined.status_code == 200, joined.text
            again = await ada.post(f"/api/tournaments/{tid}/join", headers=ada_csrf)
            assert again.status_code == 409 and "already" in again.json()["error"]
            ben, ben_csrf = players["ben"]
            assert (await ben.post(f"/api/tournaments/{tid}/start", headers=ben_csrf)).status_code == 403
            started = (await ada.post(f"/api/tournaments/{tid}/start", headers=ada_csrf)).json()
            assert started["status"] == "running" and len(started["paired"]) == 1

            async def settled(rounds: int, status: str = "running") -> JSON:
                """The tournament once its rounds are paired (each pairing follows the last game's end)."""
                for _ in range(200):
                    shown: JSON = (await c.get(f"/api/tournaments/{tid}")).json()
                    assert "error" not in shown, shown
                    if len(shown["paired"]) == rounds and shown["status"] == status:
                        return shown
                    await asyncio.sleep(0.05)
                raise AssertionError(shown)

            for number in range(1, 4):
                shown = await settled(number)
                games = shown["paired"][-1]
                assert len(games) == 2 and all(g["game_id"] and g["result"] is None for g in games)
                for board, game in enumerate(games):
                    state = (await c.get(f"/api/games/{game['game_id']}")).json()
                    assert state["names"] == [game["first"], game["second"]] and state["rated"]
                    await finish(game["game_id"], players, (number + board) % 3)
            final = await settled(3, "finished")
            assert final["status"] == "finished" and len(final["paired"]) == 3
            met = Counter(frozenset((g["first"], g["second"])) for r in final["paired"] for g in r)
            assert max(met.values()) == 1  # nobody met twice
            table = final["standings"]
            assert [line["rank"] for line in table] == sorted(line["rank"] for line in table)
            assert sum(line["points"] for line in table) == 6 and {line["games"] for line in table} == {3}
            assert set(table[0]["tiebreaks"]) == {"buchholz-cut1", "buchholz", "sonneborn-berger", "head-to-head"}
            records = (await c.get(f"/api/tournaments/{tid}/records")).text
            assert len(records.strip().splitlines()) == 6 and records.startswith("Base;")
            assert len((await c.get("/api/players/ada")).json()["ratings"]["Base"]["blitz"]) > 0
            listed = (await c.get("/api/tournaments")).json()["tournaments"]
            assert [(t["id"], t["status"]) for t in listed] == [(tid, "finished")]

    asyncio.run(main())


def test_tournaments_refuse_what_they_should(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (app, c):
            await app.accounts.sign_up({"name": "ada", "password": PASSWORD}, "10.3.0.1")
            signed = (await c.post("/api/session", json={"name": "ada", "password": PASSWORD})).json()
            csrf = {"x-csrf-token": signed["csrf"]}
            for body, message in [
                ({"name": ""}, "1 to 80 characters"),
                ({"name": "x", "format": "knockout", "time_control": "blitz"}, "Unknown format 'knockout'"),
                ({"name": "x", "rounds": 0, "time_control": "blitz"}, "at least 1 round"),
                ({"name": "x", "rounds": 3}, "needs a time control"),
                ({"name": "x", "rounds": 3, "game": "Chess", "time_control": "blitz"}, "Chess"),
            ]:
                r = await c.post("/api/tournaments", json=body, headers=csrf)
                assert r.status_code == 400 and message in r.json()["error"], (body, r.text)
            assert (await other(c).post("/api/tournaments", json={"name": "x"})).status_code == 401
            kinds = {"name": "y", "rounds": 2, "rated": False, "kind": "hivequeen", "options": {}}
            assert (await c.post("/api/tournaments", json=kinds, headers=csrf)).json()["game"] == "HiveQueen"
            bad_kind = await c.post("/api/tournaments", json={**kinds, "kind": "chess"}, headers=csrf)
            assert bad_kind.status_code == 400 and "chess" in bad_kind.json()["error"]
            made = await c.post("/api/tournaments", json={"name": "x", "rounds": 2, "rated": False}, headers=csrf)
            tid = made.json()["id"]
            await c.post(f"/api/tournaments/{tid}/join", headers=csrf)
            alone = await c.post(f"/api/tournaments/{tid}/start", headers=csrf)
            assert alone.status_code == 409 and "at least 2 players" in alone.json()["error"]
            assert (await c.get("/api/tournaments/nope")).status_code == 404
            assert (await c.post(f"/api/tournaments/{tid}/dance", headers=csrf)).status_code == 404
            # by invitation, and without bots
            guests = {}
            for number, name in enumerate(["ben", "robo"], start=2):
                await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.3.0.{number}")
                client = other(c)
                made = (await client.post("/api/session", json={"name": name, "password": PASSWORD})).json()
                guests[name] = (client, {"x-csrf-token": made["csrf"]})
            robo, robo_csrf = guests["robo"]
            assert (await robo.post("/api/account/bot", headers=robo_csrf)).status_code == 200
            body = {"name": "Club night", "rated": False, "rounds": 2, "invite_only": True, "bots": False}
            closed = (await c.post("/api/tournaments", json=body, headers=csrf)).json()
            assert closed["invite_only"] and not closed["bots"]
            ben, ben_csrf = guests["ben"]
            shut = await ben.post(f"/api/tournaments/{closed['id']}/join", headers=ben_csrf)
            assert shut.status_code == 403 and "by invitation" in shut.json()["error"]
            stranger = await ben.post(f"/api/tournaments/{closed['id']}/invite", json={"name": "ben"}, headers=ben_csrf)
            assert stranger.status_code == 403
            missing = await c.post(f"/api/tournaments/{closed['id']}/invite", json={"name": "zed"}, headers=csrf)
            assert missing.status_code == 404
            for name in ("ben", "robo"):
                invited = await c.post(f"/api/tournaments/{closed['id']}/invite", json={"name": name}, headers=csrf)
                assert invited.status_code == 200
            assert (await ben.post(f"/api/tournaments/{closed['id']}/join", headers=ben_csrf)).status_code == 200
            bot = await robo.post(f"/api/tournaments/{closed['id']}/join", headers=robo_csrf)
            assert bot.status_code == 403 and "allows no bots" in bot.json()["error"]

    asyncio.run(main())


def test_a_player_absent_at_a_round_s_start_loses_by_forfeit(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (app, c):
            clients = {}
            for number, name in enumerate(["ada", "ben"], start=1):
                await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.5.0.{number}")
                client = other(c)
                made = (await client.post("/api/session", json={"name": name, "password": PASSWORD})).json()
                clients[name] = (client, {"x-csrf-token": made["csrf"]})
            ada, ada_csrf = clients["ada"]
            body = {"name": "Quick", "rounds": 2, "time_control": "blitz", "rated": False, "forfeit_after": 0.01}
            # two players meet once: a second round would be a rematch, so the tournament ends after the first
            tid = (await ada.post("/api/tournaments", json=body, headers=ada_csrf)).json()["id"]
            for client, csrf in clients.values():
                await client.post(f"/api/tournaments/{tid}/join", headers=csrf)
            started = (await ada.post(f"/api/tournaments/{tid}/start", headers=ada_csrf)).json()
            first = started["paired"][0][0]["first"]
            await asyncio.sleep(1.0)  # past the forfeit time: nobody moved
            shown = (await c.get(f"/api/tournaments/{tid}")).json()
            game = shown["paired"][0][0]
            assert game["result"] == 0.0 and game["forfeit"], shown
            state = (await c.get(f"/api/games/{game['game_id']}")).json()
            assert state["reason"] and "did not make a first move" in state["reason"]
            loser = next(line for line in shown["standings"] if line["player"] == first)
            assert loser["points"] == 0 and loser["games"] == 0  # a forfeit counts in no tie-break
            assert len(shown["paired"]) == 1 and shown["status"] == "finished"

    asyncio.run(main())


def test_a_tournament_starts_by_itself_at_its_start_time(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (app, c):
            clock = app.store.tournaments.now = FakeTime()
            clients = {}
            for number, name in enumerate(["ada", "ben"], start=1):
                await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.6.0.{number}")
                client = other(c)
                made = (await client.post("/api/session", json={"name": name, "password": PASSWORD})).json()
                clients[name] = (client, {"x-csrf-token": made["csrf"]})
            ada, ada_csrf = clients["ada"]
            soon = {"name": "At eight", "rounds": 1, "rated": False, "starts": clock.t + 60}
            tid = (await ada.post("/api/tournaments", json=soon, headers=ada_csrf)).json()["id"]
            empty = {**soon, "name": "Nobody came"}
            lonely = (await ada.post("/api/tournaments", json=empty, headers=ada_csrf)).json()["id"]
            for client, csrf in clients.values():
                await client.post(f"/api/tournaments/{tid}/join", headers=csrf)
            await app.tournaments.look()  # not yet
            assert (await c.get(f"/api/tournaments/{tid}")).json()["status"] == "open"
            clock.t += 61
            await app.tournaments.look()  # as the server does every half minute
            started = (await c.get(f"/api/tournaments/{tid}")).json()
            assert started["status"] == "running" and len(started["paired"]) == 1
            assert (await c.get(f"/api/tournaments/{lonely}")).json()["status"] == "finished"
            bad = await ada.post("/api/tournaments", json={**soon, "starts": "eight"}, headers=ada_csrf)
            assert bad.status_code == 400 and "'starts'" in bad.json()["error"]

    asyncio.run(main())
