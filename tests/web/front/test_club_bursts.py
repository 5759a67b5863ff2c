"""The club's limits and one-time things a burst cannot race, over two ``hive serve`` processes sharing one
PostgreSQL database (real processes, real ports, clients taking turns between them), 60 requests at once each:

- API tokens minted for one bot account: exactly :data:`~hive.web.players.tokens.MAX_TOKENS` stored;
- follows: the same player followed once (one row), distinct players up to
  :data:`~hive.web.players.follows.MAX_FOLLOWS` and no more;
- push subscriptions: at most the account's limit; one browser's endpoint from two accounts kept once;
- reports of one line by one reader: one stored;
- an admin's bans and mutes of one account: one change each, audited once;
- forgotten passwords: asks for one name, from one address, and mails to one e-mail address within their throttles
  (through a test mail server), and at most one live link per account;
- one reset link used once (one 200, the password it set is the account's);
- quick pairing clicked by two accounts in one real-time pool: one game, no seek left open, and no pairing while
  the game goes on.

Then each new route's path and query take hostile values (NUL, huge, look-alike) with a 4xx, never a 5xx, and the
asks for a forgotten password do too on a server that sends mail.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg

from hive.web.players.follows import MAX_FOLLOWS
from hive.web.players.names import name_key
from hive.web.players.resets import ASKS_PER_ADDRESS, ASKS_PER_NAME, MAILS_PER_ADDRESS
from hive.web.players.tokens import MAX_TOKENS
from hive.web.push.service import MAX_SUBSCRIPTIONS

from ...web_support import ServeProcess
from ..api_support import LIMITS, PASSWORD
from ..mail_support import Mailbox, link_in, mail_server
from ..push_support import Browser

#: The options of both processes: no per-minute limits, many sign-ups from this machine, its X-Forwarded-For trusted.
OPTIONS = (*LIMITS, "--sign-ups-per-hour", "1000", "--forwarded-allow-ips", "127.0.0.1")
#: How many requests each burst sends at once.
N = 60


@dataclass
class Player:
    """An account signed in on both processes: a client on each, and the session's CSRF header."""

    name: str
    id: str
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient]
    headers: dict[str, str]

    def on(self, i: int) -> httpx.AsyncClient:
        """The client of request ``i`` of a burst: the processes take turns."""
        return self.clients[i % 2]


async def at_once(requests: list[Awaitable[httpx.Response]]) -> list[httpx.Response]:
    """The answers of ``requests`` sent at once."""
    return list(await asyncio.gather(*requests))


def statuses(answers: list[httpx.Response]) -> list[int]:
    return [r.status_code for r in answers]


class Club:
    """The two processes, the players made on them, and the database behind them."""

    def __init__(self, urls: tuple[str, str], database: str) -> None:
        self.urls = urls
        self.database = database
        self.opened: list[httpx.AsyncClient] = []

    def client(self, which: int, **more: Any) -> httpx.AsyncClient:
        # a connection idle longer than the server keeps one (5 s) is not reused: its close would race the request
        keep = httpx.Limits(keepalive_expiry=2)
        made = httpx.AsyncClient(base_url=self.urls[which], timeout=60, limits=keep, **more)
        self.opened.append(made)
        return made

    async def player(self, name: str, email: str | None = None) -> Player:
        one = self.client(0)
        r = await one.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        headers = {"x-csrf-token": r.json()["csrf"]}
        two = self.client(1, cookies=one.cookies)
        if email is not None:
            assert (await two.post("/api/account/email", json={"email": email}, headers=headers)).is_success
        return Player(name, self.query("SELECT id FROM accounts WHERE name = %s", name)[0][0], (one, two), headers)

    def query(self, sql: str, *values: object) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.database) as db:
            return db.execute(sql, values).fetchall()

    def count(self, sql: str, *values: object) -> int:
        return int(self.query(sql, *values)[0][0])

    async def close(self) -> None:
        for client in self.opened:
            await client.aclose()


async def tokens(club: Club) -> None:
    bot = await club.player("robot")
    assert (await bot.on(1).post("/api/account/bot", headers=bot.headers)).is_success
    made = await at_once(
        [bot.on(i).post("/api/account/token", json={"label": f"t{i}"}, headers=bot.headers) for i in range(N)]
    )
    assert sorted(set(statuses(made))) == [200, 409] and statuses(made).count(200) == MAX_TOKENS, statuses(made)
    assert len((await bot.on(0).get("/api/account/tokens")).json()["tokens"]) == MAX_TOKENS
    assert club.count("SELECT count(*) FROM api_tokens WHERE account_id = %s", bot.id) == MAX_TOKENS


async def follows(club: Club) -> None:
    fan = await club.player("fan")
    names = [f"star{i:03}" for i in range(MAX_FOLLOWS + 50)]
    now = time.time()
    with psycopg.connect(club.database) as db, db.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO accounts (id, name, key, password, created, admin, banned, bot)"
            " VALUES (%s, %s, %s, 'x', %s, false, false, false)",
            [(f"id-{name}", name, name_key(name), now) for name in names],
        )
    same = await at_once(
        [fan.on(i).post("/api/follows", json={"name": "star000"}, headers=fan.headers) for i in range(N)]
    )
    assert set(statuses(same)) == {200}, statuses(same)
    assert [r.json()["already"] for r in same].count(False) == 1
    assert club.count("SELECT count(*) FROM follows WHERE follower_id = %s", fan.id) == 1
    # all but the last ten followed already, then a burst of others: ten more are taken
    with psycopg.connect(club.database) as db, db.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO follows (follower_id, followed_id, created) VALUES (%s, %s, %s)",
            [(fan.id, f"id-{name}", now) for name in names[1 : MAX_FOLLOWS - 10]],
        )
    others = names[MAX_FOLLOWS - 10 :]
    made = await at_once(
        [fan.on(i).post("/api/follows", json={"name": name}, headers=fan.headers) for i, name in enumerate(others)]
    )
    assert sorted(set(statuses(made))) == [200, 409] and statuses(made).count(200) == 10, statuses(made)
    assert club.count("SELECT count(*) FROM follows WHERE follower_id = %s", fan.id) == MAX_FOLLOWS
    assert len((await fan.on(1).get("/api/follows")).json()["players"]) == MAX_FOLLOWS


async def push(club: Club, ann: Player, bob: Player, cat: Player) -> None:
    browser = Browser()
    many = [browser.subscription(f"https://push.example.com/ann/{i}") for i in range(N)]
    made = await at_once(
        [ann.on(i).post("/api/push/subscribe", json=body, headers=ann.headers) for i, body in enumerate(many)]
    )
    assert sorted(set(statuses(made))) == [200, 429] and statuses(made).count(200) == MAX_SUBSCRIPTIONS, statuses(made)
    refused = next(r for r in made if r.status_code == 429)
    assert "push subscriptions at most" in refused.json()["error"]
    assert club.count("SELECT count(*) FROM push_subscriptions WHERE account_id = %s", ann.id) == MAX_SUBSCRIPTIONS
    # one browser's endpoint, handed from one account to another and back at once: kept once, nothing fails
    one = browser.subscription("https://push.example.com/shared")
    who = [bob, cat]
    made = await at_once(
        [who[i % 2].on(i // 2).post("/api/push/subscribe", json=one, headers=who[i % 2].headers) for i in range(N)]
    )
    assert set(statuses(made)) == {200}, [r.text for r in made if r.status_code != 200][:3]
    assert club.count("SELECT count(*) FROM push_subscriptions WHERE endpoint = %s", one["endpoint"]) == 1


async def game_between(ann: Player, bob: Player) -> str:
    seek = {"game": "Base", "time_control": {"days": 1}, "rated": False, "colour": "white"}
    opened = (await ann.on(0).post("/api/seeks", json=seek, headers=ann.headers)).json()
    accepted = await bob.on(1).post(f"/api/seeks/{opened['id']}/accept", headers=bob.headers)
    assert accepted.is_success, accepted.text
    return str(accepted.json()["id"])


async def reports(club: Club, ann: Player, bob: Player, chief: Player) -> None:
    game_id = await game_between(ann, bob)
    said = await ann.on(0).post(
        f"/api/games/{game_id}/chat", json={"room": "players", "text": "rude"}, headers=ann.headers
    )
    line = said.json()["id"]
    made = await at_once([bob.on(i).post(f"/api/chat/{line}/report", headers=bob.headers) for i in range(N)])
    assert set(statuses(made)) == {200}, statuses(made)
    assert [r.json()["already"] for r in made].count(False) == 1
    [report] = (await chief.on(0).get("/api/admin/reports")).json()["reports"]
    assert report["reports"] == 1 and report["reported_by"] == "bob"


async def admin(club: Club, chief: Player) -> None:
    spam = await club.player("spammer")
    path = "/api/admin/accounts/spammer"

    def burst(action: str, body: dict[str, bool]) -> Awaitable[list[httpx.Response]]:
        return at_once([chief.on(i).post(f"{path}/{action}", json=body, headers=chief.headers) for i in range(N)])

    for action, body, done in [
        ("mute", {"muted": True}, "mute"),
        ("ban", {"banned": True}, "ban"),
        ("ban", {"banned": False}, "unban"),
        ("mute", {"muted": False}, "unmute"),
    ]:
        made = await burst(action, body)
        assert set(statuses(made)) == {200}, [r.text for r in made if r.status_code != 200][:3]
        assert [r.json()["changed"] for r in made].count(True) == 1, (action, body, [r.json() for r in made][:5])
        audited = club.count("SELECT count(*) FROM audit WHERE action = %s AND target = 'spammer'", done)
        assert audited == 1, (done, audited)
    assert club.count("SELECT count(*) FROM mutes WHERE account_id = %s", spam.id) == 0
    assert not club.query("SELECT banned FROM accounts WHERE id = %s", spam.id)[0][0]


async def forgotten(club: Club, mailbox: Mailbox) -> None:
    await club.player("dora", email="dora@example.org")
    for name in ("mia", "max", "moe", "mel", "meg"):
        await club.player(name, email="shared@example.org")
    web = club.client(0), club.client(1)

    def ask(i: int, name: str, address: str) -> Awaitable[httpx.Response]:
        return web[i % 2].post("/api/password/forgot", json={"name": name}, headers={"x-forwarded-for": address})

    def mails_to(address: str, count: int) -> list[Any]:
        deadline = time.monotonic() + 20
        while len([m for m in mailbox.received if m["To"] == address]) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # and no more come
        return [m for m in mailbox.received if m["To"] == address]

    # one name, from many addresses: the name's asks are the limit
    made = await at_once([ask(i, "dora", f"198.51.100.{i}") for i in range(N)])
    assert sorted(set(statuses(made))) == [202, 429] and statuses(made).count(202) == ASKS_PER_NAME, statuses(made)
    mails = mails_to("dora@example.org", ASKS_PER_NAME)
    assert len(mails) == min(ASKS_PER_NAME, MAILS_PER_ADDRESS), len(mails)
    live = [await web[0].get("/api/password/reset/" + link_in(m).rsplit("/", 1)[1]) for m in mails]
    assert statuses(live).count(200) == 1, statuses(live)  # a new link replaces the unused one

    # one address, for many names: the address's asks are the limit
    made = await at_once([ask(i, f"someone{i}", "203.0.113.9") for i in range(N)])
    assert sorted(set(statuses(made))) == [202, 429] and statuses(made).count(202) == ASKS_PER_ADDRESS, statuses(made)

    # five names with one e-mail address, from many addresses: the mails to it are the limit
    made = await at_once([ask(i, ("mia", "max", "moe", "mel", "meg")[i % 5], f"192.0.2.{i}") for i in range(N)])
    assert statuses(made).count(202) == 5 * ASKS_PER_NAME, statuses(made)
    assert len(mails_to("shared@example.org", MAILS_PER_ADDRESS)) == MAILS_PER_ADDRESS


async def reset_link(club: Club, chief: Player) -> None:
    await club.player("dan")
    link = (await chief.on(0).post("/api/admin/accounts/dan/reset", headers=chief.headers)).json()["link"]
    token = link.rsplit("/", 1)[1]
    web = club.client(0), club.client(1)
    made = await at_once(
        [web[i % 2].post("/api/password/reset", json={"token": token, "password": f"{PASSWORD} {i}"}) for i in range(N)]
    )
    assert sorted(set(statuses(made))) == [200, 404] and statuses(made).count(200) == 1, statuses(made)
    won = statuses(made).index(200)
    signed = await club.client(1).post("/api/session", json={"name": "dan", "password": f"{PASSWORD} {won}"})
    assert signed.status_code == 200, signed.text


async def quick_pairing(club: Club) -> None:
    qa, qb = await club.player("quickann"), await club.player("quickbob")
    who = [qa, qb]
    click = {"game": "Base", "time_control": {"initial": 180, "increment": 2}, "rated": False}
    mine = "account0 IN (%s, %s) OR account1 IN (%s, %s)"

    def games() -> int:
        return club.count(f"SELECT count(*) FROM games WHERE {mine}", qa.id, qb.id, qa.id, qb.id)

    async def clicks() -> list[str]:
        before = games()
        made = await at_once(
            [who[i % 2].on(i // 2).post("/api/quickpair", json=click, headers=who[i % 2].headers) for i in range(N)]
        )
        assert set(statuses(made)) <= {200, 409}, [r.text for r in made if r.status_code not in (200, 409)][:3]
        started = [r.json()["id"] for r in made if r.status_code == 200 and r.json()["paired"] == "started"]
        assert games() == before + len(started), (before, started)
        return started

    async def opened() -> int:
        return club.count("SELECT count(*) FROM seeks WHERE account_id IN (%s, %s) AND game_id IS NULL", qa.id, qb.id)

    # qa waits; then 60 clicks at once: a click toggles its clicker's seek, so whether one of them pairs depends on
    # their order, but the two are paired once at most, and then neither has a seek left open
    assert (await qa.on(0).post("/api/quickpair", json=click, headers=qa.headers)).json()["paired"] == "waiting"
    started = await clicks()
    assert len(started) <= 1 and (not started or await opened() == 0), (started, await opened())
    if not started:  # paired one at a time, then the burst again: none pairs them twice
        while (await qa.on(0).post("/api/quickpair", json=click, headers=qa.headers)).json()["paired"] != "waiting":
            pass
        paired = await qb.on(1).post("/api/quickpair", json=click, headers=qb.headers)
        assert paired.json()["paired"] == "started", paired.text
        assert await clicks() == [] and await opened() == 0
    # a player in a real-time game is not paired again in a real-time pool
    again = await qa.on(1).post("/api/quickpair", json=click, headers=qa.headers)
    assert again.status_code == 409 and "playing" in again.json()["error"], again.text


#: Hostile values in the new routes' paths and queries: NUL, a lone surrogate's bytes, huge, look-alike, a number.
HOSTILE = ("a%00b", "%ED%A0%80", "x" * 5000, "%E2%80%AEx", "1e308", "-1", "%20")


async def hostile(club: Club, ann: Player, chief: Player) -> None:
    paths = [
        ("GET", "/api/players?prefix={}"),
        ("DELETE", "/api/follows/{}"),
        ("DELETE", "/api/account/tokens/{}"),
        ("GET", "/api/password/reset/{}"),
        ("GET", "/api/push/subscription?endpoint={}"),
        ("POST", "/api/admin/accounts/{}/ban"),
        ("POST", "/api/admin/accounts/{}/mute"),
        ("POST", "/api/admin/accounts/{}/reset"),
        ("POST", "/api/admin/accounts/ann/{}"),
        ("DELETE", "/api/admin/accounts/{}"),
        ("POST", "/api/admin/reports/{}/handled"),
        ("GET", "/api/admin/audit?before={}"),
        ("POST", "/api/chat/{}/report"),
        ("GET", "/reset/{}"),
    ]
    for method, path in paths:
        asker = chief if "/admin/" in path else ann
        for value in HOSTILE:
            r = await asker.on(len(value)).request(method, path.format(value), headers=asker.headers)
            assert r.status_code < 500, (method, path, value[:20], r.status_code, r.text[:200])
    # the asks for a link on a server that sends mail (the hostile JSON test's server sends none)
    web = club.client(0)
    names: tuple[object, ...] = (None, 5, 1e308, [1], {"a": 1}, True, "", "a\x00b", "x" * 5000, "a\u202eb")
    headers = {"x-forwarded-for": "192.0.2.200", "content-type": "application/json"}
    for name in names:
        r = await web.post("/api/password/forgot", content=json.dumps({"name": name}), headers=headers)
        assert r.status_code < 500 and (r.status_code != 202 or isinstance(name, str)), (name, r.text)
    surrogate = await web.post("/api/password/forgot", content=b'{"name": "a\\ud800b"}', headers=headers)
    assert surrogate.status_code == 400, surrogate.text


async def bursts(urls: tuple[str, str], database: str, mailbox: Mailbox) -> None:
    club = Club(urls, database)
    try:
        ann, bob, cat, chief = [await club.player(name) for name in ("ann", "bob", "cat", "chief")]
        made = subprocess.run(
            [sys.executable, "-m", "hive", "db", "admin", "chief", "--database", database],
            capture_output=True,
            timeout=60,
        )
        assert made.returncode == 0, made.stderr
        await tokens(club)
        await follows(club)
        await push(club, ann, bob, cat)
        await reports(club, ann, bob, chief)
        await admin(club, chief)
        await forgotten(club, mailbox)
        await reset_link(club, chief)
        await quick_pairing(club)
        await hostile(club, ann, chief)
    finally:
        await club.close()


def stopped(*processes: ServeProcess) -> None:
    for process in processes:
        assert process.stop() == 0
        output = process.output()
        assert "Traceback" not in output, output[output.index("Traceback") - 2000 :][:6000]


def test_the_club_s_bursts_over_two_processes_store_exactly_the_limit(upgraded: str, tmp_path: Path) -> None:
    with mail_server() as mailbox:
        options = (*OPTIONS, "--smtp", mailbox.url)
        # each one's output in a file: a burst's log would fill a pipe and stop the process
        with (
            ServeProcess(upgraded, *options, log=tmp_path / "one.log") as one,
            ServeProcess(upgraded, *options, log=tmp_path / "two.log") as two,
        ):
            asyncio.run(bursts((one.url, two.url), upgraded, mailbox))
            stopped(one, two)
