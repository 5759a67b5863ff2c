"""``hive play`` over a database it cannot use says why and stops; one server per SQLite file; a games file written by
release 0.1 opens with every game; a clean stop on SIGTERM and SIGINT, and nothing left running after ``kill -9``.
Each is ``hive play --no-browser --db …`` in a subprocess."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from hive.web import create_app

from ...web_support import ServerProcess, free_port

#: Root ignores file permissions; without these capabilities it is held to them like anyone.
AS_A_USER = (
    ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
    if os.geteuid() == 0 and shutil.which("setpriv")
    else []
)


def refused(db: Path, prefix: list[str] | None = None) -> str:
    """What ``hive play`` says on its error output when it refuses to start over ``db`` (it must exit with 2)."""
    command = [*(prefix or []), sys.executable, "-m", "hive", "play", "--no-browser"]
    command += ["--port", str(free_port()), "--db", str(db)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return done.stderr.strip()


def stored_games(db: Path, n: int) -> None:
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, text TEXT)")
        con.executemany("INSERT INTO filler (text) VALUES (?)", [("x" * 500,) for _ in range(n)])
        con.execute("CREATE INDEX filler_text ON filler (text)")


def test_a_file_that_is_not_a_database_is_named_as_damaged(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    db.write_bytes(b"these are not the games you are looking for" * 100)
    message = refused(db)
    assert message.startswith(f"hive play: the database at {db} is damaged: file is not a database"), message


def test_a_database_with_damaged_pages_fails_its_integrity_check_at_start(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    stored_games(db, 2000)
    data = bytearray(db.read_bytes())
    page = 4096
    for offset in range(page * 3, len(data) - page, page * 7):  # scribble over some b-tree pages' headers
        data[offset : offset + 16] = b"\xff" * 16
    db.write_bytes(bytes(data))
    message = refused(db)
    assert message.startswith(f"hive play: the database at {db} is damaged: "), message
    assert "sqlite3's .recover" in message or "malformed" in message


def test_a_directory_is_explained(tmp_path: Path) -> None:
    message = refused(tmp_path)
    assert message == (
        f"hive play: the database at {tmp_path} is a directory, not a file: give a file in it, e.g. --db"
        f" {tmp_path / 'games.sqlite3'}"
    )


@pytest.mark.skipif(os.geteuid() == 0 and not AS_A_USER, reason="root without setpriv ignores file permissions")
def test_a_read_only_file_or_directory_is_explained(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    stored_games(db, 1)
    db.chmod(0o444)
    message = refused(db, AS_A_USER)
    assert message.startswith(f"hive play: the database at {db} is read-only: the server stores every move"), message
    db.chmod(0o644)
    folder = tmp_path / "shelf"
    folder.mkdir()
    shutil.copy(db, folder / "games.sqlite3")
    folder.chmod(0o555)
    try:
        message = refused(folder / "games.sqlite3", AS_A_USER)
    finally:
        folder.chmod(0o755)
    assert "is in a read-only directory: SQLite writes its journal beside the file" in message


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--max-body", "0"], "hive play: --max-body must be at least 1, not 0"),
        (["--max-hints-per-minute", "-2"], "hive play: --max-hints-per-minute must be 0 (no limit) or more, not -2"),
        (["--request-timeout", "0"], "hive play: --request-timeout must be more than 0 seconds, not 0.0"),
        (["--ai-workers", "0"], "hive play: --ai-workers must be at least 1, not 0"),
    ],
)
def test_a_limit_out_of_range_is_named(tmp_path: Path, option: list[str], message: str) -> None:
    command = [sys.executable, "-m", "hive", "play", "--no-browser", "--db", str(tmp_path / "g.db"), *option]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.strip() == message, done.stderr


def test_a_second_server_on_the_same_database_refuses_to_start(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first = ServerProcess(db)
    first.start()
    try:
        message = refused(db)
        assert message == (
            f"hive play: the database at {db} is in use by another hive server: stop that one, or choose another"
            " file with --db (several servers share a PostgreSQL database, not a SQLite file)"
        )
        assert httpx.get(first.url + "api/games", timeout=10).status_code == 200  # the first one goes on
    finally:
        first.stop()
    second = ServerProcess(db)  # and once it has stopped, the file is free
    second.start()
    second.stop()


def children(pid: int) -> set[int]:
    """The processes ``pid`` started (the AI's worker and multiprocessing's resource tracker)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize(
    "signum",
    # each signal once in the default run, and again in the slow set (the fault it guards against came 4 times in 6)
    [
        signal.SIGTERM,
        signal.SIGINT,
        *(pytest.param(sig, marks=pytest.mark.slow) for sig in (signal.SIGTERM, signal.SIGINT)),
    ],
)
def test_a_signal_stops_the_server_and_its_ai_workers_without_a_traceback(tmp_path: Path, signum: int) -> None:
    """Stopped in the middle of the AI's longest search: the worker and the resource tracker go too (before,
    SIGTERM left them running 4 times in 6, and SIGINT sometimes printed a traceback)."""
    server = ServerProcess(tmp_path / "games.sqlite3")
    server.start()
    assert server.process is not None
    body = {"mode": "ai", "ai_level": "max", "colour": "black"}
    r = httpx.post(server.url + "api/games", json=body, timeout=30)
    assert r.status_code == 200 and r.json()["state"]["thinking"]
    deadline = time.monotonic() + 30
    while len(children(server.process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    helpers = children(server.process.pid)
    assert len(helpers) >= 2, helpers
    server.process.send_signal(signum)
    assert server.process.wait(30) == 0
    output = server.process.stdout.read().decode() if server.process.stdout else ""
    server.process = None
    assert "Traceback" not in output and "Error" not in output, output
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in helpers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in helpers), [pid for pid in helpers if alive(pid)]


def test_a_device_is_not_a_database(tmp_path: Path) -> None:
    """``--db /dev/null`` ended with a 'disk I/O error' traceback."""
    assert refused(Path("/dev/null")) == (
        "hive play: the database at /dev/null is not a regular file (a device, a pipe or a socket): give a file,"
        " e.g. --db games.sqlite3"
    )


def test_kill_9_of_the_server_leaves_neither_its_ai_worker_nor_the_resource_tracker(tmp_path: Path) -> None:
    """Killed in the middle of the AI's longest search: its helpers die with it rather than being adopted by init."""
    server = ServerProcess(tmp_path / "games.sqlite3")
    server.start()
    assert server.process is not None
    r = httpx.post(server.url + "api/games", json={"mode": "ai", "ai_level": "max", "colour": "black"}, timeout=30)
    assert r.status_code == 200 and r.json()["state"]["thinking"]
    deadline = time.monotonic() + 30
    while len(children(server.process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    helpers = children(server.process.pid)
    assert len(helpers) >= 2, helpers
    server.process.kill()
    server.process.wait(10)
    server.process = None
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in helpers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in helpers), [pid for pid in helpers if alive(pid)]


def test_a_games_file_written_by_release_0_1_opens_with_every_game(tmp_path: Path) -> None:
    """tests/data/games-0.1.0.sqlite3 was written by release 0.1's own server (games on one screen with moves taken
    back, against the AI and resigned, between two browsers with a clock, a draw and a rematch, HiveQueen, a set-up
    position with an analysis line, an engine review). Opened by this release, the file is upgraded in place and every
    game, move, line and review is there as it was."""
    db = tmp_path / "games.sqlite3"
    shutil.copy(Path(__file__).parents[2] / "data" / "games-0.1.0.sqlite3", db)
    with sqlite3.connect(db) as old:
        games = old.execute("SELECT id, length, result, name0, name1, clock, start, rematch FROM games").fetchall()
        moves = {
            gid: [m for (m,) in old.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (gid,))]
            for gid, *_ in games
        }
        tokens = dict(old.execute("SELECT id, COALESCE(token0, token1) FROM games").fetchall())
        lines = old.execute("SELECT game_id, line, moves FROM lines").fetchall()
        reviews = old.execute("SELECT game_id, status, positions FROM reviews").fetchall()
    assert len(games) == 7 and lines and reviews

    async def main() -> None:
        app = create_app(db, workers=0)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            listed = {game["id"]: game for game in (await c.get("/api/games")).json()["games"]}
            assert set(listed) == {game[0] for game in games}
            for gid, length, result, name0, name1, clock, start, rematch in games:
                state = (await c.get(f"/api/games/{gid}")).json()
                assert state["moves"] == moves[gid][:length] and state["redo"] == len(moves[gid]) - length
                assert (state["result"], state["names"], state["start"]) == (result, [name0, name1], start)
                assert state["rematch"] == rematch and (state["clock"] is None) == (clock is None)
            for gid, line, line_moves in lines:
                seat = {"x-seat-token": tokens[gid]}
                position = (await c.get(f"/api/games/{gid}/position", params={"line": line}, headers=seat)).json()
                assert position["line"] == line and position["ply"] == len(json.loads(line_moves))
            for gid, status, positions in reviews:
                review = (await c.get(f"/api/games/{gid}/review", headers={"x-seat-token": tokens[gid]})).json()
                assert review["status"] == status and review["positions"] == json.loads(positions)
            # and play goes on in the upgraded file: a move in the game on one screen replaces its moves taken back
            local = next(gid for gid, length, result, *_ in games if result is None and length == 4)
            state = (await c.get(f"/api/games/{local}")).json()
            legal = state["view"]["legal"]
            move = next(iter(legal.values()))[0]["move"]
            r = await c.post(
                f"/api/games/{local}/move", json={"move": move, "ply": 4}, headers={"x-seat-token": tokens[local]}
            )
            assert r.status_code == 200 and r.json()["moves"] == [*moves[local][:4], move] and r.json()["redo"] == 0
        await app.close()

    asyncio.run(main())
    with sqlite3.connect(db) as upgraded:
        assert upgraded.execute("SELECT version_num FROM alembic_version").fetchone() == ("0012",)
        total = sum(len(m) for m in moves.values()) - 2 + 1  # the local game's two moves taken back gave way to one
        assert upgraded.execute("SELECT COUNT(*) FROM moves").fetchone() == (total,)


def test_hive_db_upgrade_says_what_it_did(tmp_path: Path) -> None:
    """An empty database is given its tables, an older one upgraded from its schema, a current one left alone: each
    said in those words, not one "up to date" for all three."""
    import sqlalchemy as sa

    from hive.web import migrations

    def upgrade(path: Path) -> str:
        command = [sys.executable, "-m", "hive", "db", "upgrade", "--database", f"sqlite:///{path}"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    newest = migrations.head()
    empty = tmp_path / "empty.sqlite3"
    assert f"Made the tables of schema {newest} in the empty database" in upgrade(empty)
    assert f"up to date (schema {newest}): nothing to do" in upgrade(empty)
    older = tmp_path / "older.sqlite3"
    engine = sa.create_engine(f"sqlite:///{older}")
    with engine.begin() as connection:
        migrations.upgrade(connection, "0004")
    engine.dispose()
    assert f"from schema 0004 to {newest}" in upgrade(older)
