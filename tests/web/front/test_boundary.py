"""What crosses the server's boundary: numbers checked against their field's range before anything is stored, one
text rule for every field, path parameters with control characters refused, a 500 that shows no exception or SQL
text, tournaments limited per organiser, a log that cannot be forged and holds no token, and the Origin's scheme."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from starlette.routing import Route

from hive.web import App
from hive.web.shared.errors import BadRequest
from hive.web.shared.settings import Settings
from hive.web.shared.values import check_number, check_text, parse_id

from ...web_support import JSON, ServeProcess, in_process, server_thread
from ..api_support import PASSWORD, SERVER

pytestmark = pytest.mark.anyio


@contextlib.asynccontextmanager
async def signed_in(db: str | Path, name: str = "ada") -> AsyncIterator[tuple[App, httpx.AsyncClient, JSON]]:
    """The app over ``db`` with accounts, a client signed in as ``name``, and its CSRF header."""
    async with in_process(db, settings=SERVER) as (app, c):
        await app.accounts.sign_up({"name": name, "password": PASSWORD}, "10.9.0.1")
        signed = (await c.post("/api/session", json={"name": name, "password": PASSWORD})).json()
        yield app, c, {"x-csrf-token": signed["csrf"], "content-type": "application/json"}


#: (body, what the refusal names) of tournaments that must not be stored: each field out of its range.
TOURNAMENTS = [
    ('{"forfeit_after": NaN}', "has NaN"),
    ('{"forfeit_after": Infinity}', "has Infinity"),
    ('{"forfeit_after": 1e308}', "'forfeit_after' (minutes, or null) must be a number from 0.01 to 10,080"),
    ('{"forfeit_after": 0}', "'forfeit_after' (minutes, or null) must be a number from 0.01"),
    ('{"forfeit_after": true}', "'forfeit_after'"),
    ('{"starts": NaN}', "has NaN"),
    ('{"starts": -Infinity}', "has -Infinity"),
    ('{"starts": 1e300}', "'starts' (seconds since the epoch, or null) must be a number from 0 to 253,402,300,799"),
    ('{"rounds": 1000000000000000000000000}', "integer out of range"),
    ('{"rounds": 9007199254740991}', "'rounds' must be a whole number from 0 to 50, not 9007199254740991"),
    ('{"rounds": 2.5}', "'rounds' must be a whole number"),
    ('{"time_control": {"initial": 1234567890123456789012345678901234567890}}', "40 digits"),
    ('{"time_control": {"initial": 60, "increment": 1e300}}', "'time_control.increment' must be from 0 to 180"),
    ('{"name": "a\\u202eb"}', "U+202E RIGHT-TO-LEFT OVERRIDE at character 2"),
    ('{"name": "a\\u200bb"}', "U+200B ZERO WIDTH SPACE"),
    ('{"name": "a\\u0007b"}', "A tournament's name cannot hold control or format characters"),
    ('{"name": "a\\u0000b"}', "NUL character in 'name'"),
    ('{"name": "a\\ud800b"}', "lone UTF-16 surrogate"),
]


async def test_tournament_numbers_and_names_are_checked_before_anything_is_stored(database: str) -> None:
    """Before, ``forfeit_after`` NaN, Infinity or 1e308 (or ``starts`` NaN) answered 500 after storing the
    tournament, which then answered 500 on every read; ``rounds`` 10^24 was accepted; a name took bidi, zero-width
    and control characters that chat refused."""
    async with signed_in(database) as (_, c, headers):
        for body, message in TOURNAMENTS:
            base = '{"name": "Cup", "rated": false, "rounds": 2, "time_control": "blitz", '
            r = await c.post("/api/tournaments", content=base + body[1:], headers=headers)
            assert r.status_code == 400 and message in r.json()["error"], (body, r.text)
        listed = await c.get("/api/tournaments")
        assert listed.status_code == 200 and listed.json()["tournaments"] == []
        ok = {"name": "Cup", "rated": False, "rounds": 50, "forfeit_after": 10080, "starts": 253_402_300_799}
        made = await c.post("/api/tournaments", json=ok, headers=headers)
        assert made.status_code == 200, made.text
        assert (await c.get(f"/api/tournaments/{made.json()['id']}")).status_code == 200


async def test_a_seeks_rating_range_is_checked_before_anything_is_stored(database: str) -> None:
    """Before, a 40-digit ``rating_range`` answered 500 (SQLite: an overflow; PostgreSQL: out of range)."""
    async with signed_in(database) as (_, c, headers):
        for bounds, message in [
            ("[0, 1234567890123456789012345678901234567890]", "40 digits"),
            ("[1e308, null]", "Each end of 'rating_range' (or null) must be a number from 0 to 5,000, not 1e+308"),
            ("[-1, 2000]", "from 0 to 5,000, not -1"),
            ("[NaN, 2000]", "has NaN"),
            ('["1200", 2000]', "not '1200'"),
        ]:
            body = '{"game": "Base", "rated": false, "rating_range": ' + bounds + "}"
            r = await c.post("/api/seeks", content=body, headers=headers)
            assert r.status_code == 400 and message in r.json()["error"], (bounds, r.text)
        assert (await c.get("/api/seeks")).json()["seeks"] == []


def test_one_text_rule_for_every_field() -> None:
    """Controls, bidi controls, zero-width characters, lone surrogates and private-use characters are refused in
    any text; a record's text may hold line breaks and tabs, and nothing else of those."""
    refused = ["a\x00", "a\x1b[31m", "a\x7f", "a\x85", "a\u202ab", "a\u2066b", "a\u200eb", "a\u200fb", "a\u061cb"]
    refused += ["a\u200bb", "a\u200cb", "a\u200db", "a\u2060b", "\ufeffa", "a\ud800", "a\ue000", "a\u2028b", "a\nb"]
    for text in refused:
        with pytest.raises(BadRequest, match="cannot hold control or format characters"):
            check_text(text, "'x'", 100)
    for text in ["Friday Swiss", "Élan vital", "日本語", "ok \N{GRINNING FACE}", "a-b_c (d)"]:
        assert check_text(text, "'x'", 100) == text
    assert check_text("1. wS1\r\n2. bS1 wS1-\t", "'record'", 100, multiline=True)
    for text in ["wS1\x00", "wS1\u202e", "wS1\x0b"]:
        with pytest.raises(BadRequest, match="line breaks and tabs are allowed"):
            check_text(text, "'record'", 100, multiline=True)
    with pytest.raises(BadRequest, match="'x' has at most 3 characters, not 4"):
        check_text("abcd", "'x'", 3)
    with pytest.raises(BadRequest, match="'x' cannot be empty"):
        check_text("  ", "'x'", 3)
    for value in [float("nan"), float("inf"), 1e308, 10**40, True, None, "1", [1]]:
        with pytest.raises(BadRequest, match="'n' must be a number from 0 to 10, not"):
            check_number(value, "'n'", 0, 10)
    assert parse_id("2147483647") == 2**31 - 1 and parse_id("9223372036854775807", 2**63 - 1) == 2**63 - 1
    assert [parse_id(text) for text in ("2147483648", "1" * 400, "-1", "\uff11", "", "1 ")] == [None] * 6


async def test_chat_names_and_records_keep_the_text_rule(tmp_path: Path) -> None:
    """A display name, a game record and a chat line each refuse a bidi control or a control character; a record
    keeps its line breaks."""
    async with signed_in(tmp_path / "db.sqlite3") as (_, c, _headers):
        for body, message in [
            ({"mode": "local", "name": "Ann\u202e"}, "'name' cannot hold control or format characters"),
            ({"mode": "local", "game_string": "Base;InProgress;White[2];wS1;\x1b"}, "'game_string' cannot hold"),
            ({"position": "Position;Base;White[1];\u200b"}, "'position' cannot hold"),
        ]:
            r = await c.post("/api/games", json=body)
            assert r.status_code == 400 and message in r.json()["error"], (body, r.text)
        made = await c.post("/api/games", json={"mode": "local", "game_string": "Base;InProgress;Black[1];\nwS1\n"})
        assert made.status_code == 200, made.text


#: Path parameters that no id or name holds.
HOSTILE_PATHS = ["%00", "x%0ay", "%1b%5b31m", "a%e2%80%aeb", "%7f"]


async def test_control_characters_in_path_parameters_are_refused_on_every_route(database: str) -> None:
    """Every route with a path parameter, asked with a NUL, a line break, an escape, a bidi control or DEL in it:
    a 400, never a 500. Before, PostgreSQL refused a NUL in a text, and 19 routes answered 500. A chat id past
    2^31 (PostgreSQL's INTEGER) is no message (404); before, one past 2^63 overflowed SQLite's integers, and one
    past 2^31 PostgreSQL's (500)."""
    async with signed_in(database) as (app, c, headers):
        routes = [route for route in app.asgi.routes if isinstance(route, Route) and "{" in route.path]
        asked = 0
        for route in routes:
            methods = sorted((route.methods or {"GET"}) - {"HEAD"})
            for method in methods:
                for hostile in HOSTILE_PATHS:
                    path = route.path
                    for name in route.param_convertors:
                        path = path.replace("{" + name + "}", hostile)
                    r = await c.request(method, path, headers=headers, content=b"{}")
                    assert r.status_code == 400, (method, path, r.status_code, r.text)
                    assert "control or format character" in r.json()["error"]
                    asked += 1
        assert asked >= 19 * len(HOSTILE_PATHS)
        assert (await c.get("/api/players/ada/games", params={"opponent": "a\x00"})).status_code == 400
        for number in (str(2**63), "9" * 400, str(2**63 - 1), str(2**31), str(2**31 - 1)):
            r = await c.post(f"/api/chat/{number}/report", headers=headers)
            assert r.status_code == 404 and "No message" in r.json()["error"], r.text


async def test_a_500_shows_a_reference_and_no_exception_text(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A handler failing unexpectedly (here, as a driver's error would quote SQL) answers ``Internal error`` and a
    reference, which the log holds with the traceback. Before, the answer carried the exception's text, SQL and
    all."""
    secret = "[SQL: SELECT accounts.password FROM accounts WHERE key = 'ada'] s3cr3t"
    async with in_process(tmp_path / "db.sqlite3") as (app, _):

        async def failing(limit: int = 200) -> JSON:
            raise RuntimeError(secret)

        app.game_list.games = failing  # type: ignore[method-assign,assignment]
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://hive.test") as c:
            with caplog.at_level(logging.ERROR, logger="hive.web"):
                r = await c.get("/api/games")
    assert r.status_code == 500
    answer = r.json()
    assert set(answer) == {"error", "request"} and answer["error"] == "Internal error", answer
    assert "SQL" not in r.text and "s3cr3t" not in r.text and "RuntimeError" not in r.text
    logged = [record for record in caplog.records if answer["request"] in record.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is not None and secret in str(logged[0].exc_info[1])


async def test_an_organiser_has_at_most_5_tournaments_open_and_makes_20_a_day(tmp_path: Path) -> None:
    """Before, one account made 300 tournaments in 2.5 s. Five open ones at once: the sixth is refused until one
    starts (here, started on time with too few players, so over); twenty a day, whatever became of them."""
    async with signed_in(tmp_path / "db.sqlite3") as (app, c, headers):
        body = {"name": "Cup", "rated": False, "rounds": 1}
        made = 0
        for _ in range(4):
            for _ in range(5):
                r = await c.post("/api/tournaments", json={**body, "starts": 1}, headers=headers)
                assert r.status_code == 200, r.text
                made += 1
            if made < 20:
                r = await c.post("/api/tournaments", json=body, headers=headers)
                assert r.status_code == 429 and "5 tournaments open already" in r.json()["error"], r.text
            await app.tournaments.look()  # due: each over, with fewer than two players
        r = await c.post("/api/tournaments", json=body, headers=headers)
        assert r.status_code == 429 and "At most 20 new tournaments a day" in r.json()["error"], r.text
        assert len((await c.get("/api/tournaments")).json()["tournaments"]) == made == 20


async def test_60_concurrent_tournaments_of_one_organiser_store_5(database: str) -> None:
    """The open tournaments are counted under the quota row's lock: 60 requests at once store exactly 5."""
    async with signed_in(database) as (_, c, headers):
        body = {"name": "Cup", "rated": False, "rounds": 1}
        answers = await asyncio.gather(*(c.post("/api/tournaments", json=body, headers=headers) for _ in range(60)))
        statuses = sorted(r.status_code for r in answers)
        assert statuses == [200] * 5 + [429] * 55, statuses
        assert len((await c.get("/api/tournaments")).json()["tournaments"]) == 5


def test_the_log_has_no_forged_line_and_no_token(tmp_path: Path) -> None:
    """``hive serve``'s own log, as it writes it: a path with an encoded line break is one line, escaped; a game
    socket's seat token (uvicorn logs each socket it accepts with its query), a ``Bearer`` token and a session
    cookie are redacted. Before, the path wrote a second, forged line, and seat tokens were logged in the clear."""
    forged = "2026-01-01 INFO hive.access: forged line"
    with ServeProcess(f"sqlite:///{tmp_path / 'db.sqlite3'}") as server:
        game = httpx.post(server.url + "api/games", json={"mode": "online"}, timeout=30).json()
        token = game["token"]
        httpx.get(server.url + "api/games/x%0a" + forged.replace(" ", "%20"), timeout=30)
        httpx.get(server.url + f"api/games/{game['id']}?token={token}", timeout=30)
        httpx.get(server.url + "api/session", headers={"authorization": "Bearer hive_secretbearer"}, timeout=30)

        async def watch() -> None:
            url = server.url.replace("http://", "ws://") + f"ws/games/{game['id']}?token={token}&chat=1"
            async with websockets.connect(url) as ws:
                await asyncio.wait_for(ws.recv(), 30)

        asyncio.run(watch())
        server.stop()
        log = server.output()
    lines = log.splitlines()
    assert not any(line.startswith(forged) for line in lines), log
    assert any("/api/games/x\\x0a2026-01-01" in line for line in lines), log
    assert token not in log and "hive_secretbearer" not in log, log
    assert "token=[redacted]" in log, log


@pytest.fixture()
def behind_proxy(tmp_path: Path) -> Iterator[str]:
    """A server that trusts the proxy at 127.0.0.1 (its ``X-Forwarded-Proto``); its URL."""
    with server_thread(tmp_path / "db.sqlite3", settings=Settings(proxy="127.0.0.1")) as url:
        yield url


def test_the_origins_scheme_is_the_one_the_request_came_in_on(tmp_path: Path, behind_proxy: str) -> None:
    """A plain-http server refuses a page of ``https://`` its own host and port (before, the scheme was ignored);
    behind a trusted proxy that says the request came over HTTPS, the ``https://`` page is the server's own and the
    ``http://`` one is not."""
    own = behind_proxy.rstrip("/")
    secure = own.replace("http://", "https://")

    def status(origin: str, proto: str | None = None) -> int:
        headers = {"origin": origin} | ({"x-forwarded-proto": proto} if proto else {})
        return httpx.post(behind_proxy + "api/games", json={"mode": "local"}, headers=headers, timeout=30).status_code

    assert (status(own), status(secure)) == (200, 403)
    assert (status(secure, "https"), status(own, "https")) == (200, 403)

    async def refused() -> Any:
        with pytest.raises(websockets.InvalidStatus) as err:
            await websockets.connect(behind_proxy.replace("http://", "ws://") + "ws/lobby", origin=secure)  # type: ignore[arg-type]
        return err.value.response.status_code

    assert asyncio.run(refused()) == 403
