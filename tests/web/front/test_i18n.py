"""The languages: every catalog (the web app's and each game's) has exactly English's keys, with the same
placeholders and every plural form; every key the page's scripts and shell use, and every server message marked
with ``_()`` or ``_n()``, is in the English catalog; and the server answers in the asker's language (the account's
choice, the page's cookie, ``Accept-Language``), serves the page's catalogs and keeps the account's choice."""

from __future__ import annotations

import ast
import asyncio
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from hive.games import plugins
from hive.sdk.messages import _, _n
from hive.web.shared import i18n
from hive.web.shared.i18n import SOURCE, entries, folders, languages, page_catalog, translate

from ...web_support import in_process
from ..api_support import SERVER, other, sign_up

SRC = Path(i18n.__file__).resolve().parents[3]
STATIC = SRC / "hive" / "web" / "static"
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")


def placeholders(text: str | tuple[str, ...]) -> set[str]:
    texts = text if isinstance(text, tuple) else (text,)
    return {name for form in texts for name in PLACEHOLDER.findall(form.replace("{{", "").replace("}}", ""))}


def catalog_files() -> list[tuple[Path, str, str]]:
    """(locales folder, language, file name) of every catalog file."""
    return [
        (folder, lang.name, po.name)
        for folder in folders()
        for lang in sorted(folder.iterdir())
        if lang.is_dir()
        for po in sorted(lang.glob("*.po"))
    ]


def read(path: Path, lang: str) -> tuple[dict[str, str | tuple[str, ...]], int]:
    """A catalog file's texts by key (plural forms as tuples), and how many plural forms its language has."""
    with path.open("rb") as file:
        catalog = read_po(file, locale=lang)
    assert not any(m.fuzzy for m in catalog if m.id), f"{path}: a fuzzy translation"
    out: dict[str, str | tuple[str, ...]] = {}
    for m in catalog:
        if m.id:
            key = str(m.id[0] if isinstance(m.id, list | tuple) else m.id)
            out[key] = tuple(m.string) if isinstance(m.string, list | tuple) else str(m.string or "")
    return out, catalog.num_plurals


def test_every_language_has_every_key_of_english_and_no_other() -> None:
    assert languages()[0] == SOURCE and set(languages()) >= {"en", "fr", "de", "es"}
    for folder in folders():
        names = {po.name for lang in languages() for po in (folder / lang).glob("*.po")}
        for name in names:
            english, _forms = read(folder / SOURCE / name, SOURCE)
            messages = name.startswith("messages")  # the English text is the key
            for lang in languages():
                path = folder / lang / name
                assert path.is_file(), f"{path} is missing"
                texts, forms = read(path, lang)
                assert set(texts) == set(english), (path, set(english) ^ set(texts))
                for key, text in texts.items():
                    source = english[key]
                    assert isinstance(text, tuple) == isinstance(source, tuple), f"{path}: {key!r} plural or not"
                    if messages and lang == SOURCE:
                        continue
                    assert text and (not isinstance(text, tuple) or all(text)), f"{path}: {key!r} untranslated"
                    reference = placeholders(key if messages else source)
                    if isinstance(text, tuple):
                        assert len(text) == forms, f"{path}: {key!r} has {len(text)} plural forms, not {forms}"
                        assert placeholders(text) <= reference | {"count"}, f"{path}: {key!r} placeholders"
                    else:
                        assert placeholders(text) == reference, f"{path}: {key!r} placeholders"


def test_plural_forms_are_counted_by_each_language() -> None:
    for lang in languages():
        forms = {i18n.plural_index(lang, n) for n in range(0, 30)}
        assert forms == {0, 1}, lang
    assert i18n.plural_index("fr", 0) == 0 and i18n.plural_index("en", 0) == 1
    assert translate("fr", _n("{count} move", "{count} moves", 0)) == "0 coup"
    assert translate("de", _n("{count} move", "{count} moves", 2)) == "2 Züge"
    assert str(_n("{count} move", "{count} moves", 1)) == "1 move"


def js_keys() -> tuple[set[str], set[str]]:
    """The keys the page's scripts and shell name: whole keys, and prefixes of keys made at run time."""
    scripts = [*STATIC.glob("*.js")]
    for plugin in plugins().values():
        if plugin.static is not None:
            scripts += plugin.static.glob("*.js")
    whole: set[str] = set()
    prefixes: set[str] = set()
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        whole |= set(re.findall(r"\bt\(\s*[\"']([^\"']+)[\"']", text))
        prefixes |= set(re.findall(r"\bt\(\s*`([^`$]+)\$\{", text))
        whole |= set(re.findall(r"\bt\(\s*`([^`$]+)`", text))
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    whole |= set(re.findall(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', html))
    return whole, prefixes


def test_every_key_the_page_uses_is_in_the_english_catalog() -> None:
    english = entries(SOURCE, "page")
    whole, prefixes = js_keys()
    assert whole, "no key found: the scan is broken"
    assert sorted(whole - set(english)) == []
    assert [p for p in prefixes if not any(k.startswith(p) for k in english)] == []


def server_messages() -> set[str]:
    """The English texts of every message marked ``_()`` or ``_n()`` in the sources."""
    found: set[str] = set()
    for path in (SRC / "hive").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "_n"):
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
    return found


def test_every_server_message_is_in_the_english_catalog() -> None:
    marked = server_messages()
    assert "Sign in first." in marked, "the scan is broken"
    assert sorted(marked - set(entries(SOURCE, "messages"))) == []


def test_a_message_reads_as_english_and_translates_with_its_values() -> None:
    message = _("Unknown language {language}: expected one of {languages}.", language="'xx'", languages="en, fr")
    assert message == "Unknown language 'xx': expected one of en, fr."
    assert translate("fr", message) == "Langue inconnue 'xx' : attendu l'une de en, fr."
    assert translate("de", "Sign in first.") == "Bitte zuerst anmelden."  # a plain text that is a key
    assert translate("es", "Not a key at all.") == "Not a key at all."
    assert i18n.accepted("de-CH,de;q=0.9,en;q=0.8") == "de" and i18n.accepted("pt-BR, es;q=0.5") == "es"
    assert i18n.accepted("") == "en" and i18n.accepted("q=;;,") == "en"


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_the_server_answers_in_the_askers_language_and_keeps_the_accounts(database: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (_app, c):
            french = (await c.get("/i18n/fr.json")).json()
            assert french["lang"] == "fr" and french["messages"]["hive.piece.G"] == "Sauterelle"
            assert french["messages"]["common.games_count"] == {
                "one": "{count} partie",
                "many": "{count} parties",
                "other": "{count} parties",
            }
            assert {lang["code"] for lang in french["languages"]} >= {"en", "fr", "de", "es"}
            data, version = page_catalog("de")
            fresh = await c.get(f"/i18n/de.json?v={version}")
            assert fresh.content == data and "immutable" in fresh.headers["cache-control"]
            again = await c.get("/i18n/de.json", headers={"if-none-match": fresh.headers["etag"]})
            assert again.status_code == 304
            assert (await c.get("/i18n/xx.json")).status_code == 404
            shell = (await c.get("/", headers={"accept-language": "es-ES,es;q=0.9"})).text
            assert '<html lang="es" data-catalog="/i18n/es.json?v=' in shell
            guest = other(c)
            refused = await guest.get("/api/account/turns", headers={"accept-language": "de"})
            assert refused.status_code == 401 and refused.json()["error"].startswith("Bitte zuerst anmelden")
            guest.cookies.set("hive_lang", "fr", domain="hive.test")
            refused = await guest.get("/api/account/turns", headers={"accept-language": "de"})
            assert refused.json()["error"].startswith("Connectez-vous d'abord")
            made = await sign_up(c, "Amelie")
            assert made["language"] is None
            csrf = {"x-csrf-token": made["csrf"]}
            bad = await c.post("/api/account/language", json={"language": "xx"}, headers=csrf)
            assert bad.status_code == 400 and "xx" in bad.json()["error"]
            assert (await c.post("/api/account/language", json={"language": "fr"})).status_code == 403  # no CSRF
            chosen = await c.post("/api/account/language", json={"language": "es"}, headers=csrf)
            assert chosen.json()["language"] == "es" and "hive_lang=es" in chosen.headers["set-cookie"]
            c.cookies.delete("hive_lang")
            wrong = await c.post(
                "/api/account/language", json={"language": 3}, headers={**csrf, "accept-language": "de"}
            )
            assert wrong.json()["error"].startswith("Idioma desconocido 3")  # the account's choice first
            assert (await c.get("/api/session")).json()["language"] == "es"
            laptop = other(c)
            signed = await laptop.post("/api/session", json={"name": "amelie", "password": "correct horse battery"})
            assert signed.json()["language"] == "es" and "hive_lang=es" in str(signed.headers.get_list("set-cookie"))
            rules = (await c.get("/how-to-play/hivequeen", headers={"cookie": "hive_lang=fr"})).text
            assert '<html lang="fr">' in rules and "Comment jouer à HiveQueen" in rules

    asyncio.run(main())
