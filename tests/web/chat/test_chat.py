"""Chat on ``hive serve``: the players' room and the spectators' room of a game, who may read and write each,
length and rate limits, blocking, and reports to the admins."""

from __future__ import annotations

import asyncio
from pathlib import Path

from ...web_support import in_process
from ..api_support import PASSWORD, SERVER, open_seek, other


def test_the_rooms_limits_blocks_and_reports(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (app, c):
            people = {}
            for number, name in enumerate(["ann", "bob", "carol", "chief"], start=1):
                await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.4.0.{number}")
                client = other(c)
                made = (await client.post("/api/session", json={"name": name, "password": PASSWORD})).json()
                people[name] = (client, {"x-csrf-token": made["csrf"]})
            await app.accounts.set_admin("chief", True)
            (ann, ann_h), (bob, bob_h), (carol, carol_h), (chief, _) = people.values()
            seek = (await open_seek(ann, ann_h["x-csrf-token"], game="Base", time_control="blitz")).json()
            game_id = (await bob.post(f"/api/seeks/{seek['id']}/accept", headers=bob_h)).json()["id"]
            chat = f"/api/games/{game_id}/chat"

            said = await ann.post(chat, json={"room": "players", "text": "  good   luck <b>bob</b> "}, headers=ann_h)
            assert said.status_code == 200 and said.json()["text"] == "good luck <b>bob</b>"  # kept as text
            assert (await bob.get(chat, params={"room": "players"})).json()["messages"][0]["name"] == "ann"
            for asker in (carol, other(c)):
                assert (await asker.get(chat, params={"room": "players"})).status_code == 403
            assert (await carol.post(chat, json={"room": "spectators", "text": "go ann"}, headers=carol_h)).is_success
            hidden = await ann.get(chat, params={"room": "spectators"})
            assert hidden.status_code == 403 and "once the game is over" in hidden.json()["error"]
            assert (await ann.post(chat, json={"room": "spectators", "text": "hi"}, headers=ann_h)).status_code == 403
            assert (await other(c).get(chat, params={"room": "spectators"})).json()["messages"][0]["text"] == "go ann"
            assert (await carol.post(chat, json={"room": "spectators", "text": "x"})).status_code == 403  # no CSRF
            for body, message in [
                ({"room": "players", "text": "x" * 301}, "at most 300 characters"),
                ({"room": "players", "text": "   "}, "some text"),
                ({"room": "players", "text": "a\u202eb"}, "control or format characters"),
                ({"room": "lounge", "text": "hi"}, "'players' or 'spectators'"),
            ]:
                r = await bob.post(chat, json=body, headers=bob_h)
                assert r.status_code == 400 and message in r.json()["error"], (body, r.text)
            for number in range(10):
                assert (await bob.post(chat, json={"room": "players", "text": f"m{number}"}, headers=bob_h)).is_success
            flood = await bob.post(chat, json={"room": "players", "text": "one more"}, headers=bob_h)
            assert flood.status_code == 429 and "10 messages a minute" in flood.json()["error"]

            # blocking hides the blocked one's messages from the blocker, and refuses its challenges
            assert (await bob.post("/api/account/block", json={"name": "ANN"}, headers=bob_h)).json()["blocked"]
            names = {m["name"] for m in (await bob.get(chat, params={"room": "players"})).json()["messages"]}
            assert names == {"bob"}
            refused = await ann.post(
                "/api/challenges", json={"to": "bob", "game": "Base", "rated": False}, headers=ann_h
            )
            assert refused.status_code == 400 and "cannot be challenged" in refused.json()["error"]
            await bob.post("/api/account/unblock", json={"name": "ann"}, headers=bob_h)
            names = {m["name"] for m in (await bob.get(chat, params={"room": "players"})).json()["messages"]}
            assert names == {"ann", "bob"}

            # a report reaches the admins only
            first = (await bob.get(chat, params={"room": "players"})).json()["messages"][0]
            assert (await bob.post(f"/api/chat/{first['id']}/report", headers=bob_h)).json() == {
                "reported": first["id"],
                "already": False,
            }
            assert (await bob.post("/api/chat/99999/report", headers=bob_h)).status_code == 404
            assert (await bob.get("/api/admin/reports")).status_code == 403
            reports = (await chief.get("/api/admin/reports")).json()["reports"]
            assert [(r["name"], r["reported_by"], r["game_id"]) for r in reports] == [("ann", "bob", game_id)]

            # once the game is over, the players read the spectators' room
            assert (await ann.post(f"/api/games/{game_id}/resign", json={}, headers=ann_h)).is_success
            assert (await ann.get(chat, params={"room": "spectators"})).json()["messages"][0]["text"] == "go ann"

    asyncio.run(main())


def test_a_tournament_has_a_room_for_its_organiser_and_players(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (app, c):
            people = {}
            for number, name in enumerate(["ada", "ben", "cat"], start=1):
                await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.7.0.{number}")
                client = other(c)
                made = (await client.post("/api/session", json={"name": name, "password": PASSWORD})).json()
                people[name] = (client, {"x-csrf-token": made["csrf"]})
            (ada, ada_h), (ben, ben_h), (cat, cat_h) = people.values()
            body = {"name": "Club", "rounds": 1, "rated": False}
            tid = (await ada.post("/api/tournaments", json=body, headers=ada_h)).json()["id"]
            await ben.post(f"/api/tournaments/{tid}/join", headers=ben_h)
            room = f"/api/tournaments/{tid}/chat"
            assert (await ada.post(room, json={"text": "welcome, the first round at eight"}, headers=ada_h)).is_success
            assert (await ben.post(room, json={"text": "thanks"}, headers=ben_h)).is_success
            read = (await ben.get(room)).json()["messages"]
            assert [(m["name"], m["text"]) for m in read] == [
                ("ada", "welcome, the first round at eight"),
                ("ben", "thanks"),
            ]
            for outsider, headers in ((cat, cat_h), (other(c), {})):
                assert (await outsider.get(room)).status_code in (401, 403)
                assert (await outsider.post(room, json={"text": "hi"}, headers=headers)).status_code in (401, 403)
            assert (await ada.post(room, json={"text": "x" * 301}, headers=ada_h)).status_code == 400
            assert (await ada.get("/api/tournaments/nope/chat")).status_code == 404
            # a message of the room is reported by its members alone, once each
            report = f"/api/chat/{read[0]['id']}/report"
            assert (await cat.post(report, headers=cat_h)).status_code == 404
            assert (await ben.post(report, headers=ben_h)).json()["already"] is False
            assert (await ben.post(report, headers=ben_h)).json()["already"] is True

    asyncio.run(main())
