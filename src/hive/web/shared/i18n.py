"""The server's languages: message catalogs read from gettext ``.po`` files (with Babel), the language a request
is answered in, and messages translated into it.

Catalogs live in ``locales/<lang>/`` folders: the web app's (``hive/web/locales``) and each game package's
(:attr:`hive.plugin.GamePlugin.locales`), read together. A file's name says its domain: ``page.po`` or
``page-<part>.po`` hold the page's texts (symbolic keys such as ``lobby.seek``, served to the page as JSON, see
:func:`page_catalog`), ``messages.po`` or ``messages-<part>.po`` the server's messages (the English text is the
key, marked in the code with :func:`~hive.sdk.messages._`). English is the source: every other language has the
same keys.

A request's language (:func:`language`): the signed-in account's choice (put on the request by the players'
identity), else the page's remembered choice (the :data:`COOKIE` cookie), else ``Accept-Language``, else English.
"""

from __future__ import annotations

import gettext
import hashlib
import json
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.pofile import read_po
from starlette.requests import HTTPConnection

from ...games import plugins
from ...sdk.messages import Message, _, _n

#: The language everything is written in first, and the fallback.
SOURCE = "en"
#: The cookie holding the page's remembered choice.
COOKIE = "hive_lang"
#: The web app's own catalogs.
LOCALES = Path(__file__).resolve().parent.parent / "locales"
#: The numbers whose plural categories (CLDR's: one, few, many, other ...) map the page's forms to gettext's.
_SAMPLES = (*range(0, 200), 1000, 1000000, 2000000)

#: A catalog: each key's text, or its plural forms in gettext's order.
Entries = dict[str, str | tuple[str, ...]]


@cache
def languages() -> tuple[str, ...]:
    """The languages the server speaks: those of the web app's catalogs, English first."""
    found = sorted(p.name for p in LOCALES.iterdir() if (p / "page.po").is_file())
    return (SOURCE, *(lang for lang in found if lang != SOURCE))


@cache
def language_name(lang: str) -> str:
    """A language's own name for itself (``Français``)."""
    name = Locale.parse(lang).get_display_name(lang) or lang
    return name[:1].upper() + name[1:]


def folders() -> Iterator[Path]:
    """Every ``locales`` folder: the web app's, then each game package's that has one."""
    yield LOCALES
    for plugin in plugins().values():
        if plugin.locales is not None:
            yield plugin.locales


def domain_of(path: Path) -> str:
    """A catalog file's domain, from its name: ``page-admin.po`` is the page's, ``messages.po`` the server's."""
    return path.stem.partition("-")[0]


def po_files(lang: str, domain: str) -> list[Path]:
    """The ``.po`` files of ``lang`` in ``domain``, in every ``locales`` folder."""
    return [path for folder in folders() for path in sorted((folder / lang).glob("*.po")) if domain_of(path) == domain]


@cache
def plural_rule(lang: str) -> str:
    """The gettext plural expression of ``lang``'s catalogs (their ``Plural-Forms`` header)."""
    for path in po_files(lang, "page") + po_files(lang, "messages"):
        with path.open("rb") as file:
            return str(read_po(file, locale=lang).plural_expr)
    return "(n != 1)"


def plural_index(lang: str, count: int) -> int:
    """Which of ``lang``'s plural forms ``count`` takes."""
    return int(gettext.c2py(plural_rule(lang))(count))


@cache
def entries(lang: str, domain: str) -> Entries:
    """``lang``'s catalog of ``domain``: its keys' texts (empty and fuzzy translations left out).

    :raises ValueError: naming a key that two files of the language both define.
    """
    found: Entries = {}
    for path in po_files(lang, domain):
        with path.open("rb") as file:
            catalog = read_po(file, locale=lang)
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            key = str(message.id[0] if isinstance(message.id, list | tuple) else message.id)
            if key in found:
                raise ValueError(f"{path}: {key!r} is defined twice in the {lang} catalogs.")
            string = message.string
            text: str | tuple[str, ...] = tuple(string) if isinstance(string, list | tuple) else str(string or "")
            if (all(text) if isinstance(text, tuple) else text) or lang == SOURCE:
                found[key] = text
    return found


def _render(template: str, values: Mapping[str, Any]) -> str | None:
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return None


def translate(lang: str, message: str) -> str:
    """``message`` in ``lang``: a :class:`~hive.sdk.messages.Message` looked up by its key, its values (translated
    too when they are messages) put in; a plain text as it is, unless it is a key of the catalog. English where
    ``lang`` has no translation."""
    if not isinstance(message, Message) or lang == SOURCE:
        found = entries(lang, "messages").get(message) if lang != SOURCE else None
        return found if isinstance(found, str) else str(message)
    values = {name: translate(lang, v) if isinstance(v, Message) else v for name, v in message.values.items()}
    text = entries(lang, "messages").get(message.msgid)
    if isinstance(text, tuple) and message.quantity is not None:
        index = plural_index(lang, message.quantity)
        text = text[index] if index < len(text) else None
    rendered = _render(text, values) if isinstance(text, str) else None
    return rendered if rendered is not None else str(message)


def gettext_in(lang: str, msgid: str, **values: Any) -> str:
    """The message ``msgid`` with its ``values``, in ``lang`` (for what is sent to a known account, not a
    request: a notification)."""
    return translate(lang, _(msgid, **values))


def ngettext_in(lang: str, singular: str, plural: str, count: int, **values: Any) -> str:
    """A message with a plural (see :func:`~hive.sdk.messages._n`), in ``lang``."""
    return translate(lang, _n(singular, plural, count, **values))


def page_text(lang: str, key: str, **values: Any) -> str:
    """A text of the page's catalog, in ``lang`` (for the pages the server writes itself: How to play)."""
    text = entries(lang, "page").get(key) or entries(SOURCE, "page").get(key) or key
    if isinstance(text, tuple):
        text = text[plural_index(lang, int(values.get("count", 0)))]
    return _render(text, values) or text


def accepted(header: str) -> str:
    """The language an ``Accept-Language`` header prefers among :func:`languages` (English when none)."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        ranked.append((-quality, i, tag.strip().lower().replace("_", "-").split("-")[0]))
    return next((lang for _q, _i, lang in sorted(ranked) if lang in languages()), SOURCE)


def language(request: HTTPConnection) -> str:
    """The language ``request`` is answered in: the account's choice, the page's cookie, ``Accept-Language``, or
    English."""
    for chosen in (getattr(request.state, "language", None), request.cookies.get(COOKIE)):
        if chosen in languages():
            return str(chosen)
    return accepted(request.headers.get("accept-language", ""))


def _categories(lang: str) -> dict[str, int]:
    """Which gettext form each of ``lang``'s CLDR plural categories takes (the page picks one with
    ``Intl.PluralRules``)."""
    rule, forms = Locale.parse(lang).plural_form, gettext.c2py(plural_rule(lang))
    found: dict[str, int] = {}
    for n in _SAMPLES:
        found.setdefault(rule(n), int(forms(n)))
    return found


@cache
def page_catalog(lang: str) -> tuple[bytes, str]:
    """The page's catalog of ``lang`` as JSON, and its version (a hash of it): ``lang``, the ``languages`` on
    offer (``code``, ``name``), and ``messages``: each key's text, or its plural forms by CLDR category."""
    if lang not in languages():
        raise KeyError(lang)
    categories = _categories(lang)
    messages: dict[str, str | dict[str, str]] = {}
    for source in (SOURCE, lang):  # a key English has and the language misses shows in English
        for key, text in entries(source, "page").items():
            if isinstance(text, tuple):
                messages[key] = {cat: text[i] for cat, i in categories.items() if i < len(text)}
            else:
                messages[key] = text
    offered = [{"code": code, "name": language_name(code)} for code in languages()]
    data = json.dumps({"lang": lang, "languages": offered, "messages": messages}, ensure_ascii=False).encode()
    return data, hashlib.sha256(data).hexdigest()[:16]


__all__ = [
    "COOKIE",
    "LOCALES",
    "SOURCE",
    "Entries",
    "Message",
    "_",
    "_n",
    "accepted",
    "domain_of",
    "entries",
    "folders",
    "gettext_in",
    "language",
    "language_name",
    "languages",
    "ngettext_in",
    "page_catalog",
    "page_text",
    "plural_index",
    "plural_rule",
    "po_files",
    "translate",
]
