"""The browser game's rough edges, each against the rule or message it should give: quoted texts without Python's
repr, far-off cells that no longer alias through the grid, "not next to the hive", one Undo per click against the
AI, a forced pass explained, imports whose header contradicts their moves or that are bare move lists, and the
Warm/Cool edition's names for the sides."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hive.games.hive import Board as HiveBoard
from hive.games.hive.reasons import AWAY_FROM_HIVE, PLACE_AWAY
from hive.records import read_string
from hive.web.play.actions import act
from hive.web.play.service import GameService
from hive.web.play.session import Session
from hive.web.shared.errors import BadRequest, Conflict, shown
from hive.web.shared.model import AIJob
from hive.web.storage import open_store

from ...positions import PASS_ONLY
from ...shared import TESTDATA

RECORDS = TESTDATA / "records"

BASE = {"game_type": "Base", "tournament_opening": False}
pytestmark = pytest.mark.anyio


@pytest.fixture()
def service() -> Iterator[GameService]:
    store = open_store(":memory:", "test-process")
    yield GameService(store)
    store.close()


async def local(service: GameService, moves: tuple[str, ...] = (), **body: Any) -> tuple[Session, str]:
    session, created = await service.create({"mode": "local", "options": BASE, **body})
    for move in moves:
        await act(service, session.record.id, "move", created.token, {"move": move})
    return session, created.token


async def refusal(service: GameService, session: Session, token: str, action: str, **body: Any) -> str:
    with pytest.raises(BadRequest) as err:
        await act(service, session.record.id, action, token, body)
    return str(err.value)


@pytest.mark.parametrize(
    ("move", "expected"),
    [
        ("bB1 \\wQ x", "Invalid MoveString 'bB1 \\wQ x': expected 'piece', 'piece reference' or 'pass'."),
        ("bB1\n\\wQ\nx", "Invalid MoveString 'bB1 \\wQ x': expected 'piece', 'piece reference' or 'pass'."),
        ("bZ9 wS1-", "Invalid MoveString 'bZ9 wS1-': unknown piece 'bZ9'."),
    ],
)
async def test_messages_quote_the_text_as_written_not_as_python_repr(
    service: GameService, move: str, expected: str
) -> None:
    session, token = await local(service, ("wS1",))
    assert await refusal(service, session, token, "move", move=move) == expected


def test_a_request_value_is_quoted_as_json_and_cut_short() -> None:
    assert shown({"a": [1, None]}) == '{"a": [1, null]}' and shown(True) == "true"
    assert shown("x" * 100) == "'" + "x" * 58 + "…" and len(shown("x" * 100)) == 60


@pytest.mark.parametrize("to", [[33, 0], [1, 32], [-31, 0], [2, 0]])
async def test_a_far_off_cell_is_refused_not_wrapped_round_the_grid(service: GameService, to: list[int]) -> None:
    session, token = await local(service, ("wS1",))
    assert "next to White's first piece" in await refusal(service, session, token, "move", piece="bS1", to=to)
    assert session.record.moves == ["wS1"]


async def test_a_piece_sent_far_from_the_hive_is_told_it_is_not_next_to_the_hive(service: GameService) -> None:
    session, token = await local(service, ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ", "bA1 bQ-"))
    for to in ([9, 0], [-20, 3], [40, 0]):
        assert await refusal(service, session, token, "move", piece="wA1", to=to) == AWAY_FROM_HIVE
    assert await refusal(service, session, token, "move", piece="wB1", to=[9, 9]) == PLACE_AWAY
    placed = await refusal(service, session, token, "move", piece="wB1", to=[4, 0])
    assert placed.startswith("You can't place a piece there")
    assert session.record.moves[-1] == "bA1 bQ-"


async def test_quick_undo_clicks_against_the_ai_take_back_one_turn_each(service: GameService) -> None:
    session, created = await service.create({"mode": "ai", "ai_level": "random", "colour": "white", "options": BASE})
    token, game_id = created.token, session.record.id
    for move in ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"):  # the AI's moves played as if it had chosen them
        played = len(session.record.moves)
        if session.board.turn == 0:
            await act(service, game_id, "move", token, {"move": move, "ply": played})
        else:
            assert await service.play_ai(AIJob(game_id, played, "test", 1), move)
    seen = len(session.record.moves)
    await act(service, game_id, "undo", token, {"ply": seen})
    for _ in range(2):  # the same page's next clicks, sent before it saw the first one's answer
        with pytest.raises(Conflict, match=r"The game has moved on: 2 moves played, not 4\."):
            await act(service, game_id, "undo", token, {"ply": seen})
    assert session.record.moves == ["wS1", "bS1 wS1-"] and session.record.redo == ["wQ -wS1", "bQ bS1-"]


async def test_a_forced_pass_is_explained_to_both_sides(service: GameService) -> None:
    session, created = await service.create({"mode": "local", "game_string": PASS_ONLY})
    state = service.state(session, frozenset({0, 1}))
    assert state["view"]["pass"] and state["note"] == (
        "Black has no legal move: no piece can be placed or moved, so Black must pass."
    )
    await act(service, session.record.id, "move", created.token, {"move": "pass"})
    assert service.state(session)["note"] == "Black had no legal move and passed."


@pytest.mark.parametrize(
    ("record", "error"),
    [
        (
            "Base;WhiteWins;White[1]",
            "Invalid GameString: it says the game is WhiteWins, but its moves leave it NotStarted",
        ),
        (
            "Base;InProgress;Black[3];wS1;bS1 wS1-",
            "Invalid GameString: it says Black[3], but after its 2 moves it is White[2]",
        ),
        ("Base;NotStarted;White[1];wS1", "says the game is NotStarted, but its moves leave it InProgress"),
        ("wS1;bQ", "Move 2 'bQ': Invalid MoveString 'bQ': only the game's first piece"),
        ("hello world", "Not a GameString, a list of moves or a PGN or SGF record: it starts with 'hello world'"),
        ("   \n ", "'game_string' must be"),
    ],
)
async def test_an_import_must_agree_with_its_moves(service: GameService, record: str, error: str) -> None:
    with pytest.raises(BadRequest, match=error.replace("[", r"\[").replace("]", r"\]")):
        await service.create({"mode": "local", "game_string": record})


@pytest.mark.parametrize(
    ("text", "game_type", "moves"),
    [
        ("wS1;bS1 wS1-", "Base", ["wS1", "bS1 wS1-"]),
        ("wS1\nbM wS1-\nwQ -wS1\n", "Base+M", ["wS1", "bM wS1-", "wQ -wS1"]),
        ("wL;bP wL-", "Base+LP", ["wL", "bP wL-"]),
    ],
)
async def test_a_bare_move_list_imports_with_the_expansions_it_uses(
    service: GameService, text: str, game_type: str, moves: list[str]
) -> None:
    session, _ = await service.create({"mode": "local", "game_string": text, "options": {"game_type": "Base"}})
    assert session.record.options["game_type"] == game_type and session.record.moves == moves
    expected = HiveBoard(game_type)
    for move in moves:
        expected.push_text(move)
    assert session.board.record() == expected.record()


@pytest.mark.parametrize(
    ("name", "length", "result"),
    [
        ("HV-Dumbot-Kaur50-2023-01-17-0059.sgf", 88, "BlackWins"),  # Boardspace
        ("HV-Dumbot-Kaur50-2023-01-17-0059.pgn", 88, "BlackWins"),  # Mzinga's PGN of the same game
        ("hivegame_valid_plm_draw.pgn", 49, "Draw"),  # hivegame.com
    ],
)
async def test_records_from_other_sites_paste_into_import(
    service: GameService, name: str, length: int, result: str
) -> None:
    text = (RECORDS / name).read_text(encoding="utf-8", errors="replace")
    session, _ = await service.create({"mode": "local", "game_string": text})
    outcome = session.board.outcome()
    assert len(session.record.moves) == length and outcome is not None and outcome.result == result
    assert session.board.move_stack == read_string(text, name.rpartition(".")[2])[0].board.move_stack


async def test_a_pasted_record_from_another_site_names_its_fault(service: GameService) -> None:
    bad = (RECORDS / "hivegame_invalid_ant_climb.pgn").read_text(encoding="utf-8")
    with pytest.raises(BadRequest, match=r"^PGN record: move 12 'bA1 bP': .*Soldier Ants can't end a move on top"):
        await service.create({"mode": "local", "game_string": bad})
    two = (RECORDS / "hivegame_valid_pass.pgn").read_text(encoding="utf-8") * 2
    with pytest.raises(BadRequest, match=r"^This PGN record holds 2 games: paste one game\.$"):
        await service.create({"mode": "local", "game_string": two})


async def test_the_warm_cool_set_names_its_sides_everywhere_and_either_may_go_first(service: GameService) -> None:
    session, token = await local(service, options={"game_type": "Base", "set": "warm-cool", "first": "cool"})
    state = service.state(session, frozenset({0, 1}))
    assert state["sides"] == ["Cool", "Warm"] and state["options"]["first"] == "cool"
    await act(service, session.record.id, "resign", token, {})
    state = service.state(session)
    assert state["reason"] == "Cool resigned" and state["winner"] == 1 and state["result"] == "BlackWins"
    with pytest.raises(BadRequest, match="Option 'first' is for the Warm/Cool set"):
        await service.create({"mode": "local", "options": {"first": "warm"}})
    with pytest.raises(BadRequest, match="Option 'set' must be one of classic, warm-cool, not 'plastic'"):
        await service.create({"mode": "local", "options": {"set": "plastic"}})
