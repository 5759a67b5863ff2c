"""HiveQueen's position record: a position that no list of turns records, as one line that people can read and write.

::

    Position;HiveQueen;North[12];Qc1 Ha1 Dc2 Nb2 Wa1 Wb3 Se3;Qg9 Hf9 Hh9 Wi9 Sf7;quiet=3

Its fields, separated by ``;``:

1. ``Position``, which no HiveQueen record starts with;
2. ``HiveQueen``;
3. the side to move and its turn number (``South[1]`` is the start of a game; ``North[12]`` is North's twelfth
   turn);
4. South's pieces on the field, each a piece letter (``Q H D N W S``) and a cell (``c1``), separated by spaces;
5. North's pieces, the same way;
6. ``quiet=`` and the number of turns played since the last capture, when it is not 0 (after
   :data:`~hive.games.hivequeen.rules.TURN_LIMIT_WITHOUT_CAPTURE` of them units decide the game).

A position is always between two turns: the production phase belongs to the turn it follows. Written by
:meth:`~hive.games.hivequeen.Board.position_text`, the record is canonical: each side's pieces are listed by kind
(Queen, Highborn, Drone, Nurse, Worker, Soldier), then by cell from North's back row. Reading checks what the rules
require: at most one Queen, two Highborns, two Drones, two Nurses and eight Workers a side, a cell given once, and a
Queen on the field of at least one side (a side that has just moved without one has lost: the position is set up
finished). A position's earlier occurrences are not part of it: the repetition draw counts from the set-up.

A record of a game set up from a position writes the position as a ``[Position "..."]`` header before its turns.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...game import InvalidPositionError, InvalidRecordError
from ...position_records import POSITION_TAG, is_position_record, parse_turn, position_fields, quoted, turn_text
from .geometry import NAMES, parse_cell
from .rules import COLOUR_NAMES, DRONE, HIGHBORN, KIND_NAMES, LETTERS, NURSE, QUEEN, WORKER
from .state import winner_status

if TYPE_CHECKING:
    from .board import Board

#: The most pieces of each kind a side has on the field: the Queen and Highborns it starts with, the production
#: limits of the others (Soldiers have none).
MOST = {QUEEN: 1, HIGHBORN: 2, DRONE: 2, NURSE: 2, WORKER: 8}
_ENTRY = re.compile(r"^([A-Za-z])(\w+)$")
_QUIET = "quiet="
_POSITION_HEADER = re.compile(r'^\[Position\s+"((?:[^"\\]|\\.)*)"\]$')
_RESULT_HEADER = re.compile(r'^\[Result\s+"(.*)"\]$')


def _fail(rule: str) -> InvalidPositionError:
    return InvalidPositionError(f"Invalid position: {rule}")


def write(board: Board) -> str:
    """The position record of ``board``'s position (between turns: the one before a turn being played)."""
    sides = []
    for colour in range(2):
        pieces = sorted((code & 7, cell) for cell, code in enumerate(board.board) if code and code >> 3 == colour)
        sides.append(" ".join(f"{LETTERS[kind]}{NAMES[cell]}" for kind, cell in pieces))
    fields = [POSITION_TAG, board.game_name, turn_text(board.ply, COLOUR_NAMES), *sides]
    if board.quiet:
        fields.append(f"{_QUIET}{board.quiet}")
    return ";".join(fields)


def set_up(board: Board, text: str) -> None:
    """Put the position ``text`` records on ``board`` (a new board with an empty field), checked.

    :raises InvalidPositionError: quoting the bad text and naming the rule it breaks.
    """
    tokens = position_fields(text, 5, "HiveQueen;<turn>;<South's pieces>;<North's pieces>[;quiet=<turns>]")
    if tokens[1].lower() != board.game_name.lower():
        raise _fail(f"game type {quoted(tokens[1])} unknown: a HiveQueen position names '{board.game_name}'.")
    ply = parse_turn(tokens[2], COLOUR_NAMES)
    quiet = 0
    rest = tokens[5:]
    if rest and rest[0][: len(_QUIET)].lower() == _QUIET:
        number = rest.pop(0)[len(_QUIET) :]
        if not number.isdigit() or int(number) > ply:
            raise _fail(f"quiet={quoted(number)} is not a number of turns from 0 to the {ply} played.")
        quiet = int(number)
    if any(rest):
        raise _fail(f"{quoted(rest[0])} follows the position; a record of turns from it starts with a header.")
    given: dict[int, str] = {}
    for colour in range(2):
        for entry in tokens[3 + colour].split():
            cell, code = _entry(entry, colour)
            if cell in given:
                raise _fail(f"cell {NAMES[cell]} is given twice ({quoted(given[cell])} and {quoted(entry)}).")
            given[cell] = entry
            board.put(cell, code)
    _check_counts(board)
    board.ply = ply
    board.quiet = quiet
    board.reset()
    mover = 1 - (ply & 1)
    if not board.count[QUEEN | mover << 3]:
        board.status = winner_status(1 - mover)


def _entry(entry: str, colour: int) -> tuple[int, int]:
    match = _ENTRY.match(entry)
    if match is None or match[1].upper() not in LETTERS[1:]:
        raise _fail(
            f"unknown piece {quoted(entry[:1])} in {quoted(entry)}: a piece is a letter of Q H D N W S and a cell, "
            "e.g. Qc1."
        )
    cell = parse_cell(match[2])
    if cell < 0:
        raise _fail(f"bad cell {quoted(match[2])} in {quoted(entry)}: not a cell of the 61-cell field (a1 ... i9).")
    return cell, LETTERS.index(match[1].upper()) | colour << 3


def _check_counts(board: Board) -> None:
    for colour, side in enumerate(COLOUR_NAMES):
        for kind, most in MOST.items():
            have = board.count[kind | colour << 3]
            if have > most:
                limit = "has" if kind in (QUEEN, HIGHBORN) else "allows"
                place = "" if kind in (QUEEN, HIGHBORN) else " on the field"
                raise _fail(f"{side} has {have} {KIND_NAMES[kind]}s; HiveQueen {limit} {most}{place}.")
    if not board.count[QUEEN] and not board.count[QUEEN | 8]:
        raise _fail("neither South nor North has a Queen: the game ended when the first one was lost.")


def read_record(cls: type[Board], text: str) -> Board | None:
    """The board at the end of a record that starts from a position: a position record on its first line, or a
    ``[Position "..."]`` header, then one turn a line; ``None`` when ``text`` starts from the usual setup.

    :raises InvalidRecordError: naming the first problem (an :class:`InvalidPositionError` for the position).
    """
    lines = [(number, raw.strip()) for number, raw in enumerate(text.splitlines(), start=1)]
    lines = [(number, line) for number, line in lines if line and not line.startswith("#")]
    headers = [(number, line) for number, line in lines if line.startswith("[")]
    found = [match for _, line in headers if (match := _POSITION_HEADER.match(line))]
    if lines and is_position_record(lines[0][1]):
        board = cls.from_position(lines[0][1])
        turns = lines[1:]
    elif found:
        from .records import read_records  # the reader of the other headers imports the board

        others = [line for _, line in headers if not _POSITION_HEADER.match(line) and not _RESULT_HEADER.match(line)]
        games = list(read_records(others))
        if len(found) > 1 or len(games) != 1 or games[0].errors:
            problem = games[0].errors[0] if len(games) == 1 and games[0].errors else "expected one record"
            raise InvalidRecordError(f"{problem} (a record from a position has one Position header)")
        board = cls.from_position(re.sub(r"\\(.)", r"\1", found[0][1]))
        turns = [(number, line) for number, line in lines if not line.startswith("[")]
    else:
        return None
    for index, (number, line) in enumerate(turns, start=1):
        try:
            board.push_text(line)
        except ValueError as err:
            raise InvalidRecordError(f"line {number}, turn {index}: {err}") from None
    declared = next((m[1] for _, line in headers if (m := _RESULT_HEADER.match(line))), None)
    if declared is not None and declared != board.state:
        raise InvalidRecordError(f"Result {declared!r} but the turns end with {board.state}")
    return board
