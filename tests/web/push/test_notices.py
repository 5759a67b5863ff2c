"""What the push notifications ask of the rest of the server: only the process an event happened in sends its
notification (every process hears every event), and a push service that is slow to answer delays neither the move
that called for the notification nor the next ones."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.web.lobby.events import SeekOpened
from hive.web.play.events import MoveMade
from hive.web.push import Notices, Notification, Sender, Subscription
from hive.web.push.sending import _public
from hive.web.shared.settings import Settings

from ...web_support import in_process
from ..api_support import PASSWORD, other, play_moves
from ..push_support import SLOW, Browser, push_service


def test_only_the_process_an_event_happened_in_notices_it() -> None:
    async def main() -> None:
        notices = Notices(Any, Any, Any, Any, "here")  # type: ignore[arg-type]
        await notices.hear(MoveMade("g1", 2, "move", origin="elsewhere"))
        assert notices.heard.qsize() == 0
        await notices.hear(MoveMade("g1", 2, "move", origin="here"))
        await notices.hear(SeekOpened("s1", ("a", "b"), {}, player="ann", to="bob"))  # told here first: no origin
        assert notices.heard.qsize() == 2

    asyncio.run(main())


@pytest.mark.timing
def test_a_slow_push_service_delays_no_move(tmp_path: Path) -> None:
    settings = Settings(accounts=True, push_loopback=True)

    async def main() -> None:
        with push_service() as service:
            async with in_process(tmp_path / "games.sqlite3", settings=settings) as (app, c):
                players: dict[str, tuple[httpx.AsyncClient, str]] = {}
                for number, name in enumerate(["ann", "bob"], start=1):
                    await app.accounts.sign_up({"name": name, "password": PASSWORD}, f"10.4.0.{number}")
                    client = other(c)
                    signed = (await client.post("/api/session", json={"name": name, "password": PASSWORD})).json()
                    players[name] = (client, signed["csrf"])
                for name, (client, csrf) in players.items():
                    body = Browser().subscription(f"{service.origin}/slow/{name}")
                    subscribed = await client.post("/api/push/subscribe", json=body, headers={"x-csrf-token": csrf})
                    assert subscribed.is_success, subscribed.text
                ann, bob = players["ann"], players["bob"]
                body = {"to": "bob", "game": "Base", "time_control": {"days": 3}, "rated": False}
                challenge = await ann[0].post("/api/challenges", json=body, headers={"x-csrf-token": ann[1]})
                accept = f"/api/challenges/{challenge.json()['id']}/accept"
                game_id = (await bob[0].post(accept, headers={"x-csrf-token": bob[1]})).json()["id"]
                names = (await c.get(f"/api/games/{game_id}")).json()["names"]
                began = time.monotonic()
                for ply in range(6):  # each move tells the other player, whose push service takes SLOW seconds
                    client, csrf = players[names[ply % 2]]
                    await play_moves(client, csrf, game_id, "Base", 1, ply)
                moved = time.monotonic() - began
                assert moved < SLOW, moved
                await app.notices.settle()
                assert time.monotonic() - began >= SLOW
                assert len(service.received) == 7  # the challenge, and the six turns

    asyncio.run(main())


@pytest.mark.parametrize(
    ("endpoint", "public"),
    [
        ("https://127.0.0.1:8443/x", False),
        ("https://localhost/x", False),
        ("https://10.0.0.1/x", False),
        ("https://[::1]/x", False),
        ("https://93.184.215.14/x", True),
    ],
)
def test_a_host_of_this_machine_or_a_private_network_is_never_sent_to(endpoint: str, public: bool) -> None:
    """Whatever a subscription's endpoint passed at the door, the sender looks at its host's addresses again."""
    assert asyncio.run(_public(endpoint)) is public


def test_the_sender_refuses_an_endpoint_that_leads_here() -> None:
    async def main() -> None:
        with push_service() as service:
            sender = Sender(None, "mailto:club@example.org")  # type: ignore[arg-type]
            keys = Browser().subscription(service.endpoint("ann"))["keys"]
            subscription = Subscription("s", "a", service.endpoint("ann"), keys["p256dh"], keys["auth"], frozenset())
            async with httpx.AsyncClient() as client:
                assert await sender.send(client, Notification(subscription, {"title": "x"}, 60)) is None
            assert service.received == [] and sender.failed == 1

    asyncio.run(main())
