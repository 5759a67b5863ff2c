"""Review with the engine, on the server: one evaluation per position worked out in the background, the moves that lost
most marked, the review stored with the game (on SQLite and PostgreSQL; shown after a restart, resumed when
interrupted), the engine's access rules, and the AI queue's order (a live game's AI move before any review's work)."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import hive
from hive.games import find_game
from hive.web.ai.scheduler import Scheduler
from hive.web.ai.work import decisive, evaluate
from hive.web.analysis import review as engine_review
from hive.web.analysis.review import THRESHOLDS, marks
from hive.web.play.access import HELP_OFF, PLAYERS_ONLY
from hive.web.play.newgame import new_game as dealt
from hive.web.shared.model import StoredReview
from hive.web.storage import open_store

from ...web_support import JSON, WON, in_process, new_game, release_0_1

pytestmark = pytest.mark.anyio
MOVES = WON.split(";")[3:]
BASE = {"tournament_opening": False}


async def finished_game(c: Any) -> JSON:
    return await new_game(c, mode="local", game_string=WON, options=BASE)


async def review(c: Any, game: JSON, token: str | None = None, **body: Any) -> Any:
    headers = {"x-seat-token": token} if token else {}
    return await c.post(f"/api/games/{game['id']}/review", json=body, headers=headers)


async def finished_review(c: Any, game: JSON, token: str | None = None) -> JSON:
    """Poll the game's review until it has stopped running."""
    headers = {"x-seat-token": token} if token else {}
    for _ in range(600):
        report: JSON = (await c.get(f"/api/games/{game['id']}/review", headers=headers)).json()
        if report["status"] != "running":
            return report
        await asyncio.sleep(0.05)
    raise AssertionError(f"the review did not finish: {report}")


async def test_a_finished_game_is_reviewed_position_by_position_with_its_mistakes_marked(database: str) -> None:
    progress: list[int] = []
    async with in_process(database) as (app, c):
        app.reviews.progressed = lambda game_id, done: progress.append(done)
        game = await finished_game(c)
        none = (await c.get(f"/api/games/{game['id']}/review")).json()
        assert none["status"] == "none" and none["calibrated"] is True and none["default_level"] == "medium"
        assert none["levels"] == ["easy", "medium", "hard", "max"]
        first = (await review(c, game, level="easy")).json()
        assert first["status"] == "running" and first["total"] == len(MOVES) + 1 and first["moves"] == len(MOVES)
        again = (await review(c, game, level="easy")).json()  # asked again while it runs: its progress
        assert again["status"] == "running" and app.reviews.running(game["id"])
        done = await finished_review(c, game)
    assert progress == list(range(1, len(MOVES) + 2))  # one job per position, each stored in turn
    assert done["status"] == "done" and done["level"] == "easy" and done["done"] == done["total"] == 16
    positions = done["positions"]
    board = hive.Board("Base", tournament_opening=False)
    for ply, position in enumerate(positions):
        assert 0 <= position["white"] <= 1 and position["turn"] == board.turn
        if ply < len(MOVES):
            assert board.is_legal(board.parse_move(position["best"]))
            board.push_text(MOVES[ply])
    assert positions[-1] == {"white": 1.0, "turn": 1, "best": None, "depth": 0}  # White won by the rules
    last = next(mark for mark in done["marks"] if mark["ply"] == 14)
    assert last == {**last, "move": "bB1 /bQ", "side": 1, "kind": "blunder"}  # it let White win at once
    assert positions[14]["best"] == MOVES[14] and positions[14]["white"] == 1.0  # the AI sees the win
    board = hive.Board.from_game_string(WON)
    board.pop()
    assert board.state == "InProgress"
    board.push_text(positions[14]["best"])
    assert board.state == "WhiteWins"
    for mark in done["marks"]:
        least = dict(THRESHOLDS)[mark["kind"]]
        assert mark["drop"] >= least - 1e-9 and mark["move"] == MOVES[mark["ply"] - 1]


def test_marks_follow_the_thresholds_and_spare_the_ai_s_own_choice() -> None:
    def position(white: float, turn: int, best: str | None) -> JSON:
        return {"white": white, "turn": turn, "best": best, "depth": 1}

    moves = ["a", "b", "c", "d", "e"]
    positions = [
        position(0.5, 0, "x"),  # White plays a: 0.5 -> 0.41, lost 0.09: no mark
        position(0.41, 1, "x"),  # Black plays b: 0.41 -> 0.51, lost 0.10: an inaccuracy
        position(0.51, 0, "x"),  # White plays c: 0.51 -> 0.30, lost 0.21: a mistake
        position(0.30, 1, "d"),  # Black plays d, the AI's own choice: 0.30 -> 0.9 is never marked
        position(0.9, 0, "x"),  # White plays e: 0.9 -> 0.0, lost 0.9: a blunder
        position(0.0, 1, None),
    ]
    found = marks(moves, positions)
    assert [(m["ply"], m["kind"], m["side"]) for m in found] == [
        (2, "inaccuracy", 1),
        (3, "mistake", 0),
        (5, "blunder", 0),
    ]
    assert marks(moves, positions[:3]) == found[:1]  # a review still running marks the moves analysed on both sides
    assert decisive(0) == decisive(5000) == 0.5
    assert decisive(10**6) == 1.0 and decisive(-(10**6) + 5) == 0.0


async def test_a_review_is_stored_with_the_game_and_resumed_after_a_restart(database: str) -> None:
    async with in_process(database) as (app, c):
        stop = asyncio.Event()
        app.reviews.progressed = lambda game_id, done: stop.set() if done == 5 else None
        game = await finished_game(c)
        await review(c, game, level="easy")
        await stop.wait()
    # the server stopped in the middle of the review
    before = await stored_review(database, game["id"])
    assert before.status == "running" and 5 <= len(before.positions) < len(MOVES) + 1
    async with in_process(database) as (app, c):
        report = (await c.get(f"/api/games/{game['id']}/review")).json()
        assert report["status"] == "running" and report["done"] >= 5
        assert report["positions"][:5] == before.positions[:5]  # kept, not worked out again
        done = await finished_review(c, game)
    assert done["status"] == "done" and len(done["positions"]) == len(MOVES) + 1
    async with in_process(database) as (app, c):
        report = (await c.get(f"/api/games/{game['id']}/review")).json()
        assert report == done and not app.reviews.running(game["id"])  # shown at once, nothing worked out
        again = (await review(c, game, level="easy")).json()
        assert again == done and not app.reviews.running(game["id"])


async def stored_review(db: str, game_id: str) -> StoredReview:
    """The game's review as the database holds it (read outside any server)."""
    store = open_store(db, "reader")
    try:
        found = await store.reviews.load(game_id)
    finally:
        store.close()
    assert found is not None
    return found


async def test_the_engine_s_access_rules_hold_for_reviews() -> None:
    async with in_process(":memory:") as (_, c):
        fair = await new_game(c, mode="online")
        url = f"/api/games/{fair['id']}/move"
        assert (await c.post(url, json={"move": "wS1"}, headers={"x-seat-token": fair["token"]})).status_code == 200
        for token in (fair["token"], fair["invite"]):
            refused = await review(c, fair, token, level="easy")
            assert refused.status_code == 403 and refused.json()["error"] == HELP_OFF
            assert (await c.get(f"/api/games/{fair['id']}/review", headers={"x-seat-token": token})).status_code == 403
        spectator = await review(c, fair, level="easy")
        assert spectator.status_code == 403 and spectator.json()["error"] == PLAYERS_ONLY
        casual = await new_game(c, mode="online", help=True)
        headers = {"x-seat-token": casual["invite"]}
        assert (
            await c.post(f"/api/games/{casual['id']}/help", json={"help": True}, headers=headers)
        ).status_code == 200
        assert (await review(c, casual, casual["token"])).status_code == 409  # no move yet
        move = {"move": "wS1"}
        assert (
            await c.post(f"/api/games/{casual['id']}/move", json=move, headers={"x-seat-token": casual["token"]})
        ).status_code == 200
        assert (await review(c, casual, casual["invite"], level="easy")).json()["status"] == "running"
        assert (await finished_review(c, casual, casual["invite"]))["done"] == 2
        assert (await review(c, casual)).status_code == 403  # a spectator, while it is on
        resign = {"x-seat-token": fair["invite"]}
        assert (await c.post(f"/api/games/{fair['id']}/resign", json={}, headers=resign)).status_code == 200
        assert (await review(c, fair, level="easy")).json()["status"] == "running"  # anyone, once it is over
        assert (await finished_review(c, fair))["status"] == "done"
        bad = await review(c, fair, level="grandmaster")
        assert (
            bad.status_code == 400 and "'level' must be one of easy, medium, hard, max, not 'grandmaster'" in bad.text
        )


async def test_a_review_follows_the_moves_it_covers(database: str) -> None:
    """Moves taken back make the review of them go; moves played since extend it from where it stood."""
    async with in_process(database) as (_, c):
        game = await new_game(c, mode="local", options=BASE)
        headers = {"x-seat-token": game["token"]}
        board = hive.Board("Base", tournament_opening=False)
        for seed in range(4):
            move = board.move_text(random.Random(seed).choice(list(board.legal_moves)))
            board.push_text(move)
            assert (
                await c.post(f"/api/games/{game['id']}/move", json={"move": move}, headers=headers)
            ).status_code == 200
        await review(c, game, game["token"], level="easy")
        first = await finished_review(c, game, game["token"])
        assert first["done"] == 5
        move = board.move_text(random.Random(9).choice(list(board.legal_moves)))
        assert (await c.post(f"/api/games/{game['id']}/move", json={"move": move}, headers=headers)).status_code == 200
        stale = (await c.get(f"/api/games/{game['id']}/review", headers=headers)).json()
        assert stale["status"] == "done" and stale["moves"] == 4  # the moves it covers, still those of the game
        await review(c, game, game["token"], level="easy")
        longer = await finished_review(c, game, game["token"])
        assert longer["done"] == 6 and longer["positions"][:5] == first["positions"]
        for _ in range(2):
            assert (await c.post(f"/api/games/{game['id']}/undo", json={}, headers=headers)).status_code == 200
        gone = (await c.get(f"/api/games/{game['id']}/review", headers=headers)).json()
        assert gone["status"] == "none"


async def test_moves_taken_back_while_a_review_runs_stop_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(*args: Any) -> JSON:
        time.sleep(0.05)
        return evaluate(*args)

    monkeypatch.setattr(engine_review, "evaluate", slow)
    analysed: list[int] = []
    async with in_process(":memory:") as (app, c):
        app.reviews.progressed = lambda game_id, done: analysed.append(done)
        game = await new_game(
            c, mode="local", game_string=";".join(["Base", "InProgress", "White[8]", *MOVES[:-1]]), options=BASE
        )
        headers = {"x-seat-token": game["token"]}
        url = f"/api/games/{game['id']}"
        assert (await review(c, game, game["token"], level="easy")).json()["status"] == "running"
        for _ in range(2):
            assert (await c.post(f"{url}/undo", json={}, headers=headers)).status_code == 200
        assert (await c.get(f"{url}/review", headers=headers)).json()["status"] == "none"
        again = (await review(c, game, game["token"], level="easy")).json()
        assert again["status"] == "running" and again["moves"] == len(MOVES) - 3
        done = await finished_review(c, game, game["token"])
        assert done["status"] == "done" and done["total"] == len(MOVES) - 2
        assert max(analysed) < len(MOVES)  # the review of the longer game stopped


async def test_a_hivequeen_game_is_reviewed_with_its_forced_results_only() -> None:
    async with in_process(":memory:") as (_, c):
        game = await new_game(c, mode="local", kind="hivequeen")
        headers = {"x-seat-token": game["token"]}
        spec = find_game("HiveQueen")
        board = spec()
        rng = random.Random(3)
        for _ in range(4):
            text = board.move_text(spec.ai.random_move(board, rng))
            board.push_text(text)
            reply = await c.post(f"/api/games/{game['id']}/move", json={"move": text}, headers=headers)
            assert reply.status_code == 200, reply.text
        assert (await c.post(f"/api/games/{game['id']}/resign", json={"seat": 0}, headers=headers)).status_code == 200
        await review(c, game, level="easy")
        done = await finished_review(c, game)
        assert done["status"] == "done" and done["calibrated"] is False and done["total"] == 5
        assert all(position["white"] in (0.0, 0.5, 1.0) for position in done["positions"])
        assert [position["turn"] for position in done["positions"]] == [0, 1, 0, 1, 0]


async def test_an_older_database_gains_the_reviews_table(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    release_0_1(db)
    record = dealt({"mode": "local", "game_string": WON, "options": BASE}).record
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE reviews")  # as a database written before reviews existed, with a finished game
        conn.execute(
            "INSERT INTO games (id, kind, options, mode, token0, token1, length, result, reason, created, updated)"
            " VALUES (?, 'hive', ?, 'local', ?, ?, ?, ?, ?, 1.0, 2.0)",
            (record.id, json.dumps(record.options), *record.tokens, len(MOVES), record.result, record.reason),
        )
        conn.executemany("INSERT INTO moves VALUES (?, ?, ?)", [(record.id, ply, m) for ply, m in enumerate(MOVES)])
    game = {"id": record.id, "token": str(record.tokens[0])}
    async with in_process(db) as (_, c):
        assert (await c.get(f"/api/games/{game['id']}")).json()["moves"] == MOVES
        await review(c, game, level="easy")
        assert (await finished_review(c, game))["status"] == "done"
        assert (await c.delete(f"/api/games/{game['id']}", headers={"x-seat-token": game["token"]})).status_code == 200
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM reviews").fetchone() == (0,)  # gone with its game


def test_background_work_waits_for_the_ai_s_moves_and_hints() -> None:
    """One worker: a game's AI move and another's hint, asked while reviews wait, run before the reviews' next
    positions; the reviews of two games take turns."""

    async def main() -> None:
        order: list[str] = []
        gate = threading.Event()

        def job(name: str) -> str:
            if name == "first":
                gate.wait(10)
            order.append(name)
            return name

        jobs = Scheduler(lambda: None, 1, 64, 4)
        first = asyncio.ensure_future(jobs.run("a", job, "first", background=True))
        await asyncio.sleep(0.05)
        waiting = [
            asyncio.ensure_future(jobs.run(game, job, f"{game}{i}", background=True)) for i in range(2) for game in "ab"
        ]
        hint = asyncio.ensure_future(jobs.run("c", job, "hint", share=("c", 1)))
        move = asyncio.ensure_future(jobs.run("d", job, "move"))
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(first, hint, move, *waiting)
        assert order[:3] == ["first", "move", "hint"]
        assert order[3:] == ["b0", "a0", "b1", "a1"] or order[3:] == ["a0", "b0", "a1", "b1"]

    asyncio.run(main())


async def test_a_game_set_up_from_a_position_is_reviewed_from_that_position() -> None:
    async with in_process(":memory:") as (_, c):
        start = "Position;Base;White[3];wQ@0,0 bQ@1,0 wS1@-1,0 bS1@2,0"
        game = await new_game(c, mode="local", position=start)
        token = game["token"]
        legal = {move["move"] for moves in game["state"]["view"]["legal"].values() for move in moves}
        refused = await review(c, game, token, level="easy")
        assert refused.status_code == 409 and "nothing to review" in refused.json()["error"]
        url = f"/api/games/{game['id']}"
        assert (await c.get(f"{url}/review", headers={"x-seat-token": token})).json()["status"] == "none"
        move = {"move": sorted(legal)[0]}
        assert (await c.post(f"{url}/move", json=move, headers={"x-seat-token": token})).status_code == 200
        await review(c, game, token, level="easy")
        done = await finished_review(c, game, token)
        assert done["total"] == 2 and [p["turn"] for p in done["positions"]] == [0, 1]
        assert done["positions"][0]["best"] in legal  # worked out from the position, not from an empty board
