"""Clocks under load: a hundred timed two-browser games played at once through ``hive play``, and the AI at blitz.

The server's own timestamps are the clock's ``at`` (when each move was charged): each move's charge must be the
time since the move before it by those timestamps, each timestamp must fall inside its request (sent to answered),
and every move sent must be stored, in order.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.web.shared.settings import Settings
from hive.web.views import replay, view_for

from ...web_support import ServerProcess, server_thread, stored_games

JSON = dict[str, Any]
GAMES, MOVES = 100, 40
#: The largest difference allowed between a move's charge and the server's timestamps, per move (ms).
DRIFT_MS = 50


async def _play_one(client: httpx.AsyncClient, kind: str, seed: int) -> tuple[str, list[str], list[tuple[int, int]]]:
    """Create a timed game and play ``MOVES`` random legal moves in it, as its two players; returns its id, the
    moves sent and each move's window (ms since the epoch: sent, answered)."""
    created = await client.post("api/games", json={"mode": "online", "kind": kind, "time_control": "blitz"})
    assert created.status_code == 200, created.text
    game = created.json()
    tokens = (game["token"], game["invite"])
    await client.post(f"api/games/{game['id']}/help", json={"help": False}, headers={"X-Seat-Token": tokens[1]})
    view = view_for(kind)
    board = replay(view, game["state"]["options"], [])
    rng = random.Random(seed)
    sent: list[str] = []
    windows: list[tuple[int, int]] = []
    for ply in range(MOVES):
        if board.is_game_over():
            break
        moves = sorted(board.move_text(m) for m in board.legal_moves)
        text = rng.choice(moves)
        board.push_text(text)
        await asyncio.sleep(rng.uniform(0, 0.02))  # the player's thought
        start = time.time()
        answer = await client.post(
            f"api/games/{game['id']}/move", json={"move": text, "ply": ply}, headers={"X-Seat-Token": tokens[ply % 2]}
        )
        windows.append((int(start * 1000), int(time.time() * 1000) + 1))
        assert answer.status_code == 200, answer.text
        sent.append(text)
    return game["id"], sent, windows


async def _play_all(url: str, kinds: list[str]) -> list[tuple[str, list[str], list[tuple[int, int]]]]:
    # a connection per request: a kept-alive one may be closed by the server just as it is reused
    limits = httpx.Limits(max_connections=GAMES, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        return await asyncio.gather(*(_play_one(client, kinds[i % len(kinds)], i) for i in range(GAMES)))


@pytest.mark.slow
def test_a_hundred_timed_games_at_once_lose_no_move_and_no_time(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    server = ServerProcess(db, "--max-games-per-minute", "0", "--max-ai-per-minute", "0")
    server.start()
    try:
        played = asyncio.run(_play_all(server.url, ["hive", "hivequeen"]))
    finally:
        server.stop()
    stored = stored_games(db, *(game_id for game_id, _, _ in played))
    worst = 0
    for game_id, sent, windows in played:
        record = stored[game_id]
        assert record is not None and record.clock is not None
        assert record.moves == sent, f"game {game_id}: moves lost or out of order"
        at, used = record.clock["at"], record.clock["used"]
        assert len(at) == len(used) == len(sent)
        for ply, (stamp, (sent_at, answered_at)) in enumerate(zip(at, windows, strict=True)):
            assert sent_at <= stamp <= answered_at, f"game {game_id}, move {ply}: charged outside its request"
            if ply:
                drift = abs(used[ply] - (stamp - at[ply - 1]))
                worst = max(worst, drift)
                assert drift <= DRIFT_MS, f"game {game_id}, move {ply}: charged {used[ply]} ms, {drift} ms off"
        initial, increment = record.clock["control"]["initial"], record.clock["control"]["increment"]
        for seat in (0, 1):
            charged = [used[p] for p in range(1, len(used)) if p % 2 == seat]
            expected = initial + increment * len(charged) - sum(charged)
            running = record.clock["running"] == seat
            assert running or abs(record.clock["remaining"][seat] - expected) <= DRIFT_MS
    assert sum(len(sent) for _, sent, _ in played) >= GAMES * MOVES * 0.9
    print(f"{sum(len(sent) for _, sent, _ in played)} moves in {GAMES} games; the largest drift {worst} ms")


#: Blitz (5 minutes + 3 seconds) scaled down 50 times: the same share of increment to initial time, and the
#: server's fixed costs (queue, replay, worker) weigh 50 times more against the AI's time than at blitz itself.
SCALED_BLITZ = {"initial": 6, "increment": 0.06}


def _ai_game(client: httpx.Client, kind: str, seed: int) -> JSON:
    """A game against the strongest AI on ``SCALED_BLITZ``, its opponent moving at once at random; returns the
    final state."""
    created = client.post(
        "api/games", json={"mode": "ai", "kind": kind, "ai_level": "max", "time_control": SCALED_BLITZ}
    )
    assert created.status_code == 200, created.text
    game = created.json()
    headers = {"X-Seat-Token": game["token"]}
    rng = random.Random(seed)
    state: JSON = game["state"]
    deadline = time.monotonic() + 120
    while not state["result"] and time.monotonic() < deadline:
        if state["view"]["turn"] in state["seats"] and not state["thinking"]:
            board = replay(view_for(kind), state["options"], state["moves"])
            text = rng.choice(sorted(board.move_text(m) for m in board.legal_moves))
            answer = client.post(
                f"api/games/{game['id']}/move", json={"move": text, "ply": len(state["moves"])}, headers=headers
            )
            assert answer.status_code == 200, answer.text
        else:
            time.sleep(0.02)
        state = client.get(f"api/games/{game['id']}", headers=headers).json()
    return state


@pytest.mark.slow
def test_fifty_ai_games_at_blitz_never_lose_on_time(tmp_path: Path) -> None:
    unlimited = Settings(games_per_minute=0, ai_per_minute=0)
    served = server_thread(tmp_path / "games.sqlite3", workers=1, settings=unlimited)
    with served as url, httpx.Client(base_url=url, timeout=60) as client:
        started = time.monotonic()
        finished = [_ai_game(client, ("hive", "hivequeen")[i % 2], i) for i in range(50)]
        took = time.monotonic() - started
    for state in finished:
        assert state["result"], (
            f"game {state['id']} ({state['kind']}) did not finish in two minutes: {len(state['moves'])} moves, "
            f"the last {state['moves'][-6:]}, the AI thinking: {state['thinking']}, its error: {state['ai_error']}"
        )
        ai_seat = 1 - state["seats"][0]
        assert state["clock"]["remaining"][ai_seat] > 0, f"game {state['id']}: the AI ran out of time"
        assert "time ran out" not in (state["reason"] or ""), state["reason"]
    least = min(state["clock"]["remaining"][1 - state["seats"][0]] for state in finished)
    print(f"50 games in {took:.0f} s; the least time the AI had left at the end: {least} ms")
