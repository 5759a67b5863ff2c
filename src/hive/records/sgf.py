"""SGF syntax: a streaming tokenizer that yields each game tree's main line, and the escaping of values."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

_VALUE = r"\[((?:[^\]\\]|\\.)*)\]"
_ANY_VALUE = r"\[(?:[^\]\\]|\\.)*\]"
# 1 a property's identifier, 2 its first value, 3 its other values; 4 a mark; a value of no property; 5 not SGF
_TOKEN = re.compile(
    rf"\s*(?:([A-Za-z][A-Za-z0-9]*)\s*{_VALUE}((?:\s*{_ANY_VALUE})*)|([;()])|{_ANY_VALUE}|([^\s;()\[]+))", re.DOTALL
)
_VALUES = re.compile(_VALUE, re.DOTALL)
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_OPEN = re.compile(r"\s*\[")
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)
_LOOKAHEAD = 256  # a token this close to the end of what was read may go on in the next chunk

#: One node of a game tree: its properties as ``(IDENT, value)`` pairs, in the order written.
Node = list[tuple[str, str]]


class SgfTree:
    """The nodes of one game tree's main line, the text in it that is not SGF, and why it is incomplete."""

    __slots__ = ("errors", "nodes", "stray")

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        #: Text between the nodes that belongs to no property (``[scroll]``, ``0:04:57``), as written.
        self.stray: list[str] = []
        #: Why the tree is cut short: the file ends inside it.
        self.errors: list[str] = []


def game_trees(handle: TextIO, chunk_size: int = 1 << 16) -> Iterator[SgfTree | str]:
    """Yield each game tree's main line (variations after the first are skipped), or a string naming text outside
    any game tree.

    The file is read ``chunk_size`` characters at a time, so a file of any size is read in constant memory.
    """
    buffer = ""
    depth = 0
    skip: list[bool] = []
    children: list[int] = []
    tree: SgfTree | None = None
    node: Node | None = None
    eof = False
    while not eof:
        chunk = handle.read(chunk_size)
        eof = not chunk
        buffer += chunk
        pos = 0
        size = len(buffer)
        limit = size if eof else size - _LOOKAHEAD
        while pos < size:
            match = _TOKEN.match(buffer, pos)
            if match is None or match.end() > limit:
                if eof and match is None and buffer[pos:].strip() and tree is None:
                    yield "the SGF ends inside a property value (missing ']')"
                if eof:
                    pos = size
                break
            pos = match.end()
            ident, value, more, mark, stray = match.groups()
            if ident is not None:
                if node is not None:
                    node.append((ident.upper(), _unescape(value) if "\\" in value else value))
                    if more:
                        node.extend((ident.upper(), _unescape(v) if "\\" in v else v) for v in _VALUES.findall(more))
                elif tree is not None and not skip[-1]:
                    tree.stray.append(match.group().strip())
            elif mark == "(":
                if depth == 0:
                    tree = SgfTree()
                    skip, children = [False], [0]
                else:
                    skip.append(skip[-1] or children[-1] > 0)
                    children[-1] += 1
                    children.append(0)
                depth += 1
                node = None
            elif mark == ")":
                if depth == 0:
                    continue
                depth -= 1
                skip.pop()
                children.pop()
                node = None
                if depth == 0 and tree is not None:
                    yield tree
                    tree = None
            elif mark == ";":
                if tree is not None and not skip[-1]:
                    node = []
                    tree.nodes.append(node)
                else:
                    node = None
            elif stray is not None and not eof and _IDENT.fullmatch(stray) and _OPEN.match(buffer, pos):
                pos = match.start()  # a property whose value goes on in the next chunk
                break
            elif tree is None:
                yield f"unexpected text {(stray or match.group().strip())[:20]!r} in the SGF"
            elif not skip[-1]:
                tree.stray.append(match.group().strip())
        buffer = buffer[pos:]
    if tree is not None:
        tree.errors.append("the SGF ends inside a game (missing ')')")
        if tree.nodes:
            yield tree
        else:
            yield from tree.errors


def escape(text: str) -> str:
    """``text`` as an SGF property value (without the brackets)."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _unescape(value: str) -> str:
    return _ESCAPED.sub(r"\1", value.replace("\\\n", "").replace("\\\r\n", ""))
