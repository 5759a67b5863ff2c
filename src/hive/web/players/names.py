"""Account names: what a name may be, and when two names are too alike to both exist.

A name is read through Unicode's NFKC normalization (so ``alice`` written in full-width letters, U+FF41 on, is
``alice``), then must be 3 to 20 of the letters a-z and A-Z, the digits, ``_`` and ``-``, starting with a letter.
Letters of other scripts are refused outright: a Cyrillic a (U+0430) cannot pass for a Latin ``a`` where only Latin
letters make names.

Two names clash when their keys are equal. The key folds case, ``-`` into ``_``, and the look-alikes of Unicode's
confusable skeleton (UTS #39) that remain among these characters: ``0`` and ``o``; ``1``, ``l``, ``I`` and ``i``;
``rn`` and ``m``; ``vv`` and ``w``; ``cl`` and ``d``. So ``Alice``, ``ALICE``, ``aIice``, ``a1ice`` and ``alice``
are one name, and only the first to sign up has it. The single characters are folded first, then the pairs, again
until nothing changes: the key is a fixed point (``cIint`` is ``clint`` is ``dint``, whichever look-alike came
first), so that the key of a key is itself. Some names that would speak for the server are reserved.
"""

from __future__ import annotations

import re
import unicodedata

from ..shared.errors import BadRequest, shown

LENGTH = (3, 20)
_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_SINGLE = str.maketrans({"0": "o", "1": "l", "i": "l", "-": "_"})
#: Names no player may take (compared by their keys).
RESERVED = ("admin", "administrator", "moderator", "system", "server", "guest", "anonymous", "hive", "root", "bot")


def name_key(name: str) -> str:
    """The key two names are compared by (see the module's text): ``name_key(name_key(x)) == name_key(x)``."""
    key = name
    for _ in range(8):  # two or three rounds in practice; bounded all the same
        # casefolding can undo NFKC (and the pairs can make new ones), so repeat until nothing changes
        folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", key).casefold()).translate(_SINGLE)
        for pair, single in _PAIRS:
            folded = folded.replace(pair, single)
        if folded == key:
            break
        key = folded
    return key


_RESERVED_KEYS = frozenset(name_key(name) for name in RESERVED)


def check_name(value: object) -> str:
    """The name ``value`` gives, normalized (NFKC).

    :raises BadRequest: saying what the name may be.
    """
    if not isinstance(value, str):
        raise BadRequest(f"A name is text, not {shown(value)}.")
    name = unicodedata.normalize("NFKC", value).strip()
    low, high = LENGTH
    if not low <= len(name) <= high or not _SHAPE.fullmatch(name):
        raise BadRequest(
            f"Invalid name {shown(value)}: a name is {low} to {high} letters (a-z, A-Z), digits, _ or -, "
            "starting with a letter."
        )
    if name_key(name) in _RESERVED_KEYS:
        raise BadRequest(f"The name {shown(name)} is reserved: choose another.")
    return name


__all__ = ["LENGTH", "RESERVED", "check_name", "name_key"]
