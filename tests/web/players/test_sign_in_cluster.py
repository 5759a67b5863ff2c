"""The sign-in throttle and the sign-up quota under bursts, across two ``hive serve`` processes on one PostgreSQL:
every attempt is counted in the database before its password is checked, so that of 60 wrong passwords at once for
one name, at most the allowance is checked (401) and the rest are refused (429), whichever process each reaches.
Real processes, real ports, a real PostgreSQL; the clients' addresses come through ``X-Forwarded-For`` from a
trusted proxy (the test)."""

from __future__ import annotations

import asyncio
import collections

import httpx

from ...web_support import ServeProcess

PASSWORD = "correct horse battery"
#: The limits the processes are started with (options of hive serve, so those are tried too).
PER_NAME, PER_PAIR, SIGN_UPS = 7, 4, 3
OPTIONS = (
    "--forwarded-allow-ips",
    "127.0.0.1",
    "--sign-in-failures-per-name",
    str(PER_NAME),
    "--sign-in-failures",
    str(PER_PAIR),
    "--sign-ups-per-hour",
    str(SIGN_UPS),
)


async def burst(urls: list[str], path: str, bodies: list[dict[str, str]], addresses: list[str]) -> list[int]:
    """POST every body at once, alternating between the processes, each from its address and a browser of its own
    (no cookies); the statuses in order."""

    async def one(i: int) -> int:
        async with httpx.AsyncClient(timeout=120) as own:
            r = await own.post(urls[i % len(urls)] + path, json=bodies[i], headers={"x-forwarded-for": addresses[i]})
            return r.status_code

    return list(await asyncio.gather(*(one(i) for i in range(len(bodies)))))


def test_bursts_of_sign_ins_and_sign_ups_across_two_processes(upgraded: str) -> None:
    with ServeProcess(upgraded, *OPTIONS) as one, ServeProcess(upgraded, *OPTIONS) as two:
        urls = [one.url, two.url]

        async def main() -> None:
            async with httpx.AsyncClient(timeout=120) as c:
                for i, name in enumerate(("target", "second", "third")):
                    r = await c.post(
                        one.url + "api/accounts",
                        json={"name": name, "password": PASSWORD},
                        headers={"x-forwarded-for": f"198.51.100.{i}"},
                    )
                    assert r.status_code == 201, r.text
                # 60 wrong passwords at once for one name, from 60 addresses: the name's allowance is checked
                wrong = [{"name": "target", "password": f"guess {i:02d} !"} for i in range(60)]
                spread = [f"203.0.113.{i}" for i in range(60)]
                statuses = collections.Counter(await burst(urls, "api/session", wrong, spread))
                assert statuses[401] == PER_NAME and statuses[429] == 60 - PER_NAME, statuses
                # 60 at once from one address: the name-and-address allowance
                wrong = [{"name": "second", "password": f"guess {i:02d} !"} for i in range(60)]
                statuses = collections.Counter(await burst(urls, "api/session", wrong, ["192.0.2.7"] * 60))
                assert statuses[401] == PER_PAIR and statuses[429] == 60 - PER_PAIR, statuses
                # 39 wrong and the right one at once, from addresses that never signed it in: the right one signs in
                # only if it came within the allowance (a success gives its count back, once it is known)
                bodies = [{"name": "third", "password": f"guess {i:02d} !"} for i in range(39)]
                bodies.insert(20, {"name": "third", "password": PASSWORD})
                answers = await burst(urls, "api/session", bodies, [f"203.0.114.{i}" for i in range(40)])
                statuses = collections.Counter(answers)
                assert statuses[401] <= PER_NAME and set(statuses) <= {200, 401, 429}, statuses
                assert statuses[401] + statuses[200] <= PER_NAME + 1 and answers[20] in (200, 429), statuses
                # the owner, from the address she signed up from, is not held by any of it
                r = await c.post(
                    two.url + "api/session",
                    json={"name": "target", "password": PASSWORD},
                    headers={"x-forwarded-for": "198.51.100.0"},
                )
                assert r.status_code == 200, r.text
                # 60 sign-ups at once from one address: the hour's allowance of accounts, no more
                bodies = [{"name": f"crowd{i}", "password": PASSWORD} for i in range(60)]
                statuses = collections.Counter(await burst(urls, "api/accounts", bodies, ["192.0.2.30"] * 60))
                assert statuses[201] == SIGN_UPS and statuses[429] == 60 - SIGN_UPS, statuses
                players = [(await c.get(urls[i % 2] + f"api/players/crowd{i}")).status_code for i in range(60)]
                assert players.count(200) == SIGN_UPS

        asyncio.run(main())
