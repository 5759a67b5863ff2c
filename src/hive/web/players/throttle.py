"""The sign-in throttle: every attempt is counted in the database, atomically, *before* its password is checked, so
that however many arrive at once, on however many server processes, at most the allowance is ever checked.

Attempts are counted (in :mod:`~hive.web.shared.quotas`, 15-minute windows) against:

- the name from the address (``signin:pair:<key>|<address>``):
  :attr:`~hive.web.shared.settings.Settings.sign_in_failures`,
  5 by default;
- the address, all names together (``signin:address:<address>``): 20 by default;
- the name (``signin:name:<key>``), 10 by default, but only for attempts from places that never signed the account
  in: a stranger's guesses lock the name for strangers, never for its owner.

A place the account signed in from (or was made from) is trusted for it for :data:`TRUST_SECONDS` after its last
use: its address, and its browser, which keeps a random device cookie the server gave it (OWASP's "device cookies";
only its SHA-256 is stored). An attempt from a trusted device is counted against that device alone
(``signin:device:<hash>``, as many as a name from an address), so that an owner behind the attacker's address is not
locked out either. A sign-in that succeeds gives its counts back (it was no failure); a failure keeps them.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass

from ..shared.errors import TooMany
from ..shared.quotas import QuotaRepository
from ..shared.settings import Settings
from .repository import AccountRepository, StoredAccount

#: The window failed sign-ins are counted in, in seconds.
WINDOW = 15 * 60
#: How long an address or a device that signed an account in stays trusted for it, unused.
TRUST_SECONDS = 180 * 24 * 3600
#: The window of the sign-ups an address may make.
SIGN_UP_WINDOW = 3600


def device_key(device: str) -> str:
    """What the database keeps of a device cookie."""
    return "device:" + hashlib.sha256(device.encode()).hexdigest()


@dataclass(frozen=True)
class Attempt:
    """A sign-in attempt counted: the quotas it took (given back if it succeeds) and the places it came from."""

    counted: tuple[str, ...]
    places: tuple[str, ...]


def _minutes(seconds: float) -> int:
    return max(1, math.ceil(seconds / 60))


class Throttle:
    """The sign-in throttle and the sign-up quota of a server (see the module's text)."""

    def __init__(
        self,
        quotas: QuotaRepository,
        repository: AccountRepository,
        settings: Settings,
        now: Callable[[], float],
    ) -> None:
        self.quotas = quotas
        self.repository = repository
        self.settings = settings
        self.now = now

    async def attempt(self, key: str, account: StoredAccount | None, address: str, device: str | None) -> Attempt:
        """Count a sign-in attempt for the name ``key`` (``account``: its account, if any) from ``address`` and the
        browser's ``device`` cookie, before its password is checked.

        :raises TooMany: when any of its counts is past its allowance (the attempt is counted all the same).
        """
        settings = self.settings
        places = [f"address:{address}"] + ([device_key(device)] if device else [])
        trusted: set[str] = set()
        if account is not None:
            trusted = await self.repository.trusts(account.id, places, self.now() - TRUST_SECONDS)
        per_place = settings.sign_in_failures
        limits: list[tuple[str, int, float, str]]
        if len(places) > 1 and places[1] in trusted:
            limits = [(f"signin:{places[1]}", per_place, WINDOW, f"{per_place} from this browser")]
        else:
            limits = [
                (f"signin:pair:{key}|{address}", per_place, WINDOW, f"{per_place} for a name from one address"),
                (
                    f"signin:address:{address}",
                    settings.sign_in_failures_per_address,
                    WINDOW,
                    f"{settings.sign_in_failures_per_address} from one address",
                ),
            ]
            if places[0] not in trusted:
                per_name = settings.sign_in_failures_per_name
                limits.append((f"signin:name:{key}", per_name, WINDOW, f"{per_name} for a name from new places"))
        taken = await self.quotas.take_all([(quota, limit, window) for quota, limit, window, _ in limits])
        refused = [(answer, rule) for answer, (_, _, _, rule) in zip(taken, limits, strict=True) if not answer.allowed]
        if refused:
            wait = max(answer.retry_after for answer, _ in refused)
            rules = "; ".join(rule for _, rule in refused)
            raise TooMany(f"Too many failed sign-ins ({rules}, in 15 minutes); try again in {_minutes(wait)} min.")
        return Attempt(tuple(quota for quota, _, _, _ in limits), tuple(places))

    async def succeeded(self, attempt: Attempt, account: StoredAccount) -> None:
        """The attempt signed ``account`` in: give its counts back, and trust the places it came from."""
        await self.quotas.give_back(*attempt.counted)
        await self.trust(account, attempt.places)

    async def trust(self, account: StoredAccount, places: tuple[str, ...]) -> None:
        """Trust ``places`` (``address:...``, ``device:...``) for the account from now."""
        await self.repository.trust(account.id, list(places), self.now() - TRUST_SECONDS)

    async def known_device(self, device: str | None) -> bool:
        """Whether ``device`` is a device cookie this server gave (to any account, in the trust's time)."""
        return bool(device) and await self.repository.known_device(device_key(device or ""), self.now() - TRUST_SECONDS)

    async def sign_up(self, address: str) -> str:
        """Count an account made from ``address``, before it is made; returns the quota's key (given back with
        :meth:`unused` when no account was made after all).

        :raises TooMany: past the accounts an address may make in an hour.
        """
        quota, limit = f"signup:{address}", self.settings.sign_ups_per_hour
        taken = await self.quotas.take(quota, limit, SIGN_UP_WINDOW)
        if not taken.allowed:
            raise TooMany(
                f"Too many new accounts from this address ({limit} an hour); "
                f"try again in {_minutes(taken.retry_after)} min."
            )
        return quota

    async def unused(self, quota: str) -> None:
        """A use of ``quota`` made nothing: give it back."""
        await self.quotas.give_back(quota)


__all__ = ["SIGN_UP_WINDOW", "TRUST_SECONDS", "WINDOW", "Attempt", "Throttle", "device_key"]
