"""Web Push's storage: the server's VAPID keys (one row, made once whichever process comes first) and the browsers'
subscriptions, at most a number per account counted under the account's row lock."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from ..players import lock_account
from ..shared.database import Repository
from .crypto import new_keys
from .tables import push_keys, push_subscriptions

#: The key pair's row.
KEY_ROW = 1


@dataclass(frozen=True)
class Keys:
    """The server's VAPID key pair (base64url): the private key's 32 bytes and the public key's point."""

    private: str
    public: str


@dataclass(frozen=True)
class Subscription:
    """A browser's push subscription: its account, where its push service takes messages, the keys they are
    encrypted to, the notifications it asked for, and the page's language when it subscribed."""

    id: str
    account_id: str
    endpoint: str
    p256dh: str
    auth: str
    kinds: frozenset[str]
    language: str | None = None


def _subscription(row: sa.Row[Any]) -> Subscription:
    kinds = frozenset(kind for kind in row.kinds.split(",") if kind)
    return Subscription(row.id, row.account_id, row.endpoint, row.p256dh, row.auth, kinds, row.language)


class PushRepository(Repository):
    """The server's VAPID keys and its push subscriptions."""

    async def keys(self) -> Keys:
        """The key pair, made now if the database has none (of two processes making it at once, one's is kept)."""
        return await self.database.run(self._keys)

    def _keys(self) -> Keys:
        with self.database.engine.begin() as connection:
            row = connection.execute(sa.select(push_keys).where(push_keys.c.id == KEY_ROW)).first()
            if row is None:
                private, public = new_keys()
                insert = (postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert)(push_keys)
                values = {"id": KEY_ROW, "private": private, "public": public, "created": self.now()}
                connection.execute(insert.values(values).on_conflict_do_nothing(index_elements=[push_keys.c.id]))
                row = connection.execute(sa.select(push_keys).where(push_keys.c.id == KEY_ROW)).one()
        return Keys(row.private, row.public)

    async def rotate(self) -> tuple[Keys, int]:
        """A new key pair in place of the old, and every subscription deleted (a push service refuses a message
        signed by another key than the one its subscription was made with: the pages subscribe again); the new keys
        and how many subscriptions were deleted."""
        return await self.database.run(self._rotate)

    def _rotate(self) -> tuple[Keys, int]:
        private, public = new_keys()
        with self.database.engine.begin() as connection:
            connection.execute(sa.delete(push_keys))
            values = {"id": KEY_ROW, "private": private, "public": public, "created": self.now()}
            connection.execute(push_keys.insert().values(values))
            deleted = connection.execute(sa.delete(push_subscriptions)).rowcount
        return Keys(private, public), int(deleted or 0)

    async def subscribe(self, subscription: Subscription, limit: int) -> bool:
        """Store a subscription of its account (the same endpoint's again replaces it, whoever's it was), unless the
        account has ``limit`` others already (``False``). The count and the write are one transaction under the
        account's row lock, so that a burst, on any number of processes, never stores more; the write is one upsert
        on the endpoint, so that two accounts storing one browser's at once do not collide (the later wins)."""
        return await self.database.run(self._subscribe, subscription, limit)

    def _subscribe(self, subscription: Subscription, limit: int) -> bool:
        s = subscription
        with self.database.engine.begin() as connection:
            lock_account(connection, s.account_id)
            others = (push_subscriptions.c.account_id == s.account_id) & (push_subscriptions.c.endpoint != s.endpoint)
            if connection.execute(sa.select(sa.func.count()).where(others)).scalar_one() >= limit:
                return False
            dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
            insert = dialect.insert(push_subscriptions)
            row = {
                "id": s.id or secrets.token_urlsafe(12), "account_id": s.account_id, "endpoint": s.endpoint,
                "p256dh": s.p256dh, "auth": s.auth, "kinds": ",".join(sorted(s.kinds)), "language": s.language,
                "created": self.now(),
            }  # fmt: skip
            replace = {name: value for name, value in row.items() if name != "endpoint"}
            connection.execute(
                insert.values(row).on_conflict_do_update(index_elements=[push_subscriptions.c.endpoint], set_=replace)
            )
        return True

    async def choose(self, account_id: str, endpoint: str, kinds: Collection[str]) -> bool:
        """Change which notifications an account's subscription asks for; whether it has that subscription."""
        return await self.database.run(self._choose, account_id, endpoint, kinds)

    def _choose(self, account_id: str, endpoint: str, kinds: Collection[str]) -> bool:
        mine = (push_subscriptions.c.account_id == account_id) & (push_subscriptions.c.endpoint == endpoint)
        with self.database.engine.begin() as connection:
            changed = connection.execute(push_subscriptions.update().where(mine).values(kinds=",".join(sorted(kinds))))
        return bool(changed.rowcount)

    async def find(self, account_id: str, endpoint: str) -> Subscription | None:
        """An account's subscription at ``endpoint``, if it has it."""
        return await self.database.run(self._find, account_id, endpoint)

    def _find(self, account_id: str, endpoint: str) -> Subscription | None:
        mine = (push_subscriptions.c.account_id == account_id) & (push_subscriptions.c.endpoint == endpoint)
        with self.database.single() as connection:
            row = connection.execute(sa.select(push_subscriptions).where(mine)).first()
        return None if row is None else _subscription(row)

    async def unsubscribe(self, account_id: str, endpoint: str) -> bool:
        """Delete an account's subscription; whether it had it."""
        return await self.database.run(self._unsubscribe, account_id, endpoint)

    def _unsubscribe(self, account_id: str, endpoint: str) -> bool:
        mine = (push_subscriptions.c.account_id == account_id) & (push_subscriptions.c.endpoint == endpoint)
        with self.database.engine.begin() as connection:
            return bool(connection.execute(sa.delete(push_subscriptions).where(mine)).rowcount)

    async def of_accounts(self, account_ids: Collection[str], kind: str) -> list[Subscription]:
        """The subscriptions of these accounts that ask for notifications of ``kind``."""
        return await self.database.run(self._of_accounts, list(account_ids), kind)

    def _of_accounts(self, account_ids: list[str], kind: str) -> list[Subscription]:
        if not account_ids:
            return []
        query = sa.select(push_subscriptions).where(push_subscriptions.c.account_id.in_(account_ids))
        with self.database.single() as connection:
            found = [_subscription(row) for row in connection.execute(query)]
        return [s for s in found if kind in s.kinds]

    async def gone(self, endpoint: str) -> None:
        """Delete the subscription at ``endpoint`` (its push service says it is gone)."""
        await self.database.run(self._gone, endpoint)

    def _gone(self, endpoint: str) -> None:
        with self.database.engine.begin() as connection:
            connection.execute(sa.delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint))


__all__ = ["KEY_ROW", "Keys", "PushRepository", "Subscription"]
