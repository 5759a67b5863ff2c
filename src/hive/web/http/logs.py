"""The server's log: lines of text, or JSON lines (``--log-format json``) for a log collector, one object a line
with the time, level, logger, message and, for a request, the client, method, path, route, status and time taken.

What a client sends cannot forge a line or leak a secret into it: every record's message and request fields pass
:func:`clean` (:class:`Cleaned`, on the handler), which escapes control and bidi characters (a ``%0a`` in a path
would start a line of its own) and redacts tokens: query parameters such as ``?token=`` (a game socket's seat
token, which uvicorn logs with every socket it accepts), ``Bearer`` credentials, and session cookies.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from typing import Any

#: The fields a request's log line carries besides the message.
REQUEST_FIELDS = ("client", "method", "path", "route", "status", "ms")
FORMATS = ("text", "json")
#: The characters escaped in a log line: controls (a line break would start a forged line), the line and paragraph
#: separators, and the bidi controls (which show a line in another order than it is written).
ESCAPED = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")
#: Secrets in what a request sends: query parameters and cookies (``name=value``), and ``Bearer`` credentials.
SECRETS = re.compile(
    r"(?i)\b((?:[\w-]*token|csrf|password|secret|hive_session|session)(?:=|:\s*))[^&\s;,\"']+"
    r"|\b(bearer\s+)[^\s,;\"']+"
)
REDACTED = "[redacted]"


def clean(text: str) -> str:
    """``text`` as a log line may hold it: its control and bidi characters escaped (``\\x0a``), its tokens
    redacted (``token=[redacted]``, ``Bearer [redacted]``)."""
    text = SECRETS.sub(lambda m: (m.group(1) or m.group(2)) + REDACTED, text)
    return ESCAPED.sub(
        lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256 else f"\\u{ord(m.group()):04x}", text
    )


class Cleaned(logging.Filter):
    """Every record's message (its arguments filled in) and request fields passed through :func:`clean`; the
    traceback of an error is left as it is (the formatter adds it after the message)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = clean(message)
        if cleaned != message or record.args:
            record.msg, record.args = cleaned, None
        for name in REQUEST_FIELDS:
            value = getattr(record, name, None)
            if isinstance(value, str):
                setattr(record, name, clean(value))
        return True


class JsonLines(logging.Formatter):
    """Each record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        for name in REQUEST_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, separators=(",", ":"))


def configure(fmt: str = "text", level: int = logging.INFO, access: bool = True) -> None:
    """Send the server's log (its own, uvicorn's and SQLAlchemy's warnings) to standard error in ``fmt`` (``text``
    or ``json``); ``access``: one line per request.

    :raises ValueError: for an unknown format.
    """
    if fmt not in FORMATS:
        raise ValueError(f"the log format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(Cleaned())
    handler.setFormatter(
        JsonLines() if fmt == "json" else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    )
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    for name in ("hive", "uvicorn.error"):
        logging.getLogger(name).setLevel(level)
    logging.getLogger("hive.access").setLevel(logging.INFO if access else logging.WARNING)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)  # the app logs each request itself


__all__ = ["FORMATS", "Cleaned", "JsonLines", "clean", "configure"]
