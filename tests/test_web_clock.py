"""Timed games: time controls read from a request, the clock charged and stored with every move, a flag that falls
ends the game (on its own timer too), a restart resumes each clock with the time it had, and the AI thinks within
its share of the clock."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.search.timing import FLOOR, MOVE_OVERHEAD, ClockReading, move_budget
from hive.web.ai.player import choose_move
from hive.web.errors import BadRequest, Conflict
from hive.web.game import clock
from hive.web.game.lobby import Lobby
from hive.web.game.service import GameService, Session
from hive.web.realtime.flags import Flags
from hive.web.storage.games import Storage
from hive.web.views import replay, view_for

from .web_support import ServerProcess, server_thread

JSON = dict[str, Any]
#: Moves both games accept from their start, first player then second.
OPENINGS = {"hive": ("wS1", "bS1 wS1-", "wQ -wS1"), "hivequeen": ("Wc3-c4", "Wg7-g6", "Wc4-c5")}


class FakeTime:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture()
def now() -> FakeTime:
    return FakeTime()


@pytest.fixture()
def service(now: FakeTime) -> Iterator[GameService]:
    storage = Storage(":memory:")
    yield GameService(storage, now=now)
    storage.close()


def online(service: GameService, kind: str = "hive", tc: object = None) -> tuple[Session, str, str]:
    session, game = service.create({"mode": "online", "kind": kind, "time_control": tc})
    assert game.invite is not None
    return session, game.token, game.invite


def move(service: GameService, session: Session, token: str, text: str) -> None:
    service.act(session, "move", token, {"move": text})


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
def test_a_bad_time_control_is_refused_by_name(service: GameService, given: object, named: str) -> None:
    with pytest.raises(BadRequest, match=named.replace("(", r"\(")):
        service.create({"mode": "online", "time_control": given})


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
def test_each_move_is_charged_with_the_increment_and_stored(service: GameService, now: FakeTime, kind: str) -> None:
    session, white, black = online(service, kind, {"initial": 10, "increment": 2})
    first, second, third = OPENINGS[kind]
    assert service.state(session)["clock"]["running"] is None  # the clock starts with the first move
    now.t += 5
    move(service, session, white, first)
    now.t += 3.25
    move(service, session, black, second)
    now.t += 1.5
    state = service.state(session)["clock"]
    assert state["remaining"] == [8500, 8750] and state["running"] == 0
    assert state["used"] == [None, 3250]
    move(service, session, white, third)
    stored = service.storage.load(session.record.id)
    assert stored is not None and stored.clock is not None
    assert stored.clock["remaining"] == [10_000 + 500, 8750] and stored.clock["used"] == [None, 3250, 1500]
    assert service.state(session)["clock"]["label"] == "10s+2"


@pytest.mark.parametrize("kind", sorted(OPENINGS))
def test_a_flag_that_falls_loses_and_stops_the_game(service: GameService, now: FakeTime, kind: str) -> None:
    session, white, black = online(service, kind, {"initial": 3})
    first, second, _ = OPENINGS[kind]
    move(service, session, white, first)
    now.t += 2.999
    assert not service.check_clock(session)
    now.t += 0.002
    with pytest.raises(Conflict, match="The game is over"):
        move(service, session, black, second)
    state = service.state(session)
    assert state["result"] == f"{session.board.sides[0]}Wins"
    assert state["reason"] == f"{session.sides[1]} forfeits: time ran out"
    assert state["clock"]["remaining"] == [3000, 0] and state["clock"]["running"] is None
    stored = service.storage.load(session.record.id)
    assert stored is not None and stored.result == state["result"]


def test_a_resignation_stops_the_clock(service: GameService, now: FakeTime) -> None:
    session, white, black = online(service, "hive", "bullet")
    move(service, session, white, "wS1")
    now.t += 4
    service.act(session, "resign", black, {})
    now.t += 100
    assert service.state(session)["clock"]["remaining"] == [60_000, 56_000]
    assert not service.check_clock(session)


def test_correspondence_gives_the_full_days_for_each_move(service: GameService, now: FakeTime) -> None:
    session, white, black = online(service, "hive", {"days": 1})
    move(service, session, white, "wS1")
    now.t += 20 * 3600
    assert service.state(session)["clock"]["remaining"][1] == 4 * 3_600_000
    move(service, session, black, "bS1 wS1-")
    assert service.state(session)["clock"]["remaining"] == [clock.DAY, clock.DAY]
    now.t += clock.DAY / 1000
    assert service.check_clock(session) and session.record.result == "BlackWins"


def test_moves_are_not_taken_back_under_a_clock(service: GameService) -> None:
    session, game = service.create({"mode": "ai", "ai_level": "random", "time_control": "blitz"})
    with pytest.raises(Conflict, match="timed game"):
        service.act(session, "undo", game.token, {})
    with pytest.raises(BadRequest, match="not on one screen"):
        service.create({"mode": "local", "time_control": "blitz"})


def test_an_ai_move_that_comes_after_its_flag_fell_is_not_played(service: GameService, now: FakeTime) -> None:
    session, game = service.create({"mode": "ai", "ai_level": "random", "time_control": {"initial": 2}})
    move(service, session, game.token, "wS1")
    thought_about = list(session.record.moves)
    now.t += 2.5
    assert not service.play_ai(session, thought_about, "bS1 wS1-")
    assert session.record.moves == ["wS1"] and session.record.reason == "Black forfeits: time ran out"


def test_a_rematch_keeps_the_time_control_and_the_list_names_it(service: GameService, now: FakeTime) -> None:
    session, white, black = online(service, "hive", "rapid")
    move(service, session, white, "wS1")
    service.act(session, "resign", black, {})
    lobby = Lobby(service)
    following, _ = lobby.rematch(session, white)
    assert following.record.clock == clock.new(clock.control("rapid"))
    assert {game["time_control"] for game in lobby.games()["games"]} == {"Rapid 15+10"}


def test_a_restart_resumes_each_real_time_clock_with_the_time_it_had(tmp_path: Path, now: FakeTime) -> None:
    db = tmp_path / "games.sqlite3"

    async def before() -> tuple[str, str]:
        storage = Storage(db)
        service = GameService(storage, now=now)
        session, white, _ = online(service, "hive", "blitz")
        corr, corr_white, _ = online(service, "hive", {"days": 2})
        move(service, session, white, "wS1")
        move(service, corr, corr_white, "wS1")
        now.t += 7
        Flags(service, _ignore).stop()
        storage.close()
        return session.record.id, corr.record.id

    async def after(game_id: str, corr_id: str) -> tuple[JSON, JSON]:
        storage = Storage(db)
        service = GameService(storage, now=now)
        flags = Flags(service, _ignore)
        flags.start()
        now.t += 2
        states = service.state(service.session(game_id))["clock"], service.state(service.session(corr_id))["clock"]
        flags.stop()
        storage.close()
        return states

    game_id, corr_id = asyncio.run(before())
    now.t += 3600  # the server is down for an hour
    blitz, corr = asyncio.run(after(game_id, corr_id))
    assert blitz["remaining"] == [300_000, 300_000 - 9000] and blitz["running"] == 1
    assert corr["remaining"][1] == 2 * clock.DAY - (3600 + 9) * 1000  # calendar time runs on


async def _ignore(session: Session) -> None:
    pass


def test_the_ai_thinks_within_its_share_of_the_clock() -> None:
    assert clock.reading(None, 1, 0) is None
    assert clock.reading(clock.new({"days": 1}), 1, 0) is None
    blitz = clock.new(clock.control("blitz"))
    assert blitz is not None
    read = clock.reading(blitz, 1, 0)
    assert read is not None and (read.remaining, read.increment) == (300, 3)
    assert read.budget() == pytest.approx(300 / 30 + 3 * 0.7 - MOVE_OVERHEAD, abs=0.01)
    low = clock.reading({**blitz, "remaining": [300_000, 500]}, 1, 0)
    assert low is not None and low.budget() == pytest.approx(0.2 - MOVE_OVERHEAD, abs=0.01)
    started = time.perf_counter()
    moves = ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]
    choose_move("hive", view_for("hive").options({}), moves, "max", 1, clock=ClockReading(1.0))
    assert time.perf_counter() - started < 2.0


def test_the_time_a_move_waits_for_a_worker_is_taken_from_its_budget() -> None:
    """The AI's budget comes from its clock as it stands when the search starts, not when the move was asked."""
    waited = ClockReading(10.0, 0.5, at=time.monotonic() - 4)
    assert waited.budget() == pytest.approx(move_budget(6.0, 0.5), abs=0.01)
    gone = ClockReading(1.0, at=time.monotonic() - 2)
    assert gone.budget() == FLOOR
    started = time.perf_counter()
    choose_move("hive", view_for("hive").options({}), ["wS1"], "max", 1, clock=gone)
    assert time.perf_counter() - started < 1.0


def _create(client: httpx.Client, **body: Any) -> JSON:
    response = client.post("api/games", json=body)
    assert response.status_code == 200, response.text
    answer: JSON = response.json()
    return answer


def test_the_server_drops_the_flag_on_time_with_nobody_asking(tmp_path: Path) -> None:
    with server_thread(tmp_path / "games.sqlite3") as url, httpx.Client(base_url=url, timeout=30) as client:
        game = _create(client, mode="online", time_control={"initial": 1})
        reply = client.post(
            f"api/games/{game['id']}/move", json={"move": "wS1"}, headers={"X-Seat-Token": game["token"]}
        )
        assert reply.json()["clock"]["running"] == 1
        deadline = time.monotonic() + 10
        listed: JSON = {}
        while time.monotonic() < deadline:
            listed = next(g for g in client.get("api/games").json()["games"] if g["id"] == game["id"])
            if listed["result"]:
                break
            time.sleep(0.1)
        assert listed["result"] == "WhiteWins" and listed["reason"] == "Black forfeits: time ran out"


def test_a_server_restart_resumes_the_clock_within_a_second(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "games.sqlite3")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            game = _create(client, mode="online", time_control={"initial": 60})
            headers = {"X-Seat-Token": game["token"]}
            client.post(f"api/games/{game['id']}/move", json={"move": "wS1"}, headers=headers)
            before = client.get(f"api/games/{game['id']}").json()["clock"]["remaining"]
        server.stop()
        time.sleep(2)
        server.start()
        with httpx.Client(base_url=server.url, timeout=30) as client:
            after = client.get(f"api/games/{game['id']}").json()["clock"]
    finally:
        server.stop()
    assert after["running"] == 1 and after["remaining"][0] == before[0] == 60_000
    assert abs(after["remaining"][1] - before[1]) < 1000


def test_the_ai_never_loses_on_time_in_a_short_game(tmp_path: Path) -> None:
    with server_thread(tmp_path / "games.sqlite3") as url, httpx.Client(base_url=url, timeout=30) as client:
        game = _create(client, mode="ai", ai_level="max", time_control={"initial": 4, "increment": 0.5})
        headers = {"X-Seat-Token": game["token"]}
        state: JSON = game["state"]
        for ply in range(0, 16, 2):
            if state["result"]:
                break
            board = replay(view_for("hive"), state["options"], state["moves"])
            text = sorted(board.move_text(m) for m in board.legal_moves)[ply % 3]
            client.post(f"api/games/{game['id']}/move", json={"move": text}, headers=headers)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                state = client.get(f"api/games/{game['id']}", headers=headers).json()
                if len(state["moves"]) > ply + 1 or state["result"]:
                    break
                time.sleep(0.05)
        assert len(state["moves"]) >= 8 and state["reason"] != "Black forfeits: time ran out"
        assert state["clock"]["remaining"][1] > 0
