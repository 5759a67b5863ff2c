"""Chat messages of the games' rooms, who blocked whom, and the messages reported to the admins."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy import exc
from sqlalchemy.dialects import postgresql, sqlite

from ..players import accounts, lock_account
from ..shared.database import Repository
from .tables import blocks, chat, chat_reports, mutes


class ChatRepository(Repository):
    """The chat of a server's games."""

    async def say(
        self,
        game_id: str | None,
        room: str,
        account_id: str,
        text: str,
        tournament: str | None = None,
        rate: int | None = None,
    ) -> int | None:
        """Store a message in a game's room, or a tournament's (``tournament``); its id. With ``rate``, nothing is
        stored (``None``) when the account wrote that many messages in the last minute already: counted and stored
        in one transaction under the account's row lock, so that a burst on any number of processes stores at most
        ``rate``."""
        return await self.database.run(self._say, game_id, room, account_id, text, tournament, rate)

    def _say(
        self, game_id: str | None, room: str, account_id: str, text: str, tournament: str | None, rate: int | None
    ) -> int | None:
        now = self.now()
        row = {
            "game_id": game_id, "tournament_id": tournament, "room": room, "account_id": account_id, "text": text,
            "at": now,
        }  # fmt: skip
        with self.database.engine.begin() as connection:
            if rate is not None:
                lock_account(connection, account_id)
                if self._recent_in(connection, account_id, now - 60) >= rate:
                    return None
            inserted = connection.execute(chat.insert().values(row).returning(chat.c.id))
            return int(inserted.scalar_one())

    async def messages(
        self, game_id: str | None, room: str, reader: str | None, tournament: str | None = None
    ) -> list[dict[str, Any]]:
        """A room's messages (a game's, or a tournament's), oldest first, less those of the accounts ``reader``
        blocked."""
        return await self.database.run(self._messages, game_id, room, reader, tournament)

    def _messages(
        self, game_id: str | None, room: str, reader: str | None, tournament: str | None
    ) -> list[dict[str, Any]]:
        place = chat.c.tournament_id == tournament if tournament is not None else chat.c.game_id == game_id
        query = (
            sa.select(chat.c.id, chat.c.text, chat.c.at, accounts.c.name, accounts.c.bot)
            .join(accounts, accounts.c.id == chat.c.account_id)
            .where(place, chat.c.room == room)
            .order_by(chat.c.id)
        )
        if reader is not None:
            hidden = sa.select(blocks.c.blocked).where(blocks.c.account_id == reader)
            query = query.where(chat.c.account_id.not_in(hidden))
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return [{"id": r.id, "name": r.name, "bot": bool(r.bot), "text": r.text, "at": r.at} for r in rows]

    async def recent(self, account_id: str, since: float) -> int:
        """How many messages the account sent since ``since`` (the rate limit)."""
        return await self.database.run(self._recent, account_id, since)

    def _recent(self, account_id: str, since: float) -> int:
        with self.database.single() as connection:
            return self._recent_in(connection, account_id, since)

    @staticmethod
    def _recent_in(connection: sa.Connection, account_id: str, since: float) -> int:
        query = sa.select(sa.func.count()).where(chat.c.account_id == account_id, chat.c.at > since)
        return int(connection.execute(query).scalar_one())

    async def block(self, account_id: str, blocked: str, on: bool) -> None:
        """Block ``blocked`` for ``account_id`` (``on``), or no longer."""
        await self.database.run(self._block, account_id, blocked, on)

    def _block(self, account_id: str, blocked: str, on: bool) -> None:
        key = sa.and_(blocks.c.account_id == account_id, blocks.c.blocked == blocked)
        with self.database.engine.begin() as connection:
            if not on:
                connection.execute(blocks.delete().where(key))
                return
            try:
                with connection.begin_nested():
                    connection.execute(blocks.insert().values(account_id=account_id, blocked=blocked))
            except exc.IntegrityError:
                pass  # blocked already

    async def blocked(self, account_id: str, by: str) -> bool:
        """Whether ``by`` blocked ``account_id``."""
        return await self.database.run(self._blocked, account_id, by)

    def _blocked(self, account_id: str, by: str) -> bool:
        query = sa.select(blocks.c.blocked).where(blocks.c.account_id == by, blocks.c.blocked == account_id)
        with self.database.single() as connection:
            return connection.execute(query).first() is not None

    async def message(self, message_id: int) -> dict[str, Any] | None:
        """Where a message was written (``id``, ``game_id``, ``tournament_id``, ``room``), or ``None`` if there is
        none."""
        return await self.database.run(self._message, message_id)

    def _message(self, message_id: int) -> dict[str, Any] | None:
        query = sa.select(chat.c.id, chat.c.game_id, chat.c.tournament_id, chat.c.room).where(chat.c.id == message_id)
        with self.database.single() as connection:
            row = connection.execute(query).first()
        return None if row is None else dict(row._mapping)

    async def report(self, message_id: int, reporter: str) -> bool:
        """Store ``reporter``'s report of a message: whether it is new (a reporter reports a message once; the
        first reporter is also kept on the message)."""
        return await self.database.run(self._report, message_id, reporter)

    def _report(self, message_id: int, reporter: str) -> bool:
        with self.database.engine.begin() as connection:
            try:
                with connection.begin_nested():
                    row = {"message_id": message_id, "account_id": reporter, "at": self.now()}
                    connection.execute(chat_reports.insert().values(row))
            except exc.IntegrityError:
                return False  # reported by them already
            first = sa.and_(chat.c.id == message_id, chat.c.reported.is_(None))
            connection.execute(chat.update().where(first).values(reported=reporter))
        return True

    async def reports(self) -> list[dict[str, Any]]:
        """The messages reported, newest first, with who wrote and who reported them."""
        return await self.database.run(self._reports)

    def _reports(self) -> list[dict[str, Any]]:
        reporter = accounts.alias("reporter")
        count = (
            sa.select(sa.func.count()).where(chat_reports.c.message_id == chat.c.id).scalar_subquery().label("reports")
        )
        muted = sa.exists().where(mutes.c.account_id == chat.c.account_id).label("muted")
        query = (
            sa.select(chat, accounts.c.name, accounts.c.banned, muted, reporter.c.name.label("reporter_name"), count)
            .join(accounts, accounts.c.id == chat.c.account_id)
            .join(reporter, reporter.c.id == chat.c.reported)
            .order_by(chat.c.handled.is_not(None), chat.c.at.desc())
            .limit(200)
        )
        with self.database.single() as connection:
            rows = connection.execute(query).all()
        return [
            {"id": r.id, "game_id": r.game_id, "tournament_id": r.tournament_id, "room": r.room, "name": r.name,
             "text": r.text, "at": r.at, "reported_by": r.reporter_name, "reports": int(r.reports),
             "handled": r.handled, "banned": bool(r.banned), "muted": bool(r.muted)}
            for r in rows
        ]  # fmt: skip

    async def context(self, message_id: int, around: int) -> list[dict[str, Any]]:
        """The lines of a message's room around it: ``around`` before it, itself, ``around`` after it, oldest
        first (blocks hide nothing here: an admin reads the room as it was written)."""
        return await self.database.run(self._context, message_id, around)

    def _context(self, message_id: int, around: int) -> list[dict[str, Any]]:
        found = self._message(message_id)
        if found is None:
            return []
        place = (
            chat.c.tournament_id == found["tournament_id"]
            if found["tournament_id"] is not None
            else chat.c.game_id == found["game_id"]
        )
        lines = (
            sa.select(chat.c.id, chat.c.text, chat.c.at, accounts.c.name)
            .join(accounts, accounts.c.id == chat.c.account_id)
            .where(place, chat.c.room == found["room"])
        )
        before = lines.where(chat.c.id < message_id).order_by(chat.c.id.desc()).limit(around)
        after = lines.where(chat.c.id >= message_id).order_by(chat.c.id).limit(around + 1)
        with self.database.single() as connection:
            rows = [*reversed(connection.execute(before).all()), *connection.execute(after).all()]
        return [{"id": r.id, "name": r.name, "text": r.text, "at": r.at} for r in rows]

    async def handle(self, message_id: int, at: float | None) -> str | None:
        """Mark a reported message's report handled (at ``at``), or open again (``None``); the name of the account
        that wrote it (``None``: no such message reported)."""
        return await self.database.run(self._handle, message_id, at)

    def _handle(self, message_id: int, at: float | None) -> str | None:
        reported = sa.and_(chat.c.id == message_id, chat.c.reported.is_not(None))
        writer = (
            sa.select(accounts.c.name).join(chat, chat.c.account_id == accounts.c.id).where(chat.c.id == message_id)
        )
        with self.database.engine.begin() as connection:
            if connection.execute(chat.update().where(reported).values(handled=at)).rowcount != 1:
                return None
            return str(connection.execute(writer).scalar_one())

    async def mute(self, account_id: str, on: bool) -> bool:
        """Mute the account (``on``: it writes in no room), or no longer: whether this call changed it (of several
        at once, on any process, one does: the row's key decides)."""
        return await self.database.run(self._mute, account_id, on)

    def _mute(self, account_id: str, on: bool) -> bool:
        with self.database.engine.begin() as connection:
            if not on:
                return bool(connection.execute(mutes.delete().where(mutes.c.account_id == account_id)).rowcount)
            insert = (postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert)(mutes)
            row = {"account_id": account_id, "at": self.now()}
            added = insert.values(row).on_conflict_do_nothing(index_elements=[mutes.c.account_id])
            return connection.execute(added.returning(mutes.c.account_id)).first() is not None

    async def muted(self, account_id: str) -> bool:
        """Whether the account is muted."""
        return await self.database.run(self._muted, account_id)

    def _muted(self, account_id: str) -> bool:
        with self.database.single() as connection:
            return connection.execute(sa.select(mutes.c.at).where(mutes.c.account_id == account_id)).first() is not None


__all__ = ["ChatRepository"]
