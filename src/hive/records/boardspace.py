"""Boardspace's Hive move dialect: its actions (``Pick``, ``Dropb``, ``Move``, ``Done``...), piece names and grid
locations, and the replay that turns a game's actions into moves.

A location is a column letter and a row number: the first piece's location is the origin, a column to the right is
one step east and a row up is one step north-west.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from ..games.hive import PIECE_NAMES, Board, IllegalMoveError, InvalidMoveError, Move
from ..games.hive.geometry import NEIGHBOUR, cell_of
from ..games.hive.pieces import BUG_COUNT, BUG_FIRST, BUG_LETTERS, KIND, PIECE_IDS, PIECES_PER_COLOUR, QUEEN
from .recorded import RecordedGame
from .text import quote

_ACTION = re.compile(r"\s*+(\d\S*+)\s++([A-Za-z]++)\b(.*)", re.DOTALL)  # possessive: linear in the value
_PIECE = re.compile(r"^([wWbB]?)([QSBGAMLPqsbgamlp])([0-9]?)$")
_REFERENCE = re.compile(r"([-/\\]?)([wbWB][A-Za-z][0-9]?)([-/\\]?)\.?")
# (mark, written after the reference) in direction order NE, E, SE, SW, W, NW
_MARKS = (("/", True), ("-", True), ("\\", True), ("/", False), ("-", False), ("\\", False))
_IGNORED = frozenset({"start", "edit"})
# Boardspace's commands that leave the position as it is: skipped with a warning, like any unknown command
_EVENTS = frozenset({"null", "swap", "playwhite", "playblack", "pleaseundo", "dontundo", "gameoverontime"})
# an undo granted takes back moves the record does not name
_UNDOS = frozenset({"undo", "allowundo"})
_MOVES = frozenset({"move", "pmove", "movedone", "pmovedone"})
_TURNS = frozenset({"pick", "pickb", "dropb", "pdropb", "move", "pmove", "pass"})
_COMMITS = frozenset({"movedone", "pmovedone", "passdone"})
_ARGUMENTS = {"pick": 3, "pickb": 3, "dropb": 3, "pdropb": 3, **dict.fromkeys(_MOVES, 4)}
# an argument that names a piece (wA1, bQ, G1) or a column of a location: an unknown command with one may be a move
_MOVE_LIKE = re.compile(r"^(?:[wWbB]?[QSBGAMLPqsbgamlp][0-9]?|[A-Za-z])$")
# a location's column letters and row digits, far more than a board has (and short enough to decode at once)
_COLUMN = re.compile(r"[A-Za-z]{1,3}")
_ROW = re.compile(r"[0-9]{1,4}")


class BoardspaceError(ValueError):
    """An action that cannot be read or played; the message names the action."""


class Action(NamedTuple):
    """One player's action, e.g. ``P1[5 Dropb bG1 N 12 wG1\\]``."""

    player: int
    command: str  # lower case: ``dropb``
    args: list[str]
    text: str  # as written, without its sequence number: ``Dropb bG1 N 12 wG1\``


def parse_action(player: int, value: str) -> Action | None:
    """The action written ``value`` by ``player`` (0 or 1), or ``None`` when the value is not an action."""
    match = _ACTION.match(value)
    if match is None:
        return None
    command, rest = match.group(2), match.group(3).strip()
    return Action(player, command.lower(), rest.split(), f"{command} {rest}".strip())


def black_starts(actions: list[Action]) -> bool:
    """Whether P0's first piece is a black one (Boardspace lets the first player take either colour)."""
    for step in actions:
        if step.player != 0 or not step.args:
            continue
        if step.command in ("pick", "move", "movedone"):
            return step.args[0].lower() == "b"
        if step.command == "dropb":
            match = _PIECE.match(step.args[0])
            if match and match.group(1):
                return match.group(1).lower() == "b"
    return False


def summarise(actions: list[Action]) -> tuple[int, str | None]:
    """The turns the actions commit and the result they end with, without playing them (what
    :class:`BoardspaceReplay` finds when every action is good; a forced pass left out is not counted).

    :returns: the number of turns, and ``WhiteWins``/``BlackWins`` for a resignation, ``Draw`` for an agreed
        draw, else ``None``.
    """
    turns = 0
    pending = ""  # "turn" after a move or a pass waiting for its Done, "other" after a draw offer or an event
    outcome = None
    for player, command, _args, _text in actions:
        if command in _TURNS:
            pending = "turn"
        elif command in _COMMITS:
            turns += 1
            pending = ""
        elif command == "done":
            if pending == "turn" or (not pending and turns and player == turns % 2):
                turns += 1
            pending = ""
        elif command in ("drop", "reset"):
            pending = ""
        elif command == "resign":
            return turns, "BlackWins" if player == 0 else "WhiteWins"
        elif command not in _IGNORED:
            outcome = "Draw" if command == "acceptdraw" else outcome
            pending = pending or "other"
    return turns, outcome


def column(text: str) -> int:
    """The index of a column named by letters: ``A`` is 0, ``Z`` 25, ``AA`` 26."""
    value = 0
    for ch in text.upper():
        value = value * 26 + ord(ch) - ord("A") + 1
    return value - 1


def column_name(index: int) -> str:
    """The letters of column ``index`` (the inverse of :func:`column`)."""
    name = ""
    index += 1
    while index > 0:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def piece_name(pid: int) -> str:
    """Boardspace's name of a piece: the UHP name, with a ``1`` after the single Mosquito, Ladybug and Pillbug."""
    name = PIECE_NAMES[pid]
    return name + "1" if len(name) == 2 and name[1] in "MLP" else name


@dataclass
class _Pending:
    """An action waiting for its ``Done``: a move (piece to a Boardspace location), a pass, a draw offer..."""

    command: str
    action: str
    piece: int = -1
    where: tuple[int, int] = (0, 0)
    ref: str = ""


class BoardspaceReplay:
    """Plays one game's Boardspace actions on ``game.board``, appending the MoveStrings to ``game.moves``.

    :param swap: the first player (P0) plays Black: colour letters name the other colour.
    """

    def __init__(self, game: RecordedGame, swap: bool) -> None:
        self.game = game
        self.board: Board = game.board
        self.swap = swap
        self.anchor: tuple[int, int] | None = None
        self.picked = -1
        self.pending: _Pending | None = None
        #: ``WhiteWins``, ``BlackWins`` or ``Draw`` when a player resigned or a draw was agreed.
        self.outcome: str | None = None
        #: Whether a Queen was placed on a player's first turn (the original opening rule).
        self.queen_first = False
        # the commands skipped as events: command -> (first move number, times, first text)
        self.events: dict[str, tuple[int, int, str]] = {}

    def play(self, actions: list[Action]) -> bool:
        """Play the actions up to a resignation, or up to the first that fails (its error goes to ``game.errors``);
        whether every action was taken. The events skipped become the game's warnings."""
        complete = True
        for step in actions:
            try:
                self.act(step)
            except BoardspaceError as err:
                message = str(err)
                if not message.startswith("move "):
                    message = f"move {self.board.ply + 1} {quote(step.text)}: {message}"
                self.game.errors.append(message)
                complete = False
                break
            if self.outcome is not None and step.command == "resign":
                break
        for first, times, text in self.events.values():
            again = f" ({times} times)" if times != 1 else ""
            self.game.warnings.append(
                f"move {first}: ignored the Boardspace event {quote(text)}{again}, which does not change the position"
            )
        return complete

    def act(self, step: Action) -> None:
        """Take one action: a pick or drop waits for its ``Done``, which plays it."""
        player, command, args, text = step
        if command in _IGNORED:
            return
        if len(args) < _ARGUMENTS.get(command, 0):
            raise BoardspaceError(f"malformed {quote(text)}")
        if command == "pick":
            self.picked = self.piece(args[2], self.colour(args[0]))
        elif command == "pickb":
            where = self.location(args[0], args[1])
            if self.pending is not None and self.pending.where == where and self.pending.command == "move":
                self.picked = self.pending.piece
            else:
                top = self.board.top[self.cell(where)] if self.anchor is not None else -1
                self.picked = self.piece(args[2], top // PIECES_PER_COLOUR if top >= 0 else player)
        elif command in ("dropb", "pdropb"):
            colour = self.picked // PIECES_PER_COLOUR if self.picked >= 0 else player
            pid = self.piece(args[0], colour)
            self.pending = _Pending("move", text, pid, self.location(args[1], args[2]), " ".join(args[3:]))
        elif command in _MOVES:
            pid = self.piece(args[1], self.colour(args[0]))
            self.pending = _Pending("move", text, pid, self.location(args[2], args[3]), " ".join(args[4:]))
            if command.endswith("done"):
                self.commit(player)
        elif command in ("drop", "reset"):
            self.pending = None
            self.picked = -1
        elif command in ("pass", "offerdraw", "declinedraw", "acceptdraw"):
            self.pending = _Pending(command, text)
        elif command == "passdone":
            self.pending = _Pending("pass", text)
            self.commit(player)
        elif command == "resign":
            self.outcome = "BlackWins" if player == 0 else "WhiteWins"
        elif command == "done":
            self.commit(player)
        else:
            self.skip(step)

    def skip(self, step: Action) -> None:
        """Skip an event that does not change the position (a ``Done`` right after it commits nothing).

        :raises BoardspaceError: for an undo granted, or an unknown command naming a piece or a cell (a move?).
        """
        command, text = step.command, step.text
        if command in _UNDOS:
            raise BoardspaceError(f"{quote(text)} takes back moves the record does not name")
        if command not in _EVENTS and any(_MOVE_LIKE.match(arg) for arg in step.args):
            raise BoardspaceError(f"unknown Boardspace command {quote(text)} names a piece or a cell: it may be a move")
        if self.pending is None:
            self.pending = _Pending("event", text)
        first, times, sample = self.events.get(command, (self.board.ply + 1, 0, text))
        self.events[command] = (first, times + 1, sample)

    def colour(self, letter: str) -> int:
        colour = 0 if letter.lower() == "w" else 1
        return colour ^ 1 if self.swap else colour

    def piece(self, token: str, colour: int) -> int:
        """The piece named by ``token`` (``wA1``, ``bQ``, ``wM1``, or colourless ``A1``, ``q``)."""
        match = _PIECE.match(token)
        if match is None:
            raise BoardspaceError(f"unknown piece {quote(token)}: a piece is a bug letter and its number (wA1, bQ, G2)")
        letter, bug, number = match.groups()
        bug_index = BUG_LETTERS.index(bug.upper())
        if letter:
            colour = self.colour(letter)
        index = int(number) if number else 1
        if not 1 <= index <= BUG_COUNT[bug_index] or (BUG_COUNT[bug_index] > 1 and not number):
            copies = f"numbered 1 to {BUG_COUNT[bug_index]}" if BUG_COUNT[bug_index] > 1 else "numbered 1 or not at all"
            raise BoardspaceError(f"unknown piece {quote(token)}: that bug's pieces are {copies}")
        return colour * PIECES_PER_COLOUR + BUG_FIRST[bug_index] + index - 1

    @staticmethod
    def location(col: str, row: str) -> tuple[int, int]:
        if not (_COLUMN.fullmatch(col) and _ROW.fullmatch(row)):
            raise BoardspaceError(
                f"bad board location {quote(f'{col} {row}')}: a location is a column letter and a row number"
            )
        return column(col), int(row)

    def cell(self, where: tuple[int, int]) -> int:
        if self.anchor is None:
            return -1
        return cell_of(where[0] - self.anchor[0], self.anchor[1] - where[1])

    def commit(self, player: int) -> None:
        """``Done``: play the pending action (a bare ``Done`` is a pass; a forced pass may be left out)."""
        pending, self.pending, self.picked = self.pending, None, -1
        board = self.board
        if pending is None:
            if player == board.turn and board.ply > 0:
                self.play_pass(f"move {board.ply + 1} 'Done'")
            return
        if pending.command in ("offerdraw", "declinedraw", "event"):
            return
        if pending.command == "acceptdraw":
            self.outcome = "Draw"
            return
        if player != board.turn and board.is_legal(Move.PASS):  # a pass is legal only when it is the only move
            self.play_pass(f"move {board.ply + 1} (forced pass, not recorded)")
        where = f"move {board.ply + 1} {quote(pending.action)}"
        if pending.command == "pass":
            self.play_pass(where)
            return
        if self.anchor is None:
            self.anchor = pending.where
        pid = pending.piece
        origin = board.pos[pid]
        move = Move(pid, None if origin < 0 else origin, self.cell(pending.where))
        try:
            text = self.notation(pid, pending.ref, move) or board.move_text(move)
        except IllegalMoveError:  # no piece next to the destination: let the rules say why
            text = ""
        try:
            if text:
                board.push_text(text)
            else:
                board.push(move)  # raises: no move with nothing next to its destination is legal
        except (InvalidMoveError, IllegalMoveError) as err:
            text = self.by_reference(pid, pending.ref) or ""
            if not text:
                raise BoardspaceError(f"{where}: {err}") from None
        self.queen_first = self.queen_first or (board.ply <= 2 and KIND[pid] == QUEEN)
        self.game.moves.append(text)

    def notation(self, pid: int, ref: str, move: Move) -> str | None:
        """Boardspace's own relative notation (``wG1/``, ``-bQ``) as a MoveString, if it names ``move``."""
        reference = self.reference(ref)
        if reference is None:
            return None
        before, name, after = reference
        ref_id = PIECE_IDS.get(name.lower(), -1)
        cell = self.board.pos[ref_id] if ref_id >= 0 else -1
        mark = before or after
        if cell < 0 or not mark:
            return None
        direction = _MARKS.index((mark, bool(after)))
        if NEIGHBOUR[cell * 6 + direction] != move.destination:
            return None
        return f"{PIECE_NAMES[pid]} {before}{PIECE_NAMES[ref_id]}{after}"

    def by_reference(self, pid: int, ref: str) -> str | None:
        """Boardspace's relative notation (``wG1/``, ``-bQ``), tried when the coordinates give an illegal move."""
        reference = self.reference(ref)
        if reference is None or not self.board.ply:
            return None
        before, name, after = reference
        text = f"{PIECE_NAMES[pid]} {before}{name}{after}"
        try:
            self.board.push_text(text)
        except (InvalidMoveError, IllegalMoveError):
            return None
        return text

    def reference(self, ref: str) -> tuple[str, str, str] | None:
        """The mark before, the piece and the mark after of a relative reference (``-bQ`` is ``-``, ``bQ``, ``""``)."""
        match = _REFERENCE.fullmatch(ref.strip())
        if match is None:
            return None
        before, name, after = match.groups()
        if name[1].upper() in "QMLP":  # Boardspace writes the single bugs with a 1: wM1
            name = name[:2]
        if self.swap:
            name = ("b" if name[0] in "wW" else "w") + name[1:]
        return before, name, after

    def play_pass(self, where: str) -> None:
        try:
            self.board.push_text("pass")
        except IllegalMoveError as err:
            raise BoardspaceError(f"{where}: {err}") from None
        self.game.moves.append("pass")
