"""What every domain's JSON endpoints share: the request body read at the boundary (what JSON has not or no field
takes is refused: ``NaN``, infinities, integers beyond 2^53, lone surrogates, NUL), the refusals answered with their
status, and the endpoint wrapper that turns a handler's answer or refusal into a response, the refusal's message
translated into the asker's language (see :mod:`~hive.web.shared.i18n`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .errors import BadRequest, Conflict, Damaged, Forbidden, GameError, NotFound, TooMany, Unauthorized, Unavailable
from .i18n import SOURCE, language, translate
from .values import SAFE_INTEGER

#: A JSON answer.
JSON = dict[str, Any]
#: A route's handler: a request in, JSON (or a response of its own) out.
Handler = Callable[[Request], Awaitable[Any]]

#: Half of a UTF-16 surrogate pair: a JSON escape (``"\ud800"``) makes one, but it is not text, and cannot be
#: stored or sent as UTF-8; and NUL, which no field takes and PostgreSQL cannot store in a text.
SURROGATE = re.compile("[\ud800-\udfff\x00]")


class Refused(Exception):
    """A request the front door turns away with ``status``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def json_depth(raw: bytes) -> int:
    """How deeply the arrays and objects of a JSON text nest (its strings skipped), read in one pass."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _integer(digits: str) -> int:
    """A JSON integer, refused beyond what a JSON number carries exactly (±(2^53 - 1)): a longer one is refused by
    its length, before any conversion."""
    if len(digits.lstrip("-")) <= len(str(SAFE_INTEGER)):
        number = int(digits)
        if abs(number) <= SAFE_INTEGER:
            return number
    raise Refused(
        400,
        f"The request body has an integer out of range ({_cut(digits)}, {len(digits.lstrip('-')):,} digits):"
        f" integers are at most {SAFE_INTEGER:,} in size.",
    )


def _float(text: str) -> float:
    """A JSON number with a fraction or an exponent, refused when it is not finite (``1e400`` overflows)."""
    number = float(text)
    if not math.isfinite(number):
        raise Refused(400, f"The request body has a number out of range ({_cut(text)}): numbers must be finite.")
    return number


def _constant(name: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``, which Python's parser reads but JSON has not: refused."""
    raise Refused(400, f"The request body has {name}, which is not a JSON number: numbers must be finite.")


def _cut(text: str) -> str:
    return text if len(text) <= 16 else text[:12] + "…"


def _not_text(data: Any, where: str = "") -> str | None:
    """Where in ``data`` a string holds a lone surrogate or a NUL (``'name'``, ``'options.moves[2]'``, ``a key of
    'options'``), or ``None`` when all its strings are text."""
    if isinstance(data, str):
        return repr(where) if SURROGATE.search(data) else None
    if isinstance(data, list):
        for i, item in enumerate(data):
            if found := _not_text(item, f"{where}[{i}]"):
                return found
    if isinstance(data, dict):
        for key, value in data.items():
            if SURROGATE.search(key):
                return f"a key of {where!r}" if where else "a key"
            if found := _not_text(value, f"{where}.{key}" if where else key):
                return found
    return None


def parse_json(raw: bytes, max_depth: int) -> dict[str, Any]:
    """A request body's JSON object (``{}`` for an empty body).

    :raises Refused: 400 when it is not JSON, nests deeper than ``max_depth``, is not an object, has a number that
        is not finite (``NaN``, ``Infinity``, ``1e400``) or an integer beyond ±(2^53 - 1), or a string that is not
        text (a lone surrogate, from a ``\\ud800`` escape, or a NUL).
    """
    if not raw.strip():
        return {}
    if json_depth(raw) > max_depth:
        raise Refused(400, f"The request body nests deeper than {max_depth} levels.")
    try:
        data = json.loads(raw, parse_int=_integer, parse_float=_float, parse_constant=_constant)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise Refused(400, f"The request body is not valid JSON: {err}.") from None
    if not isinstance(data, dict):
        raise Refused(400, f"The request body must be a JSON object, not {type(data).__name__}.")
    where = _not_text(data)
    if where is not None:
        raise Refused(
            400,
            f"The request body holds a lone UTF-16 surrogate (an escape such as \\ud800 without its other half) or a"
            f" NUL character in {where}, which is not text.",
        )
    return data


#: The status code of each kind of refusal.
STATUS: dict[type[GameError], int] = {
    BadRequest: 400,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    TooMany: 429,
    Damaged: 500,
    Unavailable: 503,
}


def status_of(err: GameError) -> int:
    """The HTTP status of a refusal."""
    return next(status for kind, status in STATUS.items() if isinstance(err, kind))


def message_of(err: Exception, lang: str = SOURCE) -> str:
    """A refusal's message in ``lang``: its :class:`~hive.sdk.messages.Message` translated (or its text)."""
    return translate(lang, err.args[0]) if len(err.args) == 1 and isinstance(err.args[0], str) else str(err)


def refusal(err: GameError, lang: str = SOURCE) -> Response:
    """A refusal's answer: ``{"error": ...}`` in ``lang`` with its status (and ``Retry-After`` when the database is
    away)."""
    headers = {}
    if isinstance(err, Unavailable) and err.retry_after is not None:
        headers["retry-after"] = str(err.retry_after)
    return JSONResponse({"error": message_of(err, lang)}, status_code=status_of(err), headers=headers)


def endpoint(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint answering ``handler``'s JSON (or its own answer), or ``{"error": ...}`` with the refusal's
    status, in the asker's language."""

    async def answer(request: Request) -> Response:
        try:
            answer = await handler(request)
            return answer if isinstance(answer, Response) else JSONResponse(answer)
        except Refused as err:
            return JSONResponse({"error": message_of(err, language(request))}, status_code=err.status)
        except GameError as err:
            return refusal(err, language(request))

    return answer


def client(request: Request) -> str:
    """Who asks, for the rate limits and the AI's fair share: the client's address (the front door has put a trusted
    proxy's ``X-Forwarded-For`` there)."""
    return request.client.host if request.client else "unknown"


async def body(request: Request, max_depth: int) -> JSON:
    """The request's JSON object (``{}`` for an empty body), its size checked by the front door already.

    :raises Refused: when the body is not JSON, nests too deeply, or is not an object.
    """
    return parse_json(await request.body(), max_depth)


__all__ = [
    "JSON",
    "STATUS",
    "SURROGATE",
    "Handler",
    "Refused",
    "body",
    "client",
    "endpoint",
    "json_depth",
    "message_of",
    "parse_json",
    "refusal",
    "status_of",
]
