"""``hive bot``: a UHP engine joins a server as a bot account, accepts a challenge its settings allow, declines one
they do not, and plays a whole rated game on the clock against an account, all through the bot API; an engine that
cannot start keeps it offline with the engine's error, and one that dies in a game (at its first move or in the
middle) has the game resigned at once, saying why in the log and the game's chat."""

from __future__ import annotations

import contextlib
import random
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import hive
from hive.web.shared.settings import Settings

from ...web_support import ROOT, free_port, server_thread, wait_for, wait_until_up

PASSWORD = "correct horse battery"
FAKE = shlex.join([sys.executable, str(ROOT / "tests" / "fake_uhp_engine.py")])


@pytest.fixture
def club(tmp_path: Path) -> Iterator[str]:
    with server_thread(tmp_path / "club.sqlite3", settings=Settings(accounts=True)) as url:
        yield url.rstrip("/")


def account(url: str, name: str) -> tuple[httpx.Client, dict[str, str]]:
    """A browser signed up as ``name``: its client (the cookie kept) and the CSRF header."""
    c = httpx.Client(base_url=url, timeout=30)
    made = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return c, {"x-csrf-token": made.json()["csrf"]}


@contextlib.contextmanager
def running_bot(club: str, token: str, engine: str, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``hive bot`` playing ``engine`` for the account of ``token``, its output in ``log``, once online; stopped
    after the block (SIGTERM, then killed)."""
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "hive", "bot", "--server", club, "--token", token, "--engine", engine],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    try:
        wait_for(lambda: "is online" in log.read_text(), 60, "the bot to start")
        yield process
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@pytest.mark.slow
def test_a_uhp_engine_as_a_bot_accepts_a_challenge_and_plays_a_whole_game_on_the_clock(
    club: str, tmp_path: Path
) -> None:
    bot, bot_csrf = account(club, "botty")
    assert bot.post("/api/account/bot", headers=bot_csrf).json() == {"name": "botty", "bot": True}
    token = bot.post("/api/account/token", headers=bot_csrf).json()["token"]
    assert httpx.get(f"{club}/api/session", headers={"authorization": f"Bearer {token}"}).json()["name"] == "botty"
    alice, csrf = account(club, "alice")
    log = tmp_path / "bot.log"
    engine = f"{sys.executable} -m hive uhp"
    with running_bot(club, token, engine, log):
        # a game UHP engines do not play is declined
        declined = alice.post(
            "/api/challenges", json={"to": "botty", "game": "HiveQueen", "time_control": "blitz"}, headers=csrf
        ).json()
        wait_for(lambda: alice.get(f"/api/seeks/{declined['id']}").status_code == 404, 30, "the decline")
        assert "UHP engines play Hive only" in log.read_text()
        # a rated bullet game of Base is played to its end
        body = {"to": "BOTTY", "game": "Base", "time_control": "bullet", "rated": True, "colour": "white"}
        challenge = alice.post("/api/challenges", json=body, headers=csrf)
        assert challenge.status_code == 200 and challenge.json()["to"] == "botty", challenge.text
        game_id = wait_for(
            lambda: alice.get(f"/api/seeks/{challenge.json()['id']}").json().get("game_id"), 60, "the acceptance"
        )
        spec, rng = hive.find_game("Base"), random.Random(3)
        state = alice.get(f"/api/games/{game_id}").json()
        assert state["names"] == ["alice", "botty"] and state["rated"] and state["time_control"] == "Bullet 1+2"
        deadline = time.monotonic() + 240
        while state["result"] is None and time.monotonic() < deadline:
            if state["view"]["turn"] == 0:
                board = spec()
                for text in state["moves"]:
                    board.push_text(text)
                move = board.move_text(spec.ai.random_move(board, rng))
                r = alice.post(
                    f"/api/games/{game_id}/move", json={"move": move, "ply": len(state["moves"])}, headers=csrf
                )
                assert r.status_code in (200, 409), r.text
            time.sleep(0.1)
            state = alice.get(f"/api/games/{game_id}").json()
        assert state["result"] is not None, (len(state["moves"]), log.read_text()[-2000:])
        assert len(state["moves"]) >= 4 and state["clock"]["control"] == {"initial": 60_000, "increment": 2000}
        bot_moves = state["moves"][1::2]
        assert bot_moves and all(isinstance(m, str) for m in bot_moves)
        ratings = alice.get("/api/players/botty").json()
        assert ratings["bot"] is True and ratings["ratings"]["Base"]["bullet"]["games"] == 1
        assert "accepting alice's challenge: Base, Bullet 1+2, rated" in log.read_text()
        wait_for(lambda: f"game {game_id} is over" in log.read_text(), 30, "the bot to see the end")


def bot_account(url: str, name: str) -> str:
    """A bot account made through the API; its API token."""
    bot, csrf = account(url, name)
    assert bot.post("/api/account/bot", headers=csrf).status_code == 200
    token: str = bot.post("/api/account/token", headers=csrf).json()["token"]
    return token


def test_a_bot_whose_engine_cannot_start_says_why_and_never_goes_online(club: str) -> None:
    token = bot_account(club, "botty")
    command = [sys.executable, "-m", "hive", "bot", "--server", club, "--token", token, "--engine", "no-such-engine-x"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "cannot start engine 'no-such-engine-x'" in done.stderr and "No such file" in done.stderr, done.stderr
    assert "online" not in done.stdout


def test_a_bot_whose_engine_dies_in_a_game_resigns_it_saying_why(club: str, tmp_path: Path) -> None:
    token = bot_account(club, "botty")
    alice, csrf = account(club, "alice")
    log = tmp_path / "bot.log"
    engine = f"{FAKE} --die bestmove"  # starts and answers, then dies on its first move
    with running_bot(club, token, engine, log):
        body = {"to": "botty", "game": "Base", "time_control": "blitz", "rated": False, "colour": "black"}
        challenge = alice.post("/api/challenges", json=body, headers=csrf).json()
        game_id = wait_for(lambda: alice.get(f"/api/seeks/{challenge['id']}").json().get("game_id"), 60, "acceptance")
        state = wait_for(
            lambda: (lambda s: s if s["result"] else None)(alice.get(f"/api/games/{game_id}").json()), 60, "the end"
        )
        assert state["reason"] and "resign" in state["reason"].lower() and state["winner"] == 1, state["reason"]
        assert len(state["moves"]) == 0  # it resigned at once, not after its clock ran out
        wait_for(lambda: "failed" in log.read_text() and "resigning" in log.read_text(), 30, "the bot's word")


def test_a_bot_whose_engine_dies_in_the_middle_of_a_game_resigns_it_saying_why_in_the_chat(
    club: str, tmp_path: Path
) -> None:
    token = bot_account(club, "botty")
    alice, csrf = account(club, "alice")
    log = tmp_path / "bot.log"
    with running_bot(club, token, f"{FAKE} --die-at 3", log):  # two moves, then it dies on its third
        body = {"to": "botty", "game": "Base", "time_control": "blitz", "rated": False, "colour": "black"}
        challenge = alice.post("/api/challenges", json=body, headers=csrf).json()
        game_id = wait_for(lambda: alice.get(f"/api/seeks/{challenge['id']}").json().get("game_id"), 60, "acceptance")
        rng = random.Random(1)

        def at(ply: int) -> Any:
            state = alice.get(f"/api/games/{game_id}").json()
            return state if len(state["moves"]) == ply else None

        for ply in (1, 3):  # alice answers the bot's first two moves
            state = wait_for(lambda n=ply: at(n), 60, f"the bot's move {ply}")
            move = rng.choice(sorted(m["move"] for ms in state["view"]["legal"].values() for m in ms))
            played = alice.post(f"/api/games/{game_id}/move", json={"move": move, "ply": ply}, headers=csrf)
            assert played.status_code == 200, played.text
        state = wait_for(
            lambda: (lambda s: s if s["result"] else None)(alice.get(f"/api/games/{game_id}").json()), 60, "the end"
        )
        assert "resign" in state["reason"].lower() and state["winner"] == 1, state["reason"]
        assert len(state["moves"]) == 4  # resigned at once, not lost on time (nor aborted: both sides moved)
        said = alice.get(f"/api/games/{game_id}/chat", params={"room": "players"}).json()["messages"]
        assert [m["name"] for m in said] == ["botty"] and said[0]["text"].startswith("My engine failed"), said
        wait_for(lambda: "failed" in log.read_text() and "resigning" in log.read_text(), 30, "the bot's word")


def test_the_bot_api_refuses_what_it_should(club: str) -> None:
    player, csrf = account(club, "carol")
    bearer = {"authorization": "Bearer nope"}
    assert httpx.get(f"{club}/api/bot/games", headers=bearer).status_code == 401
    assert httpx.get(f"{club}/api/bot/games").status_code == 401
    assert player.get("/api/bot/games").json() == {"games": []}
    self_challenge = player.post("/api/challenges", json={"to": "carol", "game": "Base"}, headers=csrf)
    assert self_challenge.status_code == 400 and "themselves" in self_challenge.json()["error"]
    nobody = player.post("/api/challenges", json={"to": "nobody", "game": "Base"}, headers=csrf)
    assert nobody.status_code == 404
    # an account with rated games stays a player's
    other, other_csrf = account(club, "dave")
    seek = player.post("/api/seeks", json={"game": "Base", "time_control": "blitz"}, headers=csrf).json()
    game = other.post(f"/api/seeks/{seek['id']}/accept", headers=other_csrf).json()
    first, first_csrf = (player, csrf) if game["state"]["names"][0] == "carol" else (other, other_csrf)
    second, second_csrf = (other, other_csrf) if first is player else (player, csrf)
    spec, rng = hive.find_game("Base"), random.Random(1)
    board = spec()
    for mover, headers in ((first, first_csrf), (second, second_csrf)):
        text = board.move_text(spec.ai.random_move(board, rng))
        board.push_text(text)
        moved = mover.post(f"/api/games/{game['id']}/move", json={"move": text}, headers=headers)
        assert moved.status_code == 200, moved.text
    assert first.post(f"/api/games/{game['id']}/resign", json={}, headers=first_csrf).status_code == 200
    refused = player.post("/api/account/bot", headers=csrf)
    assert refused.status_code == 409 and "stays a player's" in refused.json()["error"]
    made = [player.post("/api/account/token", headers=csrf).json() for _ in range(2)]
    old, new = ({"authorization": f"Bearer {m['token']}"} for m in made)
    assert httpx.get(f"{club}/api/session", headers=old).json()["name"] == "carol"  # a new token adds to the old
    revoked = player.delete(f"/api/account/tokens/{made[0]['id']}", headers=csrf)
    assert revoked.status_code == 200, revoked.text
    assert httpx.get(f"{club}/api/session", headers=old).status_code == 401  # revoked, it is refused
    assert httpx.get(f"{club}/api/session", headers=new).json()["name"] == "carol"


@pytest.mark.slow
def test_the_bot_plays_on_after_the_server_is_killed_and_started_again(tmp_path: Path) -> None:
    """``kill -9`` of ``hive serve`` mid-game: the bot connects again to the new process, and answers the moves
    made there."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "hive", "serve", "--port", str(port), "--database", f"sqlite:///{tmp_path}/c.db"]

    def start() -> subprocess.Popen[bytes]:
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        wait_until_up(url + "/")
        return server

    server = start()
    log = tmp_path / "bot.log"
    process: subprocess.Popen[bytes] | None = None
    try:
        bot, bot_csrf = account(url, "botty")
        bot.post("/api/account/bot", headers=bot_csrf)
        token = bot.post("/api/account/token", headers=bot_csrf).json()["token"]
        with open(log, "w") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "hive", "bot", "--server", url, "--token", token, "--player", "easy"],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
            )
        wait_for(lambda: "is online" in log.read_text(), 60, "the bot to start")
        alice, csrf = account(url, "alice")
        body = {"to": "botty", "game": "Base", "time_control": "rapid", "colour": "white"}
        challenge = alice.post("/api/challenges", json=body, headers=csrf).json()
        game_id = wait_for(lambda: alice.get(f"/api/seeks/{challenge['id']}").json().get("game_id"), 60, "a game")
        spec, rng = hive.find_game("Base"), random.Random(5)

        def alice_moves(count: int) -> None:
            for _ in range(count):
                state = wait_for(
                    lambda: (s := alice.get(f"/api/games/{game_id}").json())["view"]["turn"] == 0 and s, 60, "a turn"
                )
                board = spec()
                for text in state["moves"]:
                    board.push_text(text)
                move = board.move_text(spec.ai.random_move(board, rng))
                assert alice.post(f"/api/games/{game_id}/move", json={"move": move}, headers=csrf).status_code == 200

        alice_moves(2)
        wait_for(lambda: len(alice.get(f"/api/games/{game_id}").json()["moves"]) == 4, 60, "the bot's second move")
        server.kill()  # kill -9
        server.wait(10)
        server = start()
        alice_moves(1)
        wait_for(lambda: len(alice.get(f"/api/games/{game_id}").json()["moves"]) == 6, 90, "the bot after the restart")
        assert "connection lost" in log.read_text() or "cannot be reached" in log.read_text()
    finally:
        if process is not None:
            process.terminate()
            process.wait(20)
        server.kill()
        server.wait(10)
