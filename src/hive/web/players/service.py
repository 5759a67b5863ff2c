"""Accounts on a club's server: signing up, in and out, passwords, sessions, API tokens and what an admin may do.

A session is a random token in an ``HttpOnly`` cookie; the server keeps only its SHA-256, so that a copy of the
database signs nobody in. Each session has a CSRF token as well, which every change made with the cookie must carry
in ``X-CSRF-Token``. Signing in always opens a new session (a token planted before it is never adopted); a new
password ends every other session and revokes the API tokens, and an admin's reset ends them all. Every sign-in
attempt is counted in the database before its password is checked (:mod:`.throttle`), so that every server process
throttles alike and no burst gets past it; a wrong name and a wrong password are answered alike and as slowly.

An API token acts as its account within its scope (:data:`SCOPES`): a ``bot`` token plays (its seats, seeks and
challenges, the bot API) and reads; changing the account and an admin's actions need a signed-in session.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ..shared.errors import BadRequest, Conflict, Forbidden, NotFound, Unauthorized, shown
from ..shared.i18n import _, languages
from ..shared.quotas import QuotaRepository
from ..shared.settings import Settings
from .events import CameOnline
from .names import check_name, name_key
from .passwords import Passwords, check_length, check_password
from .repository import AccountRepository, NameTaken, StoredAccount
from .throttle import Throttle, device_key
from .token_repository import TokenRepository

#: How long a session lasts unused (each use extends it, at most once an hour).
SESSION_SECONDS = 30 * 24 * 3600
WRONG = "Wrong name or password."
#: An account is online while it was seen (a request of its session or its API token) in the last this many seconds;
#: each server process marks it at most once every :data:`SEEN_EVERY` seconds.
ONLINE_SECONDS = 5 * 60
SEEN_EVERY = 60
#: What a request may need: ``read`` (the account's own lists and streams), ``play`` (its seats' games, seeks and
#: challenges, its games' chat, tournaments it joins), ``account`` (changing the account: its password, API token,
#: becoming a bot, signing out, blocks, reports, tournaments it organises) and ``admin`` (an admin's actions). A
#: signed-in session may do all of them.
NEEDS = ("read", "play", "account", "admin")
#: What an API token of each scope may do.
SCOPES: dict[str, frozenset[str]] = {"bot": frozenset({"read", "play"})}


def token_hash(token: str) -> str:
    """What the database keeps of a session's token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Signed:
    """A request's live session: its account, the hash of its token, and its CSRF token; or an API token's
    (``scope``: the token's), which no other site can make a browser send, so its changes need no CSRF token."""

    account: StoredAccount
    token_hash: str
    csrf: str
    scope: str | None = None

    @property
    def bearer(self) -> bool:
        """Whether an API token acts (not a signed-in session)."""
        return self.scope is not None

    def answer(self) -> dict[str, Any]:
        """What the API answers about it (never the token, which the cookie holds)."""
        answer = {
            "name": self.account.name,
            "admin": self.account.admin,
            "csrf": self.csrf,
            "language": self.account.language,
        }
        return answer if self.scope is None else answer | {"scope": self.scope}


@dataclass(frozen=True)
class SignedIn(Signed):
    """A session just opened, with the cookie's token (given to the browser once, never stored), and the device
    cookie to give the browser (its own again, or a new one)."""

    token: str = ""
    device: str = ""


def _text(data: dict[str, Any], field: str) -> object:
    if field not in data:
        raise BadRequest(f"Missing {field!r}.")
    return data[field]


class Accounts:
    """The accounts of a server.

    :param repository: where they are kept.
    :param passwords: how passwords are hashed (argon2id).
    :param now: the time source, seconds since the epoch.
    :param quotas: where sign-ins and sign-ups are counted (by default, in the repository's database).
    :param settings: the server's limits (the throttle's allowances).
    """

    def __init__(
        self,
        repository: AccountRepository,
        passwords: Passwords | None = None,
        now: Callable[[], float] = time.time,
        *,
        quotas: QuotaRepository | None = None,
        settings: Settings | None = None,
    ) -> None:
        self.repository = repository
        #: The API tokens (made, listed and revoked by :class:`~hive.web.players.tokens.Tokens`).
        self.tokens = TokenRepository(repository.database, repository.now)
        self.passwords = passwords or Passwords()
        self.now = now
        quotas = quotas or QuotaRepository(repository.database, repository.now)
        self.throttle = Throttle(quotas, repository, settings or Settings(), now)
        self._marked: dict[str, float] = {}  # when this process last marked each account online
        #: Told of an account that comes online (it was not, by the database), for the lobby's pages.
        self.came_online: Callable[[CameOnline], Awaitable[None]] | None = None

    async def seen(self, account: StoredAccount) -> None:
        """The account made a request now: mark it online (in the database, where every process reads it), unless
        this process did so less than :data:`SEEN_EVERY` seconds ago; one that was not online is announced."""
        now = self.now()
        if now - self._marked.get(account.id, -SEEN_EVERY) < SEEN_EVERY:
            return
        if len(self._marked) > 10_000:
            self._marked.clear()
        self._marked[account.id] = now
        if await self.repository.seen(account.id, now - ONLINE_SECONDS) and self.came_online is not None:
            await self.came_online(CameOnline(account.name))

    async def online(self, limit: int) -> list[tuple[str, bool, float]]:
        """The accounts online (seen in the last :data:`ONLINE_SECONDS`, not banned), most recent first."""
        return await self.repository.online(self.now() - ONLINE_SECONDS, limit)

    async def _open(self, account: StoredAccount) -> SignedIn:
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        hashed = token_hash(token)
        await self.repository.open_session(hashed, account.id, csrf, self.now() + SESSION_SECONDS)
        await self.seen(account)
        return SignedIn(account, hashed, csrf, token=token)

    async def sign_up(self, data: dict[str, Any], address: str, device: str | None = None) -> SignedIn:
        """Make an account (``name``, ``password``) and sign it in; the address and browser it was made from are
        trusted for it (see :mod:`.throttle`).

        :raises BadRequest: naming what is wrong with the name or the password.
        :raises Conflict: when the name, or one too like it, is taken.
        :raises TooMany: past the accounts an address may make in an hour (counted before the account is made).
        """
        name = check_name(_text(data, "name"))
        password = check_password(_text(data, "password"), name)
        quota = await self.throttle.sign_up(address)
        try:
            hashed = await self.passwords.hash(password)
            account = await self.repository.create(secrets.token_hex(8), name, name_key(name), hashed)
        except NameTaken:
            await self.throttle.unused(quota)
            raise Conflict(f"The name {shown(name)} is taken, or too like one that is: choose another.") from None
        except BaseException:
            await self.throttle.unused(quota)
            raise
        return await self._trusted(account, address, device)

    async def _trusted(self, account: StoredAccount, address: str, device: str | None) -> SignedIn:
        """A new session of ``account``, signed in from ``address`` with the browser's ``device`` cookie: both are
        trusted for it from now, and the cookie given again (a device cookie this server did not give is replaced)."""
        fresh = "" if await self.throttle.known_device(device) else secrets.token_urlsafe(32)
        places = [f"address:{address}"]
        places.append(device_key(fresh or device or ""))
        await self.throttle.trust(account, tuple(places))
        opened = await self._open(account)
        return SignedIn(
            opened.account, opened.token_hash, opened.csrf, token=opened.token, device=fresh or device or ""
        )

    async def sign_in(self, data: dict[str, Any], address: str, device: str | None = None) -> SignedIn:
        """Open a new session for ``name`` and ``password``, from ``address`` with the browser's ``device`` cookie.
        The attempt is counted before the password is checked (see :mod:`.throttle`).

        :raises BadRequest: for a password longer than a password may be (never cut to fit).
        :raises Unauthorized: ``Wrong name or password.``, whichever was wrong.
        :raises TooMany: past the failed sign-ins allowed for the name from here, from the address, or for the name
            from places that never signed it in.
        :raises Forbidden: for a banned account (with the right password only).
        """
        raw_name, password = _text(data, "name"), _text(data, "password")
        if not isinstance(raw_name, str) or not isinstance(password, str) or len(raw_name) > 200:
            raise Unauthorized(WRONG)
        check_length(password, "password")
        key = name_key(raw_name.strip())
        account = await self.repository.find(key)
        attempt = await self.throttle.attempt(key, account, address, device)
        if not await self.passwords.verify(account.password if account else None, password) or not account:
            raise Unauthorized(WRONG)
        if account.banned:
            raise Forbidden("This account is banned.")
        await self.throttle.succeeded(attempt, account)
        return await self._trusted(account, address, device)

    async def signed(self, token: str | None) -> Signed | None:
        """The live session of a cookie's token (``None``: none, unknown, lapsed, or its account banned)."""
        if not token or len(token) > 100:
            return None
        hashed = token_hash(token)
        stored = await self.repository.session(hashed)
        if stored is None or stored.account.banned:
            return None
        if self.now() - stored.seen > 3600:
            await self.repository.touch(hashed, self.now() + SESSION_SECONDS)
        await self.seen(stored.account)
        return Signed(stored.account, hashed, stored.csrf)

    async def by_bearer(self, header: str) -> Signed:
        """The account an ``Authorization: Bearer <token>`` header acts as.

        :raises Unauthorized: for a malformed header, or a token unknown, revoked or of a banned account.
        """
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip() or len(token) > 100:
            raise Unauthorized("The Authorization header is 'Bearer <API token>'.")
        found = await self.repository.by_token(token_hash(token.strip()))
        if found is None or found[0].banned:
            raise Unauthorized("This API token is unknown, revoked, or its account banned.")
        account, scope, used = found
        hashed = token_hash(token.strip())
        if used is None or self.now() - used >= SEEN_EVERY:  # its list says when it was last used, to the minute
            await self.tokens.token_used(hashed)
        await self.seen(account)
        return Signed(account, hashed, "", scope=scope)

    async def set_language(self, signed: Signed, language: object) -> str | None:
        """Keep the account's choice of language (``None``: the browser's).

        :raises BadRequest: for a language the server does not speak.
        """
        if language is not None and language not in languages():
            offered = ", ".join(languages())
            raise BadRequest(
                _(
                    "Unknown language {language}: expected one of {languages}.",
                    language=shown(language),
                    languages=offered,
                )
            )
        await self.repository.update(signed.account.id, language=language)
        return language

    @staticmethod
    def check_scope(signed: Signed, need: str) -> None:
        """Make sure an API token's scope allows what a request needs (``need``, one of :data:`NEEDS`; a signed-in
        session may do everything).

        :raises Forbidden: naming what is needed.
        """
        if signed.scope is None or need in SCOPES.get(signed.scope, frozenset()):
            return
        what = {"read": "reading", "play": "playing", "account": "changing the account", "admin": "an admin's action"}
        raise Forbidden(
            f"An API token of scope {signed.scope!r} may not do this: {what[need]} needs the {need!r} scope, "
            "which only a signed-in session has (with its CSRF token)."
        )

    async def make_bot(self, account: StoredAccount) -> StoredAccount:
        """Mark the account a bot's, for good (see :meth:`hive.web.bots.service.Bots.become`, which checks it may)."""
        await self.repository.update(account.id, bot=True)
        return StoredAccount(**{**account.__dict__, "bot": True})

    @staticmethod
    def check_csrf(signed: Signed, header: str | None) -> None:
        """Make sure a change made with the cookie carries the session's CSRF token (an API token's needs none).

        :raises Forbidden: when it does not.
        """
        if signed.bearer:
            return
        if not header or not hmac.compare_digest(header, signed.csrf):
            raise Forbidden("This change needs the session's CSRF token in X-CSRF-Token (sign in again).")

    async def sign_out(self, signed: Signed) -> None:
        """End the session; the account is no longer online."""
        await self.repository.close_sessions(signed.account.id, token=signed.token_hash)
        self._marked.pop(signed.account.id, None)
        await self.repository.gone(signed.account.id)

    async def change_password(self, signed: Signed, data: dict[str, Any]) -> SignedIn:
        """Set a new password (``old``, ``new``): every session of the account ends and every API token is revoked,
        and a new session opens in place of the one making the change.

        :raises Unauthorized: when ``old`` is wrong.
        :raises BadRequest: naming what is wrong with ``new``, or an ``old`` longer than a password may be.
        """
        account = signed.account
        old, new = _text(data, "old"), check_password(_text(data, "new"), account.name, "new")
        if not isinstance(old, str):
            raise Unauthorized("Wrong password.")
        check_length(old, "old")
        if not await self.passwords.verify(account.password, old):
            raise Unauthorized("Wrong password.")
        hashed = await self.passwords.hash(new)
        await self.repository.update(account.id, password=hashed)
        await self.repository.revoke(account.id)
        return await self._open(StoredAccount(**{**account.__dict__, "password": hashed}))

    # ------------------------------------------------------------------ what an admin may do

    async def _target(self, admin: Signed, name: str) -> StoredAccount:
        if not admin.account.admin:
            raise Forbidden("Only an admin may do this.")
        account = await self.repository.find(name_key(name))
        if account is None:
            raise NotFound(f"No account is named {shown(name)}.")
        return account

    async def reset_password(self, admin: Signed, name: str) -> str:
        """Give the account a new random password (returned, to pass on), end its sessions, revoke its API tokens,
        and forget where it signed in from (whoever had the old password is a stranger again).

        :raises Forbidden: unless ``admin`` is one.
        :raises NotFound: for an unknown name.
        """
        account = await self._target(admin, name)
        password = secrets.token_urlsafe(12)
        await self.repository.update(account.id, password=await self.passwords.hash(password))
        await self.repository.revoke(account.id, trust=True)
        return password

    async def set_banned(self, admin: Signed, name: str, banned: bool) -> tuple[StoredAccount, bool]:
        """Ban (ending its sessions) or lift the ban of an account; the account, and whether this call changed it
        (``False``: it was so already).

        :raises Forbidden: unless ``admin`` is one, or for the admin's own account.
        :raises NotFound: for an unknown name.
        """
        account = await self._target(admin, name)
        if account.id == admin.account.id:
            raise Forbidden("An admin does not ban their own account.")
        changed = await self.repository.set_banned(account.id, banned)
        return StoredAccount(**{**account.__dict__, "banned": banned}), changed

    async def delete(self, admin: Signed, name: str) -> None:
        """Delete an account (spam) and its sessions; its name is free again.

        :raises Forbidden: unless ``admin`` is one, or for the admin's own account.
        :raises NotFound: for an unknown name.
        """
        account = await self._target(admin, name)
        if account.id == admin.account.id:
            raise Forbidden("An admin does not delete their own account.")
        await self.repository.delete(account.id)

    async def set_admin(self, name: str, admin: bool) -> StoredAccount:
        """Make an account an admin, or no longer (``hive db admin``, on the server's own machine).

        :raises NotFound: for an unknown name.
        """
        account = await self.repository.find(name_key(name))
        if account is None:
            raise NotFound(f"No account is named {shown(name)}.")
        await self.repository.update(account.id, admin=admin)
        return StoredAccount(**{**account.__dict__, "admin": admin})

    async def by_id(self, account_id: str) -> StoredAccount | None:
        """The account ``account_id`` (``None``: none, or deleted)."""
        return await self.repository.by_id(account_id)

    async def by_key(self, key: str) -> StoredAccount | None:
        """The account whose name has ``key`` (see :func:`~hive.web.players.names.name_key`)."""
        return await self.repository.find(key)

    async def find(self, name: str) -> StoredAccount:
        """The account named ``name`` (or a name too like it).

        :raises NotFound: for an unknown name.
        """
        account = await self.repository.find(name_key(name))
        if account is None:
            raise NotFound(f"No account is named {shown(name)}.")
        return account


__all__ = ["NEEDS", "ONLINE_SECONDS", "SCOPES", "SESSION_SECONDS", "Accounts", "Signed", "SignedIn", "token_hash"]
