"""Accounts in the page, in Chromium driven by Playwright, at phone (360x740, touch) and desktop sizes: on a server
that keeps accounts (as ``hive serve`` does), an account is made through the header's dialog (a bad name refused in
the dialog first), stays signed in across a reload, signs out, signs in again (a wrong password refused), changes its
password and signs in with the new one. On a server without accounts (``hive play``) the page shows nothing of them.

The sign-up dialog is photographed into docs/screenshots/ when the pictures are missing or HIVE_SCREENSHOT=1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from ...web_support import ServerProcess
from ..browser_support import (
    PASSWORD,
    SIZES,
    header_button,
    no_serious_violation,
    open_page,
    overflow,
    press,
    shoot,
    sign,
    signed_in_as,
    sizes,
    toasted,
)

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

Page = Any
pytestmark = pytest.mark.once

NEW_PASSWORD = "battery staple 9"


def sign_out(page: Page, device: str) -> None:
    header_button(page, device)
    expect(page.locator("#dlg-account")).to_be_visible()
    press(page, device, "#btn-sign-out")
    expect(page.locator("#dlg-account")).to_be_hidden()
    toasted(page, "Signed out")
    signed_in_as(page, None)


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_an_account_is_made_kept_signed_out_in_and_given_a_new_password(
    browser: Any, club: str, device: str, tmp_path: Path
) -> None:
    name = f"Ann_{device}"
    context = browser.new_context(bypass_csp=True, **SIZES[device])
    try:
        page = open_page(context, club)
        signed_in_as(page, None)
        if device == "phone":
            expect(page.locator("#btn-account")).to_be_hidden()  # in the closed ☰ menu

        # a bad name: the server's reason in the dialog, which stays open
        sign(page, device, "1ann", PASSWORD, create=True)
        error = page.locator("#sign-error")
        expect(error).to_contain_text("Invalid name '1ann'")
        expect(error).to_have_attribute("aria-live", "polite")
        expect(page.locator("#dlg-sign")).to_be_visible()
        assert overflow(page) == 0
        shoot(page, f"account-{device}.png", tmp_path)

        page.fill("#sign-name", name)
        page.press("#sign-password", "Enter")
        expect(page.locator("#dlg-sign")).to_be_hidden()
        toasted(page, f"Signed in as {name}")
        signed_in_as(page, name)
        assert page.locator("#sign-password").input_value() == ""  # no password kept in the page

        # the session outlives the page: its cookie, HttpOnly, out of the script's reach
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        signed_in_as(page, name)
        assert "hive_session" not in page.evaluate("document.cookie")

        sign_out(page, device)

        # a wrong password: the server's answer in the dialog; Esc closes it
        sign(page, device, name, "not the password")
        expect(page.locator("#sign-error")).to_have_text("Wrong name or password.")
        page.keyboard.press("Escape")
        expect(page.locator("#dlg-sign")).to_be_hidden()
        signed_in_as(page, None)

        sign(page, device, name, PASSWORD)
        expect(page.locator("#dlg-sign")).to_be_hidden()
        toasted(page, f"Signed in as {name}")
        expect(page.locator("#sign-error")).to_have_text("")

        # a new password, sent with the session's CSRF token
        header_button(page, device)
        expect(page.locator("#dlg-account")).to_be_visible()
        expect(page.locator("#account-name")).to_have_text(name)
        page.fill("#password-old", "not the password")
        page.fill("#password-new", NEW_PASSWORD)
        page.press("#password-new", "Enter")
        expect(page.locator("#password-error")).to_have_text("Wrong password.")
        page.fill("#password-old", PASSWORD)
        page.press("#password-new", "Enter")
        expect(page.locator("#dlg-account")).to_be_hidden()
        toasted(page, "Password changed")
        signed_in_as(page, name)

        sign_out(page, device)
        sign(page, device, name, NEW_PASSWORD)
        expect(page.locator("#dlg-sign")).to_be_hidden()
        signed_in_as(page, name)
        assert page.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_the_account_dialogs_break_no_serious_accessibility_rule(
    axe: Path, browser: Any, club: str, device: str, tmp_path: Path
) -> None:
    context = browser.new_context(bypass_csp=True, **SIZES[device])  # axe's script is injected, and evaluated
    try:
        page = open_page(context, club)
        sign(page, device, "1ann", PASSWORD, create=True)
        expect(page.locator("#sign-error")).to_contain_text("Invalid name")
        no_serious_violation(page, axe, f"sign-up dialog at {device} size", tmp_path)
        page.fill("#sign-name", "Ann")
        page.press("#sign-password", "Enter")
        signed_in_as(page, "Ann")
        header_button(page, device)
        page.fill("#password-old", "not the password")
        page.fill("#password-new", NEW_PASSWORD)
        page.press("#password-new", "Enter")
        expect(page.locator("#password-error")).to_have_text("Wrong password.")
        no_serious_violation(page, axe, f"account dialog at {device} size", tmp_path)
        assert page.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("device", sizes(*SIZES))
def test_a_server_without_accounts_shows_nothing_of_them(browser: Any, server: ServerProcess, device: str) -> None:
    assert httpx.get(f"{server.url}api/assets", timeout=10).json()["accounts"] is False
    context = browser.new_context(bypass_csp=True, **SIZES[device])
    try:
        page = open_page(context, server.url)
        if device == "phone":
            press(page, device, "#btn-menu")
            expect(page.locator("#btn-new")).to_be_visible()  # the menu is open
        expect(page.locator("#btn-account")).to_be_hidden()
        expect(page.get_by_role("button", name="Sign in")).to_have_count(0)
        assert page.errors == []
    finally:
        context.close()
