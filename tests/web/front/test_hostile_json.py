"""Hostile values in every field of every JSON route: NaN, the infinities, 1e308, 10^400, 40-digit integers, NUL,
lone surrogates, bidi and zero-width characters, control characters, long text, and the wrong types (a list, an
object, booleans, null). Each is sent alone into a body that is otherwise right, as a player, a seat holder or an
admin would send it (past the checks of who may ask). No answer may be a 5xx, and a refusal stores nothing: the rows
of every table that a request could add to are counted before and after. A value may be accepted only where the
field takes it (``null`` for an optional field, a boolean for a flag); :data:`TAKEN` lists those.

The fields each route reads are in :data:`CASES`; every route of the app that takes a body is either there or in
:data:`NO_FIELDS`, so that a new route without a row here fails the test. The handlers themselves say which fields
they read (each body is a :class:`~tests.web.reading_support.Reading` while the cases run): a field read that no case
fuzzes, or a case's field that its requests never reach (the body refused before it), fails the test too. In process
on SQLite, and a smaller set on PostgreSQL (where a 40-digit integer overflows BIGINT and a NUL is no text).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from starlette.routing import Route

from hive.web import App, schema
from hive.web.play import actions as game_actions
from hive.web.shared import endpoints
from hive.web.shared.settings import Settings

from ...web_support import JSON, in_process
from ..api_support import PASSWORD
from ..mail_support import mail_server
from ..push_support import Browser
from ..reading_support import Reading, outer

pytestmark = pytest.mark.anyio

#: The hostile values, by label.
HOSTILE: dict[str, Any] = {
    "NaN": math.nan,
    "Infinity": math.inf,
    "-Infinity": -math.inf,
    "1e308": 1e308,
    "10^400": 10**400,
    "40 digits": 10**39 + 7,
    "-40 digits": -(10**39) - 7,
    "NUL": "a\x00b",
    "lone surrogate": "a\ud800b",
    "bidi": "a\u202eb",
    "zero-width": "a\u200bb",
    "control": "a\x1b[31mb",
    "long text": "x" * 5000,
    "list": [1, "a"],
    "object": {"a": 1},
    "true": True,
    "false": False,
    "null": None,
}
#: The smaller set sent on PostgreSQL: what its types refuse (big integers, NUL), and a few of the others.
ON_POSTGRESQL = ("1e308", "40 digits", "-40 digits", "NUL", "bidi", "object", "null")
#: What a field may accept of the hostile values (answered 2xx), by field; anything else must be refused (4xx).
TAKEN: dict[str, set[str]] = {
    "name": {"null"},  # a display name: none
    "help": {"true", "false"},
    "game_string": {"null"},
    "position": {"null"},
    "time_control": {"null"},
    "rated": {"false"},  # true needs a clock, which these bodies have not
    "bots": {"true", "false"},
    "invite_only": {"true", "false"},
    "double": {"true", "false"},
    "forfeit_after": {"null"},
    "starts": {"null"},
    "rating_range": {"null"},
    "banned": {"true", "false"},
    "muted": {"true", "false"},
    "email": {"null"},  # none
    "accept": {"true", "false"},
    "repetition_draw": {"true", "false"},
    "tournament_opening": {"true", "false"},
    "ply": {"null"},
    "line": {"null"},
    "level": {"null"},
    "language": {"null"},  # the browser's choice (an account), none (a push subscription)
    "options": {"object"},  # unknown options are ignored
}
#: The tables a request could add rows to.
COUNTED = (
    "games", "moves", "lines", "reviews", "accounts", "api_tokens", "ratings", "rated_games", "seeks", "tournaments",
    "tournament_games", "chat", "blocks", "push_subscriptions", "audit", "mutes", "password_resets", "follows",
)  # fmt: skip


#: A browser's push subscription, as the Push API gives it.
PUSH = Browser().subscription("https://push.example.net/wpush/v2/hostile")


#: The options of a Hive game, each a field of its own wherever a body takes ``options``.
OPTIONS = ("options.first", "options.game_type", "options.repetition_draw", "options.set", "options.tournament_opening")


@dataclass(frozen=True)
class Case:
    """A route, a body that is right but for the field sent, the fields sent, and who asks (``player``: the
    signed-in player holding the local game's seat; ``admin``)."""

    method: str
    path: str
    base: JSON
    fields: tuple[str, ...]
    who: str = "player"
    where: JSON = field(default_factory=dict)


CASES = [
    Case("POST", "/api/games", {"mode": "local"}, ("kind", "mode", "options", "colour", "name", "help", "game_string")),
    Case("POST", "/api/games", {"mode": "local"}, ("position", "time_control")),
    Case("POST", "/api/games", {"mode": "ai", "colour": "white"}, ("ai_level",)),
    Case(
        "POST",
        "/api/games",
        {"mode": "online", "time_control": {"initial": 60, "increment": 1}},
        ("time_control.initial", "time_control.increment"),
    ),
    Case("POST", "/api/games", {"mode": "online", "time_control": {"days": 1}}, ("time_control.days",)),
    Case("POST", "/api/positions", {"position": "Position;Base;White[1];"}, ("kind", "options", "position")),
    Case("POST", "/api/positions", {"kind": "hive", "options": {}}, OPTIONS),
    Case("POST", "/api/games", {"mode": "local", "kind": "hive", "options": {}}, OPTIONS),
    Case("POST", "/api/games/{game}/move", {"move": "wS1"}, ("move", "ply")),
    Case("POST", "/api/games/{game}/move", {"piece": "wS1", "to": [0, 0]}, ("piece", "to")),
    Case("POST", "/api/games/{game}/undo", {"ply": 0}, ("ply",)),
    Case("POST", "/api/games/{game}/redo", {"ply": 0}, ("ply",)),
    Case("POST", "/api/games/{game}/offer", {"what": "draw"}, ("what",)),
    Case("POST", "/api/games/{game}/answer", {"accept": False}, ("accept",)),
    Case("POST", "/api/games/{game}/name", {"seat": 0, "name": "Ann"}, ("seat", "name")),
    Case("POST", "/api/games/{online}/help", {"help": False}, ("help", "seat")),  # a choice of a game online
    Case("POST", "/api/games/{game}/why", {"piece": "wQ"}, ("piece", "line")),
    Case("POST", "/api/games/{game}/why", {"piece": "wQ", "line": None}, ("ply",)),  # a ply of a line
    Case("POST", "/api/games/{hivequeen}/preview", {"move": "Wc3-c4"}, ("move", "line")),
    Case("POST", "/api/games/{hivequeen}/preview", {"move": "Wc3-c4", "line": None}, ("ply",)),
    Case("POST", "/api/games/{game}/lines", {"line": None, "move": "wS1"}, ("line", "ply", "move")),
    Case("POST", "/api/games/{game}/review", {"level": "easy"}, ("level",)),
    Case("POST", "/api/games/{online}/chat", {"room": "players", "text": "hi"}, ("room", "text")),
    Case("POST", "/api/accounts", {"name": "newcomer", "password": 5}, ("name",)),
    Case("POST", "/api/accounts", {"name": "newcomer", "password": PASSWORD}, ("password",)),
    Case("POST", "/api/session", {"name": "nobody", "password": "wrong"}, ("name", "password")),
    Case("POST", "/api/session/password", {"old": "wrong", "new": PASSWORD + "!"}, ("old", "new")),
    Case("POST", "/api/account/language", {"language": "fr"}, ("language",)),
    Case("POST", "/api/account/block", {"name": "bob"}, ("name",)),
    Case("POST", "/api/account/token", {"scope": "bot"}, ("scope", "label")),
    Case("POST", "/api/follows", {"name": "bob"}, ("name",)),
    Case("POST", "/api/account/unblock", {"name": "bob"}, ("name",)),
    Case(
        "POST",
        "/api/seeks",
        {"game": "Base", "rated": False},
        ("game", "time_control", "rated", "colour", "rating_range"),
    ),
    Case("POST", "/api/seeks", {"kind": "hive", "options": {}, "rated": False}, ("kind", "options", *OPTIONS)),
    Case(
        "POST",
        "/api/challenges",
        {"to": "bob", "game": "Base", "rated": False},
        ("to", "game", "rating_range", "time_control", "rated", "colour"),
    ),
    Case("POST", "/api/challenges", {"to": "bob", "kind": "hive", "options": {}, "rated": False}, ("kind", *OPTIONS)),
    Case(
        "POST",
        "/api/quickpair",
        {"game": "Base", "rated": False, "time_control": {"days": 3}},
        ("game", "time_control", "time_control.days", "rating_range"),
    ),
    Case(
        "POST",
        "/api/quickpair",
        {"kind": "hive", "options": {}, "time_control": {"days": 3}},
        ("kind", "options", *OPTIONS),
    ),
    Case("POST", "/api/quickpair", {"game": "Base", "time_control": "untimed"}, ("rated",)),  # refused either way
    Case(
        "POST",
        "/api/tournaments",
        {"name": "Cup", "rated": False, "rounds": 2},
        ("name", "format", "rounds", "double", "game", "time_control", "rated", "bots"),
    ),
    Case(
        "POST",
        "/api/tournaments",
        {"name": "Cup", "rated": False, "rounds": 2, "kind": "hive", "options": {}},
        ("kind", "options", *OPTIONS),
    ),
    Case(
        "POST",
        "/api/tournaments",
        {"name": "Cup", "rated": False, "rounds": 2},
        ("invite_only", "forfeit_after", "starts"),
    ),
    Case("POST", "/api/tournaments/{tournament}/invite", {"name": "bob"}, ("name",)),
    Case("POST", "/api/tournaments/{tournament}/chat", {"text": "hi"}, ("text",)),
    Case("POST", "/api/admin/accounts/bob/ban", {"banned": False}, ("banned",), who="admin"),
    Case("POST", "/api/push/subscribe", PUSH, ("endpoint", "keys", "keys.p256dh", "keys.auth", "kinds", "language")),
    Case("POST", "/api/push/preferences", {"endpoint": PUSH["endpoint"], "kinds": []}, ("endpoint", "kinds")),
    Case("POST", "/api/push/unsubscribe", {"endpoint": PUSH["endpoint"]}, ("endpoint",)),
    Case("POST", "/api/admin/accounts/bob/mute", {"muted": False}, ("muted",), who="admin"),
    Case("POST", "/api/admin/reports/{game}/handled", {"handled": True}, ("handled",), who="admin"),  # no report
    Case("POST", "/api/account/email", {"email": ""}, ("email",)),
    Case("POST", "/api/password/reset", {"token": "x" * 43, "password": PASSWORD}, ("token",)),
    Case("POST", "/api/password/reset", {"token": "{reset}", "password": PASSWORD}, ("password",)),  # a link issued
    Case("POST", "/api/password/forgot", {"name": "ada"}, ("name",)),  # the server sends mail
]
#: The routes that take a body but read no field of it (their ids are in the path).
NO_FIELDS = {
    "/api/games/{id}/rematch",
    "/api/chat/{id}/report",
    "/api/seeks/{id}/accept",
    "/api/challenges/{id}/accept",
    "/api/challenges/{id}/decline",
    "/api/account/bot",
    "/api/games/{id}/resign",
    "/api/games/{id}/abort",
}
#: Query parameters, by route: hostile texts and numbers written in the query.
QUERIES = [
    ("/api/games/{game}/position", ("ply", "line")),
    ("/api/games/{game}/hint", ("ply", "line")),
    ("/api/games/{online}/chat", ("room",)),
    ("/api/players/ada/games", ("opponent", "result", "game", "speed")),
    ("/api/players/ada/records", ("opponent", "result", "game", "speed")),
    ("/api/leaderboard", ("game", "speed")),
    ("/api/push/subscription", ("endpoint",)),
    ("/api/players", ("prefix",)),
]
IN_QUERIES = ["\u202e", "\u200b", "1" * 40, "NaN", "1e308", "-1", "x" * 3000]


def _with(base: JSON, name: str, value: Any) -> JSON:
    """``base`` with the field ``name`` (``a.b``: ``b`` of the object ``a``) set to ``value``."""
    body: JSON = json.loads(json.dumps(base))
    *outer, last = name.split(".")
    target = body
    for part in outer:
        target = target[part]
    target[last] = value
    return body


def counts(app: App) -> dict[str, int]:
    """The rows of each table of :data:`COUNTED`."""
    tables = schema.metadata.tables
    with app.store.database.engine.connect() as connection:
        return {
            name: int(connection.execute(sa.select(sa.func.count()).select_from(tables[name])).scalar_one())
            for name in COUNTED
        }


async def _account(app: App, c: httpx.AsyncClient, name: str, n: int) -> httpx.AsyncClient:
    """A client of its own signed in as a new account ``name``, its CSRF header set."""
    await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.7.0.{n}")
    own = httpx.AsyncClient(transport=c._transport, base_url=str(c.base_url), timeout=60)
    signed = (await own.post("/api/session", json={"name": name, "password": PASSWORD})).json()
    own.headers["x-csrf-token"] = signed["csrf"]
    return own


def _unfuzzed(reads: dict[int, set[str]]) -> list[str]:
    """The fields of :data:`CASES` that no request of theirs reached (the body stopped short of them), and the
    fields a route's handler read that no case of that route sends hostile values to."""
    found = []
    fuzzed: dict[str, set[str]] = {}
    for i, case in enumerate(CASES):
        fuzzed.setdefault(case.path, set()).update(case.fields)
        read = reads.get(i, set())
        if unread := {name for name in case.fields if name not in read and outer(name) + "*" not in read}:
            found.append(f"{case.method} {case.path}: {sorted(unread)} never read (the body stops short of them)")
    for path in fuzzed:
        read = set().union(*(reads.get(i, set()) for i, other in enumerate(CASES) if other.path == path))
        if missing := {name for name in read if not name.endswith("*")} - fuzzed[path]:
            found.append(f"{path} reads {sorted(missing)}, which no case sends hostile values to")
    return found


async def fuzz(db: str | Path, labels: tuple[str, ...], seconds: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Send every case with every hostile value of ``labels``; fail on a 5xx, a refusal that stored something, a
    value accepted where the field does not take it, or a field read by a handler that no case fuzzes."""
    with mail_server() as box:
        settings = Settings(accounts=True, games_per_minute=0, hints_per_minute=0, ai_per_minute=0, smtp=box.url)
        async with in_process(db, settings=settings) as (app, c):
            await _fuzz(app, c, labels, seconds, monkeypatch)


async def _fuzz(
    app: App, c: httpx.AsyncClient, labels: tuple[str, ...], seconds: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    player = await _account(app, c, "ada", 1)
    bob = await _account(app, c, "bob", 2)
    admin = await _account(app, c, "chief", 3)
    await app.accounts.set_admin("chief", True)
    local = (await player.post("/api/games", json={"mode": "local"})).json()
    queen = (await player.post("/api/games", json={"mode": "local", "kind": "hivequeen"})).json()
    seek = (await bob.post("/api/seeks", json={"game": "Base", "rated": False, "colour": "white"})).json()
    online = (await player.post(f"/api/seeks/{seek['id']}/accept")).json()
    said = await player.post(f"/api/games/{online['id']}/chat", json={"room": "players", "text": "hello"})
    assert said.status_code == 200, said.text
    tournament = (await player.post("/api/tournaments", json={"name": "Cup", "rated": False, "rounds": 1})).json()
    link = (await admin.post("/api/admin/accounts/bob/reset")).json()["link"]
    ids = {
        "{game}": local["id"], "{online}": online["id"], "{tournament}": tournament["id"], "{hivequeen}": queen["id"],
        "{reset}": link.rsplit("/", 1)[1],
    }  # fmt: skip

    bodied = {
        route.path
        for route in app.asgi.routes
        if isinstance(route, Route) and route.path.startswith("/api/") and {"POST", "PUT"} & (route.methods or set())
    }
    named = {case.path.replace("{game}", "{id}").replace("{online}", "{id}") for case in CASES}
    named = {path.replace("{tournament}", "{id}").replace("{hivequeen}", "{id}") for path in named}
    named = {path.replace("/bob/", "/{name}/") for path in named}
    covered = {path for path in bodied if path in named or path in NO_FIELDS}
    actions = {"/api/games/{id}/{action}", "/api/tournaments/{id}/{action}", "/api/admin/accounts/{name}/{action}"}
    assert bodied - covered - actions == set(), "routes with a body and no row in CASES or NO_FIELDS"
    each = {f"/api/games/{{id}}/{action}" for action in (*game_actions.ACTIONS, *game_actions.QUERIES)}
    assert each - named - NO_FIELDS == set(), "a game's actions with no row in CASES or NO_FIELDS"

    reads: dict[int, set[str]] = {}
    read: set[str] = set()
    parse = endpoints.parse_json
    monkeypatch.setattr(endpoints, "parse_json", lambda raw, depth: Reading(parse(raw, depth), read))
    failures: list[str] = []
    before = counts(app)
    asked = 0
    started = time.monotonic()
    seats = {"{game}": local["token"], "{hivequeen}": queen["token"]}  # {online}: the account's seat
    for i, case in enumerate(CASES):
        client = admin if case.who == "admin" else player
        headers = {"content-type": "application/json"}
        headers |= {"x-seat-token": token for key, token in seats.items() if key in case.path}  # noqa: B035
        path = case.path
        for placeholder, value in ids.items():
            path = path.replace(placeholder, value)
        for name in case.fields:
            for label in labels:
                body = _with(case.base, name, HOSTILE[label])
                text = json.dumps(body)  # NaN and Infinity as Python writes them, \ud800 escaped
                for placeholder, value in ids.items():
                    text = text.replace(placeholder, value)
                read.clear()
                r = await client.request(case.method, path, content=text.encode(), headers=headers)
                reads.setdefault(i, set()).update(read)
                asked += 1
                where = f"{case.method} {case.path} {name}={label}: {r.status_code} {r.text[:160]}"
                if r.status_code >= 500:
                    failures.append(where)
                elif r.is_success:
                    if label not in TAKEN.get(name.split(".")[-1], set()):
                        failures.append("accepted " + where)
                    before = counts(app)
                elif counts(app) != before:
                    failures.append(f"stored after a refusal: {where}")
                    before = counts(app)
    monkeypatch.undo()
    failures += _unfuzzed(reads)
    for path, names in QUERIES:
        for placeholder, value in ids.items():
            path = path.replace(placeholder, value)
        for name in names:
            for text in IN_QUERIES:
                r = await player.get(path, params={name: text}, headers={"x-seat-token": local["token"]})
                asked += 1
                if r.status_code >= 500:
                    failures.append(f"GET {path}?{name}={text[:20]!r}: {r.status_code} {r.text[:160]}")
    for own in (player, bob, admin):
        await own.aclose()
    elapsed = time.monotonic() - started
    assert failures == [], f"{len(failures)} of {asked}:\n" + "\n".join(failures)
    assert elapsed < seconds, f"{asked} requests took {elapsed:.0f} s"


@pytest.mark.timing
async def test_hostile_values_in_every_field_of_every_json_route(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await fuzz(tmp_path / "db.sqlite3", tuple(HOSTILE), 60, monkeypatch)


@pytest.mark.timing
async def test_hostile_values_on_postgresql(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from hive.web.storage import open_store

    open_store(postgres_url, "setup", upgrade=True).close()
    await fuzz(postgres_url, ON_POSTGRESQL, 120, monkeypatch)
