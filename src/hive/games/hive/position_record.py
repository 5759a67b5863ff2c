"""Hive's position record: a position that no move list records, as one line that people can read and write.

::

    Position;Base+MLP;White[5];bQ@1,0 wQ@0,1 wS1/bB1@1,1 wG1@2,1;last=bB1

Its fields, separated by ``;``:

1. ``Position``, which no GameString starts with;
2. the game type (``Base``, ``Base+MLP``...);
3. the side to move and its turn number, as UHP writes them (``White[1]`` is the start, ``White[5]`` the ninth
   ply);
4. the stacks, separated by spaces, each the names of its pieces from the bottom up joined by ``/``, then ``@``
   and the cell as axial coordinates ``q,r``: east of ``q,r`` is ``q+1,r``, south-east ``q,r+1``, north-east
   ``q+1,r-1``;
5. ``last=`` and the piece the last move moved or placed, when there is one (not after a pass or at the start):
   the Pillbug may not move it, and when a Pillbug threw it, it may not move itself. The position's hash counts
   it, and its key (what the repetition draw compares) where it changes the legal moves, as a game's do.

Written by :meth:`hive.Board.position_text`, the record is canonical: the stacks are listed row by row (``r``,
then ``q``) and the hive is moved so that its smallest ``q`` and ``r`` are 0, so the same position has one text
whatever the order of the stacks given and wherever the hive lies. A board set up from it has its hive on those
cells of the grid, so its hash is the hash of the same position reached by moves on the same cells. Reading
checks what the rules require of a position: one hive, no more pieces than the game type has (copies numbered
from 1), only Beetles and Mosquitoes above the ground and only once their player's Queen Bee is placed, at most
one piece placed a turn, a Queen Bee placed by its player's fourth turn (and not first under the tournament
opening). A position's earlier occurrences are not part of it: the repetition draw counts from the set-up.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...game import DRAW, FIRST_WINS, IN_PROGRESS, NOT_STARTED, SECOND_WINS, InvalidPositionError
from ...position_records import POSITION_TAG, parse_turn, position_fields, quoted, turn_text
from .errors import InvalidGameTypeError
from .geometry import DIRECTIONS, cell_of
from .pieces import (
    BEETLE,
    BUG_COUNT,
    BUG_FIRST,
    BUG_LETTERS,
    BUG_NAMES,
    COLOUR_NAMES,
    KIND,
    MOSQUITO,
    PIECE_NAMES,
    PIECES_PER_COLOUR,
    PILLBUG,
    QUEEN,
    GameType,
)
from .state import HAND, PASS, encode

if TYPE_CHECKING:
    from .board import Board

_ENTRY = re.compile(r"^([^@]*)@(-?\d{1,6}),(-?\d{1,6})$")
_NAME = re.compile(r"^([wb])([QSBGAMLP])(\d{0,3})$", re.IGNORECASE)
_LAST = "last="
_CLIMBERS = (BEETLE, MOSQUITO)
_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six")

Cell = tuple[int, int]


@dataclass(frozen=True)
class RecordedPosition:
    """A position read from its record and checked: the hive normalised (smallest ``q`` and ``r`` 0).

    :ivar game_type: the expansions in play.
    :ivar ply: plies played (its low bit is the side to move).
    :ivar stacks: the piece ids on each cell, bottom first.
    :ivar last: the piece the last move moved or placed, -1 for none.
    """

    game_type: GameType
    ply: int
    stacks: dict[Cell, tuple[int, ...]]
    last: int


def _fail(rule: str) -> InvalidPositionError:
    return InvalidPositionError(f"Invalid position: {rule}")


def write(board: Board) -> str:
    """The position record of ``board``'s current position (canonical, see the module's text)."""
    coords = board.layout()
    fields = [POSITION_TAG, str(board.game_type), board.turn_string]
    if coords:
        low_q = min(q for q, _ in coords.values())
        low_r = min(r for _, r in coords.values())
        entries = sorted(((r - low_r, q - low_q), cell) for cell, (q, r) in coords.items())
        fields.append(
            " ".join("/".join(PIECE_NAMES[pid] for pid in board.stack(cell)) + f"@{q},{r}" for (r, q), cell in entries)
        )
    else:
        fields.append("")
    if board.last >= 0:
        fields.append(_LAST + PIECE_NAMES[board.last])
    return ";".join(fields)


def read(text: str, tournament_opening: bool = True) -> tuple[RecordedPosition, list[str]]:
    """The position ``text`` starts with, checked against the rules, and the tokens after it (the moves of a record
    that starts from the position).

    :raises InvalidPositionError: quoting the bad text and naming the rule it breaks.
    """
    tokens = position_fields(text, 3, "<game type>;<turn>;<stacks>[;last=<piece>]")
    try:
        game_type = GameType.parse(tokens[1])
    except InvalidGameTypeError:
        raise _fail(f"game type {quoted(tokens[1])} unknown: expected Base, Base+M ... Base+MLP.") from None
    ply = parse_turn(tokens[2], COLOUR_NAMES)
    field = tokens[3] if len(tokens) > 3 else ""
    # the start has no stacks: a field of moves may follow the turn at once (the empty field dropped)
    first_move = 3 if ply == 0 and "@" not in field else 4
    stacks = _stacks(field if first_move == 4 else "", game_type)
    rest = tokens[first_move:]
    last = -1
    if rest and rest[0][: len(_LAST)].lower() == _LAST:
        last = _piece_id(rest[0][len(_LAST) :], game_type, rest[0])
        rest = rest[1:]
    _check_hive(stacks)
    _check_turns(stacks, ply, tournament_opening)
    _check_last(stacks, last, ply, game_type)
    return RecordedPosition(game_type, ply, _normalised(stacks), last), rest


def _stacks(token: str, game_type: GameType) -> dict[Cell, tuple[int, ...]]:
    stacks: dict[Cell, tuple[int, ...]] = {}
    where: dict[int, Cell] = {}
    for entry in token.split():
        match = _ENTRY.match(entry)
        if match is None:
            raise _fail(
                f"stack {quoted(entry)} is not written as pieces from the bottom up and a cell: 'wS1/bB1@2,-1'."
            )
        cell = (int(match[2]), int(match[3]))
        if cell in stacks:
            raise _fail(
                f"cell {cell[0]},{cell[1]} is given twice ({quoted(entry)}); write its stack once, bottom first."
            )
        names = match[1].split("/")
        pieces = tuple(_piece_id(name, game_type, entry) for name in names)
        for height, pid in enumerate(pieces):
            if pid in where:
                raise _given_twice(pid, where[pid], entry, game_type)
            where[pid] = cell
            if height and KIND[pid] not in _CLIMBERS:
                raise _fail(
                    f"{PIECE_NAMES[pid]} is on top of {PIECE_NAMES[pieces[height - 1]]} in {quoted(entry)}: only a "
                    "Beetle or a Mosquito climbs onto the hive (write a stack from the bottom up)."
                )
        stacks[cell] = pieces
    for pid in where:
        kind, copy = KIND[pid], pid % PIECES_PER_COLOUR - BUG_FIRST[KIND[pid]]
        if copy and pid - 1 not in where:
            raise _fail(
                f"{PIECE_NAMES[pid]} is in play without {PIECE_NAMES[pid - 1]}: the copies of a bug are placed in "
                f"order ({BUG_NAMES[kind]} 1 first)."
            )
    return stacks


def _given_twice(pid: int, other: Cell, entry: str, game_type: GameType) -> InvalidPositionError:
    side, kind, name = COLOUR_NAMES[pid // PIECES_PER_COLOUR], KIND[pid], PIECE_NAMES[pid]
    given = f"{name} at {other[0]},{other[1]} and in {quoted(entry)}"
    if BUG_COUNT[kind] == 1:
        return _fail(f"{side} has 2 {_plural(kind)} ({given}); {game_type} has 1.")
    return _fail(f"{name} is given twice ({given}): each piece is in play once.")


def _piece_id(name: str, game_type: GameType, entry: str) -> int:
    match = _NAME.match(name.strip())
    if match is None:
        raise _fail(f"unknown piece {quoted(name)} in {quoted(entry)}: pieces are named as in UHP, e.g. wQ, bS1, wA3.")
    colour = "wb".index(match[1].lower())
    kind = BUG_LETTERS.index(match[2].upper())
    number = int(match[3] or 0)
    count = BUG_COUNT[kind] if game_type.enabled(kind) else 0
    side = COLOUR_NAMES[colour]
    if count == 0:
        raise _fail(f"{side} has a {BUG_NAMES[kind]} ({quoted(name)}); {game_type} has none.")
    if count == 1 and match[3]:
        raise _fail(f"unknown piece {quoted(name)}: a {BUG_NAMES[kind]} has no number ({name[:2]}).")
    if count > 1 and number == 0:
        raise _fail(f"unknown piece {quoted(name)}: {BUG_NAMES[kind]}s are numbered 1 to {count} ({name[:2]}1).")
    if number > count:
        raise _fail(f"{side} has {number} {_plural(kind)} ({quoted(name)}); {game_type} has {count}.")
    return colour * PIECES_PER_COLOUR + BUG_FIRST[kind] + max(number - 1, 0)


def _plural(kind: int) -> str:
    return "Mosquitoes" if kind == MOSQUITO else BUG_NAMES[kind] + "s"


def _neighbours(cell: Cell) -> Iterable[Cell]:
    return ((cell[0] + dq, cell[1] + dr) for dq, dr in DIRECTIONS)


def _check_hive(stacks: dict[Cell, tuple[int, ...]]) -> None:
    """One hive: every stack reached from any other through touching stacks."""
    parts: list[set[Cell]] = []
    left = set(stacks)
    while left:
        start = min(left)
        part = {start}
        todo = [start]
        while todo:
            for near in _neighbours(todo.pop()):
                if near in left and near not in part:
                    part.add(near)
                    todo.append(near)
        left -= part
        parts.append(part)
    if len(parts) > 1:
        a, b = (min(part) for part in parts[:2])
        count = _COUNT_WORDS[len(parts)] if len(parts) < len(_COUNT_WORDS) else str(len(parts))
        raise _fail(
            f"{count} hives: the stack at {a[0]},{a[1]} ({_names(stacks[a])}) and the one at {b[0]},{b[1]} "
            f"({_names(stacks[b])}) are not joined by touching pieces; the pieces in play form one hive."
        )


def _names(stack: tuple[int, ...]) -> str:
    return "/".join(PIECE_NAMES[pid] for pid in stack)


def _check_turns(stacks: dict[Cell, tuple[int, ...]], ply: int, tournament_opening: bool) -> None:
    """At most one piece placed a turn, the first two turns placements, the Queen Bee by the fourth turn, and a
    piece above the ground only once its player's Queen Bee is placed (it has moved)."""
    on_board = {pid for stack in stacks.values() for pid in stack}
    for colour, side in enumerate(COLOUR_NAMES):
        turns = (ply + 1 - colour) // 2
        own = [pid for pid in on_board if pid // PIECES_PER_COLOUR == colour]
        queen = colour * PIECES_PER_COLOUR
        at = turn_text(ply, COLOUR_NAMES)
        if len(own) > turns:
            raise _fail(
                f"{side} has {len(own)} pieces in play at {at}, after {turns} turn{'s' * (turns != 1)} of its own: a "
                "player places at most one piece a turn."
            )
        if turns and not own:
            raise _fail(f"{side} has no piece in play at {at}: a player's first turn places a piece.")
        if turns >= 4 and queen not in on_board:
            raise _fail(f"{side}'s Queen Bee is not placed by {side}'s fourth turn (at {at}).")
        if tournament_opening and own == [queen]:
            raise _fail(
                f"{side}'s only piece is its Queen Bee: the tournament opening forbids the Queen on a first turn."
            )
        if queen not in on_board:
            for cell, stack in stacks.items():
                for pid in stack[1:]:
                    if pid // PIECES_PER_COLOUR == colour:
                        raise _fail(
                            f"{PIECE_NAMES[pid]} is on the hive at {cell[0]},{cell[1]} but {side}'s Queen Bee is not "
                            "placed: a piece moves only once its Queen Bee is placed."
                        )


def _check_last(stacks: dict[Cell, tuple[int, ...]], last: int, ply: int, game_type: GameType) -> None:
    """The last piece moved is on top of its stack; if it is the mover's own, the other side's Pillbug (or a
    Mosquito beside one) threw it there."""
    if last < 0:
        return
    name = PIECE_NAMES[last]
    cell = next((c for c, stack in stacks.items() if last in stack), None)
    if cell is None:
        raise _fail(f"last={name}: {name} is not in play; the last piece moved is on the board.")
    if stacks[cell][-1] != last:
        raise _fail(f"last={name}: {name} is under {PIECE_NAMES[stacks[cell][-1]]}; the last piece moved is on top.")
    if ply == 0:
        raise _fail(f"last={name} at White[1]: no move has been played.")
    mover = ply & 1
    if last // PIECES_PER_COLOUR != mover:
        return
    throwers = [
        pid
        for near in _neighbours(cell)
        for pid in stacks.get(near, ())[-1:]
        if pid // PIECES_PER_COLOUR != mover and len(stacks[near]) == 1 and KIND[pid] in (PILLBUG, MOSQUITO)
    ]
    if not game_type.pillbug or len(stacks[cell]) != 1 or not throwers:
        raise _fail(
            f"last={name} names a piece of {COLOUR_NAMES[mover]}, the side to move: only the other side's Pillbug "
            "(or a Mosquito beside it) moves it, onto the ground beside itself."
        )


def _normalised(stacks: dict[Cell, tuple[int, ...]]) -> dict[Cell, tuple[int, ...]]:
    if not stacks:
        return {}
    low_q = min(q for q, _ in stacks)
    low_r = min(r for _, r in stacks)
    return {(q - low_q, r - low_r): stack for (q, r), stack in stacks.items()}


def set_up(board: Board, diagram: RecordedPosition) -> None:
    """Put the position on ``board``'s core (a new board of the same game type): each piece placed bottom first,
    passes to the turn, then the last piece moved, the hash from scratch, no history."""
    for (q, r), stack in sorted(diagram.stacks.items()):
        cell = cell_of(q, r)
        for pid in stack:
            board.make(encode(pid, HAND, cell))
    while board.ply < diagram.ply:  # grows the undo tables to the ply, as the moves would
        board.make(PASS)
    board.start_line()
    board.last = diagram.last
    board.hash = board.compute_hash()
    board.reset_key()
    board.status = _status(board) if diagram.ply else NOT_STARTED


def _status(board: Board) -> int:
    lost = [queen >= 0 and board.nmask[queen] == 63 for queen in (board.pos[QUEEN], board.pos[PIECES_PER_COLOUR])]
    if lost[0]:
        return DRAW if lost[1] else SECOND_WINS
    return FIRST_WINS if lost[1] else IN_PROGRESS
