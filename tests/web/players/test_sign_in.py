"""Signing in on ``hive serve``: a stranger's guesses do not lock the owner out (the throttle counts per name and
address, per address, and per name only from places that never signed the account in); the windows lapse; a
password is never cut to fit; a new password or an admin's reset revokes the API tokens; sign-ups are counted before
the account is made."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from hive.web.players import Accounts
from hive.web.players.passwords import Passwords
from hive.web.players.repository import AccountRepository
from hive.web.players.throttle import WINDOW
from hive.web.shared.database import Database
from hive.web.shared.errors import BadRequest, TooMany, Unauthorized
from hive.web.shared.quotas import QuotaRepository
from hive.web.shared.settings import Settings

from ...web_support import FakeTime, client, in_process
from ..api_support import PASSWORD, SERVER, other, sign_in, sign_up

OWNER = "10.0.0.1"


class Counted(Passwords):
    """Passwords hashed cheaply, counting how many are checked."""

    def __init__(self) -> None:
        super().__init__(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        self.checked = 0

    def _verify(self, stored: str | None, password: str) -> bool:
        self.checked += 1
        return super()._verify(stored, password)


@asynccontextmanager
async def service(tmp_path: Path, per_name: int = 10) -> AsyncIterator[tuple[Accounts, FakeTime, Counted]]:
    """The accounts of a server on SQLite, on a clock the test moves."""
    clock, passwords = FakeTime(), Counted()
    database = Database(tmp_path / "accounts.sqlite3")
    try:
        repository = AccountRepository(database, clock)
        quotas = QuotaRepository(database, clock)
        settings = Settings(accounts=True, sign_in_failures_per_name=per_name)
        yield Accounts(repository, passwords, clock, quotas=quotas, settings=settings), clock, passwords
    finally:
        database.close()


async def attempt(accounts: Accounts, name: str, password: str, address: str, device: str | None = None) -> int:
    """A sign-in's status code, as the API would answer it."""
    try:
        await accounts.sign_in({"name": name, "password": password}, address, device)
    except Unauthorized:
        return 401
    except TooMany:
        return 429
    return 200


def test_a_stranger_does_not_lock_the_owner_out(tmp_path: Path) -> None:
    """Wrong passwords for a name from many addresses: at most the name's allowance is checked, the rest answered
    429; meanwhile the owner signs in from the address (another browser) and the browser (another address) she
    signed in from before."""

    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER, address=(OWNER, 1)) as (app, home):
            await sign_up(home, "olive")
            statuses = []
            for i in range(40):
                async with client(app, (f"203.0.113.{i}", 1)) as stranger:
                    statuses.append((await sign_in(stranger, "olive", f"guess number {i}")).status_code)
            per_name = SERVER.sign_in_failures_per_name
            assert statuses == [401] * per_name + [429] * (40 - per_name), statuses
            async with client(app, (OWNER, 2)) as laptop:  # another browser at home
                assert (await sign_in(laptop, "olive")).status_code == 200
            device = home.cookies["hive_device"]
            async with client(app, ("198.51.100.7", 1)) as away:  # her browser, at a café
                away.cookies.set("hive_device", device, domain="hive.test")
                assert (await sign_in(away, "olive")).status_code == 200
            async with client(app, ("198.51.100.8", 1)) as new_place:  # a place she never signed in from waits
                refused = await sign_in(new_place, "olive")
                assert refused.status_code == 429 and "for a name from new places" in refused.json()["error"]

    asyncio.run(main())


def test_a_stranger_at_one_address_is_held_by_name_and_address(tmp_path: Path) -> None:
    async def main() -> None:
        async with service(tmp_path) as (accounts, _, passwords):
            await accounts.sign_up({"name": "pablo", "password": PASSWORD}, OWNER)
            statuses = [await attempt(accounts, "pablo", "not the one", "192.0.2.5") for _ in range(8)]
            assert statuses == [401] * 5 + [429] * 3
            assert passwords.checked == 5
            # the address's failures across names: 20, then 429 for every name from it
            statuses = [await attempt(accounts, f"name{i}", "not the one", "192.0.2.6") for i in range(25)]
            assert statuses == [401] * 20 + [429] * 5
            assert await attempt(accounts, "pablo", PASSWORD, OWNER) == 200

    asyncio.run(main())


def test_the_windows_lapse_and_a_success_is_no_failure(tmp_path: Path) -> None:
    async def main() -> None:
        async with service(tmp_path, per_name=4) as (accounts, clock, passwords):
            await accounts.sign_up({"name": "quinn", "password": PASSWORD}, OWNER)
            strangers = [await attempt(accounts, "quinn", "wrong!!!", f"203.0.113.{i}") for i in range(10)]
            assert strangers == [401] * 4 + [429] * 6 and passwords.checked == 4
            assert await attempt(accounts, "quinn", PASSWORD, "198.51.100.1") == 429  # a new place waits...
            assert await attempt(accounts, "quinn", PASSWORD, OWNER) == 200  # ...the owner's does not
            clock.t += WINDOW - 1
            assert await attempt(accounts, "quinn", PASSWORD, "198.51.100.1") == 429
            clock.t += 2  # the window lapsed
            assert await attempt(accounts, "quinn", "wrong!!!", "203.0.113.99") == 401
            # successes give their counts back: the owner signs in again and again from one place
            for _ in range(3 * SERVER.sign_in_failures):
                assert await attempt(accounts, "quinn", PASSWORD, OWNER) == 200
            # a trusted address is trusted for its account only
            assert await attempt(accounts, "quinn", PASSWORD, "198.51.100.1") == 200  # signed in: trusted now
            clock.t += 200 * 24 * 3600  # long unused, the trust lapses
            for i in range(4):
                await attempt(accounts, "quinn", "wrong!!!", f"203.0.114.{i}")
            assert await attempt(accounts, "quinn", PASSWORD, OWNER) == 429

    asyncio.run(main())


def test_a_password_is_never_cut_to_fit(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            longest = "p" * 256
            made = await sign_up(c, "rita", longest)
            assert (await sign_in(c, "rita", longest)).status_code == 200
            for status_path, body in [
                ("/api/session", {"name": "rita", "password": longest + "and more"}),
                ("/api/accounts", {"name": "rita2", "password": "q" * 257}),
            ]:
                r = await c.post(status_path, json=body)
                assert r.status_code == 400 and "at most 256 characters" in r.json()["error"], r.text
                assert "'password'" in r.json()["error"]
            csrf = (await c.get("/api/session")).json()["csrf"]
            assert made["csrf"]
            headers = {"x-csrf-token": csrf}
            for body, field in [
                ({"old": longest + "x", "new": "a new password"}, "'old'"),
                ({"old": longest, "new": "n" * 300}, "'new'"),
            ]:
                r = await c.post("/api/session/password", json=body, headers=headers)
                assert r.status_code == 400 and field in r.json()["error"] and "at most 256" in r.json()["error"], (
                    r.text
                )
            assert (await sign_in(c, "rita", longest)).status_code == 200  # unchanged

    asyncio.run(main())


def test_a_password_longer_than_allowed_is_refused_in_the_service(tmp_path: Path) -> None:
    async def main() -> None:
        async with service(tmp_path) as (accounts, _, passwords):
            with pytest.raises(BadRequest, match="at most 256 characters"):
                await accounts.sign_in({"name": "x", "password": "y" * 257}, OWNER)
            assert passwords.checked == 0

    asyncio.run(main())


def test_api_tokens_die_with_a_new_password_and_an_admin_reset(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (app, c):
            made = await sign_up(c, "sven")
            headers = {"x-csrf-token": made["csrf"]}

            async def token() -> dict[str, str]:
                r = await c.post("/api/account/token", headers=headers)
                assert r.status_code == 200 and r.json()["scope"] == "bot", r.text
                return {"authorization": f"Bearer {r.json()['token']}"}

            async def works(bearer: dict[str, str]) -> int:
                return (await c.get("/api/account/turns", headers=bearer)).status_code

            bearer = await token()
            async with client(app, ("10.0.0.2", 1)) as laptop:
                assert (await sign_in(laptop, "sven")).status_code == 200
                assert await works(bearer) == 200
                changed = await c.post(
                    "/api/session/password", json={"old": PASSWORD, "new": "another password"}, headers=headers
                )
                assert changed.status_code == 200
                assert await works(bearer) == 401
                assert (await laptop.get("/api/session")).json() == {"name": None}
                assert (await c.get("/api/session")).json()["name"] == "sven"  # the session making the change
            headers = {"x-csrf-token": changed.json()["csrf"]}
            bearer = await token()
            assert await works(bearer) == 200
            async with client(app, ("10.0.0.3", 1)) as chief:
                admin = await sign_up(chief, "chief")
                await app.accounts.set_admin("chief", True)
                reset = await chief.post("/api/admin/accounts/sven/password", headers={"x-csrf-token": admin["csrf"]})
                assert reset.status_code == 200
            assert await works(bearer) == 401
            assert (await c.get("/api/session")).json() == {"name": None}

    asyncio.run(main())


def test_thirty_sign_ups_at_once_make_at_most_five_accounts(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER, address=("192.0.2.30", 1)) as (_, c):

            async def one(i: int) -> int:
                return (await c.post("/api/accounts", json={"name": f"crowd{i}", "password": PASSWORD})).status_code

            statuses = await asyncio.gather(*(one(i) for i in range(30)))
            assert statuses.count(201) == 5 and statuses.count(429) == 25, statuses
            refused = await c.post("/api/accounts", json={"name": "late", "password": PASSWORD})
            assert "Too many new accounts from this address (5 an hour)" in refused.json()["error"]

    asyncio.run(main())


def test_a_refused_sign_up_is_not_counted(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "db.sqlite3", settings=SERVER) as (_, c):
            await sign_up(c, "taken")
            for _ in range(8):  # the name taken: no account made, none counted
                r = await other(c).post("/api/accounts", json={"name": "TAKEN", "password": PASSWORD})
                assert r.status_code == 409
            for i in range(4):
                await sign_up(c, f"fresh{i}")

    asyncio.run(main())


def test_the_limits_are_options_of_hive_serve() -> None:
    import argparse

    from hive.cli.server_options import add_server_options, settings_from

    parser = argparse.ArgumentParser()
    add_server_options(parser, proxy="--forwarded-allow-ips", accounts=True)
    text = parser.format_help()
    for option in ("--sign-ups-per-hour", "--sign-in-failures", "--sign-in-failures-per-address"):
        assert option in text
    assert "never signed it in (default 10)" in " ".join(text.split())
    settings = settings_from(parser.parse_args(["--sign-ups-per-hour", "40", "--sign-in-failures-per-name", "3"]))
    assert (settings.sign_ups_per_hour, settings.sign_in_failures_per_name, settings.sign_in_failures) == (40, 3, 5)
    with pytest.raises(ValueError, match="--sign-ups-per-hour must be at least 1, not 0"):
        settings_from(parser.parse_args(["--sign-ups-per-hour", "0"]))
    play = argparse.ArgumentParser()
    add_server_options(play)  # hive play keeps no accounts: no such options
    assert "--sign-ups-per-hour" not in play.format_help()
