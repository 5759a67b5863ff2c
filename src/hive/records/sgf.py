"""SGF syntax: a streaming tokenizer that yields each game tree's main line, and the escaping of values."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

_TOKEN = re.compile(r"\s+|\(|\)|;|([A-Za-z][A-Za-z0-9]*)\s*|\[((?:[^\]\\]|\\.)*)\]", re.DOTALL)
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)

#: One node of a game tree: its properties as ``(IDENT, value)`` pairs, in the order written.
Node = list[tuple[str, str]]


class SgfTree:
    """The nodes of one game tree's main line."""

    __slots__ = ("nodes",)

    def __init__(self) -> None:
        self.nodes: list[Node] = []


def game_trees(handle: TextIO, chunk_size: int = 1 << 16) -> Iterator[SgfTree | str]:
    """Yield each game tree's main line (variations after the first are skipped), or a string naming an error.

    The file is read ``chunk_size`` characters at a time, so a file of any size is read in constant memory.
    """
    buffer = ""
    depth = 0
    skip: list[bool] = []
    children: list[int] = []
    tree: SgfTree | None = None
    node: Node | None = None
    ident = ""
    eof = False
    while not eof:
        chunk = handle.read(chunk_size)
        eof = not chunk
        buffer += chunk
        pos = 0
        size = len(buffer)
        while pos < size:
            match = _TOKEN.match(buffer, pos)
            if match is None or (match.end() == size and not eof):
                if not eof and (match is not None or buffer[pos] == "["):
                    break  # the token may go on in the next chunk
                if buffer[pos] == "[":
                    yield "the SGF ends inside a property value (missing ']')"
                    pos = size
                    break
                yield f"unexpected text {buffer[pos : pos + 20].splitlines()[0]!r} in the SGF"
                pos += 1
                continue
            pos = match.end()
            first = buffer[match.start()]
            if first == "(":
                if depth == 0:
                    tree = SgfTree()
                    skip, children = [False], [0]
                else:
                    skip.append(skip[-1] or children[-1] > 0)
                    children[-1] += 1
                    children.append(0)
                depth += 1
                node = None
            elif first == ")":
                if depth == 0:
                    continue
                depth -= 1
                skip.pop()
                children.pop()
                node = None
                if depth == 0 and tree is not None:
                    yield tree
                    tree = None
            elif first == ";":
                if tree is not None and not skip[-1]:
                    node = []
                    tree.nodes.append(node)
                else:
                    node = None
            elif first == "[":
                if node is not None and ident:
                    value = match.group(2)
                    node.append((ident, _unescape(value) if "\\" in value else value))
            elif match.group(1):
                ident = match.group(1).upper()
        buffer = buffer[pos:]
    if tree is not None:
        yield "the SGF ends inside a game (missing ')')"
        if tree.nodes:
            yield tree


def escape(text: str) -> str:
    """``text`` as an SGF property value (without the brackets)."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _unescape(value: str) -> str:
    return _ESCAPED.sub(r"\1", value.replace("\\\n", "").replace("\\\r\n", ""))
