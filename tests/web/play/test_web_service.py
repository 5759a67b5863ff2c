"""The browser game's service without HTTP, on SQLite and PostgreSQL alike: moves checked once and stored, undo and
redo, offers, a finished game's result final, the stored and the live game kept in step when storage fails, a copy in
memory brought up to date by the moves it lacks (never replayed), changes made from an old version refused, one event
per change, the AI's queue kept in step by the same transaction, and the per-game views."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest
import sqlalchemy as sa

from hive.games.hive import Board as HiveBoard
from hive.games.hivequeen import Board as QueenBoard
from hive.web.ai.work import analyse, choose_move
from hive.web.play.actions import FINAL, act
from hive.web.play.events import GameEvent, Unheard
from hive.web.play.service import GameService
from hive.web.play.session import Session
from hive.web.shared.errors import BadRequest, Conflict, Forbidden, NotFound, Unavailable
from hive.web.shared.model import AIJob
from hive.web.storage import Store, open_store
from hive.web.views import kinds, view_for

from ...web_support import VERBS, counting

JSON = dict[str, Any]
pytestmark = pytest.mark.anyio


class Listener(Unheard):
    """An announcer that keeps what it hears: what was stored inside a transaction, and what was announced."""

    def __init__(self) -> None:
        self.in_transaction: list[GameEvent] = []
        self.announced: list[GameEvent] = []

    def stored(self, connection: sa.Connection, event: GameEvent) -> None:
        assert connection.in_transaction()
        self.in_transaction.append(event)

    async def announce(self, event: GameEvent) -> None:
        self.announced.append(event)


@pytest.fixture()
async def store(database: str) -> AsyncIterator[Store]:
    opened = open_store(database, "test-process")
    yield opened
    opened.close()


@pytest.fixture()
def heard() -> Listener:
    return Listener()


@pytest.fixture()
def service(store: Store, heard: Listener) -> GameService:
    return GameService(store, origin="one", announcer=heard)


async def local(service: GameService, **body: Any) -> tuple[Session, str]:
    session, created = await service.create({"mode": "local", **body})
    return session, created.token


async def play(service: GameService, session: Session, token: str, action: str, data: JSON) -> JSON | None:
    return (await act(service, session.record.id, action, token, data))[1]


@pytest.mark.parametrize(
    ("kind", "board", "request_", "parsed"),
    [
        ("hive", HiveBoard, {"move": "wS1"}, 1),
        ("hive", HiveBoard, {"piece": "wA1", "to": [0, 0]}, 0),
        ("hivequeen", QueenBoard, {"move": "Wc3-c4;+Sd4"}, 1),
        ("hivequeen", QueenBoard, {"from": "c3", "to": "c4"}, 0),
    ],
)
async def test_a_move_is_checked_once_played_once_and_never_replayed(
    service: GameService, monkeypatch: pytest.MonkeyPatch, kind: str, board: type, request_: JSON, parsed: int
) -> None:
    session, token = await local(service, kind=kind)
    calls = counting(monkeypatch, board, VERBS)
    assert await play(service, session, token, "move", request_) is None
    state = service.state(session, service.seats(session.record, token))
    assert calls == {"__init__": 0, "parse_move": parsed, "push": 1, "push_stored": 0, "pop": 0, "copy": 0}
    assert len(state["moves"]) == 1 and state["moves"] == session.board.move_texts()
    assert state["game_string"].rstrip().endswith(state["moves"][0])
    assert state["version"] == 1 and state["event"] == {"what": "move", "by": 0}


async def test_a_move_that_cannot_be_stored_is_taken_back(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    session, token = await local(service)
    await play(service, session, token, "move", {"move": "wS1"})

    async def fail(*args: Any) -> None:
        raise Unavailable("The database is not answering; try again in a moment.", retry_after=5)

    monkeypatch.setattr(service.store.games, "save", fail)
    with pytest.raises(Unavailable, match="not answering"):
        await play(service, session, token, "move", {"move": "bS1 wS1-"})
    assert session.record.moves == ["wS1"] and session.board.move_texts() == ["wS1"]
    with pytest.raises(Unavailable):
        await play(service, session, token, "undo", {})
    assert session.record.moves == ["wS1"] and len(session.board.move_stack) == 1
    assert session.record.version == 1


async def test_a_change_made_from_an_old_version_is_refused_and_the_copy_catches_up(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes on one database: each change is stored over the version it was made from, so that of two
    changes made from the same version one is stored and the other refused; the copy that is behind is brought up to
    date by the moves it lacks, played as stored (not checked again), not by replaying the game."""
    first, second = open_store(database, "a"), open_store(database, "b")
    one, other = GameService(first, origin="a"), GameService(second, origin="b")
    try:
        session, token = await local(one)
        twin = await other.session(session.record.id)
        assert twin is not session and twin.record == session.record
        await play(one, session, token, "move", {"move": "wS1"})
        # a change made from the version the other process holds: refused, its board put back
        stale = twin.record
        with pytest.raises(Conflict, match="changed meanwhile"):
            await other.commit(twin, "name", 0, names=("Ada", None))
        assert twin.record == stale and twin.board.move_texts() == []
        await play(one, session, token, "move", {"move": "bS1 wS1-"})
        calls = counting(monkeypatch, HiveBoard, VERBS)
        again = await other.session(session.record.id)
        assert again is twin and twin.record.moves == ["wS1", "bS1 wS1-"] and twin.record.version == 2
        assert calls == {"__init__": 0, "parse_move": 0, "push": 0, "push_stored": 2, "pop": 0, "copy": 0}
        # a take-back made elsewhere: the copy pops what the stored game no longer has
        await play(one, session, token, "undo", {})
        await play(one, session, token, "move", {"move": "bA1 wS1-"})
        calls = counting(monkeypatch, HiveBoard, VERBS)
        await other.session(session.record.id)
        assert twin.board.move_texts() == ["wS1", "bA1 wS1-"] == session.board.move_texts()
        assert calls == {"__init__": 0, "parse_move": 0, "push": 0, "push_stored": 1, "pop": 1, "copy": 0}
        with pytest.raises(Conflict, match="moved on: 2 moves played, not 1"):
            await play(other, twin, token, "move", {"move": "wA1 -wS1", "ply": 1})
    finally:
        first.close()
        second.close()


async def test_two_moves_sent_at_once_for_the_same_ply_to_two_processes_store_one(database: str) -> None:
    first, second = open_store(database, "a"), open_store(database, "b")
    one, other = GameService(first, origin="a"), GameService(second, origin="b")
    try:
        session, token = await local(one)
        await other.session(session.record.id)
        results = await asyncio.gather(
            act(one, session.record.id, "move", token, {"move": "wS1", "ply": 0}),
            act(other, session.record.id, "move", token, {"move": "wG1", "ply": 0}),
            return_exceptions=True,
        )
        refused = [result for result in results if isinstance(result, BaseException)]
        assert len(refused) == 1 and isinstance(refused[0], Conflict), results
        stored = await first.games.load(session.record.id)
        assert stored is not None and len(stored.moves) == 1 and stored.version == 1
    finally:
        first.close()
        second.close()


async def test_an_action_on_a_copy_that_is_behind_is_made_again_on_the_stored_game(database: str) -> None:
    """The copy in memory is tried first; one that missed a change stored elsewhere is brought up to date and the
    action made on the game as stored, so that the player sees no refusal."""
    first, second = open_store(database, "a"), open_store(database, "b")
    one, other = GameService(first, origin="a"), GameService(second, origin="b")
    try:
        session, token = await local(one)
        twin = await other.session(session.record.id)
        await play(one, session, token, "move", {"move": "wS1", "ply": 0})
        assert twin.record.version == 0  # the other process has not heard of the move
        assert await play(other, twin, token, "move", {"move": "bS1 wS1-", "ply": 1}) is None
        stored = await first.games.load(session.record.id)
        assert stored is not None and stored.moves == ["wS1", "bS1 wS1-"] and stored.version == 2
        assert twin.board.move_texts() == stored.moves
        with pytest.raises(Conflict, match="moved on"):  # a refusal on a copy that was current stands
            await play(other, twin, token, "move", {"move": "wG1 -wS1", "ply": 1})
    finally:
        first.close()
        second.close()


async def test_a_socket_opening_a_game_while_it_changes_elsewhere_still_takes_its_seat(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = open_store(database, "a"), open_store(database, "b")
    one, other = GameService(first, origin="a"), GameService(second, origin="b")
    try:
        session, created = await one.create({"mode": "online"})
        token, invite = created.token, created.invite
        assert invite is not None and session.record.joined == 0b01
        save = second.games.save
        raced: list[bool] = []

        async def move_first(*args: Any) -> None:
            if not raced:  # between the version read and the seat's change, a move is stored by the other process
                raced.append(True)
                await play(one, session, token, "move", {"move": "wS1", "ply": 0})
            await save(*args)

        monkeypatch.setattr(second.games, "save", move_first)
        joined = await other.join(session.record.id, frozenset({1}))
        assert raced and joined.record.joined == 0b11 and joined.record.moves == ["wS1"]
        stored = await first.games.load(session.record.id)
        assert stored is not None and stored.joined == 0b11 and stored.version == joined.record.version == 2
    finally:
        first.close()
        second.close()


async def test_every_change_is_announced_once_inside_its_transaction(service: GameService, heard: Listener) -> None:
    session, token = await local(service, options={"game_type": "Base", "tournament_opening": False})
    for move in ("wQ", "bQ wQ-"):
        await play(service, session, token, "move", {"move": move})
    await play(service, session, token, "undo", {})
    await play(service, session, token, "name", {"name": "Ada", "seat": 0})
    with pytest.raises(Conflict):
        await play(service, session, token, "redo", {"ply": 0})  # refused: nothing stored, nothing announced
    whats = [(event.what, event.version) for event in heard.announced]
    assert whats == [("created", 0), ("move", 1), ("move", 2), ("undo", 3), ("name", 4)]
    assert heard.in_transaction == heard.announced
    assert all(event.origin == "one" and event.game_id == session.record.id for event in heard.announced)


async def test_undo_pops_and_redo_pushes_the_stored_texts(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    session, token = await local(service, options={"game_type": "Base", "tournament_opening": False})
    for move in ("wQ", "bQ wQ-", "wS1 -wQ"):
        await play(service, session, token, "move", {"move": move})
    calls = counting(monkeypatch, HiveBoard, VERBS)
    await play(service, session, token, "undo", {})
    await play(service, session, token, "undo", {})
    assert session.record.moves == ["wQ"] and session.record.redo == ["bQ wQ-", "wS1 -wQ"]
    await play(service, session, token, "redo", {})
    assert session.record.moves == ["wQ", "bQ wQ-"] and session.board.move_texts() == session.record.moves
    assert calls == {"__init__": 0, "parse_move": 1, "push": 1, "push_stored": 0, "pop": 2, "copy": 0}
    await play(service, session, token, "move", {"move": "wS1 \\wQ"})
    assert session.record.redo == []
    stored = await service.store.games.load(session.record.id)
    assert stored is not None and stored.moves == session.record.moves and stored.redo == []


async def test_the_position_at_an_earlier_ply_leaves_the_game_alone(service: GameService) -> None:
    session, token = await local(service)
    for move in ("wS1", "bS1 wS1-"):
        await play(service, session, token, "move", {"move": move})
    early = service.position(session, "1")
    assert early["ply"] == 1 and [cell["stack"] for cell in early["view"]["cells"]] == [["wS1"]]
    assert session.board.move_texts() == ["wS1", "bS1 wS1-"]
    for bad in ("3", "-1", "x", "", "²"):
        with pytest.raises(BadRequest, match="'ply' must be a number from 0 to 2"):
            service.position(session, bad)


async def test_resignation_and_agreement_are_outcomes_and_final(service: GameService) -> None:
    session, token = await local(service, kind="hivequeen")
    await play(service, session, token, "resign", {})
    assert (session.record.result, session.record.reason) == ("NorthWins", "South resigned")
    with pytest.raises(Conflict, match="The game is over"):
        await play(service, session, token, "move", {"move": "Wc3-c4"})
    session, token = await local(service)
    await play(service, session, token, "move", {"move": "wS1"})
    await play(service, session, token, "offer", {"what": "draw"})
    assert (session.record.result, session.record.reason) == ("Draw", "the players agreed")
    for action, data in (("undo", {}), ("redo", {}), ("offer", {"what": "undo"}), ("offer", {"what": "draw"})):
        with pytest.raises(Conflict, match="The game is over"):
            await play(service, session, token, action, data)
    assert session.record.result == "Draw" and session.record.moves == ["wS1"]


async def test_a_resignation_against_the_ai_cannot_be_undone(service: GameService) -> None:
    session, created = await service.create({"mode": "ai", "ai_level": "random"})
    await play(service, session, created.token, "move", {"move": "wS1"})
    job = AIJob(session.record.id, 1, "test", 1)
    await service.play_ai(job, choose_move("hive", session.record.options, ["wS1"], "random", seed=1))
    await play(service, session, created.token, "resign", {})
    with pytest.raises(Conflict, match=FINAL):
        await play(service, session, created.token, "undo", {})
    stored = await service.store.games.load(session.record.id)
    assert stored is not None and stored.result == "BlackWins" and len(stored.moves) == 2


async def test_a_declined_draw_tells_the_player_who_offered(service: GameService, heard: Listener) -> None:
    session, created = await service.create({"mode": "online"})
    white, black = created.token, created.invite
    assert black is not None
    await play(service, session, white, "move", {"move": "wS1"})
    await play(service, session, black, "offer", {"what": "draw"})
    await play(service, session, white, "answer", {"accept": False})
    assert session.record.offer is None and session.record.result is None
    last = heard.announced[-1]
    assert (last.what, last.by, last.detail) == ("answer", 0, {"declined": "draw", "offered_by": 1})
    assert service.state(session)["event"] == {"what": "answer", "by": 0, "declined": "draw", "offered_by": 1}


async def test_who_may_do_what(service: GameService) -> None:
    session, created = await service.create({"mode": "online", "colour": "black"})
    black, white = created.token, created.invite
    assert service.seats(session.record, black) == {1} and service.seats(session.record, white) == {0}
    game = session.record.id
    with pytest.raises(Forbidden, match="seat token is needed"):
        await act(service, game, "move", None, {"move": "wS1"})
    with pytest.raises(Forbidden, match="does not belong"):
        await act(service, game, "move", "nope", {"move": "wS1"})
    with pytest.raises(NotFound, match="Unknown action 'fly'"):
        await act(service, game, "fly", black, {})
    with pytest.raises(Conflict, match="It's White's turn, not yours"):
        await act(service, game, "move", black, {"move": "wS1"})
    with pytest.raises(NotFound, match="no game 'nope'"):
        await service.session("nope")
    assert (await act(service, game, "why", None, {"piece": "wQ"}))[1] == {
        "piece": "wQ",
        "reason": "You can't play your Queen Bee on your first turn.",
    }
    with pytest.raises(BadRequest, match="nothing to preview"):
        await act(service, game, "preview", None, {"move": "wS1"})


async def test_a_game_is_loaded_once_after_a_restart(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    first = open_store(database, "a")
    service = GameService(first)
    session, token = await local(service, kind="hivequeen")
    for move in ("Wc3-c4;+Sd4", "Wg7-g6;+Sf6"):
        await play(service, session, token, "move", {"move": move})
    first.close()
    second = open_store(database, "b")
    again = GameService(second)
    calls = counting(monkeypatch, QueenBoard, VERBS)
    loaded = await again.session(session.record.id)
    assert await again.session(session.record.id) is loaded
    assert calls == {"__init__": 1, "parse_move": 2, "push": 2, "push_stored": 0, "pop": 0, "copy": 0}
    assert again.state(loaded)["game_string"] == session.board.record()
    second.close()


async def test_the_ai_s_move_is_queued_by_the_change_that_makes_it_due_and_late_answers_are_dropped(
    service: GameService, store: Store
) -> None:
    session, _ = await service.create({"mode": "ai", "colour": "black", "ai_level": "random"}, "10.0.0.1")
    assert session.ai_due
    job = await store.jobs.claim("worker", 30)
    assert job is not None and (job.game_id, job.ply, job.client, job.tries) == (session.record.id, 0, "10.0.0.1", 1)
    assert await store.jobs.claim("worker", 30) is None  # taken: nobody else gets it
    text = choose_move("hive", session.record.options, [], "random", seed=1)
    assert not await service.play_ai(dataclasses.replace(job, ply=1), text)
    assert await service.play_ai(job, text) and session.record.moves == [text]
    assert not session.ai_due and await store.jobs.waiting() == 0
    assert await store.jobs.claim("worker", 30) is None  # the move stored took the job away with it
    with pytest.raises(Conflict, match="moved on"):
        await service.check_hint(session.record.id, [])


async def test_a_job_whose_process_died_is_taken_over_when_its_lease_runs_out(
    service: GameService, store: Store
) -> None:
    session, _ = await service.create({"mode": "ai", "colour": "black", "ai_level": "random"}, "c")
    jobs = store.jobs
    assert await jobs.claim("dead", 0.2) is not None
    assert await jobs.claim("alive", 30) is None
    await asyncio.sleep(0.3)
    taken = await jobs.claim("alive", 30)
    assert taken is not None and taken.game_id == session.record.id and taken.tries == 2


async def test_the_ai_s_queue_serves_the_client_with_the_fewest_moves_being_worked_out_first(
    service: GameService, store: Store
) -> None:
    """One client has three games waiting for the AI and one being worked out; another client's game, queued last,
    is taken next."""
    busy = [await service.create({"mode": "ai", "colour": "black", "ai_level": "random"}, "busy") for _ in range(4)]
    jobs = store.jobs
    first = await jobs.claim("worker", 30)
    assert first is not None and first.game_id == busy[0][0].record.id
    other, _ = await service.create({"mode": "ai", "colour": "black", "ai_level": "random"}, "other")
    taken = await jobs.claim("worker", 30)
    assert taken is not None and taken.game_id == other.record.id and taken.client == "other"


async def test_hints_come_with_an_evaluation_where_the_game_has_one() -> None:
    hive = analyse("hive", view_for("hive").options({"game_type": "Base"}), ["wS1"])
    assert hive["level"] == "medium" and hive["move"].startswith("b") and 0 <= hive["white"] <= 1
    queen = analyse("hivequeen", {}, [])
    assert queen["level"] == "easy" and set(queen) == {"move", "level"}
    assert QueenBoard().parse_move(queen["move"])


def test_views_are_found_by_kind() -> None:
    assert kinds() == ["hive", "hivequeen"]
    assert view_for("hivequeen").kind == "hivequeen"
    for bad in ("go", 3, ["hive"], "__init__"):
        with pytest.raises(BadRequest, match="expected one of hive, hivequeen"):
            view_for(bad)
