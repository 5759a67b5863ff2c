"""A third game, registered from the tests (:mod:`tests.toygame`), runs through the protocol's checks, the arena,
the command line, the browser's state API and the RL environment, with no app edited: the apps learn of it from the
registry alone (its page in a real browser: ``tests/web/play/test_web_third_game.py``)."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from hive.arena import MatchPlan, play_game, run_match
from hive.game import Termination, UnknownGameError
from hive.games import GAMES, PLUGINS, find_game, register
from hive.players import RandomPlayer, SearchPlayer
from hive.search import Limits
from hive.web import create_app
from hive.web.views import kinds, on_page

from .protocol_checks import random_games_keep_the_protocol
from .toygame import FULL, LINE, NAME, NAMES, PLUGIN
from .web_support import client, new_game, play

pytestmark = pytest.mark.usefixtures("toy_game")


def test_the_registry_finds_the_third_game_and_its_endings() -> None:
    assert find_game("hexline") is GAMES[NAME] and list(PLUGINS)[-1] == "toygame"
    assert PLUGINS["toygame"].endings == (LINE, FULL) and PLUGINS["toygame"].compiled == ()
    with pytest.raises(ValueError, match="registered already"):
        register(PLUGIN.__class__(**{**PLUGIN.__dict__, "games": {}}))
    with pytest.raises(UnknownGameError, match="no rule option colour"):
        find_game(NAME)(colour="red")


def test_the_third_game_keeps_the_protocol() -> None:
    random_games_keep_the_protocol(find_game(NAME))


def test_the_arena_plays_the_third_game() -> None:
    spec = find_game(NAME)
    played = play_game(SearchPlayer(spec, Limits(depth=2), "medium", 1), RandomPlayer(spec, 2), game=NAME)
    assert played.outcome.termination in (Termination.RULES, Termination.ADJUDICATION)
    assert played.record.startswith("Hexline;")
    result = run_match("easy", "random", MatchPlan(games=4, game=NAME, jobs=1, seed=3))
    assert result.wins + result.draws + result.losses == 4
    assert {g.outcome.ending for g in result.games} <= {LINE, FULL}


def test_the_command_line_plays_the_third_game() -> None:
    from hive.cli.match import main

    out = io.StringIO()
    with redirect_stdout(out):
        main(["--game", "hexline", "--games", "2", "--jobs", "1", "--seed", "5", "random", "easy"])
    assert "Hexline" in out.getvalue() and "2 games" in out.getvalue()


def test_the_third_game_offers_no_perft_nor_tuning_and_the_apps_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    from hive.cli import main
    from hive.cli.perft import count, start
    from hive.game import CountsPerft
    from hive.tune.capabilities import has_parameters, record_reader, replay_reader
    from hive.tune.positions import PositionsError, recorded_games, self_play

    spec = find_game(NAME)
    board = start(NAME)
    assert not isinstance(board, CountsPerft) and count(board, 2) == 19 * 18
    assert len(start(f"{NAME};0,0;1,0").move_stack) == 2  # its records are one line: read as Hive's GameStrings
    assert start(board.position_text()).position_text() == board.position_text()
    assert main(["perft", NAME, "1"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[:2] == ["1", "19"]
    assert not has_parameters(spec) and record_reader(spec) is None and replay_reader(spec) is None
    for argv in (["tune", "--game", NAME], ["tune", "--texel", "--game", NAME, "--self-play", "2"]):
        assert main(argv) == 2
        assert capsys.readouterr().err == f"hive tune: {NAME}'s AI has no parameters to tune\n"
    with pytest.raises(PositionsError, match=f"{NAME} offers no reader of its records"):
        recorded_games([], spec)
    with pytest.raises(PositionsError, match=f"{NAME} offers no reader of the arena's records"):
        self_play(spec, 2, depth=1, jobs=1)


def test_the_browser_state_api_plays_the_third_game() -> None:
    """The game is played over HTTP against the AI, taken back, imported and set up, like the others; the page offers
    it, by the page module its package brings, while it is registered."""
    assert "toygame" in kinds() and on_page()[-1] == "toygame"
    assert PLUGIN.page_file("toygame.js") is not None and PLUGIN.page_file("hive.js") is None

    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            assets = (await c.get("/api/assets")).json()
            assert [info["kind"] for info in assets["games"]] == ["hive", "hivequeen", "toygame"]
            for name in ("toygame.js", "toygame.css"):
                assert (await c.get(f"/static/games/{name}")).status_code == 200, name
            game = await new_game(c, kind="toygame", mode="ai", ai_level="easy", colour="white")
            token, state = game["token"], game["state"]
            assert state["kind"] == "toygame" and len(state["view"]["legal"]) == 19
            r = await play(c, state, token, move="0,0", ply=0)
            assert r.status_code == 200, r.text
            for _ in range(100):
                state = (await c.get(f"/api/games/{state['id']}", headers={"x-seat-token": token})).json()
                if len(state["moves"]) == 2:
                    break
                await asyncio.sleep(0.05)
            assert state["moves"][0] == "0,0" and len(state["moves"]) == 2, state
            taken = await play(c, state, token, move=state["moves"][1], ply=2)
            assert taken.status_code == 400 and "the cell is taken" in taken.json()["error"]
            bad = await play(c, state, token, move="9,9", ply=2)
            assert bad.status_code == 400 and "'9,9'" in bad.json()["error"]
            why = await c.post(f"/api/games/{state['id']}/why", json={"piece": "x"}, headers={"x-seat-token": token})
            assert why.status_code == 200 and why.json()["reason"] is None
            steps = await c.post(
                f"/api/games/{state['id']}/preview", json={"move": "1,1"}, headers={"x-seat-token": token}
            )
            assert steps.status_code == 400 and "single move" in steps.json()["error"]
            imported = await new_game(c, kind="toygame", mode="local", game_string="Hexline;0,0;1,0;0,1;1,1;0,2")
            assert imported["state"]["result"] and "X has three in a row" in str(imported["state"])
            setup = await new_game(
                c, kind="toygame", mode="local", position="Position;Hexline;O[2];.........x........."
            )
            assert setup["state"]["view"]["turn"] == 1 and len(setup["state"]["view"]["legal"]) == 18
        await app.close()

    asyncio.run(main())


def test_an_installed_package_declares_its_game_by_entry_point(tmp_path: Path) -> None:
    """A package's entry point is all it takes: a fresh ``hive match`` process plays the game, registered nowhere
    else."""
    info = tmp_path / "hexline-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hexline\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[hive.games]\nhexline = tests.toygame:PLUGIN\n")
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(root)])}
    command = [sys.executable, "-m", "hive", "match", "random", "random", "--game", "hexline", "--games", "2"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Hexline" in done.stdout and "2 games" in done.stdout


def test_the_rl_environment_plays_the_third_game() -> None:
    """PettingZoo's and Gymnasium's own checks pass on the toy's encoding; a game ends in the rules' rewards, and the
    pictures draw its stones."""
    pytest.importorskip("pettingzoo")
    import gymnasium
    import numpy as np
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

    import hive.rl

    api_test(hive.rl.env(NAME), num_cycles=100)
    seed_test(lambda: hive.rl.env(NAME, random_opening=2), num_cycles=50)
    check_env(gymnasium.make(hive.rl.GYM_ID, game=NAME, opponent="random", side=0).unwrapped)

    env = hive.rl.env(NAME, render_mode="rgb_array", render_size=120)
    env.reset(seed=1)
    for cell in ["0,0", "1,0", "0,1", "1,1", "0,2"]:  # X: three in a row down the r axis
        observation, *_ = env.last()
        assert observation["observation"].shape == (4, 5, 5)
        env.step(NAMES.index(cell))
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert all(env.terminations.values()) and env.infos["player_0"]["outcome"].ending == LINE
    picture = env.render()
    assert isinstance(picture, np.ndarray)
    assert picture.shape == (120, 120, 3) and len(np.unique(picture.reshape(-1, 3), axis=0)) >= 4
    with pytest.raises(hive.rl.IllegalActionError, match="Action 0: Illegal move -2,0: the game is over"):
        env.encoding.decode(0)

    fresh = hive.rl.env(NAME)
    fresh.reset(seed=2)
    fresh.step(NAMES.index("0,0"))
    with pytest.raises(hive.rl.IllegalActionError, match=r"the cell is taken"):
        fresh.encoding.decode(NAMES.index("0,0"))
    observation, *_ = fresh.last()
    assert observation["observation"][1, 2, 2] == 1 and observation["action_mask"].sum() == 18
