"""Accounts on ``hive serve``, on SQLite and PostgreSQL: signing up, in and out, sessions in HttpOnly cookies, CSRF,
session fixation, the sign-in throttle, names made to impersonate, passwords, and what an admin may do."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from hive.web import migrations
from hive.web.players import COOKIE
from hive.web.schema import metadata
from hive.web.shared.database import Database

from ...web_support import ROOT, in_process
from ..api_support import PASSWORD, SERVER, other, sign_in, sign_up


def test_sign_up_in_and_out_with_an_httponly_cookie_and_csrf(database: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (app, c):
            assert (await c.get("/api/assets")).json()["accounts"] is True
            assert (await c.get("/api/session")).json() == {"name": None}
            made = await sign_up(c, "Alice")
            assert made["name"] == "Alice" and not made["admin"] and len(made["csrf"]) > 20
            cookie = c.cookies.get(COOKIE)
            assert cookie and len(cookie) > 30
            header = (await sign_in(other(c), "alice")).headers["set-cookie"]
            assert "HttpOnly" in header and "SameSite=lax" in header and "Path=/" in header
            assert "Secure" not in header  # plain HTTP here; over HTTPS it is Secure (below)
            assert (await c.get("/api/session")).json() == made
            with app.store.database.engine.connect() as connection:
                stored = connection.execute(sa.text("SELECT password FROM accounts")).scalar_one()
                tokens = connection.execute(sa.text("SELECT token FROM sessions")).scalars().all()
            assert stored.startswith("$argon2id$") and PASSWORD not in stored
            assert cookie not in tokens  # only the token's hash is kept
            refused = await c.delete("/api/session")
            assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
            wrong = await c.delete("/api/session", headers={"x-csrf-token": "x" * 32})
            assert wrong.status_code == 403
            out = await c.delete("/api/session", headers={"x-csrf-token": made["csrf"]})
            assert out.status_code == 200 and (await c.get("/api/session")).json() == {"name": None}
            c.cookies.set(COOKIE, cookie, domain="hive.test")  # the old cookie, kept by someone: its session is over
            assert (await c.get("/api/session")).json() == {"name": None}

    asyncio.run(main())


def test_over_https_the_cookie_is_secure(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            secure = httpx.AsyncClient(transport=c._transport, base_url="https://hive.test")
            r = await secure.post("/api/accounts", json={"name": "carol", "password": PASSWORD})
            assert r.status_code == 201 and "Secure" in r.headers["set-cookie"]

    asyncio.run(main())


def test_a_wrong_name_and_a_wrong_password_are_answered_alike_and_throttled(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            await sign_up(c, "bob")
            unknown, wrong = await sign_in(c, "nobody", "whatever1"), await sign_in(c, "bob", "whatever1")
            assert unknown.status_code == wrong.status_code == 401
            assert unknown.json() == wrong.json() == {"error": "Wrong name or password."}
            for _ in range(4):
                assert (await sign_in(c, "BOB", "not it at all")).status_code == 401
            # five failures from this browser: even the right password waits here
            late = await sign_in(c, "bob")
            assert late.status_code == 429 and "Too many failed sign-ins (5 from this browser" in late.json()["error"]
            # another browser at the address bob signed up from is not held by this one's failures
            assert (await sign_in(other(c), "bob")).status_code == 200
            # and from one address, failures across many names
            async with in_process(tmp_path / "db2.sqlite3", settings=SERVER, address=("10.0.0.9", 1)) as (_, d):
                await sign_up(d, "dora")
                for i in range(20):
                    assert (await sign_in(other(d), f"name{i}", "nope nope")).status_code == 401
                blocked = await sign_in(other(d), "dora")
                assert blocked.status_code == 429 and "20 from one address" in blocked.json()["error"]
                # but dora's own browser (its device cookie) signs her in
                assert (await sign_in(d, "dora")).status_code == 200

    asyncio.run(main())


def test_names_made_to_impersonate_are_refused(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            await sign_up(c, "Alice")
            for name in ["alice", "ALICE", "aIice", "a1ice", "\uff41\uff4c\uff49\uff43\uff45", " alice "]:
                r = await c.post("/api/accounts", json={"name": name, "password": PASSWORD})
                assert r.status_code == 409 and "is taken, or too like one that is" in r.json()["error"], name
            bad: list[tuple[object, str]] = [
                ("\u0430lice", "a name is 3 to 20 letters (a-z, A-Z), digits, _ or -"),  # a Cyrillic a
                ("al", "3 to 20"),
                ("x" * 21, "3 to 20"),
                ("1abc", "starting with a letter"),
                ("Admin", "is reserved"),
                ("adm1n", "is reserved"),
                (7, "A name is text, not 7"),
            ]
            for value, message in bad:
                r = await c.post("/api/accounts", json={"name": value, "password": PASSWORD})
                assert r.status_code == 400 and message in r.json()["error"], (value, r.json())
            for password, message in [("short", "8 to 256 characters"), ("Mallory1", "not the account's name")]:
                r = await c.post("/api/accounts", json={"name": "mallory1", "password": password})
                assert r.status_code == 400 and message in r.json()["error"]
                assert password not in r.json()["error"]
            # the first to sign up has the name; the look-alike signs in to it
            assert (await sign_in(other(c), "ALICE")).json()["name"] == "Alice"

    asyncio.run(main())


def test_signing_in_never_adopts_a_planted_session(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            await sign_up(other(c), "erin")
            planted = "p" * 43
            c.cookies.set(COOKIE, planted, domain="hive.test")
            assert (await sign_in(c, "erin")).status_code == 200
            assert c.cookies.get(COOKIE) != planted
            attacker = other(c)
            attacker.cookies.set(COOKIE, planted, domain="hive.test")
            assert (await attacker.get("/api/session")).json() == {"name": None}

    asyncio.run(main())


def test_a_new_password_ends_every_other_session(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            made = await sign_up(c, "frank")
            laptop = other(c)
            assert (await sign_in(laptop, "frank")).status_code == 200
            body = {"old": PASSWORD, "new": "a brand new one"}
            assert (await c.post("/api/session/password", json=body)).status_code == 403  # no CSRF token
            headers = {"x-csrf-token": made["csrf"]}
            wrong = await c.post("/api/session/password", json={**body, "old": "not it!!"}, headers=headers)
            assert wrong.status_code == 401
            changed = await c.post("/api/session/password", json=body, headers=headers)
            assert changed.status_code == 200 and changed.json()["csrf"] != made["csrf"]
            assert (await c.get("/api/session")).json()["name"] == "frank"
            assert (await laptop.get("/api/session")).json() == {"name": None}
            assert (await sign_in(other(c), "frank")).status_code == 401
            assert (await sign_in(other(c), "frank", "a brand new one")).status_code == 200

    asyncio.run(main())


def _make_admin(url: str, name: str) -> str:
    """``hive db admin NAME`` on the server's database, as its operator runs it."""
    done = subprocess.run(
        [sys.executable, "-m", "hive", "db", "admin", name, "--database", url],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_admin_resets_bans_and_deletes_and_nobody_else_may(database: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (_, c):
            admin = await sign_up(c, "grace")
            user = other(c)
            mine = await sign_up(user, "heidi")
            await sign_up(other(c), "ivan")
            refused = await user.post("/api/admin/accounts/ivan/ban", json={}, headers={"x-csrf-token": mine["csrf"]})
            assert refused.status_code == 403 and "Only an admin" in refused.json()["error"]
            assert _make_admin(database, "GRACE") == "grace is now an admin.\n"
            assert (await c.get("/api/session")).json()["admin"] is True
            headers = {"x-csrf-token": admin["csrf"]}
            assert (await c.post("/api/admin/accounts/ivan/ban", json={})).status_code == 403  # no CSRF token
            reset = await c.post("/api/admin/accounts/heidi/password", headers=headers)
            assert reset.status_code == 200
            assert (await user.get("/api/session")).json() == {"name": None}  # her sessions ended
            assert (await sign_in(user, "heidi", reset.json()["password"])).status_code == 200
            banned = await c.post("/api/admin/accounts/heidi/ban", json={"banned": True}, headers=headers)
            assert banned.json() == {"name": "heidi", "banned": True, "changed": True}
            assert (await user.get("/api/session")).json() == {"name": None}
            again = await sign_in(user, "heidi", reset.json()["password"])
            assert again.status_code == 403 and again.json()["error"] == "This account is banned."
            assert (await sign_in(user, "heidi", "wrong password")).status_code == 401
            await c.post("/api/admin/accounts/heidi/ban", json={"banned": False}, headers=headers)
            assert (await sign_in(user, "heidi", reset.json()["password"])).status_code == 200
            own = await c.post("/api/admin/accounts/grace/ban", json={}, headers=headers)
            assert own.status_code == 403
            gone = await c.delete("/api/admin/accounts/ivan", headers=headers)
            assert gone.json() == {"deleted": "ivan"}
            assert (await c.get("/api/players/ivan")).status_code == 404
            missing = await c.post("/api/admin/accounts/nobody/password", headers=headers)
            assert missing.status_code == 404
            assert (await c.post("/api/accounts", json={"name": "ivan", "password": PASSWORD})).status_code == 201
            profile = (await c.get("/api/players/HEIDI")).json()
            assert profile["name"] == "heidi" and profile["banned"] is False and "password" not in profile

    asyncio.run(main())


def test_hive_play_keeps_no_accounts(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3") as (_, c):
            assert (await c.get("/api/assets")).json()["accounts"] is False
            for method, path in [("POST", "/api/accounts"), ("POST", "/api/session"), ("GET", "/api/session")]:
                r = await c.request(method, path, json={"name": "alice", "password": PASSWORD})
                assert r.status_code == 404 and "keeps no accounts" in r.json()["error"]
            assert (await c.post("/api/games", json={"mode": "local"})).status_code == 200  # guests play

    asyncio.run(main())


def test_bad_bodies_are_refused_by_name(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            cases: list[tuple[str, Any, int, str]] = [
                ("/api/accounts", {"password": PASSWORD}, 400, "Missing 'name'"),
                ("/api/accounts", {"name": "judy"}, 400, "Missing 'password'"),
                ("/api/session", {"name": ["x"], "password": PASSWORD}, 401, "Wrong name or password."),
                ("/api/session", {"name": "judy", "password": None}, 401, "Wrong name or password."),
            ]
            for path, body, status, message in cases:
                r = await c.post(path, json=body)
                assert r.status_code == status and message in r.json()["error"], (body, r.text)

    asyncio.run(main())


def test_the_migrations_make_the_tables_the_code_reads(database: str) -> None:
    """Every table and column of :mod:`hive.web.schema` is made by the migrations, and nothing else."""
    db = Database(database, upgrade=True)
    try:
        assert db.revision() == migrations.head()
        found = sa.inspect(db.engine)
        tables = set(found.get_table_names()) - {"alembic_version"}
        assert tables == set(metadata.tables)
        for name, table in metadata.tables.items():
            assert {c["name"] for c in found.get_columns(name)} == {c.name for c in table.columns}, name
    finally:
        db.close()
