"""The server's log: lines of text, or JSON lines (``--log-format json``) for a log collector, one object a line
with the time, level, logger, message and, for a request, the client, method, path, route, status and time taken.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

#: The fields a request's log line carries besides the message.
REQUEST_FIELDS = ("client", "method", "path", "route", "status", "ms")
FORMATS = ("text", "json")


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


__all__ = ["FORMATS", "JsonLines", "configure"]
