"""Web Push's sending, off the request path: a notification is put on a bounded queue in this process and sent by a
few background workers over ``httpx``'s asynchronous client (RFC 8030: a ``POST`` of the encrypted message to the
subscription's endpoint, with its ``TTL``, ``Urgency`` and ``Content-Encoding: aes128gcm``, and RFC 8292's VAPID
``Authorization``). A slow or failing push service holds a worker for the time limit at most, never a move; a full
queue drops the notification (said in the log); a subscription its push service says is gone (404, 410) is deleted.
An endpoint whose host has an address of this machine or a private network is not sent to, nor a redirect followed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from .crypto import authorization, encrypt
from .repository import PushRepository, Subscription

log = logging.getLogger("hive.web")
#: The answers of a push service meaning the subscription is no more (RFC 8030 §7.3): it is deleted.
GONE = frozenset({404, 410})
#: The most a message's text may be (push services take 4 KiB of encrypted message; the record adds its header).
MAX_PAYLOAD = 3072


@dataclass(frozen=True)
class Notification:
    """One notification to one subscription: what the service worker shows (``payload``: ``title``, ``body``,
    ``url``, ``tag``, ``kind``), how long the push service keeps it for a browser that is away (``ttl`` seconds)
    and how urgent it is (RFC 8030's ``very-low``, ``low``, ``normal``, ``high``)."""

    subscription: Subscription
    payload: dict[str, Any]
    ttl: int
    urgency: str = "normal"


class Sender:
    """The push messages of this process, sent in the background.

    :param repository: the keys and subscriptions.
    :param contact: the server's contact for the push services (``mailto:`` or ``https:``; the VAPID ``sub``).
    :param workers: how many messages are sent at once.
    :param queue: how many may wait.
    :param timeout: seconds a push service has to answer.
    :param now: the time source (the tokens' ``exp``).
    :param loopback: send to endpoints on this machine and private networks too (tests' stand-in push services).
    """

    def __init__(
        self,
        repository: PushRepository,
        contact: str,
        *,
        workers: int = 4,
        queue: int = 256,
        timeout: float = 10.0,
        now: Callable[[], float] = time.time,
        loopback: bool = False,
    ) -> None:
        self.repository = repository
        self.loopback = loopback
        self.contact = contact
        self.workers = workers
        self.timeout = timeout
        self.now = now
        self.queue: asyncio.Queue[Notification] = asyncio.Queue(queue)
        #: Messages sent and answered 2xx, refused, and dropped (a full queue) since the process started.
        self.sent = self.failed = self.dropped = 0

    def put(self, notification: Notification) -> None:
        """Have ``notification`` sent soon (dropped, and logged, when too many wait)."""
        try:
            self.queue.put_nowait(notification)
        except asyncio.QueueFull:
            self.dropped += 1
            log.warning("a push notification was dropped: %d wait already", self.queue.qsize())

    async def sending(self) -> None:
        """Send the queued messages, with :attr:`workers` at once; until cancelled."""
        async with httpx.AsyncClient(timeout=self.timeout, follow_redirects=False) as client:
            await asyncio.gather(*(self._work(client) for _ in range(self.workers)))

    async def _work(self, client: httpx.AsyncClient) -> None:
        while True:
            notification = await self.queue.get()
            try:
                await self.send(client, notification)
            except Exception:  # a bug: said with its traceback, the next message sent all the same
                log.exception("a push notification could not be sent")
            finally:
                self.queue.task_done()

    async def send(self, client: httpx.AsyncClient, notification: Notification) -> int | None:
        """Send one message now; the push service's status (``None``: it could not be reached, its host is not on
        the internet, or the message is longer than :data:`MAX_PAYLOAD`)."""
        s = notification.subscription
        text = json.dumps(notification.payload, separators=(",", ":"), ensure_ascii=False).encode()
        if len(text) > MAX_PAYLOAD:  # never with the server's own texts, whose names are short
            log.warning("a push notification of %d bytes was not sent", len(text))
            return None
        if not self.loopback and not await _public(s.endpoint):
            self.failed += 1
            log.warning("a push endpoint's host is not on the internet (%s): not sent", _host(s.endpoint))
            return None
        keys = await self.repository.keys()
        headers = {
            "Authorization": authorization(keys.private, s.endpoint, self.contact, self.now()),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(notification.ttl),
            "Urgency": notification.urgency,
        }
        try:
            answer = await client.post(s.endpoint, content=encrypt(text, s.p256dh, s.auth), headers=headers)
        except httpx.HTTPError as err:
            self.failed += 1
            log.warning("a push service could not be reached (%s): %s", _host(s.endpoint), type(err).__name__)
            return None
        if answer.status_code in GONE:
            await self.repository.gone(s.endpoint)
        if answer.is_success:
            self.sent += 1
        else:
            self.failed += 1
            log.info("a push service answered %d (%s)", answer.status_code, _host(s.endpoint))
        return answer.status_code

    async def settle(self) -> None:
        """Wait until every queued message has been sent or given up (for tests and a stopping process)."""
        await self.queue.join()


async def _public(endpoint: str) -> bool:
    """Whether every address the endpoint's host has is a public one (a name that leads to this machine or a private
    network is not sent to, whatever the subscription's checks at the door saw)."""
    url = httpx.URL(endpoint)
    try:
        found = await asyncio.get_running_loop().getaddrinfo(url.host, url.port or 443, type=socket.SOCK_STREAM)
    except OSError:
        return False
    return bool(found) and all(ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_global for info in found)


def _host(endpoint: str) -> str:
    """An endpoint's host, for the log (its path is the subscription's secret)."""
    return httpx.URL(endpoint).host


__all__ = ["GONE", "MAX_PAYLOAD", "Notification", "Sender"]
