"""Web Push end to end, with a push service on this machine standing in for the browser vendor's: a player's
subscription is sent "your turn" when the opponent moved and the player has no page of the game open (and not while
one is open), a challenge
and a tournament's start likewise, each as the real protocol sends it (the VAPID header's ES256 JWT checked against
the server's public key, ``Content-Encoding: aes128gcm``, ``TTL``, the body decrypted with the keys the test made as a
browser makes them); the notifications a subscription asked for are the only ones it gets, and a subscription its
push service says is gone (410) is deleted. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx

from hive.web.shared.settings import Settings

from ...web_support import in_process
from ..api_support import PASSWORD, other, play_moves
from ..push_support import Browser, PushService, Received, check_vapid, push_service

CONTACT = "mailto:club@example.org"
SETTINGS = Settings(accounts=True, push_loopback=True, push_contact=CONTACT)


def test_a_subscription_is_sent_its_turn_a_challenge_and_a_tournaments_start_in_the_real_protocol(
    database: str,
) -> None:
    async def main(service: PushService) -> None:
        async with in_process(database, settings=SETTINGS) as (app, c):
            players: dict[str, tuple[httpx.AsyncClient, dict[str, str]]] = {}
            for number, name in enumerate(["ann", "bob", "cyd", "dee"], start=1):
                await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.3.0.{number}")
                client = other(c)
                signed = (await client.post("/api/session", json={"name": name, "password": PASSWORD})).json()
                players[name] = (client, {"x-csrf-token": signed["csrf"]})
            key = (await c.get("/api/push/key")).json()
            assert key["kinds"] == ["turn", "challenge", "tournament"] and len(key["key"]) == 87
            browsers = {name: Browser() for name in players}
            wanted = {"ann": None, "bob": ["challenge"], "dee": ["challenge"]}
            for name, kinds in wanted.items():
                client, csrf = players[name]
                endpoint = service.endpoint(name) if name != "dee" else f"{service.origin}/gone/dee"
                more = {"language": "en"} if kinds is None else {"kinds": kinds, "language": "de"}
                body = browsers[name].subscription(endpoint, **more)
                r = await client.post("/api/push/subscribe", json=body, headers=csrf)
                assert r.status_code == 200, r.text
                assert r.json() == {"subscribed": True, "kinds": sorted(kinds or key["kinds"])}

            def opened(name: str, received: Received) -> dict[str, Any]:
                """The message as the subscription's browser reads it, once its protocol is checked."""
                headers = received.headers
                assert headers["content-encoding"] == "aes128gcm"
                assert headers["content-type"] == "application/octet-stream"
                assert int(headers["ttl"]) > 0 and headers["urgency"] in ("normal", "high")
                check_vapid(headers["authorization"], key["key"], service.origin, CONTACT, time.time())
                message: dict[str, Any] = json.loads(browsers[name].decrypt(received.body))
                return message

            # a challenge: its player is told; the challenger is not
            ann, ann_csrf = players["ann"]
            body = {"to": "bob", "game": "Base", "time_control": {"days": 3}, "rated": False}
            challenge = await ann.post("/api/challenges", json=body, headers=ann_csrf)
            assert challenge.status_code == 200, challenge.text
            await app.notices.settle()
            assert [r.path for r in service.received] == ["/push/bob"]
            told = opened("bob", service.received[0])  # in the language of bob's page, German
            assert told["kind"] == "challenge" and told["title"] == "Eine Herausforderung für dich"
            assert "ann fordert dich zu einer Partie Grundspiel heraus (3 Tage pro Zug)" in told["body"]
            # the game it starts, by correspondence: ann's turn is told to ann, whose page is closed; bob, who asked
            # for challenges only, is told nothing of his
            bob, bob_csrf = players["bob"]
            accepted = await bob.post(f"/api/challenges/{challenge.json()['id']}/accept", headers=bob_csrf)
            assert accepted.status_code == 200, accepted.text
            game_id = accepted.json()["id"]
            names = (await c.get(f"/api/games/{game_id}")).json()["names"]
            first = players[names[0]]
            await play_moves(first[0], first[1]["x-csrf-token"], game_id, "Base", 1, 1)
            if names[0] == "ann":
                await play_moves(bob, bob_csrf["x-csrf-token"], game_id, "Base", 1, 2)
            await app.notices.settle()
            assert len(service.to("/push/bob")) == 1
            [turn] = service.to("/push/ann")
            told = opened("ann", turn)
            assert told["kind"] == "turn" and told["title"] == "Your turn" and told["game_id"] == game_id
            assert told["url"] == f"/game/{game_id}" and "bob moved in your game of Base" in told["body"]
            assert turn.headers["ttl"] == "86400" and turn.headers["urgency"] == "high"
            # with a page of the game open (on any process), ann is not told of her turn
            seat = frozenset({names.index("ann")})
            await app.watching.opened(game_id, seat)
            await play_moves(ann, ann_csrf["x-csrf-token"], game_id, "Base", 1, 5)
            await play_moves(bob, bob_csrf["x-csrf-token"], game_id, "Base", 1, 6)
            await app.notices.settle()
            assert len(service.to("/push/ann")) == 1
            await app.watching.closed(game_id, seat)
            # ann now asks for tournaments only: her next turn is not told, her tournament's start is
            endpoint = service.endpoint("ann")
            chose = await ann.post("/api/push/preferences", json={"endpoint": endpoint, "kinds": ["tournament"]},
                                   headers=ann_csrf)  # fmt: skip
            assert chose.json() == {"subscribed": True, "kinds": ["tournament"]}
            status = (await ann.get("/api/push/subscription", params={"endpoint": endpoint})).json()
            assert status == {"subscribed": True, "kinds": ["tournament"]}
            await play_moves(ann, ann_csrf["x-csrf-token"], game_id, "Base", 1, 3)
            await play_moves(bob, bob_csrf["x-csrf-token"], game_id, "Base", 1, 4)
            cyd, cyd_csrf = players["cyd"]
            made = await cyd.post("/api/tournaments", headers=cyd_csrf, json={
                "name": "Sunday Swiss", "format": "swiss", "rounds": 1, "game": "Base", "time_control": "blitz",
            })  # fmt: skip
            tid = made.json()["id"]
            for client, csrf in (players["ann"], players["bob"]):
                assert (await client.post(f"/api/tournaments/{tid}/join", headers=csrf)).is_success
            assert (await cyd.post(f"/api/tournaments/{tid}/start", headers=cyd_csrf)).is_success
            await app.notices.settle()
            assert len(service.to("/push/bob")) == 1
            [_, started] = service.to("/push/ann")
            told = opened("ann", started)
            assert told["kind"] == "tournament" and told["title"] == "Your tournament starts"
            assert "Sunday Swiss has started" in told["body"] and told["url"] == f"/tournament/{tid}"
            # a subscription its push service says is gone is deleted
            dee = players["dee"][0]
            gone = f"{service.origin}/gone/dee"
            assert (await dee.get("/api/push/subscription", params={"endpoint": gone})).json()["subscribed"]
            body = {"to": "dee", "game": "Base", "time_control": {"days": 3}, "rated": False}
            assert (await ann.post("/api/challenges", json=body, headers=ann_csrf)).is_success
            await app.notices.settle()
            assert len(service.to("/gone/dee")) == 1
            assert not (await dee.get("/api/push/subscription", params={"endpoint": gone})).json()["subscribed"]
            assert app.notices.sender.sent == 3 and app.notices.sender.failed == 1

    with push_service() as service:
        asyncio.run(main(service))
