"""Timed games: time controls read from a request, the clock charged and stored with every move, a flag that falls
ends the game (on its own timer too, and once however many processes notice it), a lone server holds the clocks
while it is stopped and resumes them with the time they had while a shared one leaves them running, and the AI thinks
within its share of the clock.

The server's time is the game service's ``now``: the tests move a fake clock by hand, and hold what real time they
must measure to a baseline measured beside it."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from hive.games import find_game
from hive.search import timing
from hive.search.limits import Limits
from hive.search.timing import FLOOR, MOVE_OVERHEAD, ClockReading, move_budget
from hive.web import App, create_app
from hive.web.ai import work
from hive.web.ai.work import choose_move
from hive.web.play import clock
from hive.web.play.actions import act
from hive.web.play.events import FLAG, GameEvent, Unheard
from hive.web.play.flags import Flags
from hive.web.play.game_list import GameList
from hive.web.play.service import GameService
from hive.web.play.session import Session
from hive.web.shared.errors import BadRequest, Conflict
from hive.web.shared.model import AIJob
from hive.web.storage import Store, open_store
from hive.web.views import replay, view_for

from ...web_support import FakeTime, ServerProcess, midgame

JSON = dict[str, Any]
pytestmark = pytest.mark.anyio
#: Moves both games accept from their start, first player then second.
OPENINGS = {"hive": ("wS1", "bS1 wS1-", "wQ -wS1"), "hivequeen": ("Wc3-c4", "Wg7-g6", "Wc4-c5")}


class Heard(Unheard):
    """An announcer that keeps the changes announced."""

    def __init__(self) -> None:
        self.announced: list[GameEvent] = []

    def stored(self, connection: sa.Connection, event: GameEvent) -> None:
        pass

    async def announce(self, event: GameEvent) -> None:
        self.announced.append(event)


@pytest.fixture()
def now() -> FakeTime:
    return FakeTime()


@pytest.fixture()
def store(database: str) -> Iterator[Store]:
    opened = open_store(database, "test-process")
    yield opened
    opened.close()


@pytest.fixture()
def service(store: Store, now: FakeTime) -> GameService:
    """A service on each database the server runs on, its time the fake clock."""
    return GameService(store, now=now)


@pytest.fixture()
def memory_service(now: FakeTime) -> Iterator[GameService]:
    """A service on a SQLite database in memory, for what does not depend on the database."""
    opened = open_store(":memory:", "test-process")
    yield GameService(opened, now=now)
    opened.close()


async def online(service: GameService, kind: str = "hive", tc: object = None) -> tuple[Session, str, str]:
    session, game = await service.create({"mode": "online", "kind": kind, "time_control": tc})
    assert game.invite is not None
    return session, game.token, game.invite


async def move(service: GameService, session: Session, token: str, text: str) -> None:
    await act(service, session.record.id, "move", token, {"move": text})


@pytest.mark.parametrize(
    ("given", "read"),
    [
        (None, None),
        ("untimed", None),
        ("bullet", {"initial": 60_000, "increment": 2000}),
        ("blitz", {"initial": 300_000, "increment": 3000}),
        ("rapid", {"initial": 900_000, "increment": 10_000}),
        ("classical", {"initial": 1_800_000, "increment": 20_000}),
        ({"initial": 2.5, "increment": 0.5}, {"initial": 2500, "increment": 500}),
        ({"initial": 60}, {"initial": 60_000, "increment": 0}),
        ({"days": 3}, {"days": 3}),
    ],
)
def test_time_controls_are_read_from_a_request(given: object, read: JSON | None) -> None:
    assert clock.control(given) == read


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ("lightning", "'time_control' must be"),
        ({"initial": 0}, "'time_control.initial' must be from 1"),
        ({"initial": "5"}, "'time_control.initial' must be a number"),
        ({"initial": float("nan")}, "'time_control.initial' must be a number"),
        ({"initial": 60, "increment": 999}, "'time_control.increment' must be from 0 to 180"),
        ({"days": 4}, "'time_control.days' must be one of 1, 2, 3, 5, 7"),
        ({"days": True}, "'time_control.days'"),
        ({"initial": 60, "days": 1}, "'time_control' must be"),
    ],
)
async def test_a_bad_time_control_is_refused_by_name(memory_service: GameService, given: object, named: str) -> None:
    with pytest.raises(BadRequest, match=named.replace("(", r"\(")):
        await memory_service.create({"mode": "online", "time_control": given})
    assert await memory_service.store.games.games() == []


def test_labels_name_the_presets() -> None:
    assert [clock.label(clock.control(name)) for name in clock.PRESETS] == [
        "Bullet 1+2",
        "Blitz 5+3",
        "Rapid 15+10",
        "Classical 30+20",
    ]
    assert clock.label({"initial": 180_000, "increment": 2000}) == "3+2"
    assert clock.label({"days": 1}) == "1 day per move"
    assert clock.label(None) == "Untimed"


@pytest.mark.parametrize("kind", sorted(OPENINGS))
async def test_each_move_is_charged_with_the_increment_and_stored(
    service: GameService, now: FakeTime, kind: str
) -> None:
    session, white, black = await online(service, kind, {"initial": 10, "increment": 2})
    first, second, third = OPENINGS[kind]
    assert service.state(session)["clock"]["running"] is None  # the clock starts with the first move
    now.t += 5
    await move(service, session, white, first)
    now.t += 3.25
    await move(service, session, black, second)
    now.t += 1.5
    state = service.state(session)["clock"]
    assert state["remaining"] == [8500, 8750] and state["running"] == 0
    assert state["used"] == [None, 3250]
    await move(service, session, white, third)
    stored = await service.store.games.load(session.record.id)
    assert stored is not None and stored.clock is not None
    assert stored.clock["remaining"] == [10_000 + 500, 8750] and stored.clock["used"] == [None, 3250, 1500]
    assert service.state(session)["clock"]["label"] == "10s+2"
    # the moment the running clock's flag falls is stored with it, for every process's flag watcher
    assert await service.store.games.deadlines(now.t + 8.7) == []
    assert await service.store.games.deadlines(now.t + 8.8) == [(session.record.id, now.t + 8.75)]


@pytest.mark.parametrize("kind", sorted(OPENINGS))
async def test_a_flag_that_falls_loses_and_stops_the_game(service: GameService, now: FakeTime, kind: str) -> None:
    session, white, black = await online(service, kind, {"initial": 3})
    first, second, _ = OPENINGS[kind]
    await move(service, session, white, first)
    now.t += 2.999
    assert not await service.check_clock(session.record.id)
    now.t += 0.002
    with pytest.raises(Conflict, match="The game is over"):
        await move(service, session, black, second)
    state = service.state(session)
    assert state["result"] == f"{session.board.sides[0]}Wins"
    assert state["reason"] == f"{session.sides[1]} forfeits: time ran out"
    assert state["clock"]["remaining"] == [3000, 0] and state["clock"]["running"] is None
    assert state["event"] == {"what": "flag", "by": None, "flag": 1}
    stored = await service.store.games.load(session.record.id)
    assert stored is not None and stored.result == state["result"] and stored.moves == [first]
    assert await service.store.games.deadlines(now.t + 3600) == []  # nothing left to watch


async def test_a_flag_falls_once_when_two_processes_notice_it_at_once(
    database: str, now: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two server processes on one database both check a flag that has fallen, at the same moment, each from the
    game as stored: one stores the result, the other finds it stored; the game changes once."""
    first, second = open_store(database, "a"), open_store(database, "b")
    heard = Heard()
    one = GameService(first, now=now, origin="a", announcer=heard)
    other = GameService(second, now=now, origin="b", announcer=heard)
    try:
        session, white, _ = await online(one, "hive", {"initial": 3})
        game_id = session.record.id
        await move(one, session, white, "wS1")
        await other.session(game_id)
        version = session.record.version
        now.t += 3.5
        # both ends of the flag are made from the same stored version before either is stored
        both = asyncio.Barrier(2)
        for store in (first, second):
            save = store.games.save

            async def held(*args: Any, _save: Callable[..., Any] = save) -> None:
                await asyncio.wait_for(both.wait(), 30)
                await _save(*args)

            monkeypatch.setattr(store.games, "save", held)
        fallen = await asyncio.gather(one.check_clock(game_id), other.check_clock(game_id))
        assert sorted(fallen) == [False, True]
        stored = await first.games.load(game_id)
        assert stored is not None and stored.version == version + 1
        assert (stored.result, stored.reason) == ("WhiteWins", "Black forfeits: time ran out")
        flags = [event for event in heard.announced if event.what == FLAG]
        assert [(event.version, event.origin) for event in flags] == [(version + 1, "ab"[fallen.index(True)])]
        # the process that lost the race brings its copy up to date, and has nothing left to check
        for service in (one, other):
            assert not await service.check_clock(game_id)
            assert (await service.session(game_id)).record.result == "WhiteWins"
        assert (await first.games.load(game_id)) == stored
    finally:
        first.close()
        second.close()


async def test_a_resignation_stops_the_clock(service: GameService, now: FakeTime) -> None:
    session, white, black = await online(service, "hive", "bullet")
    await move(service, session, white, "wS1")
    now.t += 4
    await act(service, session.record.id, "resign", black, {})
    now.t += 100
    assert service.state(session)["clock"]["remaining"] == [60_000, 56_000]
    assert not await service.check_clock(session.record.id)
    stored = await service.store.games.load(session.record.id)
    assert stored is not None and stored.clock is not None and stored.clock["running"] is None


async def test_correspondence_gives_the_full_days_for_each_move(service: GameService, now: FakeTime) -> None:
    session, white, black = await online(service, "hive", {"days": 1})
    await move(service, session, white, "wS1")
    now.t += 20 * 3600
    assert service.state(session)["clock"]["remaining"][1] == 4 * 3_600_000
    await move(service, session, black, "bS1 wS1-")
    assert service.state(session)["clock"]["remaining"] == [clock.DAY, clock.DAY]
    now.t += clock.DAY / 1000
    assert await service.check_clock(session.record.id) and session.record.result == "BlackWins"


async def test_moves_are_not_taken_back_under_a_clock(memory_service: GameService) -> None:
    session, game = await memory_service.create({"mode": "ai", "ai_level": "random", "time_control": "blitz"})
    with pytest.raises(Conflict, match="timed game"):
        await act(memory_service, session.record.id, "undo", game.token, {})
    with pytest.raises(BadRequest, match="not on one screen"):
        await memory_service.create({"mode": "local", "time_control": "blitz"})


async def test_an_ai_move_that_comes_after_its_flag_fell_is_not_played(service: GameService, now: FakeTime) -> None:
    session, game = await service.create({"mode": "ai", "ai_level": "random", "time_control": {"initial": 2}})
    await move(service, session, game.token, "wS1")
    job = AIJob(session.record.id, 1, "test", 1)  # the AI's move, worked out for the game after wS1
    now.t += 2.5
    assert not await service.play_ai(job, "bS1 wS1-")
    assert session.record.moves == ["wS1"] and session.record.reason == "Black forfeits: time ran out"
    stored = await service.store.games.load(session.record.id)
    assert stored is not None and stored.moves == ["wS1"] and stored.result == "WhiteWins"


async def test_a_rematch_keeps_the_time_control_and_the_list_names_it(service: GameService, now: FakeTime) -> None:
    session, white, black = await online(service, "hive", "rapid")
    await move(service, session, white, "wS1")
    await act(service, session.record.id, "resign", black, {})
    lobby = GameList(service)
    _, following, _ = await lobby.rematch(session.record.id, white)
    assert following.record.clock == clock.new(clock.control("rapid"))
    assert {game["time_control"] for game in (await lobby.games())["games"]} == {"Rapid 15+10"}


async def test_a_restart_resumes_each_real_time_clock_with_the_time_it_had(database: str, now: FakeTime) -> None:
    """A lone server (``hold_clocks``) holds the real-time clocks as it stops and runs them again as it starts; a
    correspondence clock runs on calendar time."""
    store = open_store(database, "before")
    service = GameService(store, now=now)
    session, white, _ = await online(service, "hive", "blitz")
    corr, corr_white, _ = await online(service, "hive", {"days": 2})
    await move(service, session, white, "wS1")
    await move(service, corr, corr_white, "wS1")
    now.t += 7
    await Flags(service, hold_clocks=True).stop()
    store.close()

    now.t += 3600  # the server is down for an hour

    store = open_store(database, "after")
    service = GameService(store, now=now)
    flags = Flags(service, hold_clocks=True)
    await flags.start()
    now.t += 2
    blitz = service.state(await service.session(session.record.id))["clock"]
    corr_clock = service.state(await service.session(corr.record.id))["clock"]
    await flags.stop()
    store.close()
    assert blitz["remaining"] == [300_000, 300_000 - 9000] and blitz["running"] == 1
    assert corr_clock["remaining"][1] == 2 * clock.DAY - (3600 + 9) * 1000  # calendar time runs on


@asynccontextmanager
async def client(app: App) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://hive.test", timeout=60) as c:
        yield c


async def _create(c: httpx.AsyncClient, **body: Any) -> JSON:
    response = await c.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    answer: JSON = response.json()
    return answer


async def _move(c: httpx.AsyncClient, game: JSON, token: str, text: str) -> JSON:
    reply = await c.post(f"/api/games/{game['id']}/move", json={"move": text}, headers={"X-Seat-Token": token})
    assert reply.status_code == 200, reply.text
    state: JSON = reply.json()
    return state


@pytest.mark.parametrize("hold", [False, True], ids=["shared", "lone"])
async def test_a_shared_server_stopping_leaves_the_clocks_running_and_a_lone_one_holds_them(
    database: str, now: FakeTime, hold: bool
) -> None:
    """A server sharing its database with other processes (``hold_clocks=False``, the default on PostgreSQL) leaves
    a running clock running as it stops: the game goes on in another process, whose flag watcher ends it on time. A
    lone server (``hold_clocks=True``, the default on SQLite) holds the clock until it starts again."""
    default = create_app(database, workers=0)
    assert default.flags.hold_clocks is database.startswith("sqlite")
    await default.close()

    app = create_app(database, workers=0, hold_clocks=hold)
    app.service.now = now
    async with client(app) as c:
        game = await _create(c, mode="online", time_control={"initial": 60})
        moved_at = now.t
        assert (await _move(c, game, game["token"], "wS1"))["clock"]["running"] == 1
    now.t += 5
    await app.close()

    store = open_store(database, "another")
    try:
        stored = await store.games.load(game["id"])
        assert stored is not None and stored.clock is not None
        deadlines = await store.games.deadlines(float("inf"))
        other = GameService(store, now=now)
        if hold:
            assert stored.clock["paused"] and stored.clock["remaining"] == [60_000, 55_000]
            assert deadlines == []
            now.t += 60
            assert not await other.check_clock(game["id"])
            assert other.state(await other.session(game["id"]))["clock"]["remaining"] == [60_000, 55_000]
        else:
            assert not stored.clock["paused"] and stored.clock["since"] == moved_at
            assert deadlines == [(game["id"], moved_at + 60)]
            now.t += 50
            assert other.state(await other.session(game["id"]))["clock"]["remaining"] == [60_000, 5000]
            now.t += 6
            flags = Flags(other)
            await flags.start()
            try:
                for _ in range(3000):  # a guard against a hang: the watcher looks at once
                    if flags.fallen:
                        break
                    await asyncio.sleep(0.01)
            finally:
                await flags.stop()
            assert flags.fallen == 1
            ended = await store.games.load(game["id"])
            assert ended is not None and ended.reason == "Black forfeits: time ran out"
    finally:
        store.close()


def searched(monkeypatch: pytest.MonkeyPatch, spend: Callable[[Limits], None] = lambda limits: None) -> list[Limits]:
    """Note the limits of every search the AI's moves make from now on (``spend`` is called with each, once it
    is done)."""
    given: list[Limits] = []

    def spying(name: str) -> Any:
        spec = find_game(name)

        def searcher(seed: int | None, noise: int) -> Any:
            inner = spec.ai.searcher(seed, noise)

            def search(board: Any, limits: Limits) -> Any:
                result = inner.search(board, limits)
                given.append(limits)
                spend(limits)
                return result

            return SimpleNamespace(search=search)

        return dataclasses.replace(spec, ai=dataclasses.replace(spec.ai, searcher=searcher))

    monkeypatch.setattr(work, "find_game", spying)
    return given


#: A Hive position whose search to the strongest level's depth takes seconds: the AI stops on its time, not its depth.
MIDGAME = midgame(40, 3).split(";")[3:]
OPTIONS = view_for("hive").options({"game_type": "Base+MLP"})


def think(reading: ClockReading) -> float:
    """Seconds the strongest AI takes over its move in :data:`MIDGAME` on ``reading``."""
    started = time.perf_counter()
    choose_move("hive", OPTIONS, MIDGAME, "max", 1, clock=reading)
    return time.perf_counter() - started


def budget(reading: ClockReading, start: float | None = None) -> float:
    """The budget of a search on ``reading`` that starts at ``start`` (a :func:`time.monotonic` time; by default the
    moment of the reading)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(timing, "time", SimpleNamespace(monotonic=lambda: reading.at if start is None else start))
        return reading.budget()


@pytest.mark.timing
def test_the_ai_thinks_within_its_share_of_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    assert clock.reading(None, 1, 0) is None
    assert clock.reading(clock.new({"days": 1}), 1, 0) is None
    blitz = clock.new(clock.control("blitz"))
    assert blitz is not None
    read = clock.reading(blitz, 1, 0)
    assert read is not None and (read.remaining, read.increment) == (300, 3)
    assert budget(read) == pytest.approx(300 / 30 + 3 * 0.7 - MOVE_OVERHEAD)
    low = clock.reading({**blitz, "remaining": [300_000, 500]}, 1, 0)
    assert low is not None and budget(low) == pytest.approx(0.2 - MOVE_OVERHEAD)
    given = searched(monkeypatch)
    # the baseline: a minute on the clock, whose share (about 2 s) the search fills in this position
    baseline = think(ClockReading(60.0))
    short = think(ClockReading(1.0))
    assert [limits.depth for limits in given] == [5, 5]
    assert given[0].time is not None and move_budget(59.0) <= given[0].time <= move_budget(60.0)
    assert given[1].time == pytest.approx(move_budget(1.0), abs=0.001)
    assert short <= baseline / 4, f"{short:.2f} s on a 1 s clock, {baseline:.2f} s on a minute"


@pytest.mark.timing
def test_the_time_a_move_waits_for_a_worker_is_taken_from_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI's budget comes from its clock as it stands when the search starts, not when the move was asked."""
    waited = ClockReading(10.0, 0.5, at=1000.0)
    assert budget(waited, 1004.0) == move_budget(6.0, 0.5)
    gone = ClockReading(1.0, at=1002.0)
    assert budget(gone, 1004.0) == FLOOR
    given = searched(monkeypatch)
    baseline = think(ClockReading(60.0))
    late = think(ClockReading(1.0, at=time.monotonic() - 2))
    assert [limits.time for limits in given][1:] == [FLOOR]
    assert late <= baseline / 4, f"{late:.2f} s with its clock gone, {baseline:.2f} s on a minute"


async def test_the_server_drops_the_flag_on_time_with_nobody_asking(tmp_path: Path, now: FakeTime) -> None:
    app = create_app(tmp_path / "games.sqlite3", workers=0)
    app.service.now = now
    try:
        async with client(app) as c:
            game = await _create(c, mode="online", time_control={"initial": 1})
            assert (await _move(c, game, game["token"], "wS1"))["clock"]["running"] == 1
            now.t += 1.5  # from now on nobody asks about the game: only the list is read
            listed: JSON = {}
            for _ in range(600):  # a guard against a hang: the flag watcher wakes when the flag falls
                listed = next(g for g in (await c.get("/api/games")).json()["games"] if g["id"] == game["id"])
                if listed["result"]:
                    break
                await asyncio.sleep(0.05)
            assert listed["result"] == "WhiteWins" and listed["reason"] == "Black forfeits: time ran out"
            assert app.flags.fallen == 1
            state = (await c.get(f"/api/games/{game['id']}")).json()
            assert state["event"] == {"what": "flag", "by": None, "flag": 1}
            assert state["clock"]["remaining"] == [1000, 0]
    finally:
        await app.close()


@pytest.mark.timing
def test_a_server_restart_holds_the_clock_while_the_server_is_down(tmp_path: Path) -> None:
    """``hive play`` stopped for two seconds and started again: the running clock is charged only the time the
    server was up, as measured around the requests and the restart."""
    server = ServerProcess(tmp_path / "games.sqlite3")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as c:
            game = c.post("api/games", json={"mode": "online", "time_control": {"initial": 60}}).json()
            headers = {"X-Seat-Token": game["token"]}
            c.post(f"api/games/{game['id']}/move", json={"move": "wS1"}, headers=headers)
            asked = time.monotonic()
            before = c.get(f"api/games/{game['id']}").json()["clock"]
        server.stop()
        stopped = time.monotonic()
        time.sleep(2)
        starting = time.monotonic()
        server.start()
        with httpx.Client(base_url=server.url, timeout=30) as c:
            after = c.get(f"api/games/{game['id']}").json()["clock"]
        answered = time.monotonic()
    finally:
        server.stop()
    assert after["running"] == before["running"] == 1
    assert after["remaining"][0] == before["remaining"][0] == 60_000
    charged = (before["remaining"][1] - after["remaining"][1]) / 1000
    up = (stopped - asked) + (answered - starting)  # the most the server can have run while the clock was read
    assert 0 <= charged <= up + 0.01, (
        f"{charged:.3f} s charged for at most {up:.3f} s up, {answered - asked:.1f} s in all"
    )


async def test_the_ai_never_loses_on_time_in_a_short_game(
    tmp_path: Path, now: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The strongest AI at 4 s + 0.5 s a move, each of its moves taking on the server's clock exactly the time its
    search was given plus the overhead a move is allowed (the opponent's moves take none): it never runs out."""

    def spend(limits: Limits) -> None:
        assert limits.time is not None
        now.t += limits.time + MOVE_OVERHEAD

    given = searched(monkeypatch, spend)
    app = create_app(tmp_path / "games.sqlite3", workers=0)
    app.service.now = now
    try:
        async with client(app) as c:
            game = await _create(c, mode="ai", ai_level="max", time_control={"initial": 4, "increment": 0.5})
            token = game["token"]
            state: JSON = game["state"]
            for ply in range(0, 16, 2):
                if state["result"]:
                    break
                board = replay(view_for("hive"), state["options"], state["moves"])
                text = sorted(board.move_text(m) for m in board.legal_moves)[ply % 3]
                await _move(c, game, token, text)
                for _ in range(1200):  # a guard against a hang
                    state = (await c.get(f"/api/games/{game['id']}", headers={"X-Seat-Token": token})).json()
                    if len(state["moves"]) > ply + 1 or state["result"]:
                        break
                    await asyncio.sleep(0.05)
    finally:
        await app.close()
    assert len(state["moves"]) >= 8 and state["reason"] != "Black forfeits: time ran out"
    assert state["clock"]["remaining"][1] > 0
    ai_used = state["clock"]["used"][1::2]
    spent = [round(((limits.time or 0) + MOVE_OVERHEAD) * 1000) for limits in given]
    assert len(ai_used) == len(spent) and all(abs(u - s) <= 1 for u, s in zip(ai_used, spent, strict=True))
