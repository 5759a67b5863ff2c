"""Pages beside the game: a game's "How to play" rules, rendered from the Markdown its package ships (its
plug-in's ``rules``, or their translation in its ``locales``).

The renderer knows the little Markdown the page uses: headings, paragraphs, bullet and numbered lists (nested
by indentation), tables, inline code, bold and italics, and pictures of positions: a line
``::figure <position> :: <caption>`` is drawn by the game's view (:class:`~hive.sdk.view.Figures`), or left out;
the words a picture holds (its pieces' tooltips, a caption) are put in the reader's language by the game's catalog.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from html import escape, unescape

from ...sdk.view import Figures
from ..shared.i18n import SOURCE, page_text, translate
from ..views import plugin_of, view_for

_INLINE = (
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])"), r"<em>\1</em>"),
)
_ITEM = re.compile(r"^(\s*)([-*]|\d+\.)\s+(.*)$")
_FIGURE = re.compile(r"^::figure\s+(.+?)\s*::\s*(.*)$")
#: A picture's words: a tooltip (an SVG title) or a caption (an SVG text).
_WORDS = re.compile(r"(<(title|text)\b[^>]*>)([^<]*)(</\2>)")


def inline(text: str) -> str:
    """Escape ``text`` and turn its inline Markdown (code, bold, italics) into HTML."""
    out = escape(text, quote=False)
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out


def _table(rows: list[str]) -> str:
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows]
    head, body = cells[0], [r for r in cells[1:] if not all(set(c) <= set("-: ") for c in r)]
    out = ["<table><thead><tr>", *(f"<th>{inline(c)}</th>" for c in head), "</tr></thead><tbody>"]
    for row in body:
        out += ["<tr>", *(f"<td>{inline(c)}</td>" for c in row), "</tr>"]
    return "".join([*out, "</tbody></table>"])


def _list(lines: list[str]) -> str:
    """A list and its nested lists; an item's continuation lines join its text."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []  # (indent, tag) of the open lists
    for line in lines:
        m = _ITEM.match(line)
        if m is None:  # a continuation of the item above
            out[-1] = out[-1] + " " + inline(line.strip())
            continue
        indent, tag = len(m.group(1)), "ol" if m.group(2)[0].isdigit() else "ul"
        while stack and stack[-1][0] > indent:
            out.append(f"</li></{stack.pop()[1]}>")
        if stack and stack[-1][0] == indent:
            out.append("</li>")
        else:
            out.append(f"<{tag}>")
            stack.append((indent, tag))
        out.append(f"<li>{inline(m.group(3))}")
    while stack:
        out.append(f"</li></{stack.pop()[1]}>")
    return "".join(out)


def markdown(text: str, figure: Callable[[str], str] | None = None) -> str:
    """The HTML of a Markdown document written in the subset this module knows; ``figure`` draws a position's
    picture as SVG (without it, ``::figure`` lines are left out)."""
    blocks: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        heading = re.match(r"^(#{1,6})\s+(.*)$", line)
        if heading:
            level = len(heading.group(1))
            blocks.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
            i += 1
            continue
        picture = _FIGURE.match(line.strip())
        if picture:
            if figure is not None:
                caption = inline(picture.group(2))
                blocks.append(f"<figure>{figure(picture.group(1))}<figcaption>{caption}</figcaption></figure>")
            i += 1
            continue
        start = i
        while i < len(lines) and lines[i].strip() and not re.match(r"^#{1,6}\s", lines[i]):
            i += 1
        chunk = lines[start:i]
        if chunk[0].lstrip().startswith("|"):
            blocks.append(_table(chunk))
        elif _ITEM.match(chunk[0]):
            blocks.append(_list(chunk))
        else:
            blocks.append(f"<p>{inline(' '.join(part.strip() for part in chunk))}</p>")
    return "\n".join(blocks)


@cache
def figures_in(view: Figures, lang: str) -> Callable[[str], str]:
    """The pictures ``view`` draws, their words (the pieces' tooltips, a caption) in ``lang``: each a message of
    the game's catalog, or the rendering of one (a game's pictures are drawn in English)."""

    def figure(spec: str) -> str:
        svg = view.figure(spec)
        if lang == SOURCE:
            return svg
        return _WORDS.sub(
            lambda m: m[1] + escape(translate(lang, unescape(m[3])), quote=False) + m[4],
            svg,
        )

    return figure


def how_to_play_page(kind: str, title: str, lang: str = SOURCE) -> str:
    """The whole "How to play" page of the games of ``kind`` (see :func:`~hive.web.views.rules_page`), titled
    ``title``, in ``lang`` (the game's own translation of its rules, see :meth:`~hive.plugin.GamePlugin.rules_in`;
    English where it has none)."""
    rules = plugin_of(kind).rules_in(lang)
    assert rules is not None  # the page exists only where the package has its rules
    view = view_for(kind)
    body = markdown(rules.read_text(encoding="utf-8"), figures_in(view, lang) if isinstance(view, Figures) else None)
    heading = escape(page_text(lang, "rules.title", game=title))
    return f"""<!doctype html>
<html lang="{escape(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{heading}</title>
<link rel="icon" type="image/svg+xml" href="/static/favicon.svg">
<link rel="stylesheet" href="/static/style.css">
</head>
<body class="doc-page">
<header class="topbar"><div class="brand"><span>{escape(title)}</span></div>
<nav class="doc-nav"><a class="button-link" href="/">{escape(page_text(lang, "rules.back"))}</a></nav></header>
<article class="doc">
{body}
</article>
</body>
</html>
"""
