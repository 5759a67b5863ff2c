"""The authorization matrix of ``hive serve``: every account, lobby, bot, admin and game endpoint asked by a guest,
an account playing no part, each of a game's two players, a bot (by its API token), an admin, and the admin's own
API token (``admin_token``: a token plays and reads, but changes no account and does no admin's action), each with
the credentials and CSRF token they would have. Each answer's status is checked against the table below."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

import hive

from ...web_support import in_process, server_thread
from ..api_support import PASSWORD, SERVER, other
from ..push_support import Browser
from ..socket_support import account, lobby, message, until_pong, ws_url

ACTORS = ("guest", "account", "player", "opponent", "bot", "admin")
#: Who asks every row of the matrix: the actors, and the admin's API token (of scope ``bot``), which answers as the
#: admin does unless the row says otherwise.
ASKERS = (*ACTORS, "admin_token")
#: A token asked to change the account or do an admin's action: 403, naming the scope needed.
SCOPE = -403


class Actor:
    """Someone asking: their client (cookies kept) and the headers they send with a change."""

    def __init__(self, name: str, client: httpx.AsyncClient, headers: dict[str, str]) -> None:
        self.name = name
        self.client = client
        self.headers = headers

    async def ask(self, method: str, path: str, body: Any = None) -> int:
        r = await self.client.request(method, path, json=body, headers=self.headers)
        self.last = r
        return r.status_code


#: A browser's push subscription (keys made as a browser makes them), and an endpoint nobody subscribed.
PUSH = Browser().subscription("https://push.example.net/wpush/v2/authorization")
NO_PUSH = "https://push.example.net/wpush/v2/nobody"
#: The answers of a change only a signed-in session may make, but theirs.
SESSIONS = {"guest": 401, "bot": SCOPE, "admin_token": SCOPE}
SIGNED, SIGNED_404 = dict.fromkeys((*ACTORS[1:4], "admin"), 200), dict.fromkeys((*ACTORS[1:4], "admin"), 404)
#: An admin's route: the admin's session alone (its token is refused by its scope).
ADMIN_ONLY = {
    "guest": 401,
    "account": 403,
    "player": 403,
    "opponent": 403,
    "bot": SCOPE,
    "admin": 200,
    "admin_token": SCOPE,
}
#: The signed-in accounts (not the bot's token).
OTHERS_200 = dict.fromkeys(("account", "player", "opponent", "admin"), 200)

# (method, path, body, {actor: status}), asked in the order of the row's actors; "{game}", "{seek}", "{victim}",
# "{fresh}" and "{botgame}" are filled in per ask: a fresh seek of the player's, a fresh account, a fresh game
MATRIX: list[tuple[str, str, Any, dict[str, int]]] = [
    ("GET", "/api/session", None, dict.fromkeys(ACTORS, 200)),
    ("GET", "/api/players/player", None, dict.fromkeys(ACTORS, 200)),
    ("GET", "/api/players/nobody", None, dict.fromkeys(ACTORS, 404)),
    ("GET", "/api/players/player/games", None, dict.fromkeys(ACTORS, 200)),
    ("GET", "/api/players/player/records", None, dict.fromkeys(ACTORS, 200)),
    ("GET", "/api/leaderboard", None, dict.fromkeys(ACTORS, 200)),
    ("GET", "/api/live", None, dict.fromkeys(ACTORS, 200)),
    ("GET", "/api/online", None, dict.fromkeys(ACTORS, 200)),
    ("GET", "/api/account/turns", None, {"guest": 401} | dict.fromkeys(ACTORS[1:], 200)),
    ("GET", "/player/player", None, dict.fromkeys(ACTORS, 200)),
    ("GET", "/leaderboard", None, dict.fromkeys(ACTORS, 200)),
    ("GET", "/api/seeks", None, dict.fromkeys(ACTORS, 200)),
    ("GET", "/api/challenges", None, {"guest": 401} | dict.fromkeys(ACTORS[1:], 200)),
    ("GET", "/api/bot/games", None, {"guest": 401} | dict.fromkeys(ACTORS[1:], 200)),
    ("GET", "/api/games/{game}", None, dict.fromkeys(ACTORS, 200)),
    (
        "GET",
        "/api/games/{game}/seat",
        None,
        {"guest": 401, "account": 403, "player": 200, "opponent": 200, "bot": 403, "admin": 403},
    ),
    (
        "POST",
        "/api/seeks",
        {"game": "Base", "time_control": "blitz", "rated": False},
        {"guest": 401} | dict.fromkeys(ACTORS[1:], 200),
    ),
    (
        "POST",
        "/api/seeks/{seek}/accept",
        None,
        {"guest": 401, "account": 200, "player": 403, "opponent": 200, "bot": 200, "admin": 200},
    ),
    (
        "DELETE",
        "/api/seeks/{seek}",
        None,
        {"guest": 401, "account": 403, "player": 200, "opponent": 403, "bot": 403, "admin": 403},
    ),
    ("GET", "/api/quickpair", None, dict.fromkeys(ACTORS, 200)),
    # a click opens a seek, takes the one waiting, or withdraws one's own (the admin's token: the admin's seek)
    (
        "POST",
        "/api/quickpair",
        {"game": "Base", "time_control": {"days": 3}, "rated": False},
        {"guest": 401} | dict.fromkeys(ACTORS[1:], 200),
    ),
    ("POST", "/api/quickpair", {"game": "Base", "time_control": "untimed"}, {"guest": 401, "account": 400, "bot": 400}),
    (
        "POST",
        "/api/challenges",
        {"to": "player", "game": "Base", "rated": False},
        {"guest": 401, "account": 200, "player": 400, "opponent": 200, "bot": 200, "admin": 200},
    ),
    # changing the account, and an admin's actions, need a signed-in session: an API token is refused by its scope
    (
        "POST",
        "/api/account/token",
        None,
        {"guest": 401, "bot": SCOPE, "admin_token": SCOPE}
        | dict.fromkeys(("account", "player", "opponent", "admin"), 200),
    ),
    ("POST", "/api/account/token", {"scope": "everything"}, {"account": 400, "bot": SCOPE}),
    # a token never lists nor revokes tokens (its own included): the account's session does, with its CSRF token
    (
        "GET",
        "/api/account/tokens",
        None,
        {"guest": 401, "bot": SCOPE, "admin_token": SCOPE}
        | dict.fromkeys(("account", "player", "opponent", "admin"), 200),
    ),
    (
        "DELETE",
        "/api/account/tokens/0123456789abcdef",
        None,
        {"guest": 401, "bot": SCOPE, "admin_token": SCOPE}
        | dict.fromkeys(("account", "player", "opponent", "admin"), 404),
    ),
    # finding players is anyone's; following is the account's own doing (reading whom it follows, its token's too)
    ("GET", "/api/players?prefix=pla", None, dict.fromkeys(ACTORS, 200)),
    ("GET", "/api/follows", None, {"guest": 401} | dict.fromkeys(ACTORS[1:], 200)),
    (
        "POST",
        "/api/follows",
        {"name": "player"},
        {
            "guest": 401,
            "account": 200,
            "player": 400,
            "opponent": 200,
            "bot": SCOPE,
            "admin": 200,
            "admin_token": SCOPE,
        },
    ),
    (
        "DELETE",
        "/api/follows/player",
        None,
        {
            "guest": 401,
            "account": 200,
            "player": 400,
            "opponent": 200,
            "bot": SCOPE,
            "admin": 200,
            "admin_token": SCOPE,
        },
    ),
    (
        "POST",
        "/api/account/language",
        {"language": "en"},  # English kept: the matrix reads the scope's refusal in its words
        {"guest": 401, "bot": SCOPE, "admin_token": SCOPE}
        | dict.fromkeys(("account", "player", "opponent", "admin"), 200),
    ),
    ("POST", "/api/account/language", {"language": "klingon"}, {"account": 400, "bot": SCOPE}),
    (
        "POST",
        "/api/session/password",
        {"old": "not the password", "new": "whatever it is"},
        {"guest": 401, "bot": SCOPE, "admin_token": SCOPE}
        | dict.fromkeys(("account", "player", "opponent", "admin"), 401),
    ),
    ("POST", "/api/account/bot", None, {"guest": 401, "bot": SCOPE, "admin_token": SCOPE}),
    ("DELETE", "/api/session", None, {"guest": 401, "bot": SCOPE, "admin_token": SCOPE}),
    (
        "POST",
        "/api/tournaments",
        {"name": "Token cup", "format": "round-robin", "game": "Base", "rated": False},
        {"guest": 401, "bot": SCOPE, "admin_token": SCOPE, "account": 200},
    ),
    (
        "GET",
        "/api/admin/reports",
        None,
        {
            "guest": 401,
            "account": 403,
            "player": 403,
            "opponent": 403,
            "bot": SCOPE,
            "admin": 200,
            "admin_token": SCOPE,
        },
    ),
    (
        "POST",
        "/api/admin/accounts/{victim}/ban",
        {"banned": True},
        {
            "guest": 401,
            "account": 403,
            "player": 403,
            "opponent": 403,
            "bot": SCOPE,
            "admin": 200,
            "admin_token": SCOPE,
        },
    ),
    (
        "POST",
        "/api/admin/accounts/{victim}/password",
        None,
        {
            "guest": 401,
            "account": 403,
            "player": 403,
            "opponent": 403,
            "bot": SCOPE,
            "admin": 200,
            "admin_token": SCOPE,
        },
    ),
    (
        "DELETE",
        "/api/admin/accounts/{victim}",
        None,
        {
            "guest": 401,
            "account": 403,
            "player": 403,
            "opponent": 403,
            "bot": SCOPE,
            "admin": 200,
            "admin_token": SCOPE,
        },
    ),
    # the game's chat: the players' room is its two players'; the spectators' room is everyone else's while it goes on
    (
        "GET",
        "/api/games/{game}/chat?room=players",
        None,
        {"guest": 403, "account": 403, "player": 200, "opponent": 200, "bot": 403, "admin": 403},
    ),
    (
        "POST",
        "/api/games/{game}/chat",
        {"room": "players", "text": "good luck"},
        {"guest": 401, "account": 403, "player": 200, "opponent": 200, "bot": 403, "admin": 403},
    ),
    (
        "GET",
        "/api/games/{game}/chat?room=spectators",
        None,
        {"guest": 200, "account": 200, "player": 403, "opponent": 403, "bot": 200, "admin": 200},
    ),
    (
        "POST",
        "/api/games/{game}/chat",
        {"room": "spectators", "text": "go"},
        {"guest": 401, "account": 200, "player": 403, "opponent": 403, "bot": 200, "admin": 200},
    ),
    # reports and blocks are the account's own doing, not its token's
    (
        "POST",
        "/api/chat/99999/report",
        None,
        {"guest": 401, "bot": SCOPE, "admin_token": SCOPE} | dict.fromkeys(ACTORS[1:4], 404) | {"admin": 404},
    ),
    # a report is a reader's of the message's room (any other is told there is no such message), once each: asked
    # again, it says so and is stored once; it is the account's own doing, not its token's
    (
        "POST",
        "/api/chat/{said:players}/report",
        None,
        {
            "guest": 401,
            "account": 404,
            "player": 200,
            "opponent": 200,
            "bot": SCOPE,
            "admin": 404,
            "admin_token": SCOPE,
        },
    ),
    (
        "POST",
        "/api/chat/{said:spectators}/report",
        None,
        {
            "guest": 401,
            "account": 200,
            "player": 404,
            "opponent": 404,
            "bot": SCOPE,
            "admin": 200,
            "admin_token": SCOPE,
        },
    ),
    (
        "POST",
        "/api/account/block",
        {"name": "chief"},
        {"guest": 401, "admin": 400, "bot": SCOPE, "admin_token": SCOPE} | dict.fromkeys(ACTORS[1:4], 200),
    ),
    (
        "POST",
        "/api/account/unblock",
        {"name": "chief"},
        {"guest": 401, "admin": 400, "bot": SCOPE, "admin_token": SCOPE} | dict.fromkeys(ACTORS[1:4], 200),
    ),
    # the game's actions: only its players, by their sessions; the opponent is not to move
    (
        "POST",
        "/api/games/{game}/move",
        "MOVE",
        {"guest": 403, "account": 403, "opponent": 409, "bot": 403, "admin": 403, "player": 200},
    ),
    (
        "POST",
        "/api/games/{game}/offer",
        {"what": "draw"},
        {"guest": 403, "account": 403, "bot": 403, "admin": 403, "player": 200},
    ),
    (
        "POST",
        "/api/games/{game}/answer",
        {"accept": False},
        {"guest": 403, "account": 403, "bot": 403, "admin": 403, "player": 409, "opponent": 200},
    ),
    ("DELETE", "/api/games/{game}", None, dict.fromkeys(ACTORS, 403)),
    # Web Push: the key is public; a subscription is a signed-in page's (an API token is refused)
    ("GET", "/api/push/key", None, dict.fromkeys(ACTORS, 200)),
    ("POST", "/api/push/subscribe", PUSH, SESSIONS | dict.fromkeys(ACTORS[1:4], 200) | {"admin": 200}),
    ("GET", f"/api/push/subscription?endpoint={PUSH['endpoint']}", None, SESSIONS | SIGNED),
    ("POST", "/api/push/preferences", {"endpoint": NO_PUSH, "kinds": []}, SESSIONS | SIGNED_404),
    ("POST", "/api/push/unsubscribe", {"endpoint": PUSH["endpoint"]}, SESSIONS | SIGNED),
    # aborting a game before both sides moved: either of its players, on a game of their own ("{fresh}": the
    # player's and the opponent's, "{botgame}": the player's and the bot's, new for each ask); never a spectator
    (
        "POST",
        "/api/games/{fresh}/abort",
        {},
        {"guest": 403, "account": 403, "bot": 403, "admin": 403, "player": 200, "opponent": 200},
    ),
    (
        "POST",
        "/api/games/{botgame}/abort",
        {},
        {"guest": 403, "account": 403, "opponent": 403, "admin": 403, "bot": 200, "player": 200},
    ),
    ("POST", "/api/games/{game}/resign", {}, {"guest": 403, "account": 403, "bot": 403, "admin": 403, "player": 200}),
    # the rematch of the game over: the player offers it, the opponent asking too accepts it; a spectator (the guest,
    # the accounts playing no part) gets nothing
    (
        "POST",
        "/api/games/{game}/rematch",
        None,
        {"guest": 401, "account": 403, "bot": 403, "admin": 403, "player": 200, "opponent": 200},
    ),
    # (last: a game whose first move waits too long is aborted) the admin screen and the admins' API: the admin's
    # session alone; a report marked handled, an account muted, a one-time reset link issued
    *(
        (method, path, body, ADMIN_ONLY)
        for method, path, body in [
            ("GET", "/admin", None),
            ("GET", "/api/admin/audit", None),
            ("POST", "/api/admin/reports/{said:players}/handled", {"handled": True}),
            ("POST", "/api/admin/accounts/{victim}/mute", {"muted": True}),
            ("POST", "/api/admin/accounts/{victim}/reset", None),
        ]
    ),
    # the account's own e-mail address: its session's, never a token's; a reset link unknown, and a forgotten
    # password on a server that sends no mail, are 404 to everyone
    ("GET", "/api/account/email", None, {"guest": 401, "bot": SCOPE, "admin_token": SCOPE} | OTHERS_200),
    (
        "POST",
        "/api/account/email",
        {"email": "someone@example.org"},
        {"guest": 401, "bot": SCOPE, "admin_token": SCOPE} | OTHERS_200,
    ),
    ("POST", "/api/password/reset", {"token": "x" * 43, "password": "whatever it is"}, dict.fromkeys(ACTORS, 404)),
    ("GET", "/api/password/reset/" + "x" * 43, None, dict.fromkeys(ACTORS, 404)),
    ("POST", "/api/password/forgot", {"name": "player"}, dict.fromkeys(ACTORS, 404)),
]


def test_the_authorization_matrix(tmp_path: Path) -> None:
    async def main() -> None:
        # the game's first move comes after many rows: on a busy machine later than the 30 s a first move has
        settings = replace(SERVER, first_move=3600.0)
        async with in_process(tmp_path / "db.sqlite3", settings=settings) as (app, c):
            actors: dict[str, Actor] = {"guest": Actor("guest", other(c), {})}
            made_from = 0

            async def make(name: str) -> None:
                nonlocal made_from
                made_from += 1  # an address makes few accounts an hour: each from its own
                await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.1.0.{made_from}")

            for name in ("account", "player", "opponent", "admin", "bot"):
                client = other(c)
                login = {"admin": "chief", "bot": "robo"}.get(name, name)
                await make(login)
                signed = (await client.post("/api/session", json={"name": login, "password": PASSWORD})).json()
                actors[name] = Actor(name, client, {"x-csrf-token": signed["csrf"]})
            await app.accounts.set_admin("chief", True)
            admin = actors["admin"]
            token = (await admin.client.post("/api/account/token", headers=admin.headers)).json()["token"]
            actors["admin_token"] = Actor("admin_token", other(c), {"authorization": f"Bearer {token}"})
            bot = actors["bot"]
            assert (await bot.client.post("/api/account/bot", headers=bot.headers)).status_code == 200
            token = (await bot.client.post("/api/account/token", headers=bot.headers)).json()["token"]
            actors["bot"] = Actor("bot", other(c), {"authorization": f"Bearer {token}"})
            player, opponent = actors["player"], actors["opponent"]
            offer = {"game": "Base", "time_control": "blitz", "colour": "white"}
            seek = (await player.client.post("/api/seeks", json=offer, headers=player.headers)).json()
            game = (await opponent.client.post(f"/api/seeks/{seek['id']}/accept", headers=opponent.headers)).json()
            game_id = game["id"]
            said = {}  # a message in each room of the game, by one who may write there
            for room, writer in (("players", opponent), ("spectators", actors["account"])):
                body = {"room": room, "text": "a message to report"}
                message = await writer.client.post(f"/api/games/{game_id}/chat", json=body, headers=writer.headers)
                said[room] = str(message.json()["id"])
            victims = 0
            failures = []
            for method, path, body, row in MATRIX:
                expected = row if "admin_token" in row or "admin" not in row else row | {"admin_token": row["admin"]}
                for actor_name in expected:  # in the row's order: who acts last changes the game
                    actor = actors[actor_name]
                    filled = path.replace("{game}", game_id)
                    for room, message_id in said.items():
                        filled = filled.replace(f"{{said:{room}}}", message_id)
                    seek_id = None
                    if "{seek}" in filled:
                        fresh = await player.client.post(
                            "/api/seeks", json={"game": "Base", "rated": False}, headers=player.headers
                        )
                        seek_id = fresh.json()["id"]
                        filled = filled.replace("{seek}", seek_id)
                    for mark, taker in (("{fresh}", opponent), ("{botgame}", actors["bot"])):
                        if mark in filled:
                            fresh = await player.client.post("/api/seeks", json=offer, headers=player.headers)
                            accept = f"/api/seeks/{fresh.json()['id']}/accept"
                            started = await taker.client.post(accept, headers=taker.headers)
                            filled = filled.replace(mark, started.json()["id"])
                    if "{victim}" in filled:
                        victims += 1
                        await make(f"victim{victims}")
                        filled = filled.replace("{victim}", f"victim{victims}")
                    sent = body
                    if body == "MOVE":
                        state = (await c.get(f"/api/games/{game_id}")).json()
                        board = hive.Board("Base")
                        for text in state["moves"]:
                            board.push_text(text)
                        sent = {"move": board.move_text(next(iter(board.legal_moves)))}
                    status = await actor.ask(method, filled, sent)
                    if path == "/api/account/token" and actor_name == "admin" and status == 200:
                        fresh_token = actor.last.json()["token"]  # in place of the admin's token: ask with the new one
                        actors["admin_token"].headers = {"authorization": f"Bearer {fresh_token}"}
                    if seek_id is not None:  # the player's seeks open stay few
                        await player.ask("DELETE", f"/api/seeks/{seek_id}")
                    if expected[actor_name] == SCOPE:  # a 403 that names the scope needed
                        error = actor.last.json().get("error", "") if status == 403 else ""
                        status = SCOPE if "scope, which only a signed-in session has" in error else status
                    if status != expected[actor_name]:
                        failures.append(f"{actor_name} {method} {path}: {status}, expected {expected[actor_name]}")
            assert failures == [], "\n".join(failures)
            # each report was stored once, however often it was made (the bot's token may not report)
            reports = (await actors["admin"].client.get("/api/admin/reports")).json()["reports"]
            assert sorted((r["room"], r["reports"]) for r in reports) == [("players", 2), ("spectators", 2)]
            again = await player.client.post(f"/api/chat/{said['players']}/report", headers=player.headers)
            assert again.json() == {"reported": int(said["players"]), "already": True}
            # the rematch started: each answer carries its asker's own seat's token, never the other's
            tokens = {}
            for name in ("player", "opponent"):
                who = actors[name]
                answer = (await who.client.post(f"/api/games/{game_id}/rematch", headers=who.headers)).json()
                seat = (await who.client.get(f"/api/games/{answer['id']}/seat")).json()
                assert answer["token"] == seat["token"] and answer["invite"] is None
                tokens[name] = seat["token"]
            assert tokens["player"] != tokens["opponent"]
            # without the CSRF token, a session changes nothing
            for actor_name in ("account", "player", "admin"):
                bare = Actor(actor_name, actors[actor_name].client, {})
                assert await bare.ask("POST", "/api/seeks", {"game": "Base", "rated": False}) == 403
                assert await bare.ask("DELETE", "/api/session") == 403

    asyncio.run(main())


def test_the_lobby_socket_shows_a_challenge_to_its_two_players_alone(tmp_path: Path) -> None:
    """``/ws/lobby`` asked by each actor (a guest; accounts by their cookie; the bot by its API token): everyone sees
    an open seek, only the challenged player and the challenger see a challenge, and a bad API token is refused."""
    import websockets

    async def main(url: str) -> None:
        clients = [httpx.AsyncClient(base_url=url, timeout=30) for _ in ACTORS]
        try:
            login = {"admin": "chief", "bot": "robo"}
            people = {
                name: await account(client, login.get(name, name))
                for name, client in zip(ACTORS[1:], clients[1:], strict=True)
            }
            bot = people["bot"]
            assert (await bot["client"].post("/api/account/bot", headers=bot["headers"])).status_code == 200
            token = (await bot["client"].post("/api/account/token", headers=bot["headers"])).json()["token"]
            sockets = {"guest": await lobby(url)}
            for name, who in people.items():
                if name == "bot":  # by its API token, as a bot's program connects
                    ws: Any = await websockets.connect(
                        ws_url(url, "ws/lobby"), additional_headers={"authorization": f"Bearer {token}"}
                    )
                    ws.hello = await message(ws, lambda m: m["type"] == "hello")
                    sockets[name] = ws
                else:
                    sockets[name] = await lobby(url, who)
            assert {name: ws.hello["name"] for name, ws in sockets.items()} == {"guest": None} | {
                name: login.get(name, name) for name in ACTORS[1:]
            }
            player, opponent = people["player"], people["opponent"]
            body = {"to": "player", "game": "Base", "rated": False}
            assert (await opponent["client"].post("/api/challenges", json=body, headers=opponent["headers"])).is_success
            seek = {"game": "Base", "rated": False}
            assert (await player["client"].post("/api/seeks", json=seek, headers=player["headers"])).is_success
            for name, ws in sockets.items():
                seen = await until_pong(ws)
                while not any(m["type"] == "seek" for m in seen):  # the seek was opened after the challenge
                    seen += await until_pong(ws)
                challenged = [m["challenge"]["to"] for m in seen if m["type"] == "challenge"]
                assert challenged == (["player"] if name in ("player", "opponent") else []), (name, seen)
                await ws.close()
            refused = await websockets.connect(
                ws_url(url, "ws/lobby"), additional_headers={"authorization": "Bearer hive_not_a_token"}
            )
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(refused.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        finally:
            for client in clients:
                await client.aclose()

    with server_thread(tmp_path / "db.sqlite3", settings=SERVER) as url:
        asyncio.run(main(url))
