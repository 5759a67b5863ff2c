"""The arena on Ray (``hive match --ray``): the same games as the process pool, streamed back, a killed worker's game
played again and counted once, an SPRT that stops the match, clear errors."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hive.arena import GameRecord, MatchPlan, MatchResult, Sprt, run_match
from hive.arena.cluster import ClusterError, RayRunner, check_address, init_options
from hive.arena.tasks import Settings, match_tasks, play_task
from hive.cli.match import main
from hive.games import find_game
from hive.players import parse_player

ray = pytest.importorskip("ray")

FAKE = shlex.join([sys.executable, str(Path(__file__).parent.parent / "fake_uhp_engine.py")])
# a slow, deterministic player: 40-ply games last a second, long enough to kill their worker mid-game
SLOW = f"uhp:{FAKE} --delay 0.05"


def per_game(lines: list[str]) -> list[str]:
    """The lines of the games, in game order, without the running score (it depends on the finishing order)."""
    games = [line.split(" | ")[0] for line in lines if line.startswith("Game ")]
    return sorted(games, key=lambda line: int(line.split()[1].split("/")[0]))


def test_the_command_on_a_local_cluster_plays_the_same_games() -> None:
    command = [sys.executable, "-m", "hive", "match", "easy", "random", "-n", "40", "--seed", "5"]
    pooled = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    on_ray = subprocess.run([*command, "--ray"], capture_output=True, text=True, timeout=300, check=True)
    assert on_ray.stderr == "", "Ray's logs stay out of the terminal"
    lines, expected = on_ray.stdout.splitlines(), pooled.stdout.splitlines()
    assert lines[0].endswith("seed 5, on a local Ray cluster of 2 CPUs")
    assert len(per_game(lines)) == 40 and per_game(lines) == per_game(expected)
    assert lines[-2:] == expected[-2:], "the same W/D/L, score and Elo difference"


def test_addresses_that_cannot_work_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    for address, message in (
        ("nowhere", "bad Ray address 'nowhere': expected HOST:PORT, ray://HOST:PORT or auto"),
        ("127.0.0.1:1", "cannot reach the Ray cluster at '127.0.0.1:1': Connection refused"),
    ):
        assert main(["easy", "random", "--ray", address]) == 2
        captured = capsys.readouterr()
        assert captured.err == f"hive match: {message}\n" and captured.out == ""
    with pytest.raises(ClusterError, match=r"cannot reach the Ray cluster at 'ray://127\.0\.0\.1:1'"):
        check_address("ray://127.0.0.1:1")


@pytest.fixture(scope="module")
def session() -> Iterator[None]:
    """One local Ray session for the tests below (each match uses it as it is)."""
    ray.init(**init_options(None, 2))
    yield
    ray.shutdown()


def records(result: MatchResult) -> list[tuple[int, str, int, str]]:
    return [(g.number, g.result, g.moves, g.record) for g in result.games]


def test_games_are_streamed_back_and_equal_the_pool_s(session: None) -> None:
    order: list[int] = []
    on_ray = run_match(
        "easy",
        "random",
        MatchPlan(games=12, game="Base", seed=9, ray=True),
        on_game=lambda g, m: order.append(g.number),
    )
    pooled = run_match("easy", "random", MatchPlan(games=12, game="Base", seed=9, jobs=2))
    assert sorted(order) == list(range(1, 13)) and records(on_ray) == records(pooled)
    assert on_ray.summary() == pooled.summary()


def descendants_running_games() -> dict[int, str]:
    """This process's descendants now playing a game on Ray, by pid: their titles are ``ray::hive game N``."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
            pid = int(entry.name)
            ancestor = pid
            while ancestor > 1 and ancestor != os.getpid():
                ancestor = int((Path("/proc") / str(ancestor) / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ancestor == os.getpid() and re.fullmatch(r"ray::hive game \d+", title):
            found[pid] = title
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds Ray's workers through /proc")
def test_a_killed_worker_s_game_is_played_again_and_counted_once(session: None) -> None:
    killed: list[str] = []
    seen: list[int] = []

    def kill_one(record: GameRecord, match: MatchResult) -> None:
        seen.append(record.number)
        deadline = time.monotonic() + 30
        while not killed and time.monotonic() < deadline:
            for pid, title in descendants_running_games().items():
                os.kill(pid, signal.SIGKILL)
                killed.append(title)
                break
            time.sleep(0.01)

    result = run_match(
        SLOW, "random", MatchPlan(games=6, game="Base", depth=1, max_moves=40, seed=2, ray=True), on_game=kill_one
    )
    assert killed, "a worker was killed while it played"
    assert sorted(seen) == [g.number for g in result.games] == list(range(1, 7)), "every game counted once"
    assert result.wins + result.draws + result.losses == 6
    # the game played again is the game it would have been: each depends only on its number and the seed
    victim = int(killed[0].rsplit(" ", 1)[1])
    spec = find_game("Base")
    settings = Settings("Base", 40, None, 1, 60.0)
    players = [parse_player(SLOW), parse_player("random")]
    tasks = match_tasks(spec, players, ["FakeEngine", "random"], settings, games=6, openings=2, seed=2)
    again = play_task(next(task for task in tasks if task.number == victim))
    assert result.games[victim - 1].record == again.record


def test_an_sprt_stops_a_match_on_ray_as_in_the_pool(session: None) -> None:
    test = Sprt(0, 200)
    on_ray = run_match("easy", "random", MatchPlan(games=400, game="Base", seed=8, ray=True), sprt=test)
    pooled = run_match("easy", "random", MatchPlan(games=400, game="Base", seed=8, jobs=2), sprt=test)
    assert on_ray.sprt is not None and on_ray.sprt.verdict == "H1" and on_ray.sprt == pooled.sprt
    assert records(on_ray) == records(pooled) and len(on_ray.games) < 40


def test_a_session_already_open_is_left_open(session: None) -> None:
    runner = RayRunner(None, 2)
    assert runner.slots == 4
    runner.close()
    assert ray.is_initialized()


def test_a_tournament_on_ray_plays_the_games_of_the_pool(session: None) -> None:
    """``hive tournament --ray``: the same games, crosstable and all, as in this process."""
    from hive.arena.tournament import run_tournament

    def play(ray: bool) -> list[tuple[str, str, str]]:
        players = ["random", "easy", "medium"]
        result = run_tournament(
            players, MatchPlan(games=2, game="Base", depth=1, seed=4, ray=ray, jobs=None if ray else 1)
        )
        return [(g.first, g.second, g.record) for g in result.games]

    assert play(True) == play(False)
