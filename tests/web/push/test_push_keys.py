"""The server's VAPID keys: ``hive db upgrade`` makes them once, every process then reads the same pair from the
database; ``hive push keys`` shows the public half and ``--rotate`` makes a new pair, deleting the subscriptions
made with the old; the contact is checked when the server starts."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from hive.cli import main
from hive.web.push import PushRepository, Subscription
from hive.web.push.crypto import check_public_key
from hive.web.shared.database import Database
from hive.web.shared.settings import Settings

from ..push_support import Browser


def shown_key(output: str) -> str:
    found = re.search(r"VAPID public key: (\S+)", output)
    assert found, output
    return found.group(1)


def test_db_upgrade_makes_the_keys_and_push_keys_shows_and_rotates_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    assert main(["db", "upgrade", "--database", url]) == 0
    database = Database(url)
    try:
        made = asyncio.run(PushRepository(database).keys())
        check_public_key(made.public)
        assert len(made.private) == 43  # 32 bytes
        assert main(["db", "upgrade", "--database", url]) == 0  # twice: the same keys
        assert asyncio.run(PushRepository(database).keys()) == made
        capsys.readouterr()
        assert main(["push", "keys", "--database", url]) == 0
        assert shown_key(capsys.readouterr().out) == made.public
        account = asyncio.run(_account(database))
        subscription = Browser().subscription("https://push.example.net/x")
        keys = subscription["keys"]
        turn = frozenset({"turn"})
        stored = Subscription("s1", account, subscription["endpoint"], keys["p256dh"], keys["auth"], turn)
        assert asyncio.run(PushRepository(database).subscribe(stored, 10))
        assert main(["push", "keys", "--rotate", "--database", url]) == 0
        out = capsys.readouterr().out
        assert "deleted 1 push subscription" in out and shown_key(out) != made.public
        assert asyncio.run(PushRepository(database).keys()).public == shown_key(out)
        assert asyncio.run(PushRepository(database).of_accounts([account], "turn")) == []
    finally:
        database.close()


async def _account(database: Database) -> str:
    from hive.web.players import Accounts
    from hive.web.players.repository import AccountRepository

    accounts = Accounts(AccountRepository(database))
    signed = await accounts.sign_up({"name": "ann", "password": "pass word 77"}, "10.0.0.1")
    return signed.account.id


@pytest.mark.parametrize("contact", ["admin@example.org", "mailto:", "mailto:nobody", "http://example.org", ""])
def test_the_contact_is_a_mailto_or_https_url(contact: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="push_contact"):
        Settings(push_contact=contact)
    assert main(["serve", "--push-contact", contact, "--port", "1"]) == 2
    assert "--push-contact must be a mailto: or https: URL" in capsys.readouterr().err


def test_a_good_contact_is_kept() -> None:
    assert Settings(push_contact="https://club.example.org/contact").push_contact == "https://club.example.org/contact"
    assert Settings(push_contact="mailto:hive-admin@example.org").push_contact == "mailto:hive-admin@example.org"
