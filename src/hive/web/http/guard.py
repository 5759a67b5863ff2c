"""The server's front door, an ASGI middleware: who may reach it, what a request may carry, and the headers every
answer has.

- ``Host`` must be one of the allowed names (DNS rebinding: a page of another site, its name pointed at this
  machine, is refused), but for the operator's ``/healthz``, ``/readyz`` and ``/metrics``.
- A WebSocket, and every request that changes something (not ``GET``/``HEAD``/``OPTIONS``), must come from the
  server's own origin (the scheme the request came in on, as a trusted proxy forwards it, its host and port) or an
  allowed one when the browser says where it comes from (``Origin``).
- A path or query holding a control or format character (``%00``, ``%0a``, a bidi control) is refused (400): no
  id, name or parameter holds one.
- A request body is JSON (``Content-Type: application/json``), read as it arrives and refused past the size limit
  before more is read, within the request time limit; :func:`~hive.web.shared.endpoints.parse_json` refuses what JSON
  has not or no field
  takes (``NaN``, infinities, integers beyond 2^53, lone surrogates, NUL).
- An incoming WebSocket message is at most :data:`WS_MAX_SIZE` bytes; the ASGI server enforces it, as each frame's
  header arrives (:func:`~hive.web.http.run.config` sets it for uvicorn).
- Every answer carries a strict Content Security Policy (no inline script or style, no framing), ``nosniff`` and no
  referrer; over HTTPS (as a trusted reverse proxy forwards it, too), ``Strict-Transport-Security``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from ..shared.endpoints import Refused
from ..shared.settings import Settings
from ..shared.values import character_name, unsafe
from .network import is_address, local_names

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self';"
    " worker-src 'self'; manifest-src 'self';"
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
#: Over HTTPS (directly, or as a trusted proxy forwards it): browsers keep to HTTPS for a year.
STRICT_TRANSPORT = (b"strict-transport-security", b"max-age=31536000")
#: The operator's endpoints, answered whatever the Host (a health check or a scraper reaches the process by its
#: address); they change nothing and show no game.
OPERATIONS = ("/healthz", "/readyz", "/metrics")
#: In an allow-list of hosts: any IP address (no page can rebind a name to an address typed as an address).
ANY_ADDRESS = "any IP address"
#: The WebSocket close code of a refused handshake (answered as 403).
POLICY = 1008
#: The largest WebSocket message the server reads, in bytes. The only message it understands is ``ping`` (the page
#: sends none): a longer frame is refused (close code 1009) as soon as its header arrives, rather than held in
#: memory while it trickles in.
WS_MAX_SIZE = 512


def host_name(host: str) -> str:
    """The name of a ``Host`` header's value, without its port, lower case (``[::1]:8000`` → ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def allowed_hosts(listen: str, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The ``Host`` names a server listening on ``listen`` answers to: a loopback address answers to the loopback
    names, a wildcard (``0.0.0.0``, ``::``) to them and to this machine's names and addresses, any other address to
    itself; ``extra`` names (a reverse proxy's, a LAN name) are added."""
    loopback = ("localhost", "127.0.0.1", "::1")
    names = {host_name(listen), *loopback} if host_name(listen) in loopback else {host_name(listen)}
    if listen in ("0.0.0.0", "::", ""):
        names |= {*loopback, *local_names(), ANY_ADDRESS}
    return tuple(sorted(names | {host_name(name) for name in extra}))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


def _origin_host(origin: str) -> tuple[str, int | None, str] | None:
    """An ``Origin``'s host and port as a ``Host`` header names them (the scheme's default port left out), with
    that default port and the scheme; ``None`` when its port is not one (out of range, not a number) or its IPv6
    address is not closed."""
    try:
        parts = urlsplit(origin.lower())
        port = parts.port
    except ValueError:
        return None
    default = {"http": 80, "https": 443}.get(parts.scheme)
    netloc = parts.netloc.removesuffix(f":{port}") if port is not None and port == default else parts.netloc
    return netloc, default, parts.scheme


def _scheme(scope: Scope) -> str:
    """The scheme the request came in on, as a page's origin names it (a socket's ``wss`` is ``https``); behind a
    trusted proxy, the one its ``X-Forwarded-Proto`` says (uvicorn puts it in the scope)."""
    scheme = str(scope.get("scheme") or ("ws" if scope.get("type") == "websocket" else "http"))
    return {"ws": "http", "wss": "https"}.get(scheme, scheme)


def _refused_character(text: str) -> str | None:
    """The first character of a path or query that no id, name or parameter holds, as a message names it."""
    found = unsafe(text)
    return None if found is None else f"{character_name(found[1])} at character {found[0] + 1}"


def _shown(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:79] + "…")


class Guard:
    """The middleware around ``app`` (see the module's description).

    :param settings: the allowed hosts and origins, the body size limit and the request time limit.
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        try:
            self.check_host(scope)
            self.check_target(scope)
            if scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS:
                self.check_origin(scope)
            if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
                receive = await self.read_body(scope, receive)
        except Refused as err:
            await self.refuse(scope, send, err)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        always = [*HEADERS, STRICT_TRANSPORT] if scope.get("scheme") == "https" else HEADERS

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {key.lower() for key, _ in message.get("headers", [])}
                extra = [(key, value) for key, value in always if key not in present]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, secured)

    def check_host(self, scope: Scope) -> None:
        hosts = self.settings.hosts
        if hosts is None or "*" in hosts or scope.get("path") in OPERATIONS:
            return
        host = _header(scope, b"host") or ""
        name = host_name(host)
        if name not in hosts and not (ANY_ADDRESS in hosts and is_address(name)):
            raise Refused(
                400,
                f"This server does not answer to the host name {_shown(host)}; it answers to {', '.join(hosts)}"
                " (hive play --allow-host adds a name).",
            )

    def check_target(self, scope: Scope) -> None:
        """Refuse a path or query parameter holding a control or format character (``%00``, ``%0a``, a bidi
        control): no id, name or parameter holds one, and it must reach neither the database nor the log."""
        found = _refused_character(scope.get("path", ""))
        if found is not None:
            raise Refused(400, f"The request's path holds a control or format character ({found}).")
        query = scope.get("query_string", b"").decode("latin-1")
        for key, value in parse_qsl(query, keep_blank_values=True):
            found = _refused_character(key + "=" + value)
            if found is not None:
                raise Refused(400, f"The request's query holds a control or format character in {_shown(key)}.")

    def check_origin(self, scope: Scope) -> None:
        """Admit a request without ``Origin`` (not sent by a page), from an allowed origin, or from the server's own:
        the same scheme as the request came in on, the same host and port."""
        origin = _header(scope, b"origin")
        if origin is None:
            return  # not sent by a browser's page
        if origin.rstrip("/") in self.settings.origins:
            return
        own = (_header(scope, b"host") or "").lower()
        page = _origin_host(origin)
        if page is not None and page[2] == _scheme(scope) and page[0] in (own, own.removesuffix(f":{page[1]}")):
            return
        raise Refused(
            403,
            f"Cross-origin request refused: the page at {_shown(origin)} is not this server's"
            f" ({_shown(_scheme(scope) + '://' + own)}; hive play --allow-origin admits another).",
        )

    async def read_body(self, scope: Scope, receive: Receive) -> Receive:
        """Read the body within the size and time limits, and hand it on as one message."""
        limit = self.settings.body_bytes
        length = _header(scope, b"content-length")
        if length is not None and (not length.isascii() or not length.isdigit()):
            raise Refused(400, f"Content-Length must be a number of bytes, not {_shown(length)}.")
        if length is not None and int(length) > limit:
            raise Refused(413, f"The request body is too large ({length} bytes, at most {limit}).")
        chunked = "chunked" in (_header(scope, b"transfer-encoding") or "").lower()
        kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        if (chunked or (length or "0") != "0") and kind != "application/json":
            raise Refused(415, f"Send JSON: the Content-Type must be application/json, not {_shown(kind)}.")
        body = bytearray()
        try:
            async with asyncio.timeout(self.settings.request_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        break
                    body += message.get("body", b"")
                    if len(body) > limit:
                        raise Refused(413, f"The request body is too large (more than {limit} bytes).")
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            raise Refused(408, f"The request body did not arrive within {self.settings.request_timeout:g} s.") from None
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        return replay

    async def refuse(self, scope: Scope, send: Send, err: Refused) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": POLICY, "reason": str(err)[:120]})
            return
        body = json.dumps({"error": str(err)}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            *HEADERS,
        ]
        await send({"type": "http.response.start", "status": err.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


__all__ = [
    "ANY_ADDRESS",
    "CSP",
    "HEADERS",
    "WS_MAX_SIZE",
    "Guard",
    "Refused",
    "allowed_hosts",
    "host_name",
]
