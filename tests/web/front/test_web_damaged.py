"""One unreadable row breaks only its own game: a game whose stored kind, clock, options or moves cannot be used is
listed as damaged and answers a clear 500 naming why, logged once, while the server starts and every other game is
served. Rows are damaged by hand in a file the server wrote, then the server is started again over it."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.web import create_app

JSON = dict[str, Any]


def games(db: Path) -> dict[str, str]:
    """Four games of a fresh file, by name: a plain one, and three to damage (one timed, with a move)."""

    async def main() -> dict[str, str]:
        app = create_app(db, workers=0)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as c:
            made = {}
            for name, body in (
                ("fine", {"mode": "local"}),
                ("kind", {"mode": "local"}),
                ("clock", {"mode": "online", "time_control": "blitz"}),
                ("moves", {"mode": "local"}),
                ("options", {"mode": "local"}),
            ):
                created = (await c.post("/api/games", json=body)).json()
                made[name] = created["id"]
                seat = {"x-seat-token": created["token"]}
                assert (
                    await c.post(f"/api/games/{created['id']}/move", json={"move": "wS1"}, headers=seat)
                ).status_code == 200
        await app.close()
        return made

    return asyncio.run(main())


def damage(db: Path, made: dict[str, str]) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET kind = 'chess' WHERE id = ?", (made["kind"],))
        clock = json.loads(connection.execute("SELECT clock FROM games WHERE id = ?", (made["clock"],)).fetchone()[0])
        clock["control"] = {"hourglass": 3}
        connection.execute("UPDATE games SET clock = ? WHERE id = ?", (json.dumps(clock), made["clock"]))
        connection.execute("UPDATE moves SET move = 'wZ9 nowhere' WHERE game_id = ?", (made["moves"],))
        connection.execute("UPDATE games SET options = '{not json' WHERE id = ?", (made["options"],))


def test_a_damaged_row_makes_only_its_game_unavailable(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "games.sqlite3"
    made = games(db)
    damage(db, made)
    caplog.set_level(logging.WARNING, logger="hive.web")

    async def main() -> None:
        app = create_app(db, workers=0)  # starts: the flag watcher meets the damaged clock and goes on
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as c:
            listed = (await c.get("/api/games")).json()["games"]
            by_id = {game["id"]: game for game in listed}
            assert set(by_id) == set(made.values())
            assert by_id[made["fine"]]["length"] == 1 and "damaged" not in by_id[made["fine"]]
            assert "kind 'chess' is unknown" in by_id[made["kind"]]["damaged"]
            assert "not a known time control" in by_id[made["clock"]]["damaged"]
            for name, why in (
                ("kind", "its kind 'chess' is unknown"),
                ("clock", "is not a known time control"),
                ("moves", "wZ9"),
                ("options", "its options are not a JSON object"),
            ):
                r = await c.get(f"/api/games/{made[name]}")
                assert r.status_code == 500 and why in r.json()["error"], (name, r.text)
                assert made[name] in r.json()["error"]
                # said in words, never the parser's or Python's own text
                assert not any(word in r.text for word in ("Expecting", "char ", "Traceback", "Error")), r.text
            assert (await c.get(f"/api/games/{made['fine']}")).json()["moves"] == ["wS1"]
            created = await c.post("/api/games", json={"mode": "local"})
            assert created.status_code == 200
            await asyncio.sleep(0.2)
        await app.close()

    asyncio.run(main())
    warnings = [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
    assert any("chess" in message for message in warnings)
    assert any("time control" in message for message in warnings)
    assert any("wZ9" in message for message in warnings), "a damaged game asked for is said in the log"
    assert not any(record.exc_info for record in caplog.records), "a damaged row is said, not a traceback"
