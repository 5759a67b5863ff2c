"""Web Push's subscriptions as a signed-in player manages them: the server's public key to subscribe with, a
browser's subscription stored with the notifications it asks for, those changed, and the subscription deleted.

Every value is checked here, before it is stored: the endpoint is an ``https`` URL of a sane length naming a host
that is not this machine or a private network's (the server will send to it: an endpoint may not point the server at
what only it can reach), unless the server is set for tests (``loopback``); the keys are base64url of the lengths
RFC 8291 gives, the ``p256dh`` key a point of P-256; the kinds are known ones.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
from typing import Any
from urllib.parse import urlsplit

from ...sdk.view import JSON
from ..players import Signed
from ..shared.errors import BadRequest, Forbidden, NotFound, TooMany, shown
from ..shared.i18n import _
from ..shared.values import check_text
from .crypto import AUTH_BYTES, check_public_key, unb64
from .repository import PushRepository, Subscription

#: The notifications a subscription may ask for: a player's turn in a game (their opponent moved while they have no
#: page of the game open), a challenge to them, a tournament of theirs starting.
KINDS = ("turn", "challenge", "tournament")
#: The longest endpoint taken (the push services' are about 200 characters).
MAX_ENDPOINT = 1024
#: The subscriptions one account may have (one per browser it signs in on).
MAX_SUBSCRIPTIONS = 10
#: A page's language: a BCP 47 tag's first parts.
LANGUAGE = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}")
#: Host names that are this machine or a local network's, refused as endpoints but for tests.
LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".lan", ".home.arpa")


def check_endpoint(value: object, loopback: bool = False) -> str:
    """A subscription's endpoint (see the module's text).

    :raises BadRequest: naming what is wrong.
    """
    text = check_text(value, "'endpoint'", MAX_ENDPOINT)
    try:
        parts = urlsplit(text)
        host = parts.hostname or ""
        parts.port  # noqa: B018 (a port out of range raises ValueError)
    except ValueError:
        raise BadRequest(_("'endpoint' must be a URL.")) from None
    if parts.scheme != "https" and not (loopback and parts.scheme == "http"):
        raise BadRequest(_("'endpoint' must be an https URL."))
    if not host or parts.username is not None or parts.password is not None or parts.fragment or " " in text:
        raise BadRequest(_("'endpoint' must be a push service's URL: a host, no user name, no fragment."))
    if not loopback and _local(host):
        raise BadRequest(_("'endpoint' cannot name this machine or a local network ({host}).", host=shown(host)))
    return text


def _local(host: str) -> bool:
    """Whether ``host`` is an address that is not a public one, or a name of this machine or a local network."""
    try:
        return not ipaddress.ip_address(host).is_global
    except ValueError:
        name = host.lower().rstrip(".")
        return "." not in name or name.endswith(LOCAL_SUFFIXES)


def check_kinds(value: object) -> frozenset[str]:
    """The notifications asked for: a list of :data:`KINDS` (possibly empty).

    :raises BadRequest: otherwise.
    """
    if not isinstance(value, list) or len(value) > len(KINDS) or any(kind not in KINDS for kind in value):
        raise BadRequest(
            _("'kinds' must be a list of {kinds}, not {value}.", kinds=", ".join(KINDS), value=shown(value))
        )
    return frozenset(value)


def check_keys(value: object) -> tuple[str, str]:
    """A subscription's ``keys``: ``p256dh`` (a P-256 public key, 65 bytes) and ``auth`` (16 bytes), base64url.

    :raises BadRequest: otherwise.
    """
    if not isinstance(value, dict):
        raise BadRequest(_("'keys' must be an object with 'p256dh' and 'auth', not {value}.", value=shown(value)))
    p256dh, auth = (check_text(value.get(name), f"'keys.{name}'", 128) for name in ("p256dh", "auth"))
    try:
        check_public_key(p256dh)
    except ValueError:
        raise BadRequest(_("'keys.p256dh' must be a P-256 public key (65 bytes, base64url).")) from None
    try:
        secret = unb64(auth)
    except ValueError:
        secret = b""
    if len(secret) != AUTH_BYTES:
        raise BadRequest(_("'keys.auth' must be {count} bytes, base64url.", count=AUTH_BYTES))
    return p256dh.rstrip("="), auth.rstrip("=")


def check_language(value: object) -> str | None:
    """The page's language (``None`` when not given).

    :raises BadRequest: when it is not a language tag.
    """
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 20 or not LANGUAGE.fullmatch(value):
        raise BadRequest(
            _("'language' must be a language tag such as 'en' or 'fr-CA', not {value}.", value=shown(value))
        )
    return value


class Push:
    """The push subscriptions of a server's players.

    :param repository: where they are kept, with the server's keys.
    :param loopback: take ``http`` endpoints and those of this machine (a server set for tests).
    :param limit: the subscriptions one account may have.
    """

    def __init__(self, repository: PushRepository, *, loopback: bool = False, limit: int = MAX_SUBSCRIPTIONS) -> None:
        self.repository = repository
        self.loopback = loopback
        self.limit = limit

    @staticmethod
    def _browser(signed: Signed) -> None:
        if signed.bearer:
            raise Forbidden(_("Push notifications are a browser's: sign in on the page to subscribe."))

    async def key(self) -> JSON:
        """The server's public key (``key``, base64url: the page's ``applicationServerKey``) and the kinds of
        notification there are."""
        return {"key": (await self.repository.keys()).public, "kinds": list(KINDS)}

    async def status(self, signed: Signed, endpoint: object) -> JSON:
        """Whether this browser's subscription (its ``endpoint``) is the account's, and the notifications it asks
        for."""
        found = await self.repository.find(signed.account.id, check_endpoint(endpoint, self.loopback))
        return {"subscribed": found is not None, "kinds": sorted(found.kinds) if found else []}

    async def subscribe(self, signed: Signed, data: JSON) -> JSON:
        """Store a browser's subscription (as the Push API's ``PushSubscription.toJSON()`` gives it: ``endpoint``
        and ``keys``) with the notifications it asks for (``kinds``; all by default) and the page's ``language``.

        :raises TooMany: when the account has :attr:`limit` subscriptions already.
        """
        self._browser(signed)
        endpoint = check_endpoint(data.get("endpoint"), self.loopback)
        p256dh, auth = check_keys(data.get("keys"))
        kinds = check_kinds(data["kinds"]) if "kinds" in data else frozenset(KINDS)
        language = check_language(data.get("language"))
        subscription = Subscription(
            secrets.token_urlsafe(12), signed.account.id, endpoint, p256dh, auth, kinds, language
        )
        if not await self.repository.subscribe(subscription, self.limit):
            raise TooMany(
                _(
                    "An account has {limit} push subscriptions at most: unsubscribe another browser first.",
                    limit=self.limit,
                )
            )
        return self._answer(subscription)

    async def choose(self, signed: Signed, data: JSON) -> JSON:
        """Change the notifications a subscription of the account's asks for (``endpoint``, ``kinds``).

        :raises NotFound: when the account has no subscription there.
        """
        self._browser(signed)
        endpoint = check_endpoint(data.get("endpoint"), self.loopback)
        kinds = check_kinds(data.get("kinds"))
        if not await self.repository.choose(signed.account.id, endpoint, kinds):
            raise NotFound(_("This browser has no push subscription of yours: subscribe first."))
        return {"subscribed": True, "kinds": sorted(kinds)}

    async def unsubscribe(self, signed: Signed, data: JSON) -> JSON:
        """Delete a subscription of the account's (``endpoint``); ``deleted`` says whether there was one."""
        self._browser(signed)
        endpoint = check_endpoint(data.get("endpoint"), self.loopback)
        return {"deleted": await self.repository.unsubscribe(signed.account.id, endpoint), "subscribed": False}

    @staticmethod
    def _answer(subscription: Subscription) -> dict[str, Any]:
        return {"subscribed": True, "kinds": sorted(subscription.kinds)}


__all__ = ["KINDS", "MAX_ENDPOINT", "MAX_SUBSCRIPTIONS", "Push", "check_endpoint", "check_keys", "check_kinds"]
