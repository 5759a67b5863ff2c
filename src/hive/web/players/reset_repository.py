"""The one-time links that set a forgotten password, as every server process shares them: a link is spent once (of
uses at once, on any process, one spends it), before the new password's hash is made; then one transaction sets the
password and ends the account's sessions and API tokens."""

from __future__ import annotations

import sqlalchemy as sa

from ..shared.database import Repository
from .repository import StoredAccount, _account, lock_account
from .tables import accounts, api_tokens, password_resets, sessions, trusted


class ResetRepository(Repository):
    """The password-reset links of a server (each kept as the SHA-256 of its token). The times are the caller's, so
    that the service's clock rules them."""

    async def issue(self, account_id: str, token_hash: str, now: float, expires: float) -> None:
        """Store a new link for the account, in place of any it had unused (and forget the lapsed ones), under the
        account's row lock: of several issued at once, on any process, the last stays the only live one."""
        await self.database.run(self._issue, account_id, token_hash, now, expires)

    def _issue(self, account_id: str, token_hash: str, now: float, expires: float) -> None:
        row = {"token": token_hash, "account_id": account_id, "created": now, "expires": expires}
        with self.database.engine.begin() as connection:
            lock_account(connection, account_id)
            connection.execute(password_resets.delete().where(password_resets.c.account_id == account_id))
            connection.execute(password_resets.delete().where(password_resets.c.expires <= now))
            connection.execute(password_resets.insert().values(row))

    async def account(self, token_hash: str, now: float) -> StoredAccount | None:
        """The account of a live link (``None``: unknown, used or lapsed)."""
        return await self.database.run(self._account, token_hash, now)

    def _account(self, token_hash: str, now: float) -> StoredAccount | None:
        query = (
            sa.select(accounts)
            .join(password_resets, password_resets.c.account_id == accounts.c.id)
            .where(password_resets.c.token == token_hash, password_resets.c.used.is_(None))
            .where(password_resets.c.expires > now)
        )
        with self.database.single() as connection:
            row = connection.execute(query).first()
        return None if row is None else _account(row)

    async def spend(self, token_hash: str, account_id: str, now: float) -> bool:
        """Mark a live link of ``account_id`` used: whether this call did (of several at once, on any process, one
        does: the row's lock orders them, and each later one finds it used)."""
        return await self.database.run(self._spend, token_hash, account_id, now)

    def _spend(self, token_hash: str, account_id: str, now: float) -> bool:
        live = sa.and_(
            password_resets.c.token == token_hash,
            password_resets.c.account_id == account_id,
            password_resets.c.used.is_(None),
            password_resets.c.expires > now,
        )
        with self.database.engine.begin() as connection:
            return connection.execute(password_resets.update().where(live).values(used=now)).rowcount == 1

    async def set_password(self, account_id: str, password: str) -> None:
        """In one transaction, set the account's ``password`` (a hash), end its sessions, revoke its API tokens and
        forget where it signed in from (a link just spent)."""
        await self.database.run(self._set_password, account_id, password)

    def _set_password(self, account_id: str, password: str) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(accounts.update().where(accounts.c.id == account_id).values(password=password))
            for table in (sessions, api_tokens, trusted):
                connection.execute(table.delete().where(table.c.account_id == account_id))


__all__ = ["ResetRepository"]
