"""A flag that falls when the opponent could not have won draws: each game's ``could_win``, and the clock's use of
it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hive import find_game
from hive.games.hivequeen.board import Board as QueenBoard
from hive.web.play.actions import act
from hive.web.play.service import GameService
from hive.web.play.session import Session
from hive.web.shared.errors import Conflict
from hive.web.storage import open_store

from ...web_support import FakeTime

pytestmark = pytest.mark.anyio

#: South: Queen and Workers only (nothing that captures, nothing that produces); North: Queen, Drone and Workers.
DISARMED = {"e1": "Q", "c2": "W", "f2": "W", "e9": "q", "d8": "d", "g8": "w", "f8": "w"}


def test_hive_lets_the_opponent_win_while_the_game_goes_on() -> None:
    board = find_game("Base+MLP")()
    for text in ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"):
        board.push_text(text)
        assert board.could_win(0) and board.could_win(1)


def test_hivequeen_from_its_start_lets_either_side_win() -> None:
    board = QueenBoard()
    assert board.could_win(0) and board.could_win(1)


def test_a_hivequeen_side_without_a_capturing_piece_cannot_win() -> None:
    board = QueenBoard.from_pieces(DISARMED, turn=1)
    assert board.outcome() is None
    assert not board.could_win(0), "South has nothing that captures and fewer units"
    assert board.could_win(1), "North's Drone can be kept moving while South's units are fewer"


@pytest.mark.parametrize(
    ("extra", "why"),
    [
        ({"a5": "S"}, "a Soldier captures"),
        ({"a5": "H"}, "a Highborn captures"),
        ({"a5": "N"}, "a Nurse may produce a Soldier"),
    ],
)
def test_anything_that_may_capture_keeps_a_win_possible(extra: dict[str, str], why: str) -> None:
    assert QueenBoard.from_pieces({**DISARMED, **extra}, turn=1).could_win(0), why


def test_more_units_or_an_immobile_opponent_keep_a_win_possible() -> None:
    more = {**DISARMED, "a5": "W", "b5": "W", "c5": "W"}
    assert QueenBoard.from_pieces(more, turn=1).could_win(0), "more units win after the turn limit"
    stuck = {cell: piece for cell, piece in DISARMED.items() if piece != "d"}
    assert QueenBoard.from_pieces(stuck, turn=1).could_win(0), "North's Workers may be hemmed in"


@pytest.fixture()
def now() -> FakeTime:
    return FakeTime()


@pytest.fixture()
def service(now: FakeTime) -> Iterator[GameService]:
    store = open_store(":memory:", "test-process")
    yield GameService(store, now=now)
    store.close()


async def online(service: GameService, tc: object) -> tuple[Session, str, str]:
    session, game = await service.create({"mode": "online", "kind": "hivequeen", "time_control": tc})
    assert game.invite is not None
    return session, game.token, game.invite


async def test_the_clock_draws_when_the_opponent_could_not_have_won(service: GameService, now: FakeTime) -> None:
    session, south, north = await online(service, {"initial": 3})
    await act(service, session.record.id, "move", south, {"move": "Wc3-c4"})
    # the position the game stands in, as if reached by its moves: North to move, unable to win
    session.board = QueenBoard.from_pieces(DISARMED, turn=1)
    now.t += 5
    with pytest.raises(Conflict, match="The game is over"):
        await act(service, session.record.id, "move", north, {"move": "Wg7-g6"})
    state = service.state(session)
    assert state["result"] == "Draw"
    assert state["reason"] == f"{session.sides[1]} ran out of time, and {session.sides[0]} could not have won"
    stored = await service.store.games.load(session.record.id)
    assert stored is not None and stored.result == "Draw"


async def test_the_clock_still_gives_the_win_when_the_opponent_could_win(service: GameService, now: FakeTime) -> None:
    session, south, _ = await online(service, {"initial": 3})
    await act(service, session.record.id, "move", south, {"move": "Wc3-c4"})
    now.t += 5
    assert await service.check_clock(session.record.id)
    assert service.state(session)["result"] == "SouthWins"
