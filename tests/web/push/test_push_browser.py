"""Web Push and the installable page in Chromium, at a phone's size and a desktop's: the page links its manifest
(valid: names, standalone, colours, icons of 192 and 512 px and maskable ones, each a PNG of its size), its theme
colour and Apple's touch icon; its service worker registers for the whole site and becomes active under the page's
Content Security Policy; a player turns notifications on from the account's dialog (the browser's permission
granted by Playwright), chooses their kinds and turns them off, the server keeping each change.

A browser subscribes through its vendor's push service (Google's for Chromium), which cannot be reached from here:
the test stands in for ``PushManager.subscribe`` with a subscription whose endpoint is a push service on this machine
and whose keys the test made as a browser makes them. The server's message for that subscription (a challenge) is
taken there, decrypted, and handed to the service worker as its push service would (DevTools' ``deliverPushMessage``),
which shows the notification."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import httpx
import pytest

from hive.web.shared.settings import Settings

from ..browser_support import SIZES, api_account, expect, header_button, open_page, shots_folder, sign_up, sizes
from ..push_support import Browser, push_service

pytestmark = pytest.mark.once

#: Stands in for the vendor's push service: ``subscribe`` answers a subscription to the test's endpoint and keys.
FAKE_PUSH = """
(() => {
  const fake = %s;
  const made = { current: null };
  PushManager.prototype.subscribe = async function (options) {
    window.pushAsked = { userVisibleOnly: options.userVisibleOnly, key: options.applicationServerKey };
    made.current = {
      endpoint: fake.endpoint,
      toJSON() { return { endpoint: fake.endpoint, expirationTime: null, keys: fake.keys }; },
      async unsubscribe() { made.current = null; return true; },
    };
    return made.current;
  };
  PushManager.prototype.getSubscription = async function () { return made.current; };
})();
"""


@pytest.fixture()
def club_settings() -> Settings:
    """The club keeps accounts and takes push endpoints on this machine (the test's push service)."""
    return Settings(accounts=True, push_loopback=True, push_contact="mailto:club@example.org")


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def check_manifest(page: Any, club: str) -> None:
    """The page's manifest, theme colour and touch icon, as a browser installing it reads them."""
    href = page.get_attribute("link[rel=manifest]", "href")
    assert href == "/manifest.webmanifest"
    assert page.get_attribute("meta[name=theme-color]", "content") == "#fffdf8"
    answer = httpx.get(club.rstrip("/") + href)
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert (manifest["name"], manifest["short_name"], manifest["start_url"]) == ("Hive", "Hive", "/")
    assert manifest["display"] == "standalone" and manifest["theme_color"] and manifest["background_color"]
    shown = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert shown == {(size, purpose) for size in ("192x192", "512x512") for purpose in ("any", "maskable")}
    touch = {"src": page.get_attribute("link[rel=apple-touch-icon]", "href"), "sizes": "180x180"}
    for icon in [*manifest["icons"], touch]:
        data = httpx.get(club.rstrip("/") + icon["src"])
        assert data.headers["content-type"] == "image/png"
        assert "x".join(map(str, png_size(data.content))) == icon["sizes"], icon


def active_worker(page: Any) -> dict[str, Any]:
    """The service worker's registration once its worker is active."""
    found: dict[str, Any] = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        const worker = registration.active;
        if (worker.state !== "activated") {
          const active = (done) => () => worker.state === "activated" && done();
          await new Promise((done) => worker.addEventListener("statechange", active(done)));
        }
        return { scope: registration.scope, script: worker.scriptURL, state: worker.state,
                 controlled: !!navigator.serviceWorker.controller };
    }""")
    return found


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_the_page_installs_and_a_player_turns_notifications_on_and_off(
    browser: Any, club: str, device: str, tmp_path: Path
) -> None:
    shots = shots_folder(tmp_path)
    keys = Browser()
    with push_service() as service:
        subscription = keys.subscription(service.endpoint("ann"))
        context = browser.new_context(**SIZES[device])
        try:
            context.grant_permissions(["notifications"], origin=club.rstrip("/"))
            context.add_init_script(FAKE_PUSH % json.dumps(subscription))
            page = open_page(context, club)
            check_manifest(page, club)
            worker = active_worker(page)
            assert worker["scope"] == club and worker["script"] == club + "sw.js" and worker["state"] == "activated"
            sw = httpx.get(club + "sw.js")
            assert (
                sw.headers["content-type"].startswith("text/javascript") and sw.headers["cache-control"] == "no-cache"
            )
            sign_up(page, device, "ann")
            header_button(page, device)
            part = page.locator("#push-prefs")
            expect(part).to_be_visible()
            expect(page.locator("#push-status")).to_have_text("Notifications are off for this device.")
            expect(page.locator("#btn-push")).to_have_text("Turn on notifications")
            part.scroll_into_view_if_needed()
            page.screenshot(path=shots / f"push-{device}-off.png")
            page.locator("#push-challenge").uncheck()
            page.locator("#push-tournament").uncheck()
            page.click("#btn-push")
            expect(page.locator("#push-status")).to_have_text("Notifications are on for this device.")
            expect(page.locator("#btn-push")).to_have_text("Turn off notifications")
            key = httpx.get(club + "api/push/key").json()["key"]
            assert page.evaluate("window.pushAsked") == {"userVisibleOnly": True, "key": key}

            def kept() -> Any:
                url = f"/api/push/subscription?endpoint={service.endpoint('ann')}"
                return page.evaluate(f"fetch({json.dumps(url)}).then((r) => r.json())")

            assert kept() == {"subscribed": True, "kinds": ["turn"]}
            page.locator("#push-challenge").check()
            expect(page.locator("#push-status")).to_have_text("Notifications are on for this device.")
            page.wait_for_function("document.body.dataset.push === 'on'")
            for _ in range(50):
                if kept()["kinds"] == ["challenge", "turn"]:
                    break
                page.wait_for_timeout(100)
            assert kept() == {"subscribed": True, "kinds": ["challenge", "turn"]}
            part.scroll_into_view_if_needed()
            page.screenshot(path=shots / f"push-{device}.png")
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            # a challenge to ann: the server's message reaches the push service, and the service worker shows it
            bob = api_account(club, "bob")
            body = {"to": "ann", "game": "Base", "time_control": {"days": 3}, "rated": False}
            assert bob.post("/api/challenges", json=body).is_success
            with service.arrived:
                service.arrived.wait_for(lambda: service.to("/push/ann"), timeout=15)
            text = keys.decrypt(service.to("/push/ann")[0].body).decode()
            assert json.loads(text)["title"] == "A challenge for you"
            cdp = context.new_cdp_session(page)
            registrations: list[dict[str, Any]] = []
            cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
            cdp.send("ServiceWorker.enable")
            for _ in range(100):
                if any(not r["isDeleted"] for r in registrations):
                    break
                page.wait_for_timeout(50)
            [registration] = [r for r in registrations if not r["isDeleted"]]
            push = {"origin": club.rstrip("/"), "registrationId": registration["registrationId"], "data": text}
            shown: list[dict[str, Any]] = []
            for _ in range(2):  # on a busy machine the worker may be starting again: a second delivery then
                cdp.send("ServiceWorker.deliverPushMessage", push)
                shown = page.evaluate("""async () => {
                    const registration = await navigator.serviceWorker.ready;
                    for (let i = 0; i < 100; i++) {
                      const found = await registration.getNotifications();
                      const shown = found.map((n) => ({ title: n.title, body: n.body, url: n.data.url, tag: n.tag }));
                      if (shown.length) return shown;
                      await new Promise((done) => setTimeout(done, 100));
                    }
                    return [];
                }""")
                if shown:
                    break
            assert len(shown) == 1 and shown[0]["title"] == "A challenge for you", shown
            assert shown[0]["body"].startswith("bob challenges you to a game of Base") and shown[0]["url"] == "/"
            # turned off: the browser's subscription and the server's are gone
            page.click("#btn-push")
            expect(page.locator("#push-status")).to_have_text("Notifications are off for this device.")
            assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription())") is None
            assert kept() == {"subscribed": False, "kinds": []}
            # on again, then signed out: the browser's subscription ends with the session
            page.click("#btn-push")
            expect(page.locator("#btn-push")).to_have_text("Turn off notifications")
            page.click("#btn-sign-out")
            expect(page.locator("#btn-account")).to_have_text("Sign in")
            page.wait_for_function("document.body.dataset.push === 'off'")
            assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription())") is None
            assert page.errors == []
        finally:
            context.close()
