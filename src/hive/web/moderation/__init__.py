"""Moderation (``hive serve``): the admin screen and the admins' API, the reports queue, mutes, bans, deletions,
password resets, and the audit list of every admin's action. It stands on the players' and the chat's services; no
domain uses it."""

from .service import Moderation

__all__ = ["Moderation"]
