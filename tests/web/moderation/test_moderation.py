"""The admins' API on ``hive serve``: the reports with their lines in context, marked handled; mute, ban and unban,
delete, a new password, a one-time reset link; every action in the audit list, and nothing secret in it; refusals
for everyone else, without the CSRF token, and for bad input."""

from __future__ import annotations

import asyncio

import httpx

from hive.web.http.app import App

from ...web_support import in_process
from ..api_support import PASSWORD, SERVER, open_seek, other

People = dict[str, tuple[httpx.AsyncClient, dict[str, str]]]


async def people(app: App, c: httpx.AsyncClient, names: list[str]) -> People:
    """Accounts ``names``, each signed in on a browser of its own (the last one an admin)."""
    made: People = {}
    for number, name in enumerate(names, start=1):
        await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.9.0.{number}")
        client = other(c)
        signed = (await client.post("/api/session", json={"name": name, "password": PASSWORD})).json()
        made[name] = (client, {"x-csrf-token": signed["csrf"]})
    await app.accounts.set_admin(names[-1], True)
    return made


def test_an_admin_handles_a_report_and_every_action_is_audited(database: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (app, c):
            who = await people(app, c, ["ann", "bob", "spam", "chief"])
            (ann, ann_h), (bob, bob_h), (spam, _), (chief, chief_h) = who.values()
            seek = (await open_seek(ann, ann_h["x-csrf-token"], game="Base", time_control="blitz")).json()
            game_id = (await bob.post(f"/api/seeks/{seek['id']}/accept", headers=bob_h)).json()["id"]
            chat = f"/api/games/{game_id}/chat"
            ids = []
            for number, (client, headers) in enumerate([(ann, ann_h), (bob, bob_h)] * 4):
                said = await client.post(chat, json={"room": "players", "text": f"line {number}"}, headers=headers)
                ids.append(said.json()["id"])
            bad = ids[3]  # bob's second line
            assert (await ann.post(f"/api/chat/{bad}/report", headers=ann_h)).is_success

            # everyone but the admin is refused the page and the API
            for client, status in ((other(c), 401), (ann, 403), (bob, 403)):
                for path in ("/admin", "/api/admin/reports", "/api/admin/audit"):
                    assert (await client.get(path)).status_code == status, path
            page = await chief.get("/admin")
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]

            [report] = (await chief.get("/api/admin/reports")).json()["reports"]
            assert report["id"] == bad and report["name"] == "bob" and report["reported_by"] == "ann"
            assert report["handled"] is None and not report["muted"] and not report["banned"]
            assert [line["id"] for line in report["context"]] == ids[:8]  # four before, itself, four after at most
            assert [line["text"] for line in report["context"]][3] == "line 3"

            admin = "/api/admin/accounts/bob"
            # a change without the CSRF token, and bad input, are refused
            assert (await chief.post(f"{admin}/mute", json={"muted": True})).status_code == 403
            for path, body in [
                (f"{admin}/mute", {"muted": "yes"}),
                (f"{admin}/ban", {"banned": 1}),
                (f"/api/admin/reports/{bad}/handled", {"handled": "done"}),
            ]:
                r = await chief.post(path, json=body, headers=chief_h)
                assert r.status_code == 400 and "true or false" in r.json()["error"], (path, r.text)
            assert (await chief.post(f"{admin}/promote", headers=chief_h)).status_code == 404
            assert (await chief.post("/api/admin/accounts/nobody/mute", headers=chief_h)).status_code == 404
            assert (await chief.post(f"/api/admin/reports/{ids[0]}/handled", headers=chief_h)).status_code == 404
            assert (await chief.post("/api/admin/reports/x1/handled", headers=chief_h)).status_code == 404
            assert (await chief.get("/api/admin/audit?before=abc")).status_code == 400
            assert (await chief.post("/api/admin/accounts/chief/mute", headers=chief_h)).status_code == 403
            json_type = {**chief_h, "content-type": "application/json"}
            broken = await chief.post(f"{admin}/mute", content=b"{", headers=json_type)
            assert broken.status_code == 400

            # mute: bob reads but writes nowhere; then the ban ends his session
            assert (await chief.post(f"{admin}/mute", json={"muted": True}, headers=chief_h)).json()["muted"]
            muted = await bob.post(chat, json={"room": "players", "text": "hello"}, headers=bob_h)
            assert muted.status_code == 403 and "muted" in muted.json()["error"]
            assert (await bob.get(chat, params={"room": "players"})).is_success
            french = await bob.post(
                chat, json={"room": "players", "text": "allo"}, headers={**bob_h, "accept-language": "fr"}
            )
            assert french.status_code == 403 and french.json()["error"].startswith("Votre compte est rendu muet")
            assert (await chief.get("/api/admin/reports")).json()["reports"][0]["muted"]
            assert (await chief.post(f"{admin}/ban", json={"banned": True}, headers=chief_h)).json()["banned"]
            assert (await bob.get("/api/session")).json()["name"] is None
            assert (await chief.post(f"{admin}/ban", json={"banned": False}, headers=chief_h)).is_success
            assert (await chief.post(f"{admin}/mute", json={"muted": False}, headers=chief_h)).is_success
            handled = await chief.post(f"/api/admin/reports/{bad}/handled", json={}, headers=chief_h)
            assert handled.json()["handled"] is not None
            assert (await chief.get("/api/admin/reports")).json()["reports"][0]["handled"] is not None

            # a new password, a reset link, a spam account deleted
            password = (await chief.post("/api/admin/accounts/ann/password", headers=chief_h)).json()["password"]
            reset = (await chief.post("/api/admin/accounts/ann/reset", headers=chief_h)).json()
            assert reset["link"].startswith("http://") and "/reset/" in reset["link"]
            assert (await chief.delete("/api/admin/accounts/spam", headers=chief_h)).json() == {"deleted": "spam"}
            assert (await spam.get("/api/session")).json()["name"] is None

            rows = (await chief.get("/api/admin/audit")).json()["audit"]
            done = [(row["admin"], row["action"], row["target"]) for row in reversed(rows)]
            assert done == [
                ("chief", "mute", "bob"),
                ("chief", "ban", "bob"),
                ("chief", "unban", "bob"),
                ("chief", "unmute", "bob"),
                ("chief", "handled", "bob"),
                ("chief", "password", "ann"),
                ("chief", "reset_link", "ann"),
                ("chief", "delete", "spam"),
            ]
            assert all(row["at"] > 0 for row in rows)
            assert rows[3]["detail"] == f"message {bad}"
            text = str(rows)
            token = reset["link"].rsplit("/", 1)[1]
            assert password not in text and token not in text  # no secret in the list
            older = (await chief.get(f"/api/admin/audit?before={rows[1]['id']}")).json()["audit"]
            assert [row["id"] for row in older] == [row["id"] for row in rows[2:]]
            # a refusal is not an action: nothing more was recorded
            assert len(rows) == 8
            # nobody else reads it, and an admin's API token may not (its scope)
            token = (await chief.post("/api/account/token", headers=chief_h)).json()["token"]
            bearer = await other(c).get("/api/admin/audit", headers={"authorization": f"Bearer {token}"})
            assert bearer.status_code == 403 and "scope" in bearer.json()["error"]

    asyncio.run(main())
