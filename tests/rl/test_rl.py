"""hive.rl: PettingZoo's and Gymnasium's own checks, rewards, truncation, seeding, pictures, the calls it refuses, and
every position of random games round-tripping its encoding (the encodings themselves: ``test_encodings.py``)."""

from __future__ import annotations

import doctest
import random
import re
import subprocess
import sys
import warnings
from typing import Any, cast

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]  # noqa: E402

import hive  # noqa: E402
import hive.rl  # noqa: E402
from hive.game import UnknownGameError  # noqa: E402
from hive.games.hive import encoding as hive_actions  # noqa: E402
from hive.games.hivequeen import encoding as queen_actions  # noqa: E402
from hive.players import InvalidPlayerError  # noqa: E402

from .rl_support import check_round_trip, record_moves, texts  # noqa: E402

GAMES = ["Base", "Base+MLP", "HiveQueen"]
# what api_test says of every environment whose observations are dicts of planes and masks
EXPECTED_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Action mask numpy array is all zeros (no legal actions).",
    "hive.rl ignores the reset options 'options'",  # api_test's own made-up option
}


def play_random(env: hive.rl.HiveEnv, seed: int) -> None:
    """One random game through ``env`` to its end."""
    rng = random.Random(seed)
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


# ----------------------------------------------------------------------------------------------------------------
# the extra


def test_import_hive_loads_none_of_the_rl_packages() -> None:
    code = "import sys, hive; print(sorted(m for m in ('numpy', 'pettingzoo', 'gymnasium') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]"


def test_hive_rl_without_the_extra_names_the_install_command() -> None:
    code = "import sys; sys.modules['pettingzoo'] = None; import hive.rl"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: hive.rl needs the optional packages")
    assert "pettingzoo is not installed" in last and "pip install hive-game[rl]" in last


def test_the_module_example_runs() -> None:
    result = doctest.testmod(hive.rl, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0


# ----------------------------------------------------------------------------------------------------------------
# PettingZoo's and Gymnasium's checks


@pytest.mark.parametrize("game", list(hive.GAMES))
def test_pettingzoo_api_test(game: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(hive.rl.env(game), num_cycles=300)
    assert {str(w.message) for w in caught} <= EXPECTED_WARNINGS


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_seed_test(game: str) -> None:
    seed_test(lambda: hive.rl.env(game, random_opening=4), num_cycles=100)


@pytest.mark.parametrize(("game", "side"), [("Base+MLP", 0), ("HiveQueen", None)])
def test_gymnasium_check_env(game: str, side: int | None) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(hive.rl.GYM_ID, game=game, opponent="random", side=side).unwrapped)


# ----------------------------------------------------------------------------------------------------------------
# Hive's actions against Mzinga's legal-move lists


def test_rewards_on_the_outcome_of_a_real_game() -> None:
    moves = record_moves()
    env = hive.rl.env("Base+MLP", opening=moves[:-1])
    env.reset()
    env.step(env.encoding.encode(env.board.parse_move(moves[-1]))[0])
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert env.infos["player_0"]["outcome"].result == "BlackWins"
    observation, reward, terminated, _, _ = env.last()
    assert env.agent_selection == "player_0" and reward == -1.0 and terminated
    assert not observation["action_mask"].any()


@pytest.mark.parametrize("game", GAMES)
def test_truncation_at_the_move_cap(game: str) -> None:
    env = hive.rl.env(game, max_moves=6)
    env.reset(seed=3)
    play_random(env, 3)
    assert env.board.is_game_over() or len(env.board.move_stack) == 6
    env.reset()
    steps = 0
    rng = random.Random(5)
    while not env.truncations[env.agent_selection]:
        env.step(rng.choice(np.flatnonzero(env.encoding.mask()).tolist()))
        steps += 1
    assert env.moves == 6 and steps >= 6
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env.infos["player_1"]["outcome"] == env.board.adjudicate()


def test_an_illegal_action_loses_or_raises() -> None:
    env = hive.rl.env("Base+MLP")
    env.reset()
    queen_first = 0 * hive_actions.AREA + 16 * 32 + 16  # White's Queen to window cell (16, 16): not on turn 1
    env.step(queen_first)
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert "Queen" in env.infos["player_0"]["illegal_action"]
    strict = hive.rl.env("Base+MLP", illegal_reward=None)
    strict.reset()
    with pytest.raises(hive.rl.IllegalActionError, match=r"Action 528 \(wQ to window cell \(16, 16\)\) is illegal"):
        strict.step(queen_first)
    for bad in (-1, hive_actions.ACTIONS, 2.5, "wS1"):
        with pytest.raises(hive.rl.IllegalActionError, match="is not an action: expected an int from 0 to 28672"):
            strict.step(bad)  # type: ignore[arg-type]
    assert strict.board.move_stack == []
    queen = hive.rl.env("HiveQueen", illegal_reward=None)
    queen.reset()
    with pytest.raises(hive.rl.IllegalActionError, match="Action 7686 is a production or END, but a turn starts"):
        queen.step(queen_actions.END_ACTION)
    with pytest.raises(hive.rl.IllegalActionError, match=r"\(e9-e9\) is illegal: The Worker on e9 belongs to North"):
        queen.step(0)


def test_random_openings_follow_the_seed() -> None:
    env = hive.rl.env("Base+MLP", random_opening=6)
    played = []
    for seed in (1, 1, 2):
        env.reset(seed=seed)
        played.append(texts(env.board))
    assert played[0] == played[1] != played[2] and len(played[0]) == 6


@pytest.mark.parametrize("game", GAMES)
def test_render_svg_and_rgb(game: str) -> None:
    svg_env = hive.rl.env(game, render_mode="svg", random_opening=3)
    svg_env.reset(seed=1)
    picture = svg_env.render()
    assert isinstance(picture, str) and picture.lstrip().startswith("<svg") and picture.rstrip().endswith("</svg>")
    rgb_env = hive.rl.env(game, render_mode="rgb_array", render_size=200, random_opening=3)
    rgb_env.reset(seed=1)
    pixels = rgb_env.render()
    assert isinstance(pixels, np.ndarray) and pixels.shape == (200, 200, 3) and pixels.dtype == np.uint8
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) >= 4  # background, cells or tiles, edges, letters


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: hive.rl.env("Chess"), UnknownGameError, "Unknown game 'Chess'"),
        (lambda: hive.rl.env("Base", queen_rule=True), UnknownGameError, "has no rule option queen_rule"),
        (lambda: hive.rl.env("Base", render_mode="human"), hive.rl.InvalidOptionError, "render_mode 'human'"),
        (lambda: hive.rl.env("Base", max_moves=0), hive.rl.InvalidOptionError, "max_moves must be an int >= 1"),
        (lambda: hive.rl.env("Base", opening=["wS1", "wQ"]), hive.rl.InvalidOptionError, "opening move 2 'wQ'"),
        (lambda: hive.rl.env("Base", opening="wS1"), hive.rl.InvalidOptionError, "sequence of move texts"),
        (lambda: hive.rl.gym_env("HiveQueen", opponent="uhp:x"), InvalidPlayerError, "UHP engines play Hive only"),
        (lambda: hive.rl.gym_env("Base", opponent="godlike"), InvalidPlayerError, "bad player 'godlike'"),
        (lambda: hive.rl.gym_env("Base", side="South"), hive.rl.InvalidOptionError, "side must be 0, 1, 'White'"),
    ],
)
def test_bad_options_are_named(make: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=re.escape(message)):
        make()


def test_calls_out_of_order_are_refused() -> None:
    with pytest.raises(hive.rl.ResetNeededError, match=r"call reset\(\) first"):
        hive.rl.env("Base").step(0)
    with pytest.raises(hive.rl.ResetNeededError, match=r"call reset\(\) first"):
        hive.rl.gym_env("Base").step(0)
    env = hive.rl.env("Base")
    env.reset()
    with pytest.raises(hive.rl.InvalidOptionError, match="'white' is not an agent: expected player_0 or player_1"):
        env.observe("white")
    single = hive.rl.gym_env("Base+MLP", max_moves=1)
    single.reset()
    _, reward, terminated, truncated, info = single.step(int(single.action_masks().argmax()))
    assert (reward, terminated, truncated) == (0.0, False, True) and info["outcome"].result == "Draw"
    with pytest.raises(hive.rl.ResetNeededError, match=r"the game is over: call reset\(\)"):
        single.step(0)


# ----------------------------------------------------------------------------------------------------------------
# the single-agent wrapper


def test_gym_env_plays_second_against_a_level() -> None:
    single = hive.rl.gym_env("Base+MLP", opponent="easy", side="black")
    observation, info = single.reset(seed=2)
    assert info["side"] == "Black" and single.seat == 1 and len(single.aec.board.move_stack) == 1
    assert observation["observation"][hive_actions.TO_ACT].all()
    assert single.action_masks().sum() == len(single.aec.board.legal_moves)


def test_gym_env_reward_when_the_agent_wins() -> None:
    moves = record_moves()
    single = hive.rl.gym_env("Base+MLP", opponent="random", side=1, opening=moves[:-2])
    single.reset(seed=0)
    assert texts(single.aec.board)[-1] == moves[-2] == "pass"  # White's only move
    action = single.aec.encoding.encode(single.aec.board.parse_move(moves[-1]))[0]
    _, reward, terminated, truncated, info = single.step(action)
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["outcome"].result == "BlackWins"


@pytest.mark.slow
@pytest.mark.parametrize("game", [pytest.param("Base+MLP", marks=pytest.mark.sample), "Base+P", "HiveQueen"])
def test_every_position_of_random_games_round_trips(game: str) -> None:
    """Through 20 random games, each position's mask holds exactly the first actions of its legal moves (for
    HiveQueen, of its movements), every Hive move decodes back; and PettingZoo's api_test passes at full length."""
    env = hive.rl.env(game)
    rng = random.Random(8)
    for _ in range(20):
        env.reset()
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            encoding, board = env.encoding, cast(Any, env.board)
            if getattr(encoding, "turn_so_far", None) is None:  # a move starts here
                if isinstance(board, hive.Board):
                    check_round_trip(encoding, list(board.legal_moves))
                else:
                    first = {encoding.encode(turn)[0] for turn in board.legal_movements}
                    assert set(np.flatnonzero(encoding.mask()).tolist()) == first
            env.step(rng.choice(np.flatnonzero(encoding.mask()).tolist()))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(hive.rl.env(game), num_cycles=1000)
    assert {str(w.message) for w in caught} <= EXPECTED_WARNINGS
