"""A forgotten password on ``hive serve``: the one-time link an admin issues (used once, lapsing after 30 minutes,
on a clock the test moves; using it ends every session and API token of the account), the e-mail address a player
sets, and the link asked for by e-mail through a mail server the test runs: throttled, answered alike whatever the
name, received, followed, used."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hive.web.players.resets import LINK_SECONDS
from hive.web.shared.settings import Settings

from ...web_support import in_process
from ..api_support import SERVER, other, sign_in, sign_up
from ..mail_support import link_in, mail_server

NEW = "a brand new password"


class Clock:
    """A time source the test moves."""

    def __init__(self) -> None:
        self.t = 1_900_000_000.0

    def __call__(self) -> float:
        return self.t


def test_a_reset_link_is_used_once_ends_every_session_and_lapses(database: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (app, c):
            clock = app.resets.now = Clock()
            admin_h = {"x-csrf-token": (await sign_up(c, "chief"))["csrf"]}
            await app.accounts.set_admin("chief", True)
            ann = other(c)
            ann_h = {"x-csrf-token": (await sign_up(ann, "ann"))["csrf"]}
            token = (await ann.post("/api/account/token", headers=ann_h)).json()["token"]

            def issue() -> str:
                return "/api/admin/accounts/ann/reset"

            reset = (await c.post(issue(), headers=admin_h)).json()
            assert reset["expires"] == clock.t + LINK_SECONDS and set(reset) == {"name", "link", "expires"}
            secret = reset["link"].rsplit("/", 1)[1]
            page = await other(c).get(f"/reset/{secret}")
            assert page.status_code == 200 and page.headers["referrer-policy"] == "no-referrer"
            assert page.headers["cache-control"] == "no-store"
            assert (await other(c).get(f"/api/password/reset/{secret}")).json() == {"name": "ann"}
            # a password the rules refuse leaves the link live
            short = await other(c).post("/api/password/reset", json={"token": secret, "password": "short"})
            assert short.status_code == 400
            for body in ({"token": "x" * 43, "password": NEW}, {"token": 7, "password": NEW}, {"password": NEW}):
                assert (await other(c).post("/api/password/reset", json=body)).status_code == 404
            used = await other(c).post("/api/password/reset", json={"token": secret, "password": NEW})
            assert used.json() == {"name": "ann"}
            # her session and her API token are gone; the old password no longer signs in, the new one does
            assert (await ann.get("/api/session")).json()["name"] is None
            bearer = await other(c).get("/api/account/turns", headers={"authorization": f"Bearer {token}"})
            assert bearer.status_code == 401
            assert (await sign_in(other(c), "ann")).status_code == 401
            assert (await sign_in(other(c), "ann", NEW)).status_code == 200
            # used once
            again = await other(c).post("/api/password/reset", json={"token": secret, "password": "yet another one"})
            assert again.status_code == 404 and "used or expired" in again.json()["error"]

            # a new link replaces the unused one, and lapses after 30 minutes
            first = (await c.post(issue(), headers=admin_h)).json()["link"].rsplit("/", 1)[1]
            second = (await c.post(issue(), headers=admin_h)).json()["link"].rsplit("/", 1)[1]
            assert (await other(c).get(f"/api/password/reset/{first}")).status_code == 404
            clock.t += LINK_SECONDS - 1
            assert (await other(c).get(f"/api/password/reset/{second}")).status_code == 200
            clock.t += 2
            assert (await other(c).get(f"/api/password/reset/{second}")).status_code == 404
            late = await other(c).post("/api/password/reset", json={"token": second, "password": "too late now"})
            assert late.status_code == 404
            assert (await sign_in(other(c), "ann", NEW)).status_code == 200
            # a server without mail answers a forgotten password with 404, whatever the name
            for name in ("ann", "nobody"):
                assert (await other(c).post("/api/password/forgot", json={"name": name})).status_code == 404

    asyncio.run(main())


def test_a_forgotten_password_by_mail(tmp_path: Path) -> None:
    async def main() -> None:
        with mail_server() as mailbox:
            settings = Settings(accounts=True, smtp=mailbox.url)
            async with in_process(tmp_path / "db.sqlite3", settings=settings) as (app, c):
                assert (await c.get("/api/assets")).json()["mail"] is True
                ann_h = {"x-csrf-token": (await sign_up(c, "ann"))["csrf"]}
                await sign_up(other(c), "bob")  # an account without an address
                assert (await c.get("/api/account/email")).json() == {"email": None}
                assert (await other(c).get("/api/account/email")).status_code == 401
                assert (await c.post("/api/account/email", json={"email": "ann@example.org"})).status_code == 403
                for bad in ("not an address", "a@b", "x" * 250 + "@example.org", "ann@exa\u202emple.org", 5):
                    r = await c.post("/api/account/email", json={"email": bad}, headers=ann_h)
                    assert r.status_code == 400, bad
                r = await c.post("/api/account/email", json={"email": " ann@example.org "}, headers=ann_h)
                assert r.json() == {"email": "ann@example.org"}
                assert (await c.post("/api/account/language", json={"language": "fr"}, headers=ann_h)).is_success
                assert "ann@example.org" not in (await other(c).get("/api/players/ann")).text  # never shown

                # the same answer whatever the name; one mail, to ann's address
                answers = []
                for name in ("ann", "bob", "nobody"):
                    r = await other(c).post("/api/password/forgot", json={"name": name})
                    answers.append((r.status_code, r.json()))
                assert answers[0][0] == 202 and answers.count(answers[0]) == 3
                german = await other(c).post(
                    "/api/password/forgot", json={"name": "bob"}, headers={"accept-language": "de"}
                )
                assert german.json()["message"].startswith("Wenn dieses Konto")  # the asker's language
                assert (await other(c).post("/api/password/forgot", json={"name": ""})).status_code == 400
                assert app.resets.mailer is not None
                await app.resets.mailer.settle()
                [mail] = mailbox.wait(1)
                assert mail["To"] == "ann@example.org" and mail["From"] == "club@example.org"
                assert mail["Subject"] == "Votre nouveau mot de passe"  # in ann's language
                link = link_in(mail)
                path = link.split("://", 1)[1].split("/", 1)[1]
                assert (await other(c).get(f"/{path}")).status_code == 200
                token = path.rsplit("/", 1)[1]
                set_new = await other(c).post("/api/password/reset", json={"token": token, "password": NEW})
                assert set_new.json() == {"name": "ann"}
                assert (await sign_in(other(c), "ann", NEW)).status_code == 200
                assert (await c.get("/api/session")).json()["name"] is None  # her old session ended

                # three asks an hour for a name: the fourth is refused, whether the name exists or not
                for name in ("ann", "nobody"):
                    for _ in range(2):
                        assert (await other(c).post("/api/password/forgot", json={"name": name})).status_code == 202
                    assert (await other(c).post("/api/password/forgot", json={"name": name})).status_code == 429
                await app.resets.mailer.settle()

    asyncio.run(main())
