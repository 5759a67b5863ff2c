"""The public board: moves as values, legality with reasons, and UHP notation."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .errors import IllegalMoveError, InvalidGameStringError, InvalidMoveError
from .geometry import NEIGHBOUR, NEIGHBOURS, OPPOSITE, axial_of
from .pieces import (
    BEETLE,
    BUG_FIRST,
    BUG_NAMES,
    COLOUR_NAMES,
    KIND,
    MOSQUITO,
    PIECE_IDS,
    PIECE_NAMES,
    PIECES_PER_COLOUR,
    PILLBUG,
    QUEEN,
    GameType,
    InvalidGameTypeError,
)
from .position import DRAW, HAND, ORIGIN_CELL, PASS, STATE_NAMES, Position, encode

# The rules, in the words used by error messages.
GAME_OVER = "You can't play, the game is over."
NOT_YOUR_TURN = "It's not that player's turn."
NOT_ENABLED = "That piece is not enabled in this game."
QUEEN_FIRST_TURN = "You can't play your Queen Bee on your first turn."
QUEEN_BY_FOURTH = "You must play your Queen Bee on or before your fourth turn."
MOVE_BEFORE_QUEEN = "You can't move a piece in play until you've played your Queen Bee."
IN_ORDER = "When there are multiple pieces of the same bug type, you must play the pieces in order."
OCCUPIED = "You can't move there because a piece already exists at that position."
COVERED = "You can't move that piece because it has another piece on top of it."
BREAKS_HIVE = "You can't move that piece because it will break the hive."
PASS_GAME_OVER = "You can't pass, the game is over."
PASS_WITH_MOVES = "You can't pass when you have valid moves."
JUST_MOVED = "You can't move that piece because it was moved on your opponent's last turn."
SAME_CELL = "A move must end somewhere other than where it started."
PLACE_ON_TOP = "You can't place a piece on top of the hive."
PLACEMENT = "You can't place a piece there: a new piece must touch your own pieces and none of your opponent's."
FIRST_REPLY = "Black's first piece must be placed next to White's first piece."
PILLBUG_RULE = (
    "A Pillbug can only move an adjacent, uncovered piece that was not just moved and whose removal "
    "doesn't break the hive, into an empty space next to the Pillbug, and not through a gate."
)
BUG_RULES = (
    "a Queen Bee slides exactly one space, never through a gap too narrow or away from the hive.",
    "a Spider slides exactly three spaces around the hive, never revisiting a space.",
    "a Beetle moves exactly one space, on the ground or on top of the hive, never through a gate too narrow.",
    "a Grasshopper jumps in a straight line over at least one piece to the first empty space.",
    "a Soldier Ant slides any number of spaces around the hive, never through a gap too narrow.",
    "a Mosquito moves as a bug it touches (as a Beetle while on top of the hive).",
    "a Ladybug moves exactly three spaces: up onto the hive, one along the top, then down.",
    "a Pillbug slides exactly one space, never through a gap too narrow or away from the hive.",
)

# ``ref/`` means north-east of ref, and so on clockwise (see geometry.DIRECTIONS).
_MARKS = ("{}/", "{}-", "{}\\", "/{}", "-{}", "\\{}")
_AFTER = {"/": 0, "-": 1, "\\": 2}
_BEFORE = {"/": 3, "-": 4, "\\": 5}
_TURN = re.compile(r"^(White|Black)\[(\d+)\]$", re.IGNORECASE)


class Move:
    """A move: a piece from an origin cell (``None`` when placed from hand) to a destination cell.

    Moves are values: equal iff same piece, origin and destination, and hashable.
    The pass move is ``Move.PASS`` (false in a boolean context). Cells are ids on the
    board's grid (see :func:`hive.cell_of`); a move is meaningful for the position it was made for.
    """

    __slots__ = ("code",)

    PASS: Move

    def __init__(self, piece: str | int, origin: int | None, destination: int) -> None:
        pid = piece if isinstance(piece, int) else PIECE_IDS.get(piece.lower(), -1)
        if not 0 <= pid < 2 * PIECES_PER_COLOUR:
            raise InvalidMoveError(f"Unknown piece {piece!r}.")
        self.code = encode(pid, HAND if origin is None else origin, destination)

    @classmethod
    def from_code(cls, code: int) -> Move:
        """Wrap the core's int encoding of a move."""
        move = cls.__new__(cls)
        move.code = code
        return move

    @property
    def is_pass(self) -> bool:
        return self.code == PASS

    @property
    def piece_id(self) -> int:
        """The piece's id (0..27), -1 for a pass."""
        return -1 if self.code == PASS else self.code & 31

    @property
    def piece(self) -> str | None:
        """The piece's UHP name, e.g. ``"wA1"``; ``None`` for a pass."""
        return None if self.code == PASS else PIECE_NAMES[self.code & 31]

    @property
    def origin(self) -> int | None:
        """The cell the piece leaves, ``None`` for a placement or a pass."""
        src = self.code >> 5 & 2047
        return None if self.code == PASS or src == HAND else src

    @property
    def destination(self) -> int | None:
        """The cell the piece ends on, ``None`` for a pass."""
        return None if self.code == PASS else self.code >> 16

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other.code == self.code

    def __hash__(self) -> int:
        return hash(self.code)

    def __bool__(self) -> bool:
        return self.code != PASS

    def __repr__(self) -> str:
        if self.code == PASS:
            return "Move.PASS"
        dst = axial_of(self.code >> 16)
        src = self.origin
        where = "hand" if src is None else str(axial_of(src))
        return f"<Move {self.piece} {where} -> {dst}>"


Move.PASS = Move.from_code(PASS)


class LegalMoveGenerator:
    """The legal moves of a board, generated when iterated (like python-chess)."""

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        self.board = board

    def __iter__(self) -> Iterator[Move]:
        return (Move.from_code(code) for code in self.board.generate())

    def __len__(self) -> int:
        moves = self.board.generate()
        return len(moves)

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return bool(self.board.generate())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move.code in self.board.generate()

    def __repr__(self) -> str:
        return f"<LegalMoveGenerator ({', '.join(self.board.uhp(m) for m in self)})>"


class Board(Position):
    """A game of Hive: position, rules options, move history and UHP notation.

    :param game_type: ``"Base"`` ... ``"Base+MLP"`` or a :class:`GameType`.
    :param tournament_opening: forbid placing the Queen on a player's first turn.
    :param repetition_draw: the third occurrence of a position is a draw.
    """

    def __init__(
        self,
        game_type: str | GameType = "Base+MLP",
        *,
        tournament_opening: bool = True,
        repetition_draw: bool = False,
    ) -> None:
        gt = game_type if isinstance(game_type, GameType) else GameType.parse(game_type)
        super().__init__(gt, tournament_opening, repetition_draw)

    # ------------------------------------------------------------------
    # game state

    @property
    def state(self) -> str:
        """``NotStarted``, ``InProgress``, ``Draw``, ``WhiteWins`` or ``BlackWins``."""
        return STATE_NAMES[self.status]

    @property
    def turn(self) -> int:
        """The colour to move: ``hive.WHITE`` (0) or ``hive.BLACK`` (1)."""
        return self.ply & 1

    @property
    def turn_number(self) -> int:
        """The UHP turn number: 1 + plies // 2."""
        return 1 + self.ply // 2

    @property
    def turn_string(self) -> str:
        """UHP turn string, e.g. ``White[3]``."""
        return f"{COLOUR_NAMES[self.ply & 1]}[{1 + self.ply // 2}]"

    def is_game_over(self) -> bool:
        return self.status >= DRAW

    @property
    def move_stack(self) -> list[Move]:
        """The moves played so far, oldest first."""
        return [Move.from_code(code) for code in self.history]

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        return LegalMoveGenerator(self)

    def is_legal(self, move: Move) -> bool:
        return move.code in self.generate()

    def copy(self) -> Board:
        """Return an independent board with the same options and history."""
        board = type(self)(
            self.game_type, tournament_opening=self.tournament_opening, repetition_draw=self.repetition_draw
        )
        for code in self.history:
            board.make(code)
        return board

    def __copy__(self) -> Board:
        return self.copy()

    # ------------------------------------------------------------------
    # push / pop

    def push(self, move: Move) -> None:
        """Play a legal move.

        :raises IllegalMoveError: naming the rule, when the move is not legal here.
        """
        if move.code not in self.generate():
            self._raise_illegal(move.code, False)
        self.make(move.code)

    def pop(self) -> Move:
        """Take back the last move and return it.

        :raises IndexError: when no move has been played.
        """
        if not self.history:
            raise IndexError("pop from a board with no moves played")
        return Move.from_code(self.unmake())

    def peek(self) -> Move:
        """The last move played."""
        return Move.from_code(self.history[-1])

    # ------------------------------------------------------------------
    # UHP notation

    def parse_uhp(self, text: str) -> Move:
        """Parse a UHP MoveString in this position and check it is legal.

        :raises InvalidMoveError: when the text is not a MoveString.
        :raises IllegalMoveError: when it describes a move against the rules (the message names the rule).
        """
        words = text.split()
        if len(words) == 1 and words[0].lower() == "pass":
            if self.status >= DRAW:
                raise IllegalMoveError(PASS_GAME_OVER)
            if self.generate() != [PASS]:
                raise IllegalMoveError(PASS_WITH_MOVES)
            return Move.PASS
        if not 1 <= len(words) <= 2:
            raise InvalidMoveError(f"Invalid MoveString {text!r}: expected 'piece', 'piece reference' or 'pass'.")
        pid = self._piece_of(words[0], text)
        if len(words) == 1:
            if self.ply:
                raise InvalidMoveError(
                    f"Invalid MoveString {text!r}: only the game's first piece is played without a reference piece."
                )
            dst = ORIGIN_CELL
            on_top = False
        else:
            ref = words[1]
            direction = -1
            if ref[-1] in _AFTER:
                direction = _AFTER[ref[-1]]
                ref = ref[:-1]
            elif ref[0] in _BEFORE:
                direction = _BEFORE[ref[0]]
                ref = ref[1:]
            ref_id = self._piece_of(ref, text)
            ref_cell = self.pos[ref_id]
            if ref_cell < 0:
                raise InvalidMoveError(
                    f"Invalid MoveString {text!r}: reference piece {PIECE_NAMES[ref_id]} is not in play."
                )
            on_top = direction < 0
            dst = ref_cell if on_top else NEIGHBOUR[ref_cell * 6 + direction]
        src = self.pos[pid]
        code = encode(pid, HAND if src < 0 else src, dst)
        # A reference with a direction names a ground cell; climbing is written "piece ref".
        if (not on_top and self.height[dst] and dst != src) or code not in self.generate():
            self._raise_illegal(code, on_top)
        return Move.from_code(code)

    def push_uhp(self, text: str) -> Move:
        """Parse a MoveString, play it, and return the move."""
        move = self.parse_uhp(text)
        self.make(move.code)
        return move

    def uhp(self, move: Move) -> str:
        """The MoveString of a move in this position (the move need not be checked)."""
        code = move.code
        if code == PASS:
            return "pass"
        pid = code & 31
        src = code >> 5 & 2047
        dst = code >> 16
        name = PIECE_NAMES[pid]
        if self.ply == 0:
            return name
        if self.height[dst] and dst != src:
            return f"{name} {PIECE_NAMES[self.top[dst]]}"
        for d in range(6):
            cell = NEIGHBOUR[dst * 6 + d]
            ref = self.top[cell]
            if ref == pid:
                ref = self.below[pid]
            if ref >= 0:
                return f"{name} " + _MARKS[OPPOSITE[d]].format(PIECE_NAMES[ref])
        if src != HAND:  # the piece's own cell: "wQ wQ\" is valid UHP
            for d in range(6):
                if NEIGHBOUR[src * 6 + d] == dst:
                    return f"{name} " + _MARKS[d].format(name)
        raise IllegalMoveError(f"Move {move!r} has no reference piece in this position.")

    def game_string(self) -> str:
        """The UHP GameString of the game so far."""
        replay = Board(self.game_type, tournament_opening=self.tournament_opening)
        parts = [str(self.game_type), self.state, self.turn_string]
        for code in self.history:
            parts.append(replay.uhp(Move.from_code(code)))
            replay.make(code)
        return ";".join(parts)

    @classmethod
    def from_game_string(cls, text: str, *, tournament_opening: bool = True, repetition_draw: bool = False) -> Board:
        """Replay a UHP GameString (``GameType;State;Turn;move;...``), checking every move.

        A bare game type is accepted too. The position comes from the moves: the state
        and turn tokens are checked for form only.

        :raises InvalidGameStringError: naming the header token that failed.
        :raises InvalidMoveError, IllegalMoveError: naming the move token that failed.
        """
        tokens = [t.strip() for t in text.strip().split(";")]
        try:
            game_type = GameType.parse(tokens[0])
        except InvalidGameTypeError as err:
            raise InvalidGameStringError(f"Invalid GameString: token 1 {tokens[0]!r}: {err}") from None
        if len(tokens) > 1 and tokens[1] not in STATE_NAMES:
            raise InvalidGameStringError(
                f"Invalid GameString: token 2 {tokens[1]!r} is not a game state ({', '.join(STATE_NAMES)})."
            )
        if len(tokens) == 2 or (len(tokens) > 2 and not _TURN.match(tokens[2])):
            bad = tokens[2] if len(tokens) > 2 else ""
            raise InvalidGameStringError(f"Invalid GameString: token 3 {bad!r} is not a turn such as 'White[1]'.")
        board = cls(game_type, tournament_opening=tournament_opening, repetition_draw=repetition_draw)
        for index, token in enumerate(tokens[3:], start=4):
            if not token:
                continue
            try:
                board.push_uhp(token)
            except (InvalidMoveError, IllegalMoveError) as err:
                raise type(err)(f"GameString token {index} {token!r} (move {board.ply + 1}): {err}") from None
        return board

    # ------------------------------------------------------------------
    # reasons

    def _piece_of(self, word: str, text: str) -> int:
        pid = PIECE_IDS.get(word.lower(), -1)
        if pid < 0:
            raise InvalidMoveError(f"Invalid MoveString {text!r}: unknown piece {word!r}.")
        return pid

    def _raise_illegal(self, code: int, on_top: bool) -> None:
        raise IllegalMoveError(self._reason(code, on_top))

    def _reason(self, code: int, on_top: bool) -> str:
        if self.status >= DRAW:
            return PASS_GAME_OVER if code == PASS else GAME_OVER
        if code == PASS:
            return PASS_WITH_MOVES
        pid = code & 31
        src = code >> 5 & 2047
        dst = code >> 16
        kind = KIND[pid]
        colour = self.ply & 1
        own = colour * PIECES_PER_COLOUR
        queen_placed = self.pos[own] >= 0
        turn = self.ply >> 1
        if not self.enabled[kind]:
            return NOT_ENABLED
        if src != HAND and self.pos[pid] != src:
            return f"{PIECE_NAMES[pid]} is not at that position."
        if src == HAND and self.pos[pid] >= 0:
            return f"{PIECE_NAMES[pid]} is already in play."
        if (pid >= PIECES_PER_COLOUR) != (colour == 1):
            if src != HAND and self._pillbug_next_to(src, colour):
                return PILLBUG_RULE
            return NOT_YOUR_TURN
        if src == HAND:
            if kind == QUEEN and turn == 0 and self.tournament_opening:
                return QUEEN_FIRST_TURN
            if kind != QUEEN and turn == 3 and not queen_placed:
                return QUEEN_BY_FOURTH
            if pid != own + BUG_FIRST[kind] + self.placed[colour * 8 + kind]:
                return IN_ORDER
            if self.height[dst]:
                return PLACE_ON_TOP if on_top else OCCUPIED
            return FIRST_REPLY if self.ply == 1 else PLACEMENT
        if dst == src:
            return SAME_CELL
        if not queen_placed:
            return MOVE_BEFORE_QUEEN
        if self.top[src] != pid:
            return COVERED
        if pid == self.last:
            return JUST_MOVED
        if self.height[dst] and not on_top:
            return OCCUPIED
        if self.height[src] == 1 and src in self.cut_cells():
            return BREAKS_HIVE
        if self.height[dst] and kind not in (BEETLE, MOSQUITO):
            return f"That piece can't move there: {BUG_NAMES[kind]}s can't end a move on top of the hive."
        return "That piece can't move there: " + BUG_RULES[kind]

    def _pillbug_next_to(self, cell: int, colour: int) -> bool:
        for n in NEIGHBOURS[cell]:
            t = self.top[n]
            if t >= 0 and (t >= PIECES_PER_COLOUR) == (colour == 1) and KIND[t] in (PILLBUG, MOSQUITO):
                return True
        return False

    def __str__(self) -> str:
        from .render import render

        return render(self)

    def __repr__(self) -> str:
        return f"Board.from_game_string({self.game_string()!r})"
