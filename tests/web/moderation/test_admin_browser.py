"""The admin screen in Chromium driven by Playwright, at the phone's and the desktop's sizes: an admin opens it from
the top bar, reads a reported line among the lines around it, mutes its writer, then bans him, marks the report
handled, issues a one-time link that sets a player's new password and sees every action in the audit list; the
player opens the link in a browser of her own, sets the password, and signs in with it; then she gives her account
an e-mail address, signs out, asks for a link with "Forgot password?", and follows the mail the club's mail server
received to set another one."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hive.web.shared.settings import Settings

from ..browser_support import (
    PASSWORD,
    SIZES,
    api_account,
    expect,
    header_button,
    no_serious,
    open_page,
    overflow,
    press,
    shoot,
    sign,
    signed_in_as,
    sizes,
)
from ..mail_support import Mailbox, link_in, mail_server

pytest.importorskip("playwright.sync_api")

NEW, AGAIN = "my very new password", "and another one again"


@pytest.fixture()
def mailbox() -> Iterator[Mailbox]:
    """The mail server of the test's club."""
    with mail_server() as box:
        yield box


@pytest.fixture()
def club_settings(mailbox: Mailbox) -> Settings:
    """The club keeps accounts and sends mail."""
    return Settings(accounts=True, smtp=mailbox.url)


def look(page: Any, name: str) -> None:
    """The whole page photographed into ``$HIVE_LOOK`` (a folder), when it is set: to look at it."""
    folder = os.environ.get("HIVE_LOOK")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=True)


@pytest.mark.parametrize("device", sizes("phone", "desktop"))
def test_an_admin_mutes_bans_and_resets_a_password_from_the_page(
    browser: Any, club: str, club_db: Path, mailbox: Mailbox, device: str, tmp_path: Path
) -> None:
    ann, bob = api_account(club, "ann"), api_account(club, "bob")
    chief = api_account(club, "chief")
    with sqlite3.connect(club_db) as db:  # hive db admin chief
        assert db.execute("UPDATE accounts SET admin = 1 WHERE name = 'chief'").rowcount == 1
    seek = ann.post("/api/seeks", json={"game": "Base", "time_control": {"days": 3}}).json()
    game_id = bob.post(f"/api/seeks/{seek['id']}/accept").json()["id"]
    chat = f"/api/games/{game_id}/chat"
    lines = [(ann, "good luck"), (bob, "thanks"), (bob, "you play like a spam bot, buy followers at spam.example"),
             (ann, "please stop"), (bob, "make me")]  # fmt: skip
    ids = [who.post(chat, json={"room": "players", "text": text}).json()["id"] for who, text in lines]
    assert ann.post(f"/api/chat/{ids[2]}/report").is_success
    chief.close()

    admin = browser.new_context(bypass_csp=True, **SIZES[device])
    player = browser.new_context(bypass_csp=True, **SIZES[device])
    try:
        page = open_page(admin, club)
        expect(page.locator("#link-admin")).to_be_hidden()
        sign(page, device, "chief", PASSWORD)
        signed_in_as(page, "chief")
        if device == "phone":
            press(page, device, "#btn-menu")
        press(page, device, "#link-admin")
        expect(page).to_have_url(f"{club}admin")
        report = page.locator(".admin-report")
        expect(report).to_have_count(1)
        expect(report.locator(".admin-context li")).to_have_count(5)  # the line among those around it
        expect(report.locator(".admin-context li.reported")).to_contain_text("buy followers")
        expect(report.locator(".admin-report-head")).to_contain_text("reported by ann")
        assert overflow(page) == 0

        report.get_by_role("button", name="Mute").click()
        expect(report.locator(".admin-badge.muted")).to_be_visible()
        said = bob.post(chat, json={"room": "players", "text": "hello?"})
        assert said.status_code == 403 and "muted" in said.json()["error"]
        report.get_by_role("button", name="Ban", exact=True).click()
        expect(report.locator(".admin-badge.banned")).to_be_visible()
        assert bob.get("/api/session").json()["name"] is None  # his session ended
        report.get_by_role("button", name="Mark handled").click()
        expect(page.locator(".admin-report")).to_have_count(0)
        expect(page.locator("#admin-reports-empty")).to_be_visible()
        page.check("#admin-show-handled")
        expect(page.locator(".admin-report.handled")).to_have_count(1)

        page.fill("#admin-name", "ann")
        page.get_by_role("button", name="Password reset link").click()
        link = page.locator("#admin-link-url")
        expect(link).to_be_visible()
        url = link.input_value()
        assert url.startswith(f"{club}reset/")
        audit = page.locator("#admin-audit-rows tr")
        expect(audit).to_have_count(4)
        expect(audit.nth(0)).to_contain_text("issued a reset link for")
        expect(audit.nth(3)).to_contain_text("muted")
        expect(audit.nth(2)).to_contain_text("banned")
        assert overflow(page) == 0
        assert page.errors == []
        no_serious(page, f"admin screen {device}", tmp_path)
        shoot(page, f"admin-{device}.png", tmp_path)
        look(page, f"admin-{device}-full.png")

        # the player sets her password through the link, and signs in with it
        theirs = open_page(player, url)
        expect(theirs.locator("#reset-about")).to_contain_text("ann")
        theirs.fill("#reset-password", NEW)
        no_serious(theirs, f"reset page {device}", tmp_path)
        shoot(theirs, f"reset-{device}.png", tmp_path)
        look(theirs, f"reset-{device}-full.png")
        theirs.click("#btn-reset")
        expect(theirs.locator("#reset-done")).to_be_visible()
        theirs.click("#reset-done button")
        expect(theirs.locator("#dlg-sign")).to_be_visible()
        expect(theirs.locator("#sign-name")).to_have_value("ann")
        theirs.fill("#sign-password", NEW)
        theirs.press("#sign-password", "Enter")
        signed_in_as(theirs, "ann")
        assert ann.get("/api/session").json()["name"] is None  # the link ended her other session
        assert overflow(theirs) == 0 and theirs.errors == []

        # she gives her account an e-mail address, signs out, and asks for a link by mail from the sign-in dialog
        header_button(theirs, device)
        expect(theirs.locator("#dlg-account")).to_be_visible()
        theirs.fill("#account-email", "ann@example.org")
        theirs.click("#btn-email")
        expect(theirs.locator("#toast")).to_have_text("E-mail address saved")
        look(theirs, f"account-email-{device}-full.png")
        theirs.click("#btn-sign-out")
        signed_in_as(theirs, None)
        header_button(theirs, device)
        theirs.fill("#sign-name", "ann")
        theirs.click("#btn-forgot-open")
        expect(theirs.locator("#dlg-forgot")).to_be_visible()
        expect(theirs.locator("#forgot-name")).to_have_value("ann")
        theirs.click("#btn-forgot")
        expect(theirs.locator("#forgot-status")).to_contain_text("on its way")
        look(theirs, f"forgot-{device}-full.png")
        no_serious(theirs, f"forgot dialog {device}", tmp_path)
        [mail] = mailbox.wait(1)
        assert mail["To"] == "ann@example.org"
        theirs.goto(link_in(mail))
        theirs.fill("#reset-password", AGAIN)
        theirs.click("#btn-reset")
        theirs.click("#reset-done button")
        theirs.fill("#sign-password", AGAIN)
        theirs.press("#sign-password", "Enter")
        signed_in_as(theirs, "ann")
        assert theirs.errors == []

    finally:
        admin.close()
        player.close()
        for client in (ann, bob):
            client.close()
