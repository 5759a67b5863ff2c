"""hive.rl's kept arrays: Hive's planes, mask and legal actions written in place by the core
(:mod:`hive.games.hive.tensors`) match a plain reference built from the board at every step of random games,
across resets and the window's moves; ``info["legal_actions"]`` is the mask's actions for every game."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

import hive  # noqa: E402
import hive.rl  # noqa: E402
from hive.games.hive import encoding as hive_actions  # noqa: E402
from hive.games.hive import tensors  # noqa: E402
from hive.games.hive.pieces import BUG_COUNT, KINDS, PIECES  # noqa: E402

SIDE = PIECES // 2


def reference_planes(board: Any, seat: int, q0: int, r0: int) -> Any:
    """The planes as the encoding's module describes them, built one value at a time."""
    out = np.zeros((hive_actions.PLANES, 32, 32), np.uint8)
    for pid in range(PIECES):
        cell = board.pos[pid]
        if cell < 0:
            continue
        row, col = ((cell >> 5) - r0) % 32, ((cell & 31) - q0) % 32
        level, under = 1, board.below[pid]
        while under >= 0:
            level, under = level + 1, board.below[under]
        out[(pid + SIDE * seat) % PIECES, row, col] = level
        out[hive_actions.HEIGHT, row, col] = board.height[cell]
    if board.last >= 0:
        cell = board.pos[board.last]
        out[hive_actions.LAST, ((cell >> 5) - r0) % 32, ((cell & 31) - q0) % 32] = 1
    for i in range(2 * KINDS):
        colour, kind = (i // KINDS + seat) % 2, i % KINDS
        total = BUG_COUNT[kind] if board.game_type.enabled(kind) else 0
        out[hive_actions.HAND_OWN + i] = total - board.placed[colour * KINDS + kind]
    out[hive_actions.TO_ACT] = board.ply % 2 == seat
    out[hive_actions.FIRST] = seat == 0
    return out


def reference_corner(bits: int) -> int:
    """The window's first column (row) for the ``q`` (``r``) values in ``bits``, with Python's int methods."""
    if not bits:
        return -16 % 32
    previous = ((bits << 1) | (bits >> 31)) & 0xFFFFFFFF
    low = (bits & ~previous).bit_length() - 1
    return (low + (bits.bit_count() - 1) // 2 - 16) % 32


@pytest.mark.parametrize("game", ["Base", "Base+MLP"])
def test_kept_planes_mask_and_legal_actions_match_the_reference(game: str) -> None:
    env = hive.rl.env(game, max_moves=120)
    rng = random.Random(5)
    kept: set[int] = set()
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                assert len(info["legal_actions"]) == 0 and not observation["action_mask"].any()
                env.step(None)
                continue
            encoding = cast(hive_actions.HiveEncoding, env.encoding)
            board = encoding.board
            qs = rs = 0
            for cell in board.pos:
                if cell >= 0:
                    qs, rs = qs | 1 << (cell & 31), rs | 1 << (cell >> 5)
            q0, r0 = encoding.origin()
            assert (q0, r0) == (reference_corner(qs), reference_corner(rs))
            seat = hive.rl.AGENTS.index(agent)
            assert (observation["observation"] == reference_planes(board, seat, q0, r0)).all()
            other = env.observe(hive.rl.AGENTS[1 - seat])["observation"]
            assert (other == reference_planes(board, 1 - seat, q0, r0)).all()
            legal = info["legal_actions"]
            assert legal.dtype == np.int64
            assert sorted(legal.tolist()) == np.flatnonzero(observation["action_mask"]).tolist()
            assert sorted(legal.tolist()) == sorted(encoding.encode(move)[0] for move in board.legal_moves)
            kept.update(id(array) for array in (observation["observation"], observation["action_mask"]))
            env.step(int(legal[rng.randrange(len(legal))]))
    # one planes array a seat and one mask a game, rewritten in place at every step
    assert len(kept) <= 3 * 3


@pytest.mark.parametrize("game", [*hive.GAMES])
def test_legal_actions_are_the_masks_for_every_game(game: str) -> None:
    env = hive.rl.env(game, max_moves=30)
    env.reset(seed=1)
    rng = random.Random(1)
    for _ in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = info["legal_actions"]
        assert sorted(legal.tolist()) == np.flatnonzero(observation["action_mask"]).tolist()
        env.step(int(legal[rng.randrange(len(legal))]))


def test_the_returned_arrays_are_rewritten_by_the_next_step() -> None:
    """What the docs say: copy an observation to keep it."""
    env = hive.rl.env("Base+MLP")
    env.reset(seed=0)
    first, _, _, _, info = env.last()
    kept = {name: array.copy() for name, array in first.items()}
    env.step(int(info["legal_actions"][0]))
    env.step(int(env.last()[4]["legal_actions"][0]))
    again = env.observe("player_0")
    assert again["observation"] is first["observation"] and again["action_mask"] is first["action_mask"]
    assert not (kept["observation"] == again["observation"]).all()


def test_a_writer_skips_the_position_it_wrote_last() -> None:
    board: Any = hive.find_game("Base+MLP")()
    board.push_text("wS1")
    writer = tensors.PlaneWriter(np.zeros((hive_actions.PLANES, 32, 32), np.uint8))
    corner = tensors.origin(board)
    writer.write(board, 0, corner)
    writer.array[:] = 7  # a caller writing into the kept array
    writer.write(board, 0, corner)
    assert (writer.array == 7).all()
    board.push_text("bS1 wS1-")
    writer.write(board, 0, tensors.origin(board))
    assert writer.array[hive_actions.TO_ACT].all()


def test_an_illegal_action_is_still_refused() -> None:
    env = hive.rl.env("Base+MLP", illegal_reward=None)
    env.reset(seed=0)
    legal = set(env.last()[4]["legal_actions"].tolist())
    illegal = next(action for action in range(hive_actions.ACTIONS) if action not in legal)
    with pytest.raises(hive.rl.IllegalActionError, match=f"Action {illegal} "):
        env.step(illegal)
    assert cast(Any, env.board).ply == 0
