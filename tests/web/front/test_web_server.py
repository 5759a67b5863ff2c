"""The web app's API: moves stored in order under load, seat tokens, offers, persistence and clear 4xx errors."""

from __future__ import annotations

import asyncio
import json
import posixpath
import random
import re
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hive
import hive.games
from hive.games import GAMES
from hive.games.hivequeen.svg import HIGHLIGHT
from hive.web import create_app
from hive.web.http.server import STATIC
from hive.web.shared.settings import Settings
from hive.web.views import description, on_page, plugin_of, view_for

from ...web_support import VERBS, client, counting, new_game, play, server_thread, state_where, stored_games

JSON = dict[str, Any]


def run(coro: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(coro())


@pytest.mark.parametrize("games", [20, pytest.param(100, marks=pytest.mark.slow)])
def test_concurrent_games_keep_every_move_in_order(tmp_path: Path, games: int) -> None:
    """Games of 40 moves each, played at once; the database holds exactly the moves played, in order."""
    db = tmp_path / "games.sqlite3"
    played: dict[str, list[str]] = {}

    async def one_game(c: httpx.AsyncClient, seed: int) -> None:
        rng = random.Random(seed)
        created = await new_game(c, mode="local", options={"game_type": "Base+MLP"})
        token, state = created["token"], created["state"]
        board = hive.Board("Base+MLP")
        moves: list[str] = []
        played[created["id"]] = moves
        for ply in range(40):
            choices = [(piece, entry) for piece, entries in state["view"]["legal"].items() for entry in entries]
            rng.shuffle(choices)
            for _, entry in choices:  # a move that does not end the game, so that all 40 are played
                board.push_uhp(entry["move"])
                ends = board.is_game_over()
                board.pop()
                if not ends:
                    break
            piece = entry["move"].split()[0]
            body = {"move": entry["move"]} if ply % 2 else {"piece": piece, "to": entry["to"]}
            r = await play(c, created, token, ply=ply, **body)
            assert r.status_code == 200, r.text
            state = r.json()
            board.push_uhp(entry["move"])
            moves.append(state["moves"][-1])
            assert state["moves"] == moves

    async def main() -> None:
        app = create_app(db, workers=0, settings=Settings(games_per_minute=0))
        async with client(app) as c:
            start = time.perf_counter()
            await asyncio.gather(*(one_game(c, seed) for seed in range(games)))
            print(f"{games} games x 40 moves: {time.perf_counter() - start:.1f} s")
        await app.close()

    run(main)
    assert len(played) == games
    stored = stored_games(db, *played)
    for game_id, moves in played.items():
        record = stored[game_id]
        assert len(moves) == 40
        assert record is not None and record.moves == moves and record.redo == []


def test_a_move_request_plays_the_move_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the API, in both forms: one parse (for a MoveString), one push, no board rebuilt, copied or taken back,
    neither for the answer nor for a later look at the game."""

    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await new_game(c, mode="local")
            calls = counting(monkeypatch, hive.Board, VERBS)
            assert (await play(c, game, game["token"], move="wS1", ply=0)).status_code == 200
            assert calls == {"__init__": 0, "parse_move": 1, "push": 1, "push_stored": 0, "pop": 0, "copy": 0}
            to = (await c.get(f"/api/games/{game['id']}")).json()["view"]["legal"]["bS1"][0]["to"]
            r = await play(c, game, game["token"], piece="bS1", to=to, ply=1)
            assert r.status_code == 200 and r.json()["moves"] == ["wS1", "bS1 wS1/"]
            assert calls == {"__init__": 0, "parse_move": 1, "push": 2, "push_stored": 0, "pop": 0, "copy": 0}
        await app.close()

    run(main)


def test_a_stale_or_repeated_move_is_refused_not_stored_twice() -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await new_game(c, mode="local")
            assert (await play(c, game, game["token"], move="wS1", ply=0)).status_code == 200
            again = await play(c, game, game["token"], move="wS1", ply=0)
            assert again.status_code == 409
            assert "moved on" in again.json()["error"]
            state = (await c.get(f"/api/games/{game['id']}")).json()
            assert state["moves"] == ["wS1"]
        await app.close()

    run(main)


def test_seat_tokens_guard_the_moves() -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await new_game(c, mode="online", colour="white")
            white, black = game["token"], game["invite"]
            missing = await play(c, game, None, move="wS1")
            assert missing.status_code == 403 and "token" in missing.json()["error"]
            wrong = await play(c, game, "not-a-token", move="wS1")
            assert wrong.status_code == 403 and "does not belong" in wrong.json()["error"]
            out_of_turn = await play(c, game, black, move="bS1")
            assert out_of_turn.status_code == 409 and "White's turn" in out_of_turn.json()["error"]
            assert (await play(c, game, white, move="wS1")).status_code == 200
            assert (await play(c, game, white, move="bS1 wS1-")).status_code == 409
            assert (await play(c, game, black, move="bS1 wS1-")).status_code == 200
            other = await new_game(c, mode="online")
            assert (await play(c, other, white, move="wS1")).status_code == 403
            spectator = (await c.get(f"/api/games/{game['id']}")).json()
            assert spectator["seats"] == [] and spectator["moves"] == ["wS1", "bS1 wS1-"]
            seat = (await c.get(f"/api/games/{game['id']}", headers={"x-seat-token": black})).json()
            assert seat["seats"] == [1]
            for action in ("undo", "resign", "offer", "answer"):
                r = await c.post(f"/api/games/{game['id']}/{action}", json={})
                assert r.status_code == 403, action
        await app.close()

    run(main)


BAD_REQUESTS: list[tuple[str, str, Any, int, str]] = [
    ("POST", "/api/games", b"{", 400, "not valid JSON"),
    ("POST", "/api/games", [1, 2], 400, "must be a JSON object"),
    ("POST", "/api/games", {"mode": "chess"}, 400, "Unknown mode 'chess'"),
    ("POST", "/api/games", {"kind": "go"}, 400, "Unknown game kind 'go'"),
    ("POST", "/api/games", {"options": {"game_type": "Base+X"}}, 400, "Unknown game type 'Base+X'"),
    ("POST", "/api/games", {"options": {"tournament_opening": "yes"}}, 400, "'tournament_opening'"),
    ("POST", "/api/games", {"options": 3}, 400, "'options' must be an object"),
    ("POST", "/api/games", {"colour": "green"}, 400, "Unknown colour 'green'"),
    ("POST", "/api/games", {"ai_level": "god"}, 400, "Unknown AI level 'god'"),
    ("POST", "/api/games", {"game_string": "Base;InProgress;White[2];wS1;bQ"}, 400, "token 5 'bQ'"),
    ("POST", "/api/games", {"game_string": "Chess;InProgress;White[1]"}, 400, "starts with 'Chess'"),
    ("POST", "/api/games", {"game_string": 7}, 400, "'game_string'"),
    ("POST", "/api/games", b"x" * 70000, 413, "too large"),
    ("GET", "/api/games/nope", None, 404, "no game 'nope'"),
    ("GET", "{game}/move", None, 405, "Method Not Allowed"),
    ("GET", "/api/nothing", None, 404, "Not Found"),
    ("MOVE", "{game}/move", {"move": "bQ wS1-"}, 400, "Queen Bee on your first turn"),
    ("MOVE", "{game}/move", {"move": "xx1"}, 400, "unknown piece 'xx1'"),
    ("MOVE", "{game}/move", {"move": 5}, 400, "'move' must be a MoveString"),
    ("MOVE", "{game}/move", {}, 400, "Give 'move'"),
    ("MOVE", "{game}/move", {"piece": "wA1", "to": "here"}, 400, "'to' must be"),
    ("MOVE", "{game}/move", {"piece": "wA1", "to": [1, True]}, 400, "'to' must be"),
    ("MOVE", "{game}/move", {"piece": "wA1", "to": [3, 3]}, 409, "moved on"),
    ("MOVE", "{game}/move", {"move": "wA1", "ply": "one"}, 400, "'ply' must be a number"),
    ("MOVE", "{game}/offer", {"what": "peace"}, 400, "'what' must be"),
    ("MOVE", "{game}/answer", {"accept": "maybe"}, 400, "'accept' must be"),
    ("MOVE", "{game}/why", {"piece": 3}, 400, "'piece' must be"),
    ("MOVE", "{game}/why", {"piece": "zz"}, 400, "Unknown piece 'zz'"),
    ("MOVE", "{game}/fly", {}, 404, "Unknown action 'fly'"),
    ("GET", "{game}/position?ply=x", None, 400, "'ply' must be a number"),
    ("GET", "{game}/position?ply=99", None, 400, "'ply' must be a number from 0 to 1"),
]


@pytest.mark.parametrize(("method", "path", "body", "status", "message"), BAD_REQUESTS)
def test_malformed_requests_get_a_4xx_with_a_message(
    method: str, path: str, body: Any, status: int, message: str
) -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await new_game(c, mode="local")
            assert (await play(c, game, game["token"], move="wS1")).status_code == 200
            url = path.replace("{game}", f"/api/games/{game['id']}")
            headers = {"x-seat-token": game["token"]}
            if isinstance(body, bytes):
                headers["content-type"] = "application/json"
                r = await c.request(method if method != "MOVE" else "POST", url, content=body, headers=headers)
            elif method == "GET":
                r = await c.get(url, headers=headers)
            else:
                data = body if body is not None else {}
                if "ply" not in json.dumps(data) and "to" in data and data["to"] == [3, 3]:
                    data = {**data, "ply": 0}
                r = await c.post(url, json=data, headers=headers)
            assert r.status_code == status, r.text
            assert message in r.json()["error"]
        await app.close()

    run(main)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
bodies = st.dictionaries(
    st.sampled_from(["move", "piece", "to", "ply", "what", "accept", "mode", "options", "game_string", "colour"]),
    json_values,
    max_size=4,
)


@pytest.mark.slow  # 60 games made and answered
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action=st.sampled_from(["move", "undo", "redo", "resign", "offer", "answer", "why", "create"]), body=bodies)
def test_random_request_bodies_never_cause_a_500(action: str, body: JSON) -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await new_game(c, mode="online")
            if action == "create":
                r = await c.post("/api/games", json={**body, "mode": body.get("mode", "local")})
            else:
                r = await c.post(
                    f"/api/games/{game['id']}/{action}", json=body, headers={"x-seat-token": game["token"]}
                )
            assert r.status_code < 500, r.text
            assert r.status_code == 200 or r.json()["error"]
        await app.close()

    run(main)


def test_games_survive_a_restart_with_their_undo_history(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"

    async def first() -> JSON:
        app = create_app(db, workers=0)
        async with client(app) as c:
            game = await new_game(c, mode="local", options={"game_type": "Base+M", "tournament_opening": False})
            for move in ("wQ", "bQ wQ-", "wS1 -wQ"):
                assert (await play(c, game, game["token"], move=move)).status_code == 200
            r = await c.post(f"/api/games/{game['id']}/undo", headers={"x-seat-token": game["token"]})
            assert r.json()["moves"] == ["wQ", "bQ wQ-"] and r.json()["redo"] == 1
        await app.close()
        return game

    async def second(game: JSON) -> None:
        app = create_app(db, workers=0)
        async with client(app) as c:
            state = (await c.get(f"/api/games/{game['id']}", headers={"x-seat-token": game["token"]})).json()
            assert state["moves"] == ["wQ", "bQ wQ-"] and state["redo"] == 1 and state["seats"] == [0, 1]
            assert state["options"] == {
                "game_type": "Base+M",
                "tournament_opening": False,
                "repetition_draw": False,
                "set": "classic",
            }
            r = await c.post(f"/api/games/{game['id']}/redo", headers={"x-seat-token": game["token"]})
            assert r.json()["moves"] == ["wQ", "bQ wQ-", "wS1 -wQ"]
            other = await play(c, game, game["token"], move="bS1 bQ-")
            assert other.json()["redo"] == 0
        await app.close()

    game = asyncio.run(first())
    asyncio.run(second(game))


def test_ai_game_answers_moves_and_takes_back_a_pair() -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await new_game(c, mode="ai", ai_level="easy", colour="black", options={"game_type": "Base"})
            token = game["token"]
            assert game["state"]["thinking"] is True and game["state"]["ai"] == {"level": "easy", "seat": 0}
            state = await wait_for(c, game, token, lambda s: len(s["moves"]) == 1)
            r = await play(c, game, token, piece="bS1", to=state["view"]["legal"]["bS1"][0]["to"])
            assert r.status_code == 200 and r.json()["thinking"] is True
            state = await wait_for(c, game, token, lambda s: len(s["moves"]) == 3 and not s["thinking"])
            r = await c.post(f"/api/games/{game['id']}/undo", headers={"x-seat-token": token})
            assert r.json()["moves"] == state["moves"][:1] and r.json()["redo"] == 2
            r = await c.post(f"/api/games/{game['id']}/offer", json={"what": "draw"}, headers={"x-seat-token": token})
            assert r.status_code == 409 and "does not agree to draws" in r.json()["error"]
            hint = (await c.get(f"/api/games/{game['id']}/hint", headers={"x-seat-token": token})).json()
            assert hint["move"].startswith("b") and 0 <= hint["white"] <= 1
            r = await c.post(f"/api/games/{game['id']}/resign", headers={"x-seat-token": token})
            assert r.json()["result"] == "WhiteWins" and r.json()["reason"] == "Black resigned"
            assert r.json()["view"]["legal"] == {}
        await app.close()

    run(main)


async def wait_for(c: httpx.AsyncClient, game: JSON, token: str, test: Callable[[JSON], bool]) -> JSON:
    for _ in range(200):
        state: JSON = (await c.get(f"/api/games/{game['id']}", headers={"x-seat-token": token})).json()
        if test(state):
            return state
        await asyncio.sleep(0.05)
    raise AssertionError(f"the game never reached the expected state: {state['moves']}")


def test_online_players_agree_to_undo_and_to_a_draw() -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            game = await new_game(c, mode="online", colour="white")
            w, b = {"x-seat-token": game["token"]}, {"x-seat-token": game["invite"]}
            url = f"/api/games/{game['id']}"
            await play(c, game, game["token"], move="wS1")
            await play(c, game, game["invite"], move="bS1 wS1-")
            r = await c.post(f"{url}/undo", headers=b)
            assert r.json()["offer"] == {"what": "undo", "by": 1} and len(r.json()["moves"]) == 2
            assert (await c.post(f"{url}/answer", json={"accept": True}, headers=b)).status_code == 409
            r = await c.post(f"{url}/answer", json={"accept": True}, headers=w)
            assert r.json()["moves"] == ["wS1"] and r.json()["offer"] is None
            r = await c.post(f"{url}/offer", json={"what": "draw"}, headers=w)
            assert r.json()["offer"] == {"what": "draw", "by": 0}
            r = await c.post(f"{url}/answer", json={"accept": False}, headers=b)
            assert r.json()["offer"] is None and r.json()["result"] is None
            await c.post(f"{url}/offer", json={"what": "draw"}, headers=w)
            r = await c.post(f"{url}/offer", json={"what": "draw"}, headers=b)
            assert r.json()["result"] == "Draw" and r.json()["reason"] == "the players agreed"
            assert (await c.post(f"{url}/redo", headers=w)).status_code == 409
        await app.close()

    run(main)


def test_import_a_game_string_and_ask_why_a_piece_cannot_move() -> None:
    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            text = "Base+MLP;InProgress;White[3];wG1;bG1 wG1-;wQ -wG1;bQ bG1-"
            game = await new_game(c, mode="local", game_string=text)
            state = game["state"]
            assert state["game_string"] == text and state["options"]["game_type"] == "Base+MLP"
            assert len(state["view"]["cells"]) == 4 and state["view"]["queens"][0]["surrounded"] == 1
            url = f"/api/games/{game['id']}"
            why = (await c.post(f"{url}/why", json={"piece": "wG1"})).json()
            assert why["reason"] == "You can't move that piece because it will break the hive."
            assert (await c.post(f"{url}/why", json={"piece": "wQ"})).json()["reason"] is None
            early = (await c.get(f"{url}/position?ply=1")).json()["view"]
            assert [cell["stack"] for cell in early["cells"]] == [["wG1"]]
            finished = "Base;WhiteWins;Black[2];wQ;bQ wQ-"  # the header must agree with the moves
            r = await c.post(
                "/api/games", json={"mode": "local", "game_string": finished, "options": {"tournament_opening": False}}
            )
            assert r.status_code == 400 and "says the game is WhiteWins" in r.json()["error"]
        await app.close()

    run(main)


def test_the_assets_list_the_games_on_offer_as_their_views_describe_them() -> None:
    """The page's dialogs are built from this list: every game of the registry with a view, Hive first, each with
    its registry's title and sides, a record example that imports, and a rules page when it has one."""

    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            assets = (await c.get("/api/assets")).json()
            assert {"glyphs", "themes", "levels", "games"} <= set(assets)
            games = assets["games"]
            assert [info["kind"] for info in games] == ["hive", "hivequeen"]
            assert games == [description(view_for(kind)) for kind in ("hive", "hivequeen")]
            for info in games:
                spec = next(spec for spec in GAMES.values() if spec.kind == info["kind"])
                assert [info["title"], info["record"], *info["sides"]] == [spec.title, spec.record_noun, *spec.sides]
                assert info["first"] == 0 and info["summary"] and info["first_note"]
                assert set(info["import"]) == {"label", "placeholder", "empty"}
                example = info["import"]["placeholder"]
                imported = await new_game(c, kind=info["kind"], mode="local", game_string=example)
                assert imported["state"]["kind"] == info["kind"] and imported["state"]["moves"]
            assert [info["rules"] for info in games] == ["/how-to-play/hive", "/how-to-play/hivequeen"]
            for info in games:
                rules = await c.get(info["rules"])
                assert rules.status_code == 200 and f"<title>How to play {info['title']}</title>" in rules.text
            hive_rules = (await c.get("/how-to-play/hive")).text
            assert hive_rules.count("<figure><svg") == 9 and "White's Spider holds the hive together" in hive_rules
            queen_rules = (await c.get("/how-to-play/hivequeen")).text
            assert (
                queen_rules.count("<figure><svg") == 4
                and "The Queen swaps places with one of her Highborns" in queen_rules
            )
            # the Worker's picture lights its two steps forward, c4 and d4
            worker = queen_rules.split("<figure>")[2]
            lit = re.findall(rf'data-cell="(\w+)" points="[^"]*" fill="{HIGHLIGHT}"', worker)
            assert sorted(lit) == ["c4", "d4"]
            for missing in ("/how-to-play/chess", "/how-to-play/..%2Fserver"):
                assert (await c.get(missing)).status_code == 404, missing
        await app.close()

    run(main)


def test_every_page_names_an_icon_that_is_served() -> None:
    """The game page and the rules pages name the icon, and a client that asks for /favicon.ico gets it (no 404)."""

    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            for page in ("/", "/how-to-play/hive", "/how-to-play/hivequeen"):
                html = (await c.get(page)).text
                assert '<link rel="icon" type="image/svg+xml" href="/static/favicon.svg">' in html, page
            for icon in ("/static/favicon.svg", "/favicon.ico"):
                r = await c.get(icon)
                assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml"), icon
                assert r.text.startswith("<svg")
        await app.close()

    run(main)


#: The page's shell: it lists the games from the assets and leaves everything about one game to its module.
#: Every file of the page's shell and of the domains' page modules (``web/<domain>/static``), by its path under
#: ``hive/web``: what a game brings is its page module's, served from its package.
WEB = STATIC.parent
SHELL = tuple(
    sorted(
        path.relative_to(WEB).as_posix()
        for folder in (STATIC, *WEB.glob("*/static"))
        for path in folder.iterdir()
        if path.suffix in (".html", ".js", ".css")
    )
)
#: A game's name or title, or what only one game has; ``hive.`` keys name the page's storage, ``hive play`` and
#: ``hive bot`` the commands.
GAME_WORDS = re.compile(
    r"(?m)"
    r"HiveQueen|(?i:hivequeen)|isQueen|\bHive\b"
    r"|\bhive\b(?!\.(?:token|invite|last|sound|chat|lang|confirm)\b| play\b| bot\b)"
    r"|data-game|qpanel|qpick|stack-pop|queen-meter|\.hand\b|(?:^|[\s,])\.q[a-z]|GameString|\b(?:White|Black|South|North)\b"
)


@pytest.mark.parametrize("name", SHELL)
def test_the_page_shell_names_no_game(name: str) -> None:
    text = (WEB / name).read_text(encoding="utf-8")
    assert [m.group() for m in GAME_WORDS.finditer(text)] == []


def test_every_game_on_offer_has_a_page_module_served_from_its_package() -> None:
    assert on_page() == ["hive", "hivequeen"]
    for kind in on_page():
        page = plugin_of(kind).page_file(f"{kind}.js")
        assert page is not None, kind
        module = page.read_text(encoding="utf-8")
        for name in ("renderOptions", "options", "init", "hide", "renderBoard", "renderPanel", "renderCard"):
            assert re.search(rf"export (async )?function {name}\(", module), (kind, name)
        assert plugin_of(kind).page_file(f"{kind}.css") is not None, kind

    async def main() -> None:
        app = create_app(":memory:", workers=0)
        async with client(app) as c:
            for name in (
                "hive.js",
                "hive.css",
                "hive-editor.js",
                "hivequeen.js",
                "hivequeen-field.js",
                "hivequeen-premove.js",
            ):
                r = await c.get(f"/static/games/{name}")
                kind = r.headers["content-type"].split(";")[0]
                assert r.status_code == 200 and kind in ("text/javascript", "text/css"), (name, kind)
            # a file of one package is not found under another's name, nor outside the folders served
            for name in ("hive-field.js", "hivequeen-editor.js", "..%2F..%2Fgame.py", "chess.js", "hive.md"):
                assert (await c.get(f"/static/games/{name}")).status_code == 404, name
            # the shell's files and each domain's page modules, at the paths their imports name
            for path in SHELL:
                url = path.replace("/static/", "/").removeprefix("static/")
                r = await c.get(f"/static/{url}")
                assert r.status_code == 200 and r.text == (WEB / path).read_text(encoding="utf-8"), path
        await app.close()

    run(main)


def test_websocket_clients_see_each_move(tmp_path: Path) -> None:
    """Over a real server: a player's and a spectator's sockets both get the move played by the other player."""

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url) as c:
            game = (await c.post("/api/games", json={"mode": "online"})).json()
            ws_url = url.replace("http", "ws") + f"ws/games/{game['id']}"
            async with (
                websockets.connect(f"{ws_url}?token={game['invite']}") as black,
                websockets.connect(ws_url) as spectator,
            ):
                assert (await state_where(black, lambda s: True))["seats"] == [1]
                assert (await state_where(spectator, lambda s: True))["moves"] == []
                r = await c.post(
                    f"/api/games/{game['id']}/move", json={"move": "wA1"}, headers={"x-seat-token": game["token"]}
                )
                assert r.status_code == 200
                assert (await state_where(black, lambda s: s["moves"] != []))["moves"] == ["wA1"]
                assert (await state_where(spectator, lambda s: s["moves"] != []))["moves"] == ["wA1"]
                await black.send("ping")
                while (answer := await black.recv()) != "pong":
                    assert json.loads(answer)["moves"] == ["wA1"]
            with pytest.raises(websockets.exceptions.InvalidStatus):
                async with websockets.connect(url.replace("http", "ws") + "ws/games/nope") as ws:
                    await ws.recv()

    with server_thread(tmp_path / "games.sqlite3") as url:
        asyncio.run(main(url))


def test_the_page_names_each_element_once() -> None:
    """Every ``id`` in the page is unique: the page's modules find their parts by id, and a second element of the
    same id hides from them (the live region of announcements was once shadowed so)."""
    ids = re.findall(r'\bid="([^"]+)"', (STATIC / "index.html").read_text())
    assert sorted({i for i in ids if ids.count(i) > 1}) == []


def test_every_page_import_names_a_served_module() -> None:
    """A page module's relative imports resolve, at the URLs the modules are served from, to a file of the shell, of
    a domain's page modules or of a game's, the names it imports are exported there, and no name is imported twice
    (a module moved without its importers, or an import merged twice, would only fail in the browser)."""
    modules = {path.replace("/static/", "/").removeprefix("static/"): WEB / path for path in SHELL}
    games = Path(hive.games.__file__).parent
    modules |= {f"games/{path.name}": path for path in games.glob("*/page/*.js")}
    texts = {url: path.read_text(encoding="utf-8") for url, path in modules.items() if path.suffix == ".js"}
    imports = re.compile(r"""(?:from\s+|import\s*\(\s*|import\s+)["'](\.{1,2}/[^"'$]+)["']""")
    named = re.compile(r"""^import \{([^}]*)\} from ["']([^"']+)["']""", re.MULTILINE)
    declared = re.compile(r"export (?:async )?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)")
    listed = re.compile(r"export \{([^}]*)\}")
    for url, text in texts.items():
        for target in imports.findall(text):
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(url), target))
            assert resolved in modules, (url, target)
        seen: list[str] = []
        for names, target in named.findall(text):
            source = texts[posixpath.normpath(posixpath.join(posixpath.dirname(url), target))]
            exported = set(declared.findall(source))
            exported |= {
                part.split(" as ")[-1].strip() for group in listed.findall(source) for part in group.split(",")
            }
            for part in filter(None, (part.strip() for part in names.split(","))):
                assert part.split(" as ")[0].strip() in exported, (url, part, target)
                seen.append(part.split(" as ")[-1].strip())
        assert sorted(seen) == sorted(set(seen)), (url, "a name imported twice")
