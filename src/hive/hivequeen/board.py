"""The public HiveQueen board: turns as values, legality with reasons, notation, text rendering."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..core.errors import IllegalMoveError, InvalidMoveError
from ..core.position import DRAW, IN_PROGRESS
from .geometry import NAMES, RADIUS, RAYS, cell_at, parse_cell
from .position import END, PRODUCE, PRODUCTION, PROMOTE, STATE_NAMES, Position
from .rules import (
    CAPACITY_COUNTED_AT_PHASE_START,
    COLOUR_NAMES,
    DRONE,
    FIELD_LIMIT,
    HIGHBORN,
    KIND_NAMES,
    LETTERS,
    NURSE,
    NURSE_SWAPS_WITH,
    QUEEN,
    REPETITION_DRAW_COUNT,
    SOLDIER,
    TURN_LIMIT_WITHOUT_CAPTURE,
    UNITS_PER_WORKER,
    WORKER,
)

__all__ = ["Board", "IllegalMoveError", "InvalidMoveError", "Production", "Turn"]


@dataclass(frozen=True)
class Production:
    """A piece introduced in the production phase: ``kind`` (a rules kind code) on ``cell``."""

    kind: int
    cell: int

    @property
    def step(self) -> int:
        """The core step int."""
        return PRODUCE | self.cell | self.kind << 6

    def __str__(self) -> str:
        return f"+{LETTERS[self.kind]}{NAMES[self.cell]}"


@dataclass(frozen=True)
class Turn:
    """One turn: a movement from ``origin`` to ``destination`` (equal for a promotion in place),
    ``promote`` when a Highborn becomes Queen, then the productions in order."""

    origin: int
    destination: int
    promote: bool = False
    productions: tuple[Production, ...] = ()

    @property
    def movement_step(self) -> int:
        """The core step int of the movement."""
        return self.origin | self.destination << 6 | (PROMOTE if self.promote else 0)

    def steps(self) -> list[int]:
        """The core steps of the turn, without the final ``END``."""
        return [self.movement_step] + [p.step for p in self.productions]

    @classmethod
    def from_steps(cls, steps: list[int]) -> Turn:
        """The turn made of core steps (a trailing ``END`` is ignored)."""
        first = steps[0]
        prods = tuple(Production(s >> 6 & 7, s & 63) for s in steps[1:] if s != END)
        return cls(first & 63, first >> 6 & 63, bool(first & PROMOTE), prods)

    def with_production(self, production: Production) -> Turn:
        """This turn with one more production."""
        return Turn(self.origin, self.destination, self.promote, (*self.productions, production))

    @property
    def movement(self) -> Turn:
        """The movement alone."""
        return Turn(self.origin, self.destination, self.promote)


_MOVE_RE = re.compile(r"^([QHDNWS])([a-i][1-9])(?:([-x])([a-i][1-9]))?(=Q)?$", re.IGNORECASE)
_PROD_RE = re.compile(r"^\+([QHDNWS])([a-i][1-9])$", re.IGNORECASE)


def _cell(text: str, whole: str) -> int:
    cell = parse_cell(text)
    if cell < 0:
        raise InvalidMoveError(f"{whole!r}: {text!r} is not a cell of the 61-cell field")
    return cell


class Board(Position):
    """A HiveQueen game: the field, the turns played, legal turns, notation.

    >>> board = Board()
    >>> turn = board.push_move_string("Wc3-c4;+Sd4")
    >>> board.turn_name, board.units
    ('North', [25, 24])
    """

    def __init__(self, setup: bool = True) -> None:
        super().__init__(setup)
        self._turn_starts: list[int] = []

    @classmethod
    def from_pieces(cls, pieces: Mapping[str, str], turn: int = 0, quiet: int = 0) -> Board:
        """A position from cell names to piece letters, South upper case and North lower case
        (``{"c1": "Q", "g9": "q"}``), with ``turn`` (0 South, 1 North) to move.

        :raises InvalidMoveError: naming a bad cell or letter.
        """
        board = cls(setup=False)
        for name, letter in pieces.items():
            cell = _cell(name, name)
            if len(letter) != 1 or letter.upper() not in LETTERS[1:]:
                raise InvalidMoveError(f"{letter!r} on {name} is not a piece letter (Q H D N W S, North lower case)")
            board.put(cell, LETTERS.index(letter.upper()) | (8 if letter.islower() else 0))
        board.ply = turn
        board.quiet = quiet
        board.reset()
        return board

    def copy(self) -> Board:
        """An independent copy with the same position and history."""
        other = Board(setup=False)
        self.copy_state_to(other)
        self.copy_history_to(other)
        other._turn_starts = list(self._turn_starts)
        return other

    # ------------------------------------------------------------------
    # state

    @property
    def state(self) -> str:
        """``InProgress``, ``Draw``, ``SouthWins`` or ``NorthWins``."""
        return STATE_NAMES[self.status]

    @property
    def turn(self) -> int:
        """The side to move: 0 South, 1 North."""
        return self.ply & 1

    @property
    def turn_name(self) -> str:
        """``South`` or ``North``."""
        return COLOUR_NAMES[self.ply & 1]

    def is_game_over(self) -> bool:
        """Whether the game has ended."""
        return self.status != IN_PROGRESS

    def end_reason(self) -> str:
        """Why the game ended (empty while it goes on)."""
        if self.status == IN_PROGRESS:
            return ""
        colour = self.ply & 1
        mover = 1 - colour
        if self.count[QUEEN | mover << 3] == 0:
            return f"{COLOUR_NAMES[mover]} has no Queen after its movement"
        units = f"units {self.units[0]}-{self.units[1]}"
        if not self.has_movement(colour):
            if self.has_movement(1 - colour):
                return f"{COLOUR_NAMES[colour]} cannot move"
            return f"neither player can move, {units}"
        if self.status == DRAW and self.seen.get(self.hash, 0) >= REPETITION_DRAW_COUNT:
            return f"position repeated {REPETITION_DRAW_COUNT} times"
        return f"{TURN_LIMIT_WITHOUT_CAPTURE} turns without a capture, {units}"

    def piece_at(self, cell: int) -> tuple[int, int] | None:
        """``(colour, kind)`` of the piece on ``cell``, or ``None``."""
        code = self.board[cell]
        return (code >> 3, code & 7) if code else None

    def turns(self) -> list[Turn]:
        """The turns played, oldest first."""
        out = []
        starts = [*self._turn_starts, len(self.history)]
        for i in range(len(self._turn_starts)):
            out.append(Turn.from_steps(self.history[starts[i] : starts[i + 1]]))
        return out

    # ------------------------------------------------------------------
    # legal turns

    @property
    def legal_movements(self) -> list[Turn]:
        """Every legal movement of the side to move (a turn without productions)."""
        if self.phase != PRODUCTION:
            return [Turn.from_steps([s]) for s in self.movements()] if self.status == IN_PROGRESS else []
        return []

    def production_options(self, turn: Turn) -> list[Production]:
        """The productions that may follow ``turn`` (a movement and the productions chosen so far).

        :raises IllegalMoveError: when ``turn`` itself is illegal.
        """
        depth = self._play_partial(turn)
        try:
            if self.phase != PRODUCTION or self.ply != self.ply_before(depth):
                return []
            return [Production(s >> 6 & 7, s & 63) for s in self.productions() if s != END]
        finally:
            for _ in range(depth):
                self.unmake()

    def legal_turns(self) -> Iterator[Turn]:
        """Every legal whole turn, each set of productions once (there can be tens of thousands)."""
        if self.status != IN_PROGRESS:
            return
        for move in self.movements():
            yield from self._complete([move], set())

    def _complete(self, steps: list[int], done: set[frozenset[int]]) -> Iterator[Turn]:
        ply = self.ply
        self.make(steps[-1])
        try:
            key = frozenset(steps[1:])
            if self.ply != ply:
                if key not in done:
                    done.add(key)
                    yield Turn.from_steps(steps)
                return
            if key not in done:
                done.add(key)
                yield Turn.from_steps(steps)
            for step in self.productions():
                if step != END:
                    yield from self._complete([*steps, step], done)
        finally:
            self.unmake()

    def _play_partial(self, turn: Turn) -> int:
        """Make the steps of ``turn`` (checked) and return how many were made; raises with nothing made."""
        if self.status != IN_PROGRESS:
            raise IllegalMoveError(f"The game is over ({self.state}): no turn can be played.")
        steps = turn.steps()
        ply = self.ply
        made = 0
        try:
            for i, step in enumerate(steps):
                if i and (self.ply != ply or self.status != IN_PROGRESS):
                    raise IllegalMoveError(
                        f"{turn.productions[i - 1]} cannot be produced: {self._no_production_reason(turn, i - 1)}"
                    )
                legal = self.movements() if i == 0 else self.productions()
                if step not in legal:
                    raise IllegalMoveError(
                        self._movement_reason(turn) if i == 0 else self._production_reason(turn.productions[i - 1])
                    )
                self.make(step)
                made += 1
        except IllegalMoveError:
            for _ in range(made):
                self.unmake()
            raise
        return made

    def is_legal(self, turn: Turn) -> bool:
        """Whether ``turn`` may be played now."""
        try:
            depth = self._play_partial(turn)
        except IllegalMoveError:
            return False
        for _ in range(depth):
            self.unmake()
        return True

    def push(self, turn: Turn) -> None:
        """Play a whole turn (checked).

        :raises IllegalMoveError: naming the rule the turn breaks.
        """
        start = len(self.history)
        ply = self.ply
        self._play_partial(turn)
        if self.ply == ply and self.status == IN_PROGRESS:
            self.make(END)
        self._turn_starts.append(start)

    def pop(self) -> Turn:
        """Take back the last whole turn and return it.

        :raises IndexError: when no turn has been played.
        """
        if not self._turn_starts:
            raise IndexError("pop from a board with no turns played")
        start = self._turn_starts.pop()
        turn = Turn.from_steps(self.history[start:])
        while len(self.history) > start:
            self.unmake()
        return turn

    def push_steps(self, steps: list[int]) -> None:
        """Play a whole turn given as core steps (unchecked; the search and players use this)."""
        self._turn_starts.append(len(self.history))
        ply = self.ply
        for step in steps:
            self.make(step)
        if self.ply == ply and self.status == IN_PROGRESS:
            self.make(END)

    # ------------------------------------------------------------------
    # reasons

    def _name(self, cell: int) -> str:
        code = self.board[cell]
        return f"{KIND_NAMES[code & 7]} on {NAMES[cell]}" if code else f"empty cell {NAMES[cell]}"

    def _movement_reason(self, turn: Turn) -> str:
        colour = self.ply & 1
        src, dst = turn.origin, turn.destination
        code = self.board[src]
        if not code:
            return f"There is no piece on {NAMES[src]} to move."
        if code >> 3 != colour:
            return f"The {self._name(src)} belongs to {COLOUR_NAMES[1 - colour]}; it is {COLOUR_NAMES[colour]}'s turn."
        kind = code & 7
        target = self.board[dst]
        if turn.promote:
            if kind != HIGHBORN:
                return "Only a Highborn can be promoted to Queen."
            if self.count[QUEEN | colour << 3]:
                return "A Highborn is promoted only after its Queen has been captured."
            if not self.count[DRONE | colour << 3]:
                return "A Highborn is promoted only while a friendly Drone is on the field."
            if not self.can_promote(colour):
                return (
                    f"The Workers cannot support the 3 extra units of a promotion "
                    f"(units {self.load(colour)} + 3 > capacity {self.capacity(colour)})."
                )
        if src == dst:
            return "A movement must move a piece (only a promotion may leave the Highborn in place)."
        enemy = target and target >> 3 != colour
        if kind == QUEEN:
            if target & 7 != HIGHBORN or enemy:
                return "A Queen only swaps places with a friendly Highborn; it never captures."
        elif kind == NURSE:
            if not target or enemy or target & 7 not in NURSE_SWAPS_WITH:
                return "A Nurse only swaps places with a friendly Worker, Soldier, Drone or Nurse."
        elif kind == WORKER:
            if dst not in _neighbours(src) or target:
                return "A Worker steps to an adjacent vacant cell."
        elif kind == DRONE:
            if target:
                return "A Drone leaps to a vacant cell; it never captures."
        elif kind == SOLDIER:
            if not enemy:
                return "A Soldier only moves to capture: onto an enemy piece, never to an empty or friendly cell."
            return (
                "A Soldier captures an adjacent enemy, or leaps in a straight line over an unbroken run of "
                "friendly pieces onto the first cell beyond, which must hold an enemy."
            )
        elif kind == HIGHBORN:
            if target and not enemy:
                return "A Highborn cannot end on a friendly piece."
            return (
                "A Highborn slides in a straight line through vacant cells, and may capture the first enemy "
                "piece in that line."
            )
        return "That movement is not legal."

    def _no_production_reason(self, turn: Turn, done: int) -> str:
        colour = 1 - (self.ply & 1)
        if self.status != IN_PROGRESS:
            return "the game is over."
        made = turn.productions[:done]
        nurses = self.count[NURSE | colour << 3] - sum(1 for p in made if p.kind == NURSE)
        if nurses == 0:
            return "a player produces only while a Nurse is on the field."
        workers = self.count[WORKER | colour << 3] - sum(1 for p in made if p.kind == WORKER)
        cap = UNITS_PER_WORKER * workers if CAPACITY_COUNTED_AT_PHASE_START else self.capacity(colour)
        if self.load(colour) + 1 > cap:
            return f"units {self.load(colour)} + 1 would exceed the capacity {cap} (5 per Worker on the field)."
        return f"each Nurse produces at most one piece per turn ({nurses} Nurse{'s' if nurses > 1 else ''})."

    def _production_reason(self, production: Production) -> str:
        colour = self.ply & 1
        kind, cell = production.kind, production.cell
        if kind not in (DRONE, NURSE, WORKER, SOLDIER):
            return f"A {KIND_NAMES[kind]} cannot be produced: only Workers, Soldiers, Nurses and Drones."
        if self.board[cell]:
            return f"A piece is produced on a vacant cell; {NAMES[cell]} holds a {KIND_NAMES[self.board[cell] & 7]}."
        if self.count[kind | colour << 3] >= FIELD_LIMIT[kind]:
            return f"At most {FIELD_LIMIT[kind]} {KIND_NAMES[kind]}s may be on the field."
        if kind == SOLDIER:
            return f"A Soldier enters a vacant cell adjacent to a friendly piece; {NAMES[cell]} is not."
        if not self.nurses_of(cell):
            return (
                f"A {KIND_NAMES[kind]} enters a vacant cell adjacent to the Nurse that produces it "
                f"(one that was on the field when the production phase began); {NAMES[cell]} is not."
            )
        return "Each Nurse produces at most one piece per turn."

    # ------------------------------------------------------------------
    # notation

    def move_string(self, turn: Turn) -> str:
        """The notation of ``turn`` in this position, e.g. ``Ha1xa5``, ``Hb1=Q`` or ``Wc3-c4;+Sd4``."""
        code = self.board[turn.origin]
        letter = LETTERS[code & 7] if code else "?"
        text = f"{letter}{NAMES[turn.origin]}"
        if turn.destination != turn.origin:
            target = self.board[turn.destination]
            capture = target and target >> 3 != code >> 3
            text += f"{'x' if capture else '-'}{NAMES[turn.destination]}"
        if turn.promote:
            text += "=Q"
        return ";".join([text, *(str(p) for p in turn.productions)])

    def parse_move(self, text: str) -> Turn:
        """Read a turn in this position's notation and check it.

        :raises InvalidMoveError: for malformed text (naming it).
        :raises IllegalMoveError: for a turn against the rules (naming the rule).
        """
        parts = [p.strip() for p in text.strip().split(";")]
        m = _MOVE_RE.match(parts[0])
        if m is None:
            raise InvalidMoveError(
                f"{text!r} is not a HiveQueen move: expected <piece><from>-<to> or x for a capture, =Q for a "
                f"promotion, then ;+<piece><cell> per production (e.g. 'Wc3-c4;+Sd4')"
            )
        letter, src_name, sep, dst_name, promo = m.groups()
        src = _cell(src_name, text)
        dst = _cell(dst_name, text) if dst_name else src
        if dst_name is None and not promo:
            raise InvalidMoveError(f"{text!r}: a movement needs a destination ('-' or 'x' and a cell) or '=Q'")
        if dst_name is not None and dst == src:
            raise InvalidMoveError(f"{text!r}: the destination is the origin")
        code = self.board[src]
        colour = self.ply & 1
        if code and letter.upper() != LETTERS[code & 7]:
            raise IllegalMoveError(f"{text!r}: the piece on {NAMES[src]} is a {KIND_NAMES[code & 7]}, not {letter}")
        target = self.board[dst]
        if code and target and code >> 3 == colour and target >> 3 == colour and target & 7 == NURSE == code & 7:
            src, dst = min(src, dst), max(src, dst)  # a Nurse-Nurse swap is one movement, written either way
        if dst_name is not None and code and code >> 3 == colour:
            capture = bool(target) and target >> 3 != colour
            if capture and sep == "-":
                raise InvalidMoveError(f"{text!r}: that movement captures on {dst_name}; write 'x'")
            if not capture and sep.lower() == "x":
                raise InvalidMoveError(f"{text!r}: there is no enemy piece to capture on {dst_name}; write '-'")
        prods = []
        for part in parts[1:]:
            pm = _PROD_RE.match(part)
            if pm is None:
                raise InvalidMoveError(f"{text!r}: {part!r} is not a production (expected +<piece><cell>, e.g. +Sd4)")
            prods.append(Production(LETTERS.index(pm.group(1).upper()), _cell(pm.group(2), text)))
        turn = Turn(src, dst, bool(promo), tuple(prods))
        try:
            depth = self._play_partial(turn)
        except IllegalMoveError as err:
            raise IllegalMoveError(f"{text!r}: {err}") from None
        for _ in range(depth):
            self.unmake()
        return turn

    def push_move_string(self, text: str) -> Turn:
        """Parse and play a turn; returns it."""
        turn = self.parse_move(text)
        self.push(turn)
        return turn

    # ------------------------------------------------------------------
    # pictures

    def __str__(self) -> str:
        lines = []
        for r in range(-RADIUS, RADIUS + 1):
            row = []
            for q in range(-RADIUS, RADIUS + 1):
                cell = cell_at(q, r)
                if cell >= 0:
                    code = self.board[cell]
                    letter = LETTERS[code & 7] if code else "."
                    row.append(letter.lower() if code >> 3 else letter)
            lines.append(f"{5 - r} " + " " * abs(r) + " ".join(row))
        south, north = self.units
        lines.append(
            f"units South {south}/{self.capacity(0)}, North {north}/{self.capacity(1)}; "
            + (f"{self.turn_name} to move" if self.status == IN_PROGRESS else self.state)
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<hivequeen.Board {self.state} {self.turn_name} to move, turn {self.ply + 1}>"

    def _repr_svg_(self) -> str:
        from .svg import board_svg

        return board_svg(self)


def _neighbours(cell: int) -> list[int]:
    return [RAYS[cell * 6 + d][0] for d in range(6) if RAYS[cell * 6 + d]]
