"""Web Push's cryptography, on two small libraries of the Web Push reference implementations (the web-push-libs
project, which ``pywebpush`` is built on): ``http_ece`` encrypts a message to a browser's keys (RFC 8291's
``aes128gcm`` content coding of RFC 8188) and ``py_vapid`` signs the server's claim (RFC 8292's ``vapid t=…, k=…``,
an ES256 JWT); both stand on ``cryptography``. ``pywebpush`` itself is not used: its sending is ``requests``'
(a blocking call) or ``aiohttp``'s (a second HTTP client), where the server sends with ``httpx``'s asynchronous client.

Keys are base64url text without padding, as the Push API and the VAPID header write them.
"""

from __future__ import annotations

import base64
import os
from urllib.parse import urlsplit

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02

#: A P-256 public key's length, as an uncompressed point (``0x04``, x, y); an auth secret's (RFC 8291).
PUBLIC_KEY_BYTES, AUTH_BYTES = 65, 16
#: How long a VAPID token is valid (RFC 8292 allows 24 hours at most).
TOKEN_LIFE = 12 * 3600


def b64(data: bytes) -> str:
    """``data`` as base64url without padding."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    """The bytes of base64url ``text`` (padding optional).

    :raises ValueError: when it is not base64url.
    """
    if not text.isascii() or any(ch not in _ALPHABET for ch in text.rstrip("=")):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def public_point(key: ec.EllipticCurvePublicKey) -> bytes:
    """A P-256 public key as an uncompressed point."""
    return key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


def new_keys() -> tuple[str, str]:
    """A new VAPID key pair: the private key's 32 bytes and the public key's point, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64(key.private_numbers().private_value.to_bytes(32, "big")), b64(public_point(key.public_key()))


def check_public_key(text: str) -> bytes:
    """A browser's ``p256dh`` key: 65 bytes of base64url, a point of P-256.

    :raises ValueError: otherwise.
    """
    raw = unb64(text)
    if len(raw) != PUBLIC_KEY_BYTES or raw[0] != 4:
        raise ValueError("not an uncompressed P-256 point")
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)  # raises ValueError off the curve
    return raw


def authorization(private: str, endpoint: str, contact: str, now: float) -> str:
    """The ``Authorization`` header of a push to ``endpoint`` (RFC 8292): a JWT for the endpoint's origin
    (``aud``), valid :data:`TOKEN_LIFE` seconds (``exp``), naming the server's ``contact`` (``sub``), signed with
    ES256 by the server's private key, and that key's public half (``k``)."""
    parts = urlsplit(endpoint)
    claims = {"aud": f"{parts.scheme}://{parts.netloc}", "exp": int(now) + TOKEN_LIFE, "sub": contact}
    header: str = Vapid02.from_raw(private.encode("ascii")).sign(claims)["Authorization"]
    return header


def encrypt(payload: bytes, p256dh: str, auth: str) -> bytes:
    """``payload`` encrypted to a subscription's keys (RFC 8291, ``aes128gcm``): a fresh key pair and salt each
    time, the record size's header and the sender's public key first, as RFC 8188 writes them."""
    sender = ec.generate_private_key(ec.SECP256R1())
    body: bytes = http_ece.encrypt(
        payload,
        salt=os.urandom(16),
        private_key=sender,
        dh=unb64(p256dh),
        auth_secret=unb64(auth),
        version="aes128gcm",
    )
    return body


__all__ = [
    "AUTH_BYTES",
    "PUBLIC_KEY_BYTES",
    "TOKEN_LIFE",
    "authorization",
    "b64",
    "check_public_key",
    "encrypt",
    "new_keys",
    "public_point",
    "unb64",
]
