"""UHP MoveStrings read into the core's int moves, before any check against the rules: the text's part of
:meth:`hive.Board.parse_move`, :meth:`~hive.Board.push_text` and :meth:`~hive.Board.push_stored` (the board checks
the rules where it is asked to)."""

from __future__ import annotations

from ...game import text_argument
from ...position_records import quoted
from .errors import InvalidMoveError
from .notation import move_code
from .pieces import PIECE_IDS, PIECE_NAMES
from .position import Position
from .state import PASS

#: ``ref/`` means north-east of ref, and so on clockwise (see geometry.DIRECTIONS).
MARKS = ("{}/", "{}-", "{}\\", "/{}", "-{}", "\\{}")
_AFTER = {"/": 0, "-": 1, "\\": 2}
_BEFORE = {"/": 3, "-": 4, "\\": 5}
_NAMES = frozenset(PIECE_NAMES)
# a reference as the notation writes one: a piece's name, with a mark on the side of the cell
_REFERENCES = _NAMES | {mark.format(name) for mark in MARKS for name in PIECE_NAMES}


def read(p: Position, text: str) -> tuple[int, bool]:
    """The int move the MoveString ``text`` names in position ``p``, not checked against the rules, and whether it
    is written as a climb (a reference piece without a direction): :data:`~hive.games.hive.state.PASS` for a pass,
    and the code plus :data:`~hive.games.hive.notation.GROUND_TAKEN` when a direction names a taken cell.

    :raises InvalidMoveError: when the text is not a MoveString, or its reference piece is not in play.
    """
    words = text_argument(text, "a MoveString", InvalidMoveError).split()
    if len(words) == 1 and words[0].lower() == "pass":
        return PASS, False
    if not 1 <= len(words) <= 2:
        raise InvalidMoveError(f"Invalid MoveString {quoted(text)}: expected 'piece', 'piece reference' or 'pass'.")
    pid = PIECE_IDS.get(words[0].lower(), -1)
    if pid < 0:
        raise _unknown_piece(text, words[0])
    ref_id = -1
    direction = -1
    if len(words) == 1:
        if p.ply:
            raise InvalidMoveError(
                f"Invalid MoveString {quoted(text)}: only the game's first piece is played without a reference piece."
            )
    else:
        ref = words[1]
        if ref[-1] in _AFTER:
            direction = _AFTER[ref[-1]]
            ref = ref[:-1]
        elif ref[0] in _BEFORE:
            direction = _BEFORE[ref[0]]
            ref = ref[1:]
        ref_id = PIECE_IDS.get(ref.lower(), -1)
        if ref_id < 0:
            raise _unknown_piece(text, ref)
    code = move_code(p, pid, ref_id, direction)
    if code < 0:
        raise InvalidMoveError(
            f"Invalid MoveString {quoted(text)}: reference piece {PIECE_NAMES[ref_id]} is not in play."
        )
    return code, ref_id >= 0 and direction < 0


def as_written(text: str) -> bool:
    """Whether ``text`` is a MoveString written as the notation writes one (whichever piece it names as the
    reference): the record keeps such a text as it was given."""
    piece, space, ref = text.partition(" ")
    return (piece in _NAMES and (not space or ref in _REFERENCES)) or text == "pass"


def _unknown_piece(text: str, word: str) -> InvalidMoveError:
    return InvalidMoveError(f"Invalid MoveString {quoted(text)}: unknown piece {quoted(word)}.")
