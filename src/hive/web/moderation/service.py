"""What an admin does from the admin screen: the reports (their lines in context, marked handled), muting, banning
and unbanning, deleting spam accounts, a new password or a one-time link that sets one; each action, once done,
recorded in the audit list with who did it, what, to whom and when (never a password or a link)."""

from __future__ import annotations

from ...sdk.view import JSON
from ..chat import Chat
from ..players import Accounts, Signed
from ..players.resets import PasswordResets
from ..shared.errors import Forbidden
from ..shared.i18n import _
from .repository import AuditRepository

#: The most audit rows one answer lists.
AUDIT_PAGE = 100


class Moderation:
    """The admins' actions.

    :param accounts: the accounts.
    :param resets: the password-reset links.
    :param chat: the chat (its reports and mutes).
    :param audit: the audit list.
    """

    def __init__(self, accounts: Accounts, resets: PasswordResets, chat: Chat, audit: AuditRepository) -> None:
        self.accounts = accounts
        self.resets = resets
        self.chat = chat
        self.audit = audit

    @staticmethod
    def check(admin: Signed) -> None:
        """:raises Forbidden: unless ``admin`` is one."""
        if not admin.account.admin:
            raise Forbidden(_("Only an admin may do this."))

    async def _done(self, admin: Signed, action: str, target: str, detail: str = "") -> None:
        await self.audit.record(admin.account.name, action, target, detail)

    async def ban(self, admin: Signed, name: str, banned: bool) -> JSON:
        """Ban an account (its sessions end) or lift its ban; audited when it changed (``changed``: a ban of an
        account banned already, or one of several at once, changes nothing and is not)."""
        account, changed = await self.accounts.set_banned(admin, name, banned)
        if changed:
            await self._done(admin, "ban" if banned else "unban", account.name)
        return {"name": account.name, "banned": account.banned, "changed": changed}

    async def mute(self, admin: Signed, name: str, muted: bool) -> JSON:
        """Mute an account (it writes in no chat room) or no longer; audited when it changed, as :meth:`ban`."""
        answer = await self.chat.mute(admin, name, muted)
        if answer["changed"]:
            await self._done(admin, "mute" if muted else "unmute", str(answer["name"]))
        return answer

    async def delete(self, admin: Signed, name: str) -> JSON:
        """Delete an account (spam); its name is free again."""
        account = await self.accounts.find(name) if admin.account.admin else None
        await self.accounts.delete(admin, name)
        await self._done(admin, "delete", account.name if account else name)
        return {"deleted": name}

    async def password(self, admin: Signed, name: str) -> JSON:
        """Give an account a new random password, to pass on (its sessions end, its API tokens are revoked)."""
        password = await self.accounts.reset_password(admin, name)
        await self._done(admin, "password", name)
        return {"name": name, "password": password}

    async def reset_link(self, admin: Signed, name: str, link: str) -> JSON:
        """Issue a one-time link that sets the account's password (``link``: the page's address, ending where the
        token goes), to hand over; it replaces the account's unused one."""
        self.check(admin)
        account = await self.accounts.find(name)
        token, expires = await self.resets.issue(account)
        await self._done(admin, "reset_link", account.name)
        return {"name": account.name, "link": link + token, "expires": expires}

    async def reports(self, admin: Signed) -> JSON:
        """The reports, their lines in context (see :meth:`hive.web.chat.service.Chat.reports`)."""
        return await self.chat.reports(admin)

    async def handle(self, admin: Signed, message_id: str, handled: bool) -> JSON:
        """Mark a report handled, or open it again."""
        answer = await self.chat.handle(admin, message_id, handled)
        await self._done(admin, "handled" if handled else "reopened", str(answer["name"]), f"message {answer['id']}")
        return answer

    async def rows(self, admin: Signed, before: int | None) -> JSON:
        """The audit list, newest first, :data:`AUDIT_PAGE` rows at a time (``before``: older than that row)."""
        self.check(admin)
        return {"audit": await self.audit.rows(before, AUDIT_PAGE)}


__all__ = ["AUDIT_PAGE", "Moderation"]
