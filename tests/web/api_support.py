"""The club's HTTP API as the tests drive it in process: accounts signed up and in, a second browser on the same app,
seeks opened, games played to a number of moves or to their end, and the options that lift a served process's
limits."""

from __future__ import annotations

import random

import httpx

import hive
from hive.web.shared.settings import Settings

from ..web_support import JSON

#: A server that keeps accounts, as ``hive serve`` configures it.
SERVER = Settings(accounts=True)
#: The password of the accounts the API tests make.
PASSWORD = "correct horse battery"
#: ``hive serve`` options that lift the per-minute limits, for the tests that run many requests from one address.
LIMITS = ("--max-games-per-minute", "0", "--max-ai-per-minute", "0", "--max-hints-per-minute", "0")


async def sign_up(c: httpx.AsyncClient, name: str, password: str = PASSWORD) -> JSON:
    """Make the account ``name``, signed in on ``c``; the answer (its CSRF token under ``csrf``)."""
    r = await c.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    data: JSON = r.json()
    return data


async def sign_in(c: httpx.AsyncClient, name: str, password: str = PASSWORD) -> httpx.Response:
    """Sign in as ``name`` on ``c``; the answer, whatever it is."""
    return await c.post("/api/session", json={"name": name, "password": password})


def other(c: httpx.AsyncClient) -> httpx.AsyncClient:
    """A second browser on the same app: no cookies of the first."""
    return httpx.AsyncClient(transport=c._transport, base_url=str(c.base_url), timeout=60)


async def open_seek(c: httpx.AsyncClient, csrf: str, **body: object) -> httpx.Response:
    """Open a seek of ``body`` as whoever ``c`` is signed in as."""
    return await c.post("/api/seeks", json=body, headers={"x-csrf-token": csrf})


async def play_moves(c: httpx.AsyncClient, csrf: str, game_id: str, game: str, count: int, seed: int) -> JSON:
    """``count`` random moves from whoever ``c`` is signed in as, in turn with the other's, by the session alone (no
    seat token). Returns the state after."""
    spec = hive.find_game(game)
    rng = random.Random(seed)
    state: JSON = (await c.get(f"/api/games/{game_id}")).json()
    for _ in range(count):
        board = spec()
        for text in state["moves"]:
            board.push_text(text)
        move = board.move_text(spec.ai.random_move(board, rng))
        body = {"move": move, "ply": len(state["moves"])}
        r = await c.post(f"/api/games/{game_id}/move", json=body, headers={"x-csrf-token": csrf})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


async def finish(game_id: str, players: dict[str, tuple[httpx.AsyncClient, dict[str, str]]], how: int) -> None:
    """Play two moves, then end the game: ``how`` 0, the first player resigns; 1, the second; 2, a draw agreed."""
    state: JSON = (await next(iter(players.values()))[0].get(f"/api/games/{game_id}")).json()
    first, second = (players[name] for name in state["names"])
    board = hive.Board("Base")
    rng = random.Random(game_id)
    for mover in (first, second):
        text = board.move_text(rng.choice(list(board.legal_moves)))
        board.push_text(text)
        r = await mover[0].post(f"/api/games/{game_id}/move", json={"move": text}, headers=mover[1])
        assert r.status_code == 200, r.text
    if how == 2:
        offered = await first[0].post(f"/api/games/{game_id}/offer", json={"what": "draw"}, headers=first[1])
        agreed = await second[0].post(f"/api/games/{game_id}/answer", json={"accept": True}, headers=second[1])
        assert offered.is_success and agreed.is_success
    else:
        loser = (first, second)[how]
        assert (await loser[0].post(f"/api/games/{game_id}/resign", json={}, headers=loser[1])).is_success
