"""The accounts' API tokens as stored: the SHA-256 of each (the token itself is shown once, never kept), its scope,
its owner's label for it, when it was made and last used. A token's public ``id``, by which its owner lists and
revokes it, is derived from the stored hash (:func:`token_id`), so that no answer carries what the database keeps."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import sqlalchemy as sa

from ..shared.database import Repository
from .repository import lock_account
from .tables import api_tokens


def token_id(stored: str) -> str:
    """The public id of a token whose stored hash is ``stored``: 16 hex digits of its SHA-256, which name the token
    to its owner and let nobody act as it."""
    return hashlib.sha256(stored.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class StoredToken:
    """What an account's owner may see of one of its API tokens (never the token, nor its hash)."""

    id: str
    label: str
    scope: str
    created: float
    used: float | None

    def answer(self) -> dict[str, object]:
        """The token as the API lists it."""
        return {"id": self.id, "label": self.label, "scope": self.scope, "created": self.created, "used": self.used}


class TokenRepository(Repository):
    """The accounts' API tokens (found by their hash for a request by :meth:`AccountRepository.by_token
    <hive.web.players.repository.AccountRepository.by_token>`, which joins the account)."""

    async def add_token(self, account_id: str, stored: str, scope: str, label: str, limit: int) -> bool:
        """Give the account a new API token (its hash) of ``scope``, unless it has ``limit`` already (counted under
        the account's lock, so that requests at once cannot pass it); whether it was added."""
        return await self.database.run(self._add_token, account_id, stored, scope, label, limit)

    def _add_token(self, account_id: str, stored: str, scope: str, label: str, limit: int) -> bool:
        row = {"token": stored, "account_id": account_id, "created": self.now(), "scope": scope, "label": label}
        count = sa.select(sa.func.count()).select_from(api_tokens).where(api_tokens.c.account_id == account_id)
        with self.database.engine.begin() as connection:
            lock_account(connection, account_id)
            if int(connection.execute(count).scalar_one()) >= limit:
                return False
            connection.execute(api_tokens.insert().values(**row))
        return True

    async def tokens(self, account_id: str) -> list[StoredToken]:
        """The account's API tokens, newest first."""
        return await self.database.run(self._tokens, account_id)

    def _tokens(self, account_id: str) -> list[StoredToken]:
        query = (
            sa.select(api_tokens)
            .where(api_tokens.c.account_id == account_id)
            .order_by(api_tokens.c.created.desc(), api_tokens.c.token)
        )
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return [
            StoredToken(token_id(row.token), str(row.label), str(row.scope), float(row.created), row.used)
            for row in rows
        ]

    async def revoke_token(self, account_id: str, public_id: str) -> bool:
        """Revoke the account's API token whose public id is ``public_id``; whether there was one."""
        return await self.database.run(self._revoke_token, account_id, public_id)

    def _revoke_token(self, account_id: str, public_id: str) -> bool:
        mine = sa.select(api_tokens.c.token).where(api_tokens.c.account_id == account_id)
        with self.database.engine.begin() as connection:
            found = [t for t in connection.execute(mine).scalars() if token_id(t) == public_id]
            if not found:
                return False
            connection.execute(api_tokens.delete().where(api_tokens.c.token == found[0]))
        return True

    async def token_used(self, stored: str) -> None:
        """Note that the token (its hash) was used now."""
        await self.database.run(self._token_used, stored)

    def _token_used(self, stored: str) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(api_tokens.update().where(api_tokens.c.token == stored).values(used=self.now()))


__all__ = ["StoredToken", "TokenRepository", "token_id"]
