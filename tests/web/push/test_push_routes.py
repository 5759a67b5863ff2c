"""Web Push's routes at their boundary: who may subscribe (a signed-in page's session with its CSRF token; not a
guest, not an API token), every value refused with a 400 that names it (an endpoint that is not an https push
service's URL, keys of the wrong lengths or off the curve, unknown kinds), the subscriptions of an account counted
atomically (ten at most, the same browser's again replacing its own), and a server without accounts offering none."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hive.web.push.service import MAX_SUBSCRIPTIONS, check_endpoint
from hive.web.shared.errors import BadRequest
from hive.web.shared.settings import Settings

from ...web_support import in_process
from ..api_support import sign_up
from ..push_support import Browser, b64

ENDPOINT = "https://push.example.net/wpush/v2/abc"


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example.net/x",
        "ftp://push.example.net/x",
        "https://localhost/x",
        "https://push.localhost/x",
        "https://printer.local/x",
        "https://intranet/x",
        "https://127.0.0.1:8443/x",
        "https://10.1.2.3/x",
        "https://192.168.0.9/x",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/x",
        "https://[fd00::1]/x",
        "https://user:secret@push.example.net/x",
        "https://push.example.net/x#fragment",
        "https://push.example.net:99999/x",
        "https://push.example.net/\u202ex",
        "https://push.example.net/a b",
        "https:///x",
        "https://push.example.net/" + "a" * 1024,
        "",
    ],
)
def test_an_endpoint_must_be_a_push_services_https_url_on_the_internet(endpoint: str) -> None:
    with pytest.raises(BadRequest, match="'endpoint'"):
        check_endpoint(endpoint)


def test_a_loopback_server_takes_http_endpoints_on_this_machine() -> None:
    assert check_endpoint("http://127.0.0.1:8123/push/x", loopback=True) == "http://127.0.0.1:8123/push/x"
    assert check_endpoint(ENDPOINT) == ENDPOINT
    with pytest.raises(BadRequest):
        check_endpoint("ftp://127.0.0.1/x", loopback=True)


def test_the_routes_check_who_asks_and_every_value(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "games.sqlite3", settings=Settings(accounts=True)) as (_, c):
            key = await c.get("/api/push/key")
            assert key.status_code == 200 and len(key.json()["key"]) == 87
            browser = Browser()
            good = browser.subscription(ENDPOINT)
            assert (await c.post("/api/push/subscribe", json=good)).status_code == 401
            assert (await c.get("/api/push/subscription", params={"endpoint": ENDPOINT})).status_code == 401
            ann = await sign_up(c, "ann")
            csrf = {"x-csrf-token": ann["csrf"]}
            for path in ("subscribe", "preferences", "unsubscribe"):
                refused = await c.post(f"/api/push/{path}", json={**good, "kinds": ["turn"]})
                assert refused.status_code == 403 and "CSRF" in refused.json()["error"], path
            keys = good["keys"]
            wrong = [
                ({**good, "endpoint": "http://push.example.net/x"}, "'endpoint' must be an https URL"),
                ({**good, "endpoint": "https://10.0.0.8/x"}, "cannot name this machine"),
                ({**good, "endpoint": 12}, "'endpoint' must be a text"),
                ({**good, "endpoint": None}, "'endpoint' must be a text"),
                ({**good, "keys": None}, "'keys' must be an object"),
                ({**good, "keys": {"auth": keys["auth"]}}, "'keys.p256dh' must be a text"),
                ({**good, "keys": {**keys, "p256dh": keys["p256dh"][:-4]}}, "'keys.p256dh' must be a P-256"),
                ({**good, "keys": {**keys, "p256dh": b64(b"\x04" + b"\x01" * 64)}}, "'keys.p256dh' must be a P-256"),
                ({**good, "keys": {**keys, "p256dh": "!" * 87}}, "'keys.p256dh' must be a P-256"),
                ({**good, "keys": {**keys, "auth": b64(b"x" * 15)}}, "'keys.auth' must be 16 bytes"),
                ({**good, "keys": {**keys, "auth": "+/+/+/+/+/+/+/+/+/+/+w"}}, "'keys.auth' must be 16 bytes"),
                ({**good, "keys": {**keys, "auth": "a" * 200}}, "'keys.auth' has at most"),
                ({**good, "kinds": "turn"}, "'kinds' must be a list"),
                ({**good, "kinds": ["turn", "spam"]}, "'kinds' must be a list"),
                ({**good, "kinds": ["turn"] * 4}, "'kinds' must be a list"),
                ({**good, "language": "x" * 30}, "'language' must be a language tag"),
                ({**good, "language": "en\n"}, "'language' must be a language tag"),
            ]
            for body, message in wrong:
                r = await c.post("/api/push/subscribe", json=body, headers=csrf)
                assert r.status_code == 400 and message in r.json()["error"], (body, r.text)
            array = {**csrf, "content-type": "application/json"}
            assert (await c.post("/api/push/subscribe", content=b"[1]", headers=array)).status_code == 400
            # subscribed; its kinds changed; the same browser's subscription again replaces it
            made = await c.post("/api/push/subscribe", json={**good, "kinds": ["turn"]}, headers=csrf)
            assert made.json() == {"subscribed": True, "kinds": ["turn"]}
            again = await c.post("/api/push/subscribe", json=good, headers=csrf)
            assert again.json() == {"subscribed": True, "kinds": ["challenge", "tournament", "turn"]}
            chose = await c.post("/api/push/preferences", json={"endpoint": ENDPOINT, "kinds": []}, headers=csrf)
            assert chose.json() == {"subscribed": True, "kinds": []}
            elsewhere = {"endpoint": ENDPOINT + "x", "kinds": []}
            assert (await c.post("/api/push/preferences", json=elsewhere, headers=csrf)).status_code == 404
            # ten browsers at most, counted atomically: of a burst past the limit, exactly the limit is stored
            bodies = [Browser().subscription(f"{ENDPOINT}/{n}") for n in range(MAX_SUBSCRIPTIONS + 3)]
            answers = await asyncio.gather(*(c.post("/api/push/subscribe", json=b, headers=csrf) for b in bodies))
            statuses = sorted(r.status_code for r in answers)
            assert statuses == [200] * (MAX_SUBSCRIPTIONS - 1) + [429] * 4, statuses
            assert "10 push subscriptions at most" in next(r for r in answers if r.status_code == 429).json()["error"]
            # another account's subscription is not this one's to change or see
            bo = await sign_up(c, "bob")  # the client now signs in as bob
            bob = {"x-csrf-token": bo["csrf"]}
            status = await c.get("/api/push/subscription", params={"endpoint": ENDPOINT})
            assert status.json() == {"subscribed": False, "kinds": []}
            other = await c.post("/api/push/unsubscribe", json={"endpoint": ENDPOINT}, headers=bob)
            assert other.json() == {"deleted": False, "subscribed": False}
            # bob subscribing the same browser takes it over: it is his now, and ann has a place again
            assert (await c.post("/api/push/subscribe", json=good, headers=bob)).json()["subscribed"]
            gone = await c.post("/api/push/unsubscribe", json={"endpoint": ENDPOINT}, headers=bob)
            assert gone.json() == {"deleted": True, "subscribed": False}

    asyncio.run(main())


def test_a_server_without_accounts_offers_no_push(tmp_path: Path) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "games.sqlite3") as (_, c):
            assert (await c.get("/api/push/key")).status_code == 404
            assert (await c.post("/api/push/subscribe", json={})).status_code == 404

    asyncio.run(main())
