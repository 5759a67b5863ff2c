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
    scripts = [*STATIC.glob("*.js"), *STATIC.parent.glob("*/static/*.js")]
    for plugin in plugins().values():
        if plugin.static is not None:
            scripts += plugin.static.glob("*.js")
    whole: set[str] = set()
    prefixes: set[str] = set()
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        whole |= set(re.findall(r"\b(?:t|tr)\(\s*[\"']([^\"']+)[\"']", text))
        prefixes |= set(re.findall(r"\b(?:t|tr)\(\s*`([^`$]+)\$\{", text))
        whole |= set(re.findall(r"\b(?:t|tr)\(\s*`([^`$]+)`", text))
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
            games = (await c.get("/api/assets", headers={"accept-language": "de"})).json()["games"]
            assert games[0]["summary"] == "Umzingle die gegnerische Bienenkönigin"
            rules = (await c.get("/how-to-play/hivequeen", headers={"cookie": "hive_lang=fr"})).text
            assert '<html lang="fr">' in rules and "Comment jouer à HiveQueen" in rules and "Nourrice" in rules

    asyncio.run(main())


def test_every_game_s_how_to_play_is_translated_with_the_same_figures_and_shape() -> None:
    for plugin in plugins().values():
        if plugin.rules is None:
            continue
        english = plugin.rules.read_text(encoding="utf-8").splitlines()
        for lang in languages()[1:]:
            translated = plugin.rules_in(lang)
            assert translated is not None and translated != plugin.rules, f"{plugin.kind}: no rules in {lang}"
            lines = translated.read_text(encoding="utf-8").splitlines()

            def shape(text: list[str]) -> tuple[list[str], int, int]:
                figures = [line.split("::")[1] for line in text if line.startswith("::figure")]
                return figures, sum(line.startswith("#") for line in text), sum(line.startswith("|") for line in text)

            assert shape(lines) == shape(english), (plugin.kind, lang)


#: The refusals raised with a message for the player (their first argument; Refused's last).
REFUSALS = {
    "BadRequest", "Conflict", "Forbidden", "NotFound", "Unauthorized", "TooMany", "Unavailable", "Damaged", "GameError",
    "Refused", "IllegalMoveError", "InvalidPositionError", "InvalidRecordError", "UnknownGameError",
}  # fmt: skip


def _template(node: ast.expr) -> str | None:
    """The catalog key of a message written in the code: a text, or an f-string with its values as placeholders
    named after their expressions (as the boundary matches them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if isinstance(node, ast.JoinedStr):
        return "".join(
            str(part.value).replace("{", "{{").replace("}", "}}") if isinstance(part, ast.Constant) else "{x}"
            for part in node.values
        )
    return None


def refusal_messages() -> dict[str, str]:
    """Every message the web domains and the games raise for a player (and a game's reasons), as a pattern of
    its text with ``{x}`` for each value, and where it is."""
    found: dict[str, str] = {}
    for folder in ("web", "games", "sdk"):
        for path in (SRC / "hive" / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                arg: ast.expr | None = None
                if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                    func = node.exc.func
                    if isinstance(func, ast.Name) and func.id in REFUSALS:
                        arg = node.exc.args[-1] if func.id == "Refused" else node.exc.args[0]
                elif path.name == "reasons.py" and isinstance(node, ast.Return) and node.value is not None:
                    arg = node.value
                text = _template(arg) if arg is not None else None
                if text and re.search(r"[a-z]{3} ", text):
                    found[text] = str(path.relative_to(SRC))
    return found


def test_every_refusal_a_player_sees_is_in_the_english_catalog() -> None:
    keys = {re.sub(r"(?<!\{)\{\w+\}(?!\})", "{x}", key) for key in entries(SOURCE, "messages")}
    found = refusal_messages()
    assert len(found) > 200, "the scan is broken"
    assert sorted(f"{where}: {text}" for text, where in found.items() if text not in keys) == []


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_a_refused_move_is_answered_in_the_askers_language(database: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (_app, c):
            game = (await c.post("/api/games", json={"mode": "local"})).json()
            headers = {"x-seat-token": game["token"], "accept-language": "fr"}
            refused = await c.post(f"/api/games/{game['id']}/move", json={"move": "wQ"}, headers=headers)
            assert refused.status_code == 400
            assert refused.json()["error"] == "Vous ne pouvez pas jouer votre Reine à votre premier tour."
            english = await c.post(
                f"/api/games/{game['id']}/move", json={"move": "wQ"}, headers={"x-seat-token": game["token"]}
            )
            assert english.json()["error"] == "You can't play your Queen Bee on your first turn."

    asyncio.run(main())


#: A literal of the page's scripts (quoted or a template's text).
LITERAL = re.compile(r"""(?<![\w$.])(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`)""")
#: Words a person reads: a capitalised word and more words after it ("Game over", "It's your turn").
SENTENCE = re.compile(r"(?:^|[^\w$])[A-Z][a-z]+(?:[ '][A-Za-z][a-z]*)+")
#: An element made with a word of its own as its text (``h("button", "cancel", "Cancel")``): one word is enough.
ELEMENT_TEXT = re.compile(r"""\bh\(\s*"[^"]*"\s*,\s*[^,()]*,\s*(["'`])([^"'`]*)\1\s*\)""")


def unfilled(text: str) -> str:
    """A template's own text, its ``${...}`` values left out."""
    return re.sub(r"\$\{[^}]*\}", " ", text)


def literal_texts(path: Path) -> list[str]:
    """The sentence-like literals of a script that no catalog call wraps (comments left out)."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("//"):
            continue
        code = re.sub(r"\s//\s.*$", "", line)
        for match in LITERAL.finditer(code):
            text = next(group for group in match.groups() if group is not None)
            if re.search(r"\b(?:t|tr)\(\s*$", code[: match.start()]):
                continue
            if SENTENCE.search(unfilled(text)) and "sans-serif" not in text:
                found.append(f"{path.name}: {text}")
        for match in ELEMENT_TEXT.finditer(code):
            if re.search(r"[A-Za-z][a-z]", unfilled(match.group(2))):
                found.append(f"{path.name}: {match.group(2)}")
    return found


def test_the_page_s_scripts_write_no_text_of_their_own() -> None:
    scripts = sorted([*STATIC.glob("*.js"), *STATIC.parent.glob("*/static/*.js")])
    for plugin in plugins().values():
        if plugin.static is not None:
            scripts += sorted(plugin.static.glob("*.js"))
    assert [text for script in scripts for text in literal_texts(script)] == []


def test_the_shell_writes_every_text_through_the_catalog() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", "", html, flags=re.DOTALL)
    untranslated = []
    for match in re.finditer(r"<(\w+)([^>]*)>([^<]*[A-Za-z]{2}[^<]*)<", html):
        if "data-i18n=" not in match.group(2) and match.group(1) != "title":
            untranslated.append(match.group(3).strip())
    for match in re.finditer(r"<\w+([^>]*?)\s(title|placeholder|aria-label)=\"([^\"]*[A-Za-z][^\"]*)\"", html):
        if f"data-i18n-{match.group(2)}=" not in match.group(1) + html[match.end() : html.find(">", match.end())]:
            untranslated.append(match.group(3))
    assert untranslated == []
