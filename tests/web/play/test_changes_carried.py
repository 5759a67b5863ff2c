"""A change carried by its event: a process whose copy of the game is at the version before brings it up to date from
the event alone (no read of the database, no move checked again), and to the very record the database holds; an event
that carries no change, or one that does not follow the copy, is read from the database as before."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import sqlalchemy as sa

from hive.games.hive import Board as HiveBoard
from hive.web.play.actions import act
from hive.web.play.events import GameEvent, Unheard
from hive.web.play.rows import CHANGE_LONGEST, apply_change, stored_change
from hive.web.play.service import GameService
from hive.web.shared.model import GameRecord
from hive.web.storage import open_store

from ...web_support import VERBS, counting

pytestmark = pytest.mark.anyio


class Told(Unheard):
    """An announcer keeping the events as the other processes are sent them (inside the change's transaction)."""

    def __init__(self) -> None:
        self.events: list[GameEvent] = []

    def stored(self, connection: sa.Connection, event: GameEvent) -> None:
        self.events.append(event)

    async def announce(self, event: GameEvent) -> None:
        """Nothing more."""


def no_reads(monkeypatch: pytest.MonkeyPatch, service: GameService) -> list[str]:
    """Make every read of a game by ``service`` noted (and still done): the names of the reads."""
    reads: list[str] = []
    games = service.store.games
    for name in ("changes", "load", "version"):
        original = getattr(games, name)

        async def noted(*args: Any, _name: str = name, _original: Any = original) -> Any:
            reads.append(_name)
            return await _original(*args)

        monkeypatch.setattr(games, name, noted)
    return reads


async def test_a_copy_one_version_behind_follows_the_event_without_reading(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    told = Told()
    first, second = open_store(database, "a"), open_store(database, "b")
    one, other = GameService(first, origin="a", announcer=told), GameService(second, origin="b")
    try:
        session, created = await one.create({"mode": "local"})
        game_id, token = session.record.id, created.token
        twin = await other.session(game_id)
        reads = no_reads(monkeypatch, other)
        steps: list[tuple[str, dict[str, Any]]] = [
            ("move", {"move": "wS1"}),
            ("move", {"move": "bS1 wS1-"}),
            ("undo", {}),  # moves taken back: the copy pops them
            ("move", {"move": "bA1 wS1-"}),
            ("name", {"name": "Ada", "seat": 0}),
            ("offer", {"what": "draw"}),  # agreed at once on one screen: the game ends
        ]
        for action, data in steps:
            await act(one, game_id, action, token, data)
            event = told.events[-1]
            assert event.change is not None and event.version == twin.record.version + 1
            calls = counting(monkeypatch, HiveBoard, (*VERBS, "is_legal"))
            assert await other.refresh(event) is twin
            assert reads == []
            stored = await first.games.load(game_id)
            assert twin.record == stored == session.record, action
            assert twin.board.move_texts() == session.board.move_texts()
            assert calls["__init__"] == 0 and calls["copy"] == 0
            # the stored moves are played as they were checked: no legal move listed or checked on the copy
            assert calls["parse_move"] == calls["is_legal"] == calls["push"] == 0
            board = twin.board
            assert isinstance(board, HiveBoard) and (board._kept_ply, board._spare_ply) == (-1, -1)
        assert twin.record.result is not None and twin.record.names[0] == "Ada"
    finally:
        first.close()
        second.close()


async def test_an_event_without_its_change_or_ahead_of_the_copy_is_read(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    told = Told()
    first, second = open_store(database, "a"), open_store(database, "b")
    one, other = GameService(first, origin="a", announcer=told), GameService(second, origin="b")
    try:
        session, created = await one.create({"mode": "local"})
        game_id, token = session.record.id, created.token
        twin = await other.session(game_id)
        reads = no_reads(monkeypatch, other)
        await act(one, game_id, "move", token, {"move": "wS1"})
        calls = counting(monkeypatch, HiveBoard, ("parse_move", "push_stored"))
        await other.refresh(dataclasses.replace(told.events[-1], change=None))
        assert reads == ["changes"] and twin.record == session.record
        assert calls == {"parse_move": 0, "push_stored": 1}  # the change read back is played unchecked too
        await act(one, game_id, "move", token, {"move": "bS1 wS1-"})
        await act(one, game_id, "move", token, {"move": "wA1 -wS1"})
        await other.refresh(told.events[-1])  # two versions ahead: its change alone does not make the copy
        assert reads == ["changes", "changes"] and twin.record == session.record
        assert twin.board.move_texts() == ["wS1", "bS1 wS1-", "wA1 -wS1"]
        await act(one, game_id, "move", token, {"move": "bA1 bS1-"})
        broken = dict(told.events[-1].change or {}, keep=9)  # does not follow the copy: loaded again
        await other.refresh(dataclasses.replace(told.events[-1], change=broken))
        assert reads[2:] == ["load"] and other.sessions.get(game_id) is not twin
        again = other.sessions.get(game_id)
        assert again is not None and again.record == session.record
    finally:
        first.close()
        second.close()


def test_a_change_too_long_to_carry_is_left_out() -> None:
    before = GameRecord("g1", "hive", {}, "local", None, None, ("t", None))
    short = dataclasses.replace(before, moves=["wS1"], version=1)
    change = stored_change(before, short)
    assert change is not None and apply_change(before, change, 1) == short
    long = dataclasses.replace(before, moves=[f"wA1 -wS{i}" for i in range(CHANGE_LONGEST // 8)], version=1)
    assert stored_change(before, long) is None
    with pytest.raises(ValueError, match="not a change"):
        apply_change(before, {"keep": 0}, 1)
