"""A forgotten password: a one-time link that sets a new one, and the e-mail address it may be sent to.

An admin issues a link for an account (and hands it over); where the host configured mail (``hive serve --smtp``),
a player asks for it by e-mail, sent to the address they set on their account. A link's token is random (only its
SHA-256 is stored), lives :data:`LINK_SECONDS`, and is used once: using it sets the new password, ends every session
of the account, revokes its API tokens and forgets where it signed in from, as a new password does. A use with a
password that passes the checks spends the link first (of uses at once, one does), then hashes the password (a burst
of uses costs one hash). A new link replaces the account's unused one.

Asking by e-mail is counted before anything is looked up (:data:`ASKS_PER_NAME` an hour per name,
:data:`ASKS_PER_ADDRESS` per asking address, in the database, atomically, as sign-ins are; and
:data:`MAILS_PER_ADDRESS` mails an hour to one e-mail address), and is answered alike whatever the name: whether the
account exists or has an address is decided after the answer, where the mail is sent.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from ..shared.errors import BadRequest, NotFound, TooMany
from ..shared.i18n import _, gettext_in
from ..shared.quotas import QuotaRepository
from ..shared.values import check_text
from .mail import Mailer
from .names import name_key
from .passwords import Passwords, check_password
from .repository import AccountRepository, StoredAccount
from .reset_repository import ResetRepository
from .service import Signed, token_hash

#: How long a link lasts, in seconds.
LINK_SECONDS = 30 * 60
#: How often a name may be asked for a link by e-mail in an hour, from one address, and mailed to one e-mail address.
ASKS_PER_NAME, ASKS_PER_ADDRESS, MAILS_PER_ADDRESS = 3, 10, 3
ASK_WINDOW = 3600
#: The longest an e-mail address may be (RFC 5321's path).
EMAIL_LENGTH = 254
EMAIL = re.compile(r"[^@\s]+@[^@\s.]+(\.[^@\s.]+)+")
GONE = "This link is unknown, used or expired: ask for a new one."
#: The texts of the mail and of the answers (English: the catalogs' messages-admin.po translates them).
TEXTS = {
    "asked": "If that account has an e-mail address, a link to set a new password is on its way.",
    "no_mail": "This server sends no mail: ask an admin for a link.",
    "too_many": "Too many requests for a link; try again in an hour.",
    "subject": "Your new password",
    "body": (
        "Someone, you we hope, asked for a link to set a new password for {name}.\n\n{link}\n\n"
        "It works once, for {minutes} minutes. If you did not ask for it, ignore this mail: your password is "
        "unchanged.\n"
    ),
}


def check_email(value: object) -> str | None:
    """An e-mail address as a request gives it (``""`` or ``None``: none), trimmed.

    :raises BadRequest: for anything but a plausible address.
    """
    if value is None or value == "":
        return None
    text = check_text(value, "'email'", EMAIL_LENGTH).strip()
    if not EMAIL.fullmatch(text):
        raise BadRequest(_("'email' is an address like name@example.org, not {text}.", text=repr(text[:60])))
    return text


class PasswordResets:
    """The reset links of a server, and the e-mail addresses they go to.

    :param repository: the links.
    :param accounts: the accounts.
    :param quotas: where the asks by e-mail are counted.
    :param mailer: the host's mail server (``None``: no mail; only an admin issues links).
    :param passwords: how passwords are hashed.
    :param now: the time source (the links' lifetimes).
    """

    def __init__(
        self,
        repository: ResetRepository,
        accounts: AccountRepository,
        quotas: QuotaRepository,
        mailer: Mailer | None = None,
        passwords: Passwords | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.repository = repository
        self.accounts = accounts
        self.quotas = quotas
        self.mailer = mailer
        self.passwords = passwords or Passwords()
        self.now = now

    async def issue(self, account: StoredAccount) -> tuple[str, float]:
        """A new link's token for the account (returned once: only its hash is kept) and when it lapses."""
        token = secrets.token_urlsafe(32)
        now = self.now()
        await self.repository.issue(account.id, token_hash(token), now, now + LINK_SECONDS)
        return token, now + LINK_SECONDS

    async def _live(self, token: object) -> StoredAccount:
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            raise NotFound(_(GONE))
        account = await self.repository.account(token_hash(token), self.now())
        if account is None:
            raise NotFound(_(GONE))
        return account

    async def name(self, token: object) -> str:
        """The name of a live link's account.

        :raises NotFound: for a link unknown, used or lapsed.
        """
        return (await self._live(token)).name

    async def use(self, data: dict[str, Any]) -> str:
        """Set the new ``password`` of the link ``token``'s account, once; its name.

        :raises NotFound: for a link unknown, used or lapsed.
        :raises BadRequest: naming what is wrong with the password.
        """
        account = await self._live(data.get("token"))
        password = check_password(data.get("password"), account.name)
        # spent before the hash is made, as a quota counts a use before its work: a burst costs one hash
        if not await self.repository.spend(token_hash(str(data["token"])), account.id, self.now()):
            raise NotFound(_(GONE))
        await self.repository.set_password(account.id, await self.passwords.hash(password))
        return account.name

    async def ask(self, data: dict[str, Any], address: str, link: Callable[[str], str]) -> str:
        """Count an ask for the link of the account ``name`` by e-mail from ``address``, and mail it (``link``: the
        page's address of a token) after the answer, if the account has an e-mail address; the answer's text, the
        same whatever the name.

        :raises NotFound: when the server sends no mail.
        :raises TooMany: past the asks allowed for the name or from the address.
        """
        if self.mailer is None:
            raise NotFound(_(TEXTS["no_mail"]))
        raw = data.get("name")
        if not isinstance(raw, str) or not raw.strip() or len(raw) > 200:
            raise BadRequest(_("'name' is the account's name."))
        key = name_key(check_text(raw, "'name'", 200).strip())  # no name holds a control or format character
        asks: list[tuple[str, int, float]] = [
            (f"forgot:name:{key}", ASKS_PER_NAME, ASK_WINDOW),
            (f"forgot:address:{address}", ASKS_PER_ADDRESS, ASK_WINDOW),
        ]
        if not all(taken.allowed for taken in await self.quotas.take_all(asks)):
            raise TooMany(_(TEXTS["too_many"]))
        self.mailer.later(self._mail(key, link))
        return TEXTS["asked"]

    async def _mail(self, key: str, link: Callable[[str], str]) -> None:
        account = await self.accounts.find(key)
        if account is None or account.email is None or self.mailer is None:
            return
        taken = await self.quotas.take(f"forgot:mail:{account.email.lower()}", MAILS_PER_ADDRESS, ASK_WINDOW)
        if not taken.allowed:
            return
        token, _ = await self.issue(account)
        lang = account.language or "en"  # the mail is written in the account's language
        body = gettext_in(lang, TEXTS["body"], name=account.name, link=link(token), minutes=LINK_SECONDS // 60)
        await self.mailer.send(account.email, gettext_in(lang, TEXTS["subject"]), body)

    async def email(self, signed: Signed) -> str | None:
        """The account's own e-mail address (``None``: none)."""
        account = await self.accounts.by_id(signed.account.id)
        return None if account is None else account.email

    async def set_email(self, signed: Signed, data: dict[str, Any]) -> str | None:
        """Set (or, with ``""``, remove) the account's e-mail address.

        :raises BadRequest: for one that is not an address.
        """
        if "email" not in data:
            raise BadRequest(_("Missing 'email'."))
        email = check_email(data["email"])
        await self.accounts.update(signed.account.id, email=email)
        return email


__all__ = ["ASKS_PER_ADDRESS", "ASKS_PER_NAME", "LINK_SECONDS", "TEXTS", "PasswordResets", "check_email"]
