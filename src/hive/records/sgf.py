"""SGF syntax: a streaming tokenizer that yields each game tree's main line, and the escaping of values."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from .text import MAX_TEXT, QUOTED, quote

# possessive repeats: a value is matched in linear time and constant memory however long it is
_CONTENT = r"[^\]\\]*+(?:\\.[^\]\\]*+)*+"
_VALUE = rf"\[({_CONTENT})\]"
_ANY_VALUE = rf"\[{_CONTENT}\]"
# 1 a property's identifier, 2 its first value, 3 its other values; 4 a mark; a value of no property; 5 not SGF
_TOKEN = re.compile(
    rf"\s*+(?:([A-Za-z][A-Za-z0-9]*+)\s*+{_VALUE}((?:\s*+{_ANY_VALUE})*+)|([;()])|{_ANY_VALUE}|([^\s;()\[]++))",
    re.DOTALL,
)
_VALUES = re.compile(_VALUE, re.DOTALL)
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_OPEN = re.compile(r"\s*\[")
_SPACE = re.compile(r"\s*+")
# what comes before the value left open in a pending token: its identifier and its values already closed
_OPENING = re.compile(rf"(?:[A-Za-z][A-Za-z0-9]*+\s*+)?(?:{_ANY_VALUE}\s*+)*+\[", re.DOTALL)
_REST_OF_VALUE = re.compile(_CONTENT, re.DOTALL)
_REST_OF_WORD = re.compile(r"[^\s;()\[]*+")
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)
_LOOKAHEAD = 256  # a token this close to the end of what was read may go on in the next chunk

#: One node of a game tree: its properties as ``(IDENT, value)`` pairs, in the order written.
Node = list[tuple[str, str]]


#: The most property values and stray texts kept of one game tree's main line (a Hive game has some thousands);
#: what follows is skipped unread, with an error on the tree.
MAX_VALUES = 100_000


class SgfTree:
    """The nodes of one game tree's main line, the text in it that is not SGF, and what is wrong with it."""

    __slots__ = ("errors", "most", "nodes", "room", "stray")

    def __init__(self, room: int = MAX_VALUES) -> None:
        self.nodes: list[Node] = []
        #: Text between the nodes that belongs to no property (``[scroll]``, ``0:04:57``), as written.
        self.stray: list[str] = []
        #: What could not be read: a value longer than the limit (skipped), the file ending inside the tree.
        self.errors: list[str] = []
        #: The most values (and stray texts) the tree keeps, and how many more it may keep (-1: it is full).
        self.most = self.room = room

    def full(self, values: int) -> bool:
        """Whether ``values`` more would overflow the tree (the first time, with an error saying so)."""
        if self.room >= values:
            self.room -= values
            return False
        if self.room >= 0:
            self.room = -1
            self.errors.append(f"the game tree holds more than {self.most:,} values: the rest of it is not read")
        return True


def game_trees(
    handle: TextIO, chunk_size: int = 1 << 16, limit: int = MAX_TEXT, values: int = MAX_VALUES
) -> Iterator[SgfTree | str]:
    """Yield each game tree's main line (variations after the first are skipped), or a string naming text outside
    any game tree.

    The file is read ``chunk_size`` characters at a time, in time linear in its length and in memory bounded by
    ``limit`` and ``values``: a property value (or any other token) longer than ``limit`` characters is skipped
    unread, and so is what follows the first ``values`` values and stray texts of a tree, with an error on it.
    However deep the variations nest, the reader keeps three numbers about them.
    """
    buffer = ""
    # the tree's nesting: its depth, the depth of the variation being skipped (0: none), whether the variation at
    # this depth on the main line has had its first child (the main line goes on in the first child only)
    depth = skipped = 0
    branched = False
    tree: SgfTree | None = None
    node: Node | None = None
    eof = False
    while not eof:
        # a token pending at the end makes the next read as long as it: its re-scans add up to twice its length
        chunk = handle.read(max(chunk_size, len(buffer)))
        eof = not chunk
        buffer += chunk
        pos = 0
        size = len(buffer)
        end = size if eof else size - _LOOKAHEAD
        last = last_end = -1  # where the last property read starts and ends
        while pos < size:
            match = _TOKEN.match(buffer, pos)
            if match is not None and match.end() - pos > limit and (eof or match.end() < size):
                first = _end(_SPACE, buffer, pos)
                if match.end() - first > limit:  # a whole token over the limit (a longer one is skipped below)
                    pos = match.end()
                    yield from _report(tree, _too_long(buffer[first : first + QUOTED], pos - first, limit))
                    continue
            if match is None or match.end() > end:
                if eof and match is None and buffer[pos:].strip() and tree is None:
                    yield "the SGF ends inside a property value (missing ']')"
                if eof:
                    pos = size
                elif pos == last_end and _OPEN.match(buffer, pos):  # the last property's next value goes on
                    _unread(_TOKEN.match(buffer, last), node, tree if tree is not None and not skipped else None)
                    pos = last
                break
            pos = match.end()
            ident, value, more, mark, stray = match.groups()
            if ident is not None:
                if node is not None:
                    found = _VALUES.findall(more) if more else []
                    if tree is not None and tree.full(1 + len(found)):
                        node = None
                        continue
                    last, last_end = match.start(), pos
                    node.append((ident.upper(), _unescape(value) if "\\" in value else value))
                    node.extend((ident.upper(), _unescape(v) if "\\" in v else v) for v in found)
                    continue
                if tree is not None and not skipped:
                    if tree.full(1):
                        continue
                    tree.stray.append(match.group().strip())
                last, last_end = match.start(), pos
            elif mark == "(":
                if depth == 0:
                    tree = SgfTree(values)
                elif not skipped and branched:
                    skipped = depth + 1  # a second variation: off the main line
                depth += 1
                branched = False
                node = None
            elif mark == ")":
                if depth == 0:
                    continue
                depth -= 1
                if skipped > depth:
                    skipped = 0
                branched = True  # back at a depth whose first child has been read (or skipped)
                node = None
                if depth == 0 and tree is not None:
                    yield tree
                    tree = None
            elif mark == ";":
                if tree is not None and not skipped and tree.room >= 0:
                    node = []
                    tree.nodes.append(node)
                else:
                    node = None
            elif stray is not None and not eof and _IDENT.fullmatch(stray) and _OPEN.match(buffer, pos):
                pos = match.start()  # a property whose value goes on in the next chunk
                break
            elif tree is None:
                yield f"unexpected text {quote((stray or match.group().strip())[:20])} in the SGF"
            elif not skipped and not tree.full(1):
                tree.stray.append(match.group().strip())
        if not eof:
            pos = _end(_SPACE, buffer, pos)
            if size - pos > limit:
                buffer, pos, error, eof = _skip_long(handle, buffer, pos, chunk_size, limit)
                yield from _report(tree, error)
        buffer = buffer[pos:]
    if tree is not None:
        tree.errors.append("the SGF ends inside a game (missing ')')")
        if tree.nodes:
            yield tree
        else:
            yield from tree.errors


def _skip_long(handle: TextIO, buffer: str, pos: int, chunk_size: int, limit: int) -> tuple[str, int, str, bool]:
    """Skip the token pending at ``buffer[pos]``, longer than ``limit``, reading on without keeping what is read.

    :returns: the text read, the position after the token in it, the error naming the token, whether the file ended.
    """
    head = buffer[pos : pos + QUOTED]
    opening = _OPENING.match(buffer, pos)
    start, rest, closing = (opening.end(), _REST_OF_VALUE, 1) if opening else (pos, _REST_OF_WORD, 0)
    length = start - pos
    while True:
        stop = _end(rest, buffer, start)
        length += stop - start
        if stop < len(buffer) and buffer[stop] != "\\":  # a value ends at its ']', a word before a space or a mark
            return buffer, stop + closing, _too_long(head, length + closing, limit), False
        left = buffer[stop:]  # nothing, or a backslash escaping the next character read
        chunk = handle.read(chunk_size)
        if not chunk:
            return "", 0, _too_long(head, length + len(left), limit), True
        buffer, start = left + chunk, 0


def _unread(prop: re.Match[str] | None, node: Node | None, tree: SgfTree | None) -> None:
    """Take back the property ``prop`` just read into ``node`` (or into ``tree``'s stray text), to read it again."""
    if node is not None and prop is not None:
        count = 1 + len(_VALUES.findall(prop.group(3) or ""))
        del node[len(node) - count :]
    elif tree is not None:
        count = 1
        tree.stray.pop()
    else:
        return
    if tree is not None:
        tree.room += count


def _end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """Where a pattern that matches the empty text stops matching at ``text[pos]``."""
    found = pattern.match(text, pos)
    return found.end() if found else pos


def _report(tree: SgfTree | None, error: str) -> list[str]:
    """An error on the tree being read, or, outside any tree, the error to yield."""
    if tree is None:
        return [error]
    tree.errors.append(error)
    return []


def _too_long(head: str, length: int, limit: int) -> str:
    return f"SGF text {quote(head, length)}: longer than the {limit:,} characters a property value may have"


def escape(text: str) -> str:
    """``text`` as an SGF property value (without the brackets)."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _unescape(value: str) -> str:
    return _ESCAPED.sub(r"\1", value.replace("\\\n", "").replace("\\\r\n", ""))
