"""Web Push: a signed-in player's browsers subscribed to notifications of their turn, a challenge to them and their
tournament's start, sent with the page closed (the Push API, the service worker ``/sw.js``), encrypted to each
browser's keys and signed with the server's VAPID keys, which the database keeps for every process."""

from __future__ import annotations

from .notices import Notices
from .repository import Keys, PushRepository, Subscription
from .sending import Notification, Sender
from .service import KINDS, Push

__all__ = ["KINDS", "Keys", "Notices", "Notification", "Push", "PushRepository", "Sender", "Subscription"]
