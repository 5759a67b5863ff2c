"""Passwords: hashed with argon2id (argon2-cffi's defaults, RFC 9106's second recommended set), never stored or logged
as given; hashing runs off the event loop, as it takes tens of milliseconds by design."""

from __future__ import annotations

import asyncio

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..shared.errors import BadRequest

LENGTH = (8, 256)


def check_length(value: str, field: str) -> str:
    """``value`` unless it is longer than any password may be (a longer one is refused, never cut to fit, wherever
    a password is given: signing up or in, changing it).

    :raises BadRequest: naming ``field`` and the rule (never quoting the value).
    """
    if len(value) > LENGTH[1]:
        raise BadRequest(f"{field!r}: a password is at most {LENGTH[1]} characters (a longer one is refused, not cut).")
    return value


def check_password(value: object, name: str, field: str = "password") -> str:
    """The password ``value`` gives (in ``field``), checked.

    :raises BadRequest: saying what a password must be (never quoting it).
    """
    low, high = LENGTH
    if isinstance(value, str):
        check_length(value, field)
    if not isinstance(value, str) or not low <= len(value) <= high:
        raise BadRequest(f"A password is {low} to {high} characters.")
    if value.casefold() == name.casefold():
        raise BadRequest("A password is not the account's name.")
    return value


class Passwords:
    """Hashing and checking, with argon2id."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self._decoy: str | None = None

    async def hash(self, password: str) -> str:
        """The hash to store."""
        return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` was made from (``None``: no account; always false, as slowly)."""
        return await asyncio.to_thread(self._verify, stored, password)

    def _verify(self, stored: str | None, password: str) -> bool:
        if self._decoy is None:
            # checked against when a name is unknown, so that a wrong name takes as long as a wrong password
            self._decoy = self.hasher.hash("a password no account has")
        try:
            return self.hasher.verify(stored or self._decoy, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False


__all__ = ["LENGTH", "Passwords", "check_length", "check_password"]
