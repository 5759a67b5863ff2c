"""The players' accounts, their sessions and API tokens, and where each signed in from, as every server process
shares them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import exc
from sqlalchemy.dialects import postgresql, sqlite

from ..shared.database import Repository
from .tables import accounts, api_tokens, follows, online, sessions, trusted


def lock_account(connection: sa.Connection, account_id: str) -> None:
    """Hold the account's row until ``connection``'s transaction ends, so that what it counts of the account's
    (open seeks, chat lines in the last minute) and then stores cannot be raced by another transaction doing the
    same, on any process (PostgreSQL's ``FOR NO KEY UPDATE``, which leaves rows referring to the account free to
    be written; SQLite's writers are one at a time already)."""
    query = sa.select(accounts.c.id).where(accounts.c.id == account_id).with_for_update(key_share=True)
    connection.execute(query)


@dataclass(frozen=True)
class StoredAccount:
    """An account as stored (``password``: its argon2id hash)."""

    id: str
    name: str
    key: str
    password: str
    created: float
    admin: bool
    banned: bool
    bot: bool = False
    email: str | None = None
    #: the language the player chose for the page and the server's messages (``None``: the browser's)
    language: str | None = None


@dataclass(frozen=True)
class StoredSession:
    """A signed-in session: its account, the CSRF token its changes carry, and when it lapses unless used."""

    account: StoredAccount
    csrf: str
    seen: float
    expires: float


class NameTaken(Exception):
    """Another account has the name's key already."""


def _account(row: sa.Row[Any]) -> StoredAccount:
    return StoredAccount(
        row.id,
        row.name,
        row.key,
        row.password,
        float(row.created),
        bool(row.admin),
        bool(row.banned),
        bool(row.bot),
        row.email,
        row.language,
    )


class AccountRepository(Repository):
    """The accounts of a server."""

    async def create(self, account_id: str, name: str, key: str, password: str) -> StoredAccount:
        """Store a new account (neither admin nor banned).

        :raises NameTaken: when an account has ``key`` already.
        """
        return await self.database.run(self._create, account_id, name, key, password)

    def _create(self, account_id: str, name: str, key: str, password: str) -> StoredAccount:
        account = StoredAccount(account_id, name, key, password, self.now(), False, False)
        try:
            with self.database.engine.begin() as connection:
                connection.execute(accounts.insert().values(**account.__dict__))
        except exc.IntegrityError:
            raise NameTaken(key) from None
        return account

    async def find(self, key: str) -> StoredAccount | None:
        """The account whose name has ``key``."""
        return await self.database.run(self._find, key)

    def _find(self, key: str) -> StoredAccount | None:
        with self.database.single() as connection:
            row = connection.execute(sa.select(accounts).where(accounts.c.key == key)).first()
        return None if row is None else _account(row)

    async def by_id(self, account_id: str) -> StoredAccount | None:
        """The account ``account_id``."""
        return await self.database.run(self._by_id, account_id)

    def _by_id(self, account_id: str) -> StoredAccount | None:
        with self.database.single() as connection:
            row = connection.execute(sa.select(accounts).where(accounts.c.id == account_id)).first()
        return None if row is None else _account(row)

    async def update(self, account_id: str, **values: object) -> None:
        """Change an account's ``password``, ``admin``, ``banned``, ``bot`` or ``email``."""
        await self.database.run(self._update, account_id, values)

    def _update(self, account_id: str, values: dict[str, object]) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(accounts.update().where(accounts.c.id == account_id).values(**values))

    async def set_banned(self, account_id: str, banned: bool) -> bool:
        """Ban the account, ending its sessions, or lift its ban: whether this call changed it (of several at once,
        on any process, one does: the row's lock orders them, and each later one finds it done)."""
        return await self.database.run(self._set_banned, account_id, banned)

    def _set_banned(self, account_id: str, banned: bool) -> bool:
        other = sa.and_(accounts.c.id == account_id, accounts.c.banned.is_not(banned))
        with self.database.engine.begin() as connection:
            if connection.execute(accounts.update().where(other).values(banned=banned)).rowcount != 1:
                return False
            if banned:
                connection.execute(sessions.delete().where(sessions.c.account_id == account_id))
        return True

    async def delete(self, account_id: str) -> None:
        """Delete an account and its sessions."""
        await self.database.run(self._delete, account_id)

    def _delete(self, account_id: str) -> None:
        with self.database.engine.begin() as connection:
            for table in (sessions, online, api_tokens, trusted):
                connection.execute(table.delete().where(table.c.account_id == account_id))
            gone = sa.or_(follows.c.follower_id == account_id, follows.c.followed_id == account_id)
            connection.execute(follows.delete().where(gone))
            connection.execute(accounts.delete().where(accounts.c.id == account_id))

    # ------------------------------------------------------------------ sessions

    async def open_session(self, token_hash: str, account_id: str, csrf: str, expires: float) -> None:
        """Store a new session."""
        await self.database.run(self._open_session, token_hash, account_id, csrf, expires)

    def _open_session(self, token_hash: str, account_id: str, csrf: str, expires: float) -> None:
        now = self.now()
        row = {"token": token_hash, "account_id": account_id, "csrf": csrf, "created": now, "seen": now}
        with self.database.engine.begin() as connection:
            connection.execute(sessions.insert().values(**row, expires=expires))

    async def session(self, token_hash: str) -> StoredSession | None:
        """The live session of ``token_hash`` with its account (``None``: unknown or lapsed)."""
        return await self.database.run(self._session, token_hash)

    def _session(self, token_hash: str) -> StoredSession | None:
        query = (
            sa.select(accounts, sessions.c.csrf, sessions.c.seen, sessions.c.expires)
            .join(sessions, sessions.c.account_id == accounts.c.id)
            .where(sessions.c.token == token_hash, sessions.c.expires > self.now())
        )
        with self.database.single() as connection:
            row = connection.execute(query).first()
        if row is None:
            return None
        return StoredSession(_account(row), str(row.csrf), float(row.seen), float(row.expires))

    async def touch(self, token_hash: str, expires: float) -> None:
        """Say a session was used now, and when it lapses from now."""
        await self.database.run(self._touch, token_hash, expires)

    def _touch(self, token_hash: str, expires: float) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(
                sessions.update().where(sessions.c.token == token_hash).values(seen=self.now(), expires=expires)
            )

    async def close_sessions(self, account_id: str, *, but: str | None = None, token: str | None = None) -> None:
        """End the session ``token`` (a hash), or every session of the account but ``but``."""
        await self.database.run(self._close_sessions, account_id, but, token)

    def _close_sessions(self, account_id: str, but: str | None, token: str | None) -> None:
        query = sessions.delete().where(sessions.c.account_id == account_id)
        if token is not None:
            query = query.where(sessions.c.token == token)
        if but is not None:
            query = query.where(sessions.c.token != but)
        with self.database.engine.begin() as connection:
            connection.execute(query)
            connection.execute(sessions.delete().where(sessions.c.expires <= self.now()))

    # ------------------------------------------------------------------ API tokens

    async def by_token(self, token_hash: str) -> tuple[StoredAccount, str, float | None] | None:
        """The account an API token (its hash) acts as, the token's scope, and when it was last used (``None``:
        never). Tokens are made, listed and revoked by :class:`~hive.web.players.token_repository.TokenRepository`."""
        return await self.database.run(self._by_token, token_hash)

    def _by_token(self, token_hash: str) -> tuple[StoredAccount, str, float | None] | None:
        query = sa.select(accounts, api_tokens.c.scope, api_tokens.c.used.label("token_used")).join(
            api_tokens, api_tokens.c.account_id == accounts.c.id
        )
        with self.database.single() as connection:
            row = connection.execute(query.where(api_tokens.c.token == token_hash)).first()
        return None if row is None else (_account(row), str(row.scope), row.token_used)

    async def revoke(self, account_id: str, *, but: str | None = None, trust: bool = False) -> None:
        """End every session of the account but ``but`` (a session's hash), and revoke its API tokens, in one
        transaction (a new password, a reset); ``trust``: forget where it signed in from too."""
        await self.database.run(self._revoke, account_id, but, trust)

    def _revoke(self, account_id: str, but: str | None, trust: bool) -> None:
        ended = sessions.delete().where(sessions.c.account_id == account_id)
        if but is not None:
            ended = ended.where(sessions.c.token != but)
        with self.database.engine.begin() as connection:
            connection.execute(ended)
            connection.execute(api_tokens.delete().where(api_tokens.c.account_id == account_id))
            if trust:
                connection.execute(trusted.delete().where(trusted.c.account_id == account_id))

    # ------------------------------------------------------------------ who is online

    async def seen(self, account_id: str, online_since: float = 0.0) -> bool:
        """Mark the account as seen now (online); whether it came online (not seen after ``online_since``)."""
        return await self.database.run(self._seen, account_id, online_since)

    def _seen(self, account_id: str, online_since: float) -> bool:
        now = self.now()
        insert = (sqlite.insert if self.database.sqlite else postgresql.insert)(online)
        upsert = insert.values(account_id=account_id, seen=now).on_conflict_do_update(
            index_elements=[online.c.account_id], set_={"seen": now}
        )
        with self.database.engine.begin() as connection:
            before = connection.execute(sa.select(online.c.seen).where(online.c.account_id == account_id)).scalar()
            connection.execute(upsert)
        return before is None or float(before) <= online_since

    async def gone(self, account_id: str) -> None:
        """The account is no longer online (it signed out)."""
        await self.database.run(self._gone, account_id)

    def _gone(self, account_id: str) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(online.delete().where(online.c.account_id == account_id))

    async def online(self, since: float, limit: int) -> list[tuple[str, bool, float]]:
        """The accounts seen since ``since`` (not banned), most recent first, at most ``limit``: each one's name,
        whether it is a bot's, and when it was last seen."""
        return await self.database.run(self._online, since, limit)

    def _online(self, since: float, limit: int) -> list[tuple[str, bool, float]]:
        query = (
            sa.select(accounts.c.name, accounts.c.bot, online.c.seen)
            .join(online, online.c.account_id == accounts.c.id)
            .where(online.c.seen >= since, accounts.c.banned.is_(False))
            .order_by(online.c.seen.desc(), accounts.c.name)
            .limit(limit)
        )
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return [(str(row.name), bool(row.bot), float(row.seen)) for row in rows]

    # ------------------------------------------------------------------ where accounts signed in from

    async def trusts(self, account_id: str, keys: list[str], since: float) -> set[str]:
        """Those of ``keys`` (``address:...``, ``device:...``) the account signed in from since ``since``."""
        return await self.database.run(self._trusts, account_id, keys, since)

    def _trusts(self, account_id: str, keys: list[str], since: float) -> set[str]:
        query = sa.select(trusted.c.key).where(
            trusted.c.account_id == account_id, trusted.c.key.in_(keys), trusted.c.seen >= since
        )
        with self.database.single() as connection:
            return {str(key) for key in connection.execute(query).scalars()}

    async def known_device(self, key: str, since: float) -> bool:
        """Whether a device key was given by this server to an account that signed in since ``since``."""
        return await self.database.run(self._known_device, key, since)

    def _known_device(self, key: str, since: float) -> bool:
        query = sa.select(trusted.c.key).where(trusted.c.key == key, trusted.c.seen >= since)
        with self.database.single() as connection:
            return connection.execute(query.limit(1)).first() is not None

    async def trust(self, account_id: str, keys: list[str], older: float) -> None:
        """The account signed in from ``keys`` now; forget what was last used before ``older``."""
        await self.database.run(self._trust, account_id, keys, older)

    def _trust(self, account_id: str, keys: list[str], older: float) -> None:
        now = self.now()
        insert = (sqlite.insert if self.database.sqlite else postgresql.insert)(trusted)
        with self.database.engine.begin() as connection:
            for key in sorted(keys):
                connection.execute(
                    insert.values(account_id=account_id, key=key, seen=now).on_conflict_do_update(
                        index_elements=[trusted.c.account_id, trusted.c.key], set_={"seen": now}
                    )
                )
            connection.execute(trusted.delete().where(trusted.c.seen < older))


__all__ = ["AccountRepository", "NameTaken", "StoredAccount", "StoredSession"]
