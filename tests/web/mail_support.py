"""A mail server for the tests: a tiny SMTP listener on a thread that keeps every message it receives (no
authentication, no TLS: the server under test is given ``smtp://127.0.0.1:PORT``)."""

from __future__ import annotations

import email
import re
import socketserver
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import Message


class _Session(socketserver.StreamRequestHandler):
    server: _Listener

    def _say(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        self._say("220 test mail")
        while line := self.rfile.readline():
            verb = line.decode(errors="replace").strip().split(" ")[0].upper()
            if verb in ("EHLO", "HELO"):
                self._say("250 test mail")
            elif verb in ("MAIL", "RCPT", "RSET", "NOOP"):
                self._say("250 OK")
            elif verb == "DATA":
                self._say("354 go on")
                data = bytearray()
                while (chunk := self.rfile.readline()) not in (b".\r\n", b""):
                    data += chunk[1:] if chunk.startswith(b"..") else chunk
                self.server.received.append(email.message_from_bytes(bytes(data)))
                self._say("250 kept")
            elif verb == "QUIT":
                self._say("221 bye")
                return
            else:
                self._say("502 not here")


class _Listener(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Session)
        self.received: list[Message] = []


class Mailbox:
    """The messages a :func:`mail_server` received."""

    def __init__(self, listener: _Listener) -> None:
        self._listener = listener
        self.url = f"smtp://127.0.0.1:{listener.server_address[1]}?from=club@example.org"

    @property
    def received(self) -> list[Message]:
        """Every message, in the order received."""
        return list(self._listener.received)

    def wait(self, count: int, timeout: float = 20.0) -> list[Message]:
        """The messages once there are ``count`` of them (or after ``timeout`` seconds, however many)."""
        deadline = time.monotonic() + timeout
        while len(self._listener.received) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.received


def link_in(message: Message) -> str:
    """The first web address in a plain-text message."""
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    found = re.search(r"https?://\S+", payload.decode())
    assert found is not None, payload
    return found.group(0)


@contextmanager
def mail_server() -> Iterator[Mailbox]:
    """A mail server listening on a free port of this machine while the block runs."""
    listener = _Listener()
    thread = threading.Thread(target=listener.serve_forever, daemon=True)
    thread.start()
    try:
        yield Mailbox(listener)
    finally:
        listener.shutdown()
        listener.server_close()
