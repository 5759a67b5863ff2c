"""Web Push as the tests see it from the browser's side: a browser's subscription keys (a P-256 key pair and an auth
secret, made as a browser makes them), a local push service standing in for the browser vendor's (an HTTP server on
this machine that keeps every message it is sent and answers as it is told), and the checks a push service and a
browser make of a message: the VAPID header's JWT verified against the server's public key (RFC 8292), and the body
decrypted with the subscription's private key (RFC 8291's ``aes128gcm``, written here again from the RFCs, apart
from the server's library)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


#: How long the push service takes to answer a message to a path under ``/slow/``, in seconds.
SLOW = 3.0


@dataclass
class Browser:
    """A browser's subscription keys: its P-256 key pair and its 16-byte auth secret."""

    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def public(self) -> bytes:
        return self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)

    def subscription(self, endpoint: str, **more: Any) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives, and ``more`` (``kinds``, ``language``)."""
        keys = {"p256dh": b64(self.public), "auth": b64(self.auth)}
        return {"endpoint": endpoint, "expirationTime": None, "keys": keys, **more}

    def decrypt(self, body: bytes) -> bytes:
        """A message's text (RFC 8291 over RFC 8188's ``aes128gcm``: one record, its padding delimiter 2)."""
        salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        sender, records = body[21 : 21 + idlen], body[21 + idlen :]
        assert idlen == 65 and len(records) <= rs, (idlen, rs, len(records))
        secret = self.key.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender))
        ikm = _hkdf(self.auth, secret, b"WebPush: info\x00" + self.public + sender, 32)
        cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        plain = AESGCM(cek).decrypt(nonce, records, None).rstrip(b"\x00")
        assert plain.endswith(b"\x02"), "the last record's delimiter"
        return plain[:-1]


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(hashes.SHA256(), length, salt, info).derive(ikm)


@dataclass
class Received:
    """A message the push service took: its path, headers and body."""

    path: str
    headers: dict[str, str]
    body: bytes


class PushService:
    """A push service on this machine: every ``POST`` kept in :attr:`received`; a path under ``/gone/`` answers 410,
    the others 201, those under ``/slow/`` after :data:`SLOW` seconds."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.arrived = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                if self.path.startswith("/slow/"):
                    time.sleep(SLOW)
                with service.arrived:
                    service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    service.arrived.notify_all()
                self.send_response(410 if self.path.startswith("/gone/") else 201)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def to(self, path: str) -> list[Received]:
        """The messages sent to ``path``."""
        return [r for r in self.received if r.path == path]


@contextmanager
def push_service() -> Iterator[PushService]:
    """A :class:`PushService` serving for the block."""
    service = PushService()
    thread = threading.Thread(target=service.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        service.server.shutdown()
        service.server.server_close()


def check_vapid(header: str, public_key: str, audience: str, contact: str, now: float) -> dict[str, Any]:
    """The claims of a ``vapid t=JWT, k=KEY`` header, once checked: ``k`` is the server's public key, the JWT's
    ES256 signature is that key's, ``aud`` the endpoint's origin, ``exp`` within 24 hours, ``sub`` the contact."""
    scheme, _, rest = header.partition(" ")
    assert scheme == "vapid", header
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert params["k"] == public_key
    head, claims, signature = params["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    try:
        key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID token's signature is not the server's key's") from None
    found: dict[str, Any] = json.loads(unb64(claims))
    assert found["aud"] == audience and found["sub"] == contact, found
    assert now < found["exp"] <= now + 24 * 3600, (found["exp"], now)
    return found
