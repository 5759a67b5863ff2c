"""Messages for players that a server translates where it shows them: :func:`_` (and :func:`_n`, with a plural)
marks a message's English text as its key (its gettext ``msgid``, ``{name}`` placeholders for its values) and
gives a :class:`Message`, a ``str`` that reads as the English text, so that code raising it and tests reading it
see English, while the server's boundary (:mod:`hive.web.shared.i18n`) looks the key up in the asker's language.

A game's package marks its refusals the same way and brings their translations in its ``locales`` folder (see
:attr:`hive.plugin.GamePlugin.locales`).
"""

from __future__ import annotations

from typing import Any


class Message(str):
    """A message's English text (a ``str``), with what translates it: its ``msgid``, its ``plural`` ``msgid`` and
    the ``quantity`` that picks a plural form when it has one, and the ``values`` its placeholders take.

    Joining it to other text makes a plain ``str`` again (shown in English): raise or return the message whole.
    """

    msgid: str
    plural: str | None
    quantity: int | None
    values: dict[str, Any]

    def __new__(
        cls, msgid: str, values: dict[str, Any], plural: str | None = None, quantity: int | None = None
    ) -> Message:
        template = plural if plural is not None and quantity != 1 else msgid
        message = super().__new__(cls, template.format(**values) if values or plural is not None else template)
        message.msgid, message.plural, message.quantity, message.values = msgid, plural, quantity, values
        return message


def _(msgid: str, **values: Any) -> Message:
    """The message ``msgid`` (its English text, with ``{name}`` placeholders) with its ``values``."""
    return Message(msgid, values)


def _n(singular: str, plural: str, count: int, **values: Any) -> Message:
    """A message with a plural: ``singular`` when ``count`` is 1 in English, ``plural`` otherwise, and the forms of
    the asker's language where it is translated; ``count`` is one of its ``values`` (``{count}``)."""
    return Message(singular, {"count": count, **values}, plural, count)


__all__ = ["Message", "_", "_n"]
