"""hive.rl's action encodings against the legal moves of real positions (Mzinga's lists for Hive, a real record,
random positions) and the observation planes of known positions."""

from __future__ import annotations

from typing import cast

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")


import hive  # noqa: E402
import hive.rl  # noqa: E402
from hive.games.hive import encoding as hive_actions  # noqa: E402
from hive.games.hivequeen import encoding as queen_actions  # noqa: E402
from hive.games.hivequeen.geometry import MIRROR  # noqa: E402

from ..shared import TESTDATA, mzinga_rows  # noqa: E402
from .rl_support import check_round_trip, random_positions, record_moves, texts  # noqa: E402

GAMES = ["Base", "Base+MLP", "HiveQueen"]

MZINGA_FINAL = "Board_ValidMovesFromRealGames2018Final.csv"


@pytest.mark.parametrize(
    ("game_string", "listed"),
    [pytest.param(gs, moves, id=f"line{n}") for _, n, (gs, moves) in mzinga_rows(MZINGA_FINAL)],
)
def test_hive_actions_of_the_2018_final(game_string: str, listed: str) -> None:
    board = hive.Board.from_game_string(game_string)
    legal = {board.parse_move(text) for text in listed.split(";") if text.strip()}
    env = hive.rl.env(board.game_name, opening=game_string.split(";")[3:])
    env.reset()
    assert cast(hive.Board, env.board).game_string() == board.game_string()
    check_round_trip(env.encoding, sorted(legal, key=lambda move: move.code))


@pytest.mark.parametrize("name", ["midgame_base.txt", "midgame_mlp.txt", "midgame2_mlp.txt"])
def test_hive_actions_of_the_midgame_positions(name: str) -> None:
    game_string = (TESTDATA / "positions" / name).read_text(encoding="utf-8").strip()
    board = hive.Board.from_game_string(game_string)
    env = hive.rl.env(board.game_name, opening=game_string.split(";")[3:])
    env.reset()
    check_round_trip(env.encoding, list(board.legal_moves))


def test_hive_pass_is_its_own_action() -> None:
    moves = record_moves()
    env = hive.rl.env("Base+MLP", opening=moves[:86])
    env.reset()
    assert list(env.board.legal_moves) == [hive.Move.PASS]
    check_round_trip(env.encoding, [hive.Move.PASS])
    assert env.encoding.encode(hive.Move.PASS) == [hive_actions.PASS_ACTION]


def test_hive_actions_follow_the_hive_across_the_grid_edge() -> None:
    """A hive that crosses the wrapping grid's edge is still whole in the window, and its moves still decode."""
    for board in random_positions("Base+MLP", 40, seed=11):
        env = hive.rl.env("Base+MLP", opening=board.move_texts())
        env.reset()
        check_round_trip(env.encoding, list(board.legal_moves))
        planes = env.observe("player_0")["observation"]
        rows, cols = np.nonzero(planes[hive_actions.HEIGHT])
        assert len(rows) == len({cell for cell in cast(hive.Board, env.board).pos if cell >= 0})
        assert rows.min() >= 1 and rows.max() <= 30 and cols.min() >= 1 and cols.max() <= 30


# ----------------------------------------------------------------------------------------------------------------
# HiveQueen's steps against the library's legal turns


@pytest.mark.parametrize("seed", range(4))
def test_hivequeen_turns_round_trip(seed: int) -> None:
    """Each legal turn is a distinct sequence of actions, each step in the mask when it comes, and playing it
    pushes that very turn."""
    board = random_positions("HiveQueen", 1, seed)[0]
    turns = list(board.legal_moves)[:400]
    env = hive.rl.env("HiveQueen", opening=board.move_texts())
    env.reset()
    encoding = env.encoding
    movements = {encoding.encode(turn)[0] for turn in board.legal_moves}
    assert set(np.flatnonzero(encoding.mask()).tolist()) == movements
    sequences = [tuple(encoding.encode(turn)) for turn in turns]
    assert len(set(sequences)) == len(turns)
    for turn, actions in zip(turns, sequences, strict=True):
        play = hive.rl.env("HiveQueen", opening=board.move_texts())
        play.reset()
        for action in actions:
            assert play.encoding.mask()[action] == 1
            play.step(action)
        assert play.board.move_stack[-1] == turn


def test_hivequeen_frames_mirror_for_north() -> None:
    """The start is the same for either side seen from its own end: North to move there has South's actions and
    planes (the field mirrored through e5), all but the plane of who plays first."""
    from hive.games.hivequeen import NAMES, Board
    from hive.games.hivequeen.rules import LETTERS

    start = Board()
    pieces = {}
    for cell, name in enumerate(NAMES):
        piece = start.piece_at(cell)
        if piece is not None:
            letter = LETTERS[piece[1]]
            pieces[name] = letter.lower() if piece[0] else letter
    north_first = Board.from_pieces(pieces, turn=1)
    south = queen_actions.HiveQueenEncoding(start)
    north = queen_actions.HiveQueenEncoding(north_first)
    assert (south.mask() == north.mask()).all() and south.mask().sum() == len(start.legal_movements)
    same = [plane for plane in range(queen_actions.PLANES) if plane != queen_actions.FIRST]
    assert (south.planes(0)[same] == north.planes(1)[same]).all()
    for action in np.flatnonzero(south.mask()).tolist():
        after_south, after_north = start.copy(), north_first.copy()
        after_south.push(south.decode(action))
        after_north.push(north.decode(action))
        for cell in range(len(NAMES)):
            piece = after_north.piece_at(MIRROR[cell])
            assert after_south.piece_at(cell) == (None if piece is None else (1 - piece[0], piece[1]))


# ----------------------------------------------------------------------------------------------------------------
# planes of known positions


def test_hive_planes_of_a_known_position() -> None:
    """White's Beetle has climbed on its Queen: q runs -1..3 on row r = 0, so the window's first column is q = -15
    and row r = 0 is window row 16."""
    env = hive.rl.env("Base", opening=["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wB1 -wQ", "bB1 bQ-", "wB1 wQ"])
    env.reset()
    assert cast(hive_actions.HiveEncoding, env.encoding).origin() == (-15 % 32, -16 % 32)
    black = env.observe("player_1")["observation"]
    white = env.observe("player_0")["observation"]
    expected_black = {
        0: {(16, 17): 1},  # own Queen (bQ at q = 2)
        1: {(16, 16): 1},  # own S1 (q = 1)
        3: {(16, 18): 1},  # own B1 (q = 3)
        14: {(16, 14): 1},  # White's Queen under its Beetle (q = -1)
        15: {(16, 15): 1},  # White's S1 (q = 0)
        17: {(16, 14): 2},  # White's B1, one level up
        28: {(16, 14): 2, (16, 15): 1, (16, 16): 1, (16, 17): 1, (16, 18): 1},  # stack heights
        29: {(16, 14): 1},  # the piece moved last
    }
    for plane in range(hive_actions.HAND_OWN):
        cells = {(int(r), int(c)): int(black[plane, r, c]) for r, c in np.argwhere(black[plane])}
        assert cells == expected_black.get(plane, {}), hive_actions.PLANE_NAMES[plane]
    hand = [int(black[plane, 0, 0]) for plane in range(hive_actions.HAND_OWN, hive_actions.TO_ACT)]
    # Q S B G A M L P, own then White's: in Base the expansion bugs are never in hand
    assert hand == [0, 1, 1, 3, 3, 0, 0, 0] * 2
    assert black[hive_actions.TO_ACT].all() and not black[hive_actions.FIRST].any()
    assert not white[hive_actions.TO_ACT].any() and white[hive_actions.FIRST].all()
    assert (white[14] == black[0]).all() and (white[3] == black[17]).all()  # the same pieces, seen from White
    for planes in (black, white):
        assert all(planes[p].min() == planes[p].max() for p in range(hive_actions.HAND_OWN, hive_actions.PLANES))


def test_hivequeen_planes_of_the_start() -> None:
    env = hive.rl.env("HiveQueen")
    env.reset()
    for seat, agent in enumerate(hive.rl.AGENTS):
        planes = env.observe(agent)["observation"]
        # each side's Queen is on its own back row, in the middle: (q, r) = (-2, 4) in its own frame
        assert np.argwhere(planes[queen_actions.OWN]).tolist() == [[8, 2]]
        assert np.argwhere(planes[queen_actions.OPPONENT]).tolist() == [[0, 6]]
        assert planes[queen_actions.OWN : queen_actions.FIELD].sum() == 30  # 15 pieces a side
        assert planes[queen_actions.FIELD].sum() == 61
        assert planes[queen_actions.UNITS_OWN].min() == planes[queen_actions.UNITS_OPPONENT].max() == 24
        assert planes[queen_actions.CAPACITY_OWN].min() == 25  # five Workers
        assert planes[queen_actions.QUIET].min() == 255  # 300 turns left, as high as a byte goes
        assert planes[queen_actions.TO_ACT].all() == (seat == 0)
        assert planes[queen_actions.FIRST].all() == (seat == 0)
        assert not planes[queen_actions.PRODUCING].any() and not planes[queen_actions.FRESH].any()


def test_hivequeen_planes_mid_turn() -> None:
    """After South's movement, South produces: the planes show the movement and the production phase."""
    env = hive.rl.env("HiveQueen")
    env.reset()
    turn = env.board.parse_move("Wc3-c4;+Sd4")
    actions = env.encoding.encode(turn)
    env.step(actions[0])
    assert env.agent_selection == "player_0"
    planes = env.observe("player_0")["observation"]
    assert planes[queen_actions.PRODUCING].all()
    mask = env.observe("player_0")["action_mask"]
    assert mask[queen_actions.END_ACTION] == 1 and not mask[: queen_actions.PRODUCTIONS].any()
    env.step(actions[1])
    assert env.agent_selection == "player_1" and texts(env.board) == ["Wc3-c4;+Sd4"]


# ----------------------------------------------------------------------------------------------------------------
# rewards, truncation, illegal actions, seeding, pictures, options
