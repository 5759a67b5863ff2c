"""An account's API tokens and players finding each other, through the API of ``hive serve``: tokens made with a
label, listed without their secrets, revoked one by one, and never listed nor revoked by a token; names searched by
their start as names are compared; players followed and unfollowed, up to a limit counted in the database (on SQLite
and PostgreSQL, requests at once included), and seen online and playing."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import httpx
import pytest

from hive.web.players import follows
from hive.web.players.follows import MAX_FOLLOWS, SEARCH_LIMIT
from hive.web.players.tokens import MAX_TOKENS

from ...web_support import JSON, in_process
from ..api_support import PASSWORD, SERVER, other, sign_up


async def signed(c: httpx.AsyncClient, name: str) -> tuple[httpx.AsyncClient, dict[str, str]]:
    """A new browser signed up as ``name``, and its CSRF header."""
    browser = other(c)
    made = await sign_up(browser, name)
    return browser, {"x-csrf-token": made["csrf"]}


def secretless(answer: JSON, secrets: list[str]) -> None:
    """No token made (nor any part of one) is in ``answer``."""
    text = repr(answer)
    for secret in secrets:
        assert secret not in text and secret[5:25] not in text, answer


def test_tokens_are_made_listed_without_secrets_and_revoked_by_a_session_only(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_app, c):
            ann, csrf = await signed(c, "ann")
            made = await ann.post("/api/account/token", json={"label": "my laptop"}, headers=csrf)
            assert made.status_code == 200, made.text
            first = made.json()
            assert first["token"].startswith("hive_") and first["label"] == "my laptop" and first["scope"] == "bot"
            assert first["used"] is None and len(first["id"]) == 16
            second = (await ann.post("/api/account/token", headers=csrf)).json()
            secrets = [first["token"], second["token"]]
            bearer = {"authorization": f"Bearer {first['token']}"}
            assert (await other(c).get("/api/session", headers=bearer)).json()["name"] == "ann"
            listed = await ann.get("/api/account/tokens")
            assert listed.status_code == 200
            tokens = listed.json()
            assert tokens["limit"] == MAX_TOKENS
            assert [(t["id"], t["label"]) for t in tokens["tokens"]] == [(second["id"], ""), (first["id"], "my laptop")]
            assert tokens["tokens"][1]["used"] is not None  # used just now, by its Bearer request
            secretless(tokens, secrets)
            # a token neither lists, nor makes, nor revokes tokens (its own included): the scope it lacks is named
            as_token = other(c)
            for method, path in (
                ("GET", "/api/account/tokens"),
                ("POST", "/api/account/token"),
                ("DELETE", f"/api/account/tokens/{first['id']}"),
            ):
                r = await as_token.request(method, path, headers=bearer)
                assert r.status_code == 403 and "'account' scope" in r.json()["error"], (path, r.text)
                secretless(r.json(), secrets)
            # a session's change needs the CSRF token; a guest is told to sign in
            assert (await ann.delete(f"/api/account/tokens/{first['id']}")).status_code == 403
            assert (await other(c).get("/api/account/tokens")).status_code == 401
            assert (await other(c).delete(f"/api/account/tokens/{first['id']}")).status_code == 401
            # another account sees none of ann's, and cannot revoke them
            bob, bob_csrf = await signed(c, "bob")
            assert (await bob.get("/api/account/tokens")).json()["tokens"] == []
            assert (await bob.delete(f"/api/account/tokens/{first['id']}", headers=bob_csrf)).status_code == 404
            for bad, status in (("nope", 404), ("0" * 17, 404), ("G" * 16, 404), ("%00" * 4, 400)):
                assert (await ann.delete(f"/api/account/tokens/{bad}", headers=csrf)).status_code == status
            # bad input is refused, never a 500
            bad_bodies: list[JSON] = [{"label": 7}, {"label": "x" * 41}, {"label": "a\u202eb"}, {"scope": "admin"}]
            for body in [*bad_bodies, {"scope": []}]:
                r = await ann.post("/api/account/token", json=body, headers=csrf)
                assert r.status_code == 400, (body, r.text)
            # revoked, the token is refused at once; the other goes on
            revoked = await ann.delete(f"/api/account/tokens/{first['id']}", headers=csrf)
            assert revoked.json() == {"revoked": first["id"]}
            assert (await other(c).get("/api/session", headers=bearer)).status_code == 401
            again = await ann.delete(f"/api/account/tokens/{first['id']}", headers=csrf)
            assert again.status_code == 404
            assert [t["id"] for t in (await ann.get("/api/account/tokens")).json()["tokens"]] == [second["id"]]
            # at most MAX_TOKENS, asked for at once: exactly that many held
            asks = [ann.post("/api/account/token", headers=csrf) for _ in range(MAX_TOKENS + 3)]
            answers = await asyncio.gather(*asks)
            assert sorted(r.status_code for r in answers) == [200] * (MAX_TOKENS - 1) + [409] * 4
            assert len((await ann.get("/api/account/tokens")).json()["tokens"]) == MAX_TOKENS
            # a new password revokes them all
            changed = await ann.post("/api/session/password", json={"old": PASSWORD, "new": "another password"},
                                     headers=csrf)  # fmt: skip
            assert changed.status_code == 200
            assert (await ann.get("/api/account/tokens")).json()["tokens"] == []

    asyncio.run(main())


def test_players_are_searched_by_the_start_of_their_names_as_names_are_compared(database: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (app, c):
            for name in ("alice", "Alfred", "al_x", "bob"):
                await signed(c, name)
            for i in range(SEARCH_LIMIT + 2):
                await app.accounts.sign_up({"name": f"zed{i:02d}", "password": PASSWORD}, f"10.9.0.{i}")
            await app.accounts.sign_up({"name": "alan", "password": PASSWORD}, "10.9.1.1")
            await app.store.accounts.update((await app.accounts.find("alan")).id, banned=True)  # never found
            guest = other(c)

            async def found(prefix: str) -> list[str]:
                r = await guest.get("/api/players", params={"prefix": prefix})
                assert r.status_code == 200, r.text
                return [p["name"] for p in r.json()["players"]]

            assert await found("al") == ["al_x", "alice", "Alfred"]  # shortest first
            assert await found("AL") == await found("a1") == await found("aL") == ["al_x", "alice", "Alfred"]
            assert await found("ALI") == ["alice"] and await found("a1i") == ["alice"]
            assert await found("al-") == ["al_x"]  # - and _ are one
            assert await found("b") == ["bob"] and await found("zz") == []
            assert len(await found("zed")) == SEARCH_LIMIT
            # the input is checked: empty, too long, not a name's characters, not one value
            for bad in ("", " ", "a" * 21, "a%b", "a b", "\u202e", "al*", "%"):
                r = await guest.get("/api/players", params={"prefix": bad})
                assert r.status_code == 400, (bad, r.text)
            assert (await guest.get("/api/players")).status_code == 400
            assert (await guest.get("/api/players?prefix=%00")).status_code == 400

    asyncio.run(main())


def test_players_are_followed_and_seen_online_and_playing(database: str) -> None:
    async def main() -> None:
        async with contextlib.AsyncExitStack() as stack:
            app, c = await stack.enter_async_context(in_process(database, settings=SERVER))
            ann, csrf = await signed(c, "ann")
            bob, bob_csrf = await signed(c, "bob")
            await app.accounts.sign_up({"name": "carol", "password": PASSWORD}, "10.8.0.1")
            await app.store.accounts.gone((await app.accounts.find("carol")).id)  # not online
            assert (await ann.get("/api/follows")).json() == {"players": [], "limit": MAX_FOLLOWS}
            followed = await ann.post("/api/follows", json={"name": "BOB"}, headers=csrf)
            assert followed.json() == {"name": "bob", "following": True, "already": False}
            again = await ann.post("/api/follows", json={"name": "b0b"}, headers=csrf)
            assert again.json()["already"] is True
            assert (await ann.post("/api/follows", json={"name": "carol"}, headers=csrf)).status_code == 200
            players = (await ann.get("/api/follows")).json()["players"]
            assert [(p["name"], p["online"], p["playing"]) for p in players] == [("bob", True, None),
                                                                               ("carol", False, None)]  # fmt: skip
            # bob plays: the game is there to watch
            seek = await bob.post("/api/seeks", json={"game": "Base", "time_control": "blitz"}, headers=bob_csrf)
            game = (await ann.post(f"/api/seeks/{seek.json()['id']}/accept", headers=csrf)).json()
            players = (await ann.get("/api/follows")).json()["players"]
            assert players[0]["name"] == "bob" and players[0]["playing"] == game["id"]
            assert "token" not in repr(players)
            # bob signs out: no longer online
            assert (await bob.delete("/api/session", headers=bob_csrf)).status_code == 200
            players = (await ann.get("/api/follows")).json()["players"]
            assert {p["name"]: p["online"] for p in players} == {"bob": False, "carol": False}
            # refusals: no CSRF, a guest, a token, bad names, oneself, one not followed
            assert (await ann.post("/api/follows", json={"name": "carol"})).status_code == 403
            assert (await other(c).post("/api/follows", json={"name": "carol"})).status_code == 401
            assert (await other(c).get("/api/follows")).status_code == 401
            token = (await ann.post("/api/account/token", headers=csrf)).json()["token"]
            bearer = {"authorization": f"Bearer {token}"}
            assert (await other(c).post("/api/follows", json={"name": "carol"}, headers=bearer)).status_code == 403
            assert (await other(c).delete("/api/follows/carol", headers=bearer)).status_code == 403
            assert (await other(c).get("/api/follows", headers=bearer)).status_code == 200  # reading is a token's
            for body in ({}, {"name": 5}, {"name": ""}, {"name": "x" * 101}, {"name": "a\u0000b"}, {"name": ["bob"]}):
                r = await ann.post("/api/follows", json=body, headers=csrf)
                assert r.status_code == 400, (body, r.text)
            assert (await ann.post("/api/follows", json={"name": "nobody"}, headers=csrf)).status_code == 404
            assert (await ann.post("/api/follows", json={"name": "Ann"}, headers=csrf)).status_code == 400
            assert (await ann.delete("/api/follows/carol", headers=csrf)).json() == {
                "name": "carol",
                "following": False,
            }
            assert (await ann.delete("/api/follows/carol", headers=csrf)).status_code == 404
            assert (await ann.delete("/api/follows/nobody", headers=csrf)).status_code == 404
            assert (await ann.delete("/api/follows/bob")).status_code == 403
            # an account deleted leaves the lists of those who followed it
            assert (await ann.post("/api/follows", json={"name": "carol"}, headers=csrf)).status_code == 200
            chief, chief_csrf = await signed(c, "chief")
            await app.accounts.set_admin("chief", True)
            assert (await chief.delete("/api/admin/accounts/carol", headers=chief_csrf)).status_code == 200
            assert [p["name"] for p in (await ann.get("/api/follows")).json()["players"]] == ["bob"]

    asyncio.run(main())


def test_the_follows_limit_holds_for_requests_at_once(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(follows, "MAX_FOLLOWS", 5)

    async def main() -> None:
        async with in_process(database, settings=SERVER) as (app, c):
            ann, csrf = await signed(c, "ann")
            for i in range(8):
                await app.accounts.sign_up({"name": f"pal{i}", "password": PASSWORD}, f"10.7.0.{i}")
            asks = [ann.post("/api/follows", json={"name": f"pal{i}"}, headers=csrf) for i in range(8)]
            answers = await asyncio.gather(*asks)
            assert sorted(r.status_code for r in answers) == [200] * 5 + [409] * 3
            assert len((await ann.get("/api/follows")).json()["players"]) == 5

    asyncio.run(main())
