"""Mail from a club's server (``hive serve --smtp URL``): the forgotten password's link, sent off the request path.

The URL names the host's mail server: ``smtp://USER:PASSWORD@HOST:PORT`` (plain, or upgraded with
``?starttls=1``), or ``smtps://...`` (TLS from the start; port 465 by default); ``?from=ADDRESS`` sets the sender
(by default the user, when it is an address, else ``hive@HOST``). Sending runs on a thread, in a task of its own:
the request that asked for it has been answered already, and a failure is logged, never shown to the asker.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from collections.abc import Coroutine
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger("hive.web.mail")
#: How long a conversation with the mail server may take, in seconds.
TIMEOUT = 20.0


@dataclass(frozen=True)
class MailServer:
    """Where mail is sent from (see the module's text).

    :ivar tls: ``"ssl"`` (``smtps``), ``"starttls"`` or ``""`` (plain, for a server on the same machine).
    """

    host: str
    port: int
    user: str
    password: str
    tls: str
    sender: str

    @classmethod
    def parse(cls, url: str) -> MailServer:
        """The mail server a URL names.

        :raises ValueError: naming what is wrong with it.
        """
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("--smtp is smtp://[USER:PASSWORD@]HOST[:PORT][?starttls=1] or smtps://...")
        query = parse_qs(parts.query)
        starttls = query.get("starttls", ["0"])[0].lower() in ("1", "true", "yes")
        tls = "ssl" if parts.scheme == "smtps" else "starttls" if starttls else ""
        user, password = unquote(parts.username or ""), unquote(parts.password or "")
        sender = query.get("from", [""])[0] or (user if "@" in user else f"hive@{parts.hostname}")
        port = parts.port or (465 if tls == "ssl" else 587 if tls else 25)
        return cls(parts.hostname, port, user, password, tls, sender)


class Mailer:
    """Sends mail through a :class:`MailServer`, each message off the request path.

    :param server: the mail server.
    """

    def __init__(self, server: MailServer) -> None:
        self.server = server
        self._tasks: set[asyncio.Task[None]] = set()

    def later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` (which may send mail) in a task of its own; its failure is logged."""
        task = asyncio.get_running_loop().create_task(self._logged(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _logged(work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except Exception:
            log.exception("mail could not be sent")

    async def settle(self) -> None:
        """Wait for the mail being sent (the tests, and a server stopping)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def send(self, to: str, subject: str, text: str) -> None:
        """Send a plain-text message to ``to``, on a thread."""
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self.server.sender, to, subject
        message.set_content(text)
        await asyncio.to_thread(self._deliver, message)

    def _deliver(self, message: EmailMessage) -> None:
        server = self.server
        smtp: smtplib.SMTP
        if server.tls == "ssl":
            smtp = smtplib.SMTP_SSL(server.host, server.port, timeout=TIMEOUT, context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(server.host, server.port, timeout=TIMEOUT)
        with smtp:
            if server.tls == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if server.user:
                smtp.login(server.user, server.password)
            smtp.send_message(message)


__all__ = ["TIMEOUT", "MailServer", "Mailer"]
