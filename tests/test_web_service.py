"""The browser game's service without HTTP: moves checked once and stored, undo and redo, offers, the stored and the
live game kept in step when storage fails, games loaded after a restart, the per-game views and the AI's jobs."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hive.games.hive import Board as HiveBoard
from hive.games.hivequeen import Board as QueenBoard
from hive.web.ai.player import analyse, choose_move
from hive.web.errors import BadRequest, Conflict, Forbidden, NotFound, Unavailable
from hive.web.game.service import GameService, Session
from hive.web.storage.games import Storage
from hive.web.views import kinds, view_for

JSON = dict[str, Any]


@pytest.fixture()
def service() -> Iterator[GameService]:
    storage = Storage(":memory:")
    yield GameService(storage)
    storage.close()


def local(service: GameService, **body: Any) -> tuple[Session, str]:
    session, created = service.create({"mode": "local", **body})
    return session, created.token


def counting(monkeypatch: pytest.MonkeyPatch, cls: type, names: tuple[str, ...]) -> dict[str, int]:
    """Count the calls of ``cls``'s methods ``names`` (on every board of the class) from now on."""
    calls = dict.fromkeys(names, 0)
    for name in names:
        original = getattr(cls, name)

        def wrapper(self: Any, *args: Any, _name: str = name, _original: Callable[..., Any] = original) -> Any:
            calls[_name] += 1
            return _original(self, *args)

        monkeypatch.setattr(cls, name, wrapper)
    return calls


VERBS = ("__init__", "parse_move", "push", "pop", "copy")


@pytest.mark.parametrize(
    ("kind", "board", "request_", "parsed"),
    [
        ("hive", HiveBoard, {"move": "wS1"}, 1),
        ("hive", HiveBoard, {"piece": "wA1", "to": [0, 0]}, 0),
        ("hivequeen", QueenBoard, {"move": "Wc3-c4;+Sd4"}, 1),
        ("hivequeen", QueenBoard, {"from": "c3", "to": "c4"}, 0),
    ],
)
def test_a_move_is_checked_once_played_once_and_never_replayed(
    service: GameService, monkeypatch: pytest.MonkeyPatch, kind: str, board: type, request_: JSON, parsed: int
) -> None:
    session, token = local(service, kind=kind)
    calls = counting(monkeypatch, board, VERBS)
    assert service.act(session, "move", token, request_) is None
    state = service.state(session, service.seats(session.record, token))
    assert calls == {"__init__": 0, "parse_move": parsed, "push": 1, "pop": 0, "copy": 0}
    assert len(state["moves"]) == 1 and state["moves"] == session.board.move_texts()
    assert state["game_string"].rstrip().endswith(state["moves"][0])


def test_a_move_that_cannot_be_stored_is_taken_back(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    session, token = local(service)
    service.act(session, "move", token, {"move": "wS1"})

    def fail(*args: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(service.storage, "save", fail)
    with pytest.raises(Unavailable, match="could not be saved: disk I/O error"):
        service.act(session, "move", token, {"move": "bS1 wS1-"})
    assert session.record.moves == ["wS1"] and session.board.move_texts() == ["wS1"]
    with pytest.raises(Unavailable):
        service.act(session, "undo", token, {})
    assert session.record.moves == ["wS1"] and len(session.board.move_stack) == 1


def test_a_move_stored_by_someone_else_meanwhile_is_a_conflict(tmp_path: Path) -> None:
    first, second = Storage(tmp_path / "games.sqlite3"), Storage(tmp_path / "games.sqlite3")
    one, other = GameService(first), GameService(second)
    session, token = local(one)
    twin = other.session(session.record.id)
    one.act(session, "move", token, {"move": "wS1"})
    with pytest.raises(Conflict, match="changed meanwhile"):
        other.act(twin, "move", token, {"move": "wA1"})
    assert twin.record.moves == [] and twin.board.move_texts() == []
    first.close()
    second.close()


def test_undo_pops_and_redo_pushes_the_stored_texts(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    session, token = local(service, options={"game_type": "Base", "tournament_opening": False})
    for move in ("wQ", "bQ wQ-", "wS1 -wQ"):
        service.act(session, "move", token, {"move": move})
    calls = counting(monkeypatch, HiveBoard, VERBS)
    service.act(session, "undo", token, {})
    service.act(session, "undo", token, {})
    assert session.record.moves == ["wQ"] and session.record.redo == ["bQ wQ-", "wS1 -wQ"]
    service.act(session, "redo", token, {})
    assert session.record.moves == ["wQ", "bQ wQ-"] and session.board.move_texts() == session.record.moves
    assert calls == {"__init__": 0, "parse_move": 1, "push": 1, "pop": 2, "copy": 0}
    service.act(session, "move", token, {"move": "wS1 \\wQ"})
    assert session.record.redo == []


def test_the_position_at_an_earlier_ply_leaves_the_game_alone(service: GameService) -> None:
    session, token = local(service)
    for move in ("wS1", "bS1 wS1-"):
        service.act(session, "move", token, {"move": move})
    early = service.position(session, "1")
    assert early["ply"] == 1 and [cell["stack"] for cell in early["view"]["cells"]] == [["wS1"]]
    assert session.board.move_texts() == ["wS1", "bS1 wS1-"]
    for bad in ("3", "-1", "x", "", "²"):
        with pytest.raises(BadRequest, match="'ply' must be a number from 0 to 2"):
            service.position(session, bad)


def test_resignation_and_agreement_are_outcomes(service: GameService) -> None:
    session, token = local(service, kind="hivequeen")
    service.act(session, "resign", token, {})
    assert (session.record.result, session.record.reason) == ("NorthWins", "South resigned")
    with pytest.raises(Conflict, match="The game is over"):
        service.act(session, "move", token, {"move": "Wc3-c4"})
    session, token = local(service)
    service.act(session, "offer", token, {"what": "draw"})
    assert (session.record.result, session.record.reason) == ("Draw", "the players agreed")


def test_who_may_do_what(service: GameService) -> None:
    session, created = service.create({"mode": "online", "colour": "black"})
    black, white = created.token, created.invite
    assert service.seats(session.record, black) == {1} and service.seats(session.record, white) == {0}
    with pytest.raises(Forbidden, match="seat token is needed"):
        service.act(session, "move", None, {"move": "wS1"})
    with pytest.raises(Forbidden, match="does not belong"):
        service.act(session, "move", "nope", {"move": "wS1"})
    with pytest.raises(NotFound, match="Unknown action 'fly'"):
        service.act(session, "fly", black, {})
    with pytest.raises(Conflict, match="It's White's turn, not yours"):
        service.act(session, "move", black, {"move": "wS1"})
    with pytest.raises(NotFound, match="no game 'nope'"):
        service.session("nope")
    assert service.act(session, "why", None, {"piece": "wQ"}) == {
        "piece": "wQ",
        "reason": "You can't play your Queen Bee on your first turn.",
    }
    with pytest.raises(BadRequest, match="nothing to preview"):
        service.act(session, "preview", None, {"move": "wS1"})


def test_a_game_is_loaded_once_after_a_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "games.sqlite3"
    service = GameService(Storage(db))
    session, token = local(service, kind="hivequeen")
    for move in ("Wc3-c4;+Sd4", "Wg7-g6;+Sf6"):
        service.act(session, "move", token, {"move": move})
    service.storage.close()
    again = GameService(Storage(db))
    loaded: list[Session] = []
    again.loaded = loaded.append
    calls = counting(monkeypatch, QueenBoard, VERBS)
    first = again.session(session.record.id)
    assert again.session(session.record.id) is first and loaded == [first]
    assert calls == {"__init__": 1, "parse_move": 2, "push": 2, "pop": 0, "copy": 0}
    assert again.state(first)["game_string"] == session.board.record()
    again.storage.close()


def test_the_ai_is_due_and_its_late_moves_are_dropped(service: GameService) -> None:
    session, _ = service.create({"mode": "ai", "colour": "black", "ai_level": "random"})
    assert service.ai_to_move(session)
    text = choose_move("hive", session.record.options, [], "random", seed=1)
    assert not service.play_ai(session, ["wS1"], text)
    assert service.play_ai(session, [], text) and session.record.moves == [text]
    assert not service.ai_to_move(session)
    with pytest.raises(Conflict, match="moved on"):
        service.check_hint(session, [])


def test_hints_come_with_an_evaluation_where_the_game_has_one() -> None:
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
