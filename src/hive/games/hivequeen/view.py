"""HiveQueen in the browser: whole turns (a movement, then productions) in HiveQueen notation.

Cells are sent by name (``c3``) with their axial coordinates on the 61-cell field. A turn is built on the page in
steps: :meth:`HiveQueenView.preview` answers the field after its movement and the productions chosen so far, and
what may be produced next; the whole turn is then played as one move.
"""

from __future__ import annotations

from typing import cast

from ...game import InvalidRecordError
from ...sdk.refusals import BadRequest, shown
from ...sdk.view import JSON, Imported, View, parse_move
from .. import find_game
from . import NAMES, Board, Turn, parse_cell
from .geometry import COORDS
from .reasons import movement_reason
from .records import read_record
from .rules import FIELD_LIMIT, KIND_NAMES, LETTERS, PRODUCIBLE
from .svg import board_svg


def _cell(request: JSON, key: str) -> int:
    value = request.get(key)
    if not isinstance(value, str):
        raise BadRequest(f"{key!r} must be a cell name such as 'c3', not {shown(value)}.")
    return parse_cell(value)


def _check_cell(name: object, cell: int) -> None:
    if cell < 0:
        raise BadRequest(f"{shown(name)} is not a cell of the 61-cell field (a1 to i9, e.g. e5).")


class HiveQueenView:
    """The view of L. Lynn Smith's HiveQueen."""

    kind = "hivequeen"
    record_example = "a HiveQueen record such as 'Wc3-c4;+Sd4', one turn a line"
    summary = "Capture the enemy Queen on a 61-cell field; grow your colony"
    first_note = "moves first"
    import_label = "a record: one turn a line"
    import_example = '[Game "HiveQueen"]\nWc3-c4;+Sd4\nWg7-g6;+Sf6'
    import_empty = "Paste a HiveQueen record first: one turn a line, e.g. Wc3-c4;+Sd4"

    def options(self, raw: JSON) -> JSON:
        """HiveQueen has no options: the rules page fixes every reading.

        :raises BadRequest: naming an option it was given.
        """
        if raw:
            raise BadRequest(f"HiveQueen takes no options, not {', '.join(map(shown, raw))}.")
        return {}

    def sides(self, options: JSON) -> list[str]:
        """South and North, South first."""
        return list(Board.sides)

    def figure(self, spec: str) -> str:
        """A picture for the rules page: ``start`` or the turns played from the start (``,`` between them), then
        optionally ``| cell``, whose piece's legal destinations are lit (or, when it has none, its own cell).

        :raises BadRequest: naming the turn or the cell that failed.
        """
        text, _, cell_name = spec.partition("|")
        board = Board()
        for turn in (t.strip() for t in text.split(",")):
            if turn and turn != "start":
                try:
                    board.push_text(turn)
                except ValueError as err:
                    raise BadRequest(f"The picture {shown(spec)}: {err}") from None
        lit: list[int] = []
        if cell_name.strip():
            cell = parse_cell(cell_name.strip())
            _check_cell(cell_name.strip(), cell)
            lit = sorted({t.destination for t in board.legal_movements if t.origin == cell}) or [cell]
        last = board.move_stack[-1] if board.move_stack else None
        return board_svg(board, size=16, highlight=lit, last_turn=last, labels=False)

    def new_board(self, options: JSON) -> Board:
        return cast(Board, find_game(Board.game_name)(**options))

    def import_record(self, text: str, options: JSON) -> Imported:
        """Read a HiveQueen record (headers optional: bare turns one per line will do).

        :raises BadRequest: naming the line and the turn that failed.
        """
        lines = text.splitlines()
        first = 1  # the messages number the lines as the player pasted them
        if not any(line.strip().startswith("[") for line in lines):
            lines.insert(0, f'[Game "{Board.game_name}"]')
            first = 0
        try:
            return Imported({}, read_record("\n".join(lines), first))
        except ValueError as err:
            raise BadRequest(f"Not a HiveQueen record: {err}") from None

    def from_position(self, text: str, options: JSON) -> tuple[JSON, Board]:
        """Read a HiveQueen position record (``Position;HiveQueen;<turn>;<South's>;<North's>``).

        :raises BadRequest: quoting the part that failed and naming the rule it breaks.
        """
        try:
            return {}, Board.from_position(text)
        except InvalidRecordError as err:
            raise BadRequest(str(err)) from None

    def move(self, board: Board, request: JSON) -> Turn:
        """A turn (or part of one) in notation, ``{"move": "Wc3-c4;+Sd4"}``, or a movement alone as
        ``{"from": "c3", "to": "c4", "promote": false}``.

        :raises BadRequest: saying what is malformed, or which rule the turn breaks.
        """
        if "move" in request:
            turn: Turn = parse_move(board, request["move"], "a turn in HiveQueen notation such as 'Wc3-c4;+Sd4'")
            return turn
        origin, destination = _cell(request, "from"), _cell(request, "to")
        promote = request.get("promote", False)
        if not isinstance(promote, bool):
            raise BadRequest(f"'promote' must be true or false, not {shown(promote)}.")
        _check_cell(request["from"], origin)
        _check_cell(request["to"], destination)
        movement = Turn(origin, destination, promote)
        if not board.is_legal(movement):
            raise BadRequest(movement_reason(board, movement))
        return movement

    def position(self, board: Board) -> JSON:
        """All 61 cells, units and capacity per side, the legal movements and the last turn."""
        return self._field(board, None, legal=True)

    def _field(self, board: Board, last: Turn | None, *, legal: bool) -> JSON:
        cells = []
        for cell, name in enumerate(NAMES):
            q, r = COORDS[cell]
            found = board.piece_at(cell)
            piece = None if found is None else {"side": found[0], "kind": LETTERS[found[1]]}
            cells.append({"cell": name, "q": q, "r": r, "piece": piece})
        moves: dict[str, list[JSON]] = {}
        for turn in board.legal_movements if legal else []:
            target = board.piece_at(turn.destination)
            moves.setdefault(NAMES[turn.origin], []).append(
                {
                    "to": NAMES[turn.destination],
                    "move": board.move_text(turn),
                    "promote": turn.promote,
                    "capture": target is not None and target[0] != board.turn,
                    "swap": target is not None and target[0] == board.turn,
                }
            )
        played = board.turns()
        if last is None and played:
            last = played[-1]
        return {
            "cells": cells,
            "legal": moves,
            "pass": False,
            "passed": False,
            "last": None
            if last is None
            else {
                "from": NAMES[last.origin],
                "to": NAMES[last.destination],
                "promote": last.promote,
                "productions": [NAMES[p.cell] for p in last.productions],
            },
            "turn": board.turn,
            "ply": len(played),
            "state": board.state,
            "units": list(board.units),
            "capacity": [board.capacity(0), board.capacity(1)],
            "counts": {LETTERS[k]: [board.count[k], board.count[k | 8]] for k in range(1, len(LETTERS))},
            "limits": {LETTERS[k]: FIELD_LIMIT[k] for k in PRODUCIBLE if FIELD_LIMIT[k] < 100},
            "can_promote": [board.can_promote(0), board.can_promote(1)],
            "quiet": board.quiet,
        }

    def preview(self, board: Board, request: JSON) -> JSON:
        """The field after part of a turn (its movement and the productions so far) and what may be produced next.

        ``productions`` lists every legal next production; ``left`` is how many more pieces the Nurses and the
        capacity allow at most; ``done`` is true when the turn can take no production (it ends as it stands).

        :raises BadRequest: when the partial turn is malformed or illegal.
        """
        turn = self.move(board, request)
        options = board.production_options(turn)
        after = board.copy()
        colour = after.turn
        for step in turn.steps():  # checked above: made as they are
            after.make(step)
        producing = after.ply == board.ply and not after.is_game_over()  # the movement left the turn open
        made = len(turn.productions)
        return {
            "move": board.move_text(turn),
            "view": self._field(after, turn, legal=False),
            "productions": [{"kind": LETTERS[p.kind], "cell": NAMES[p.cell], "move": str(p)} for p in options],
            "made": made,
            "left": min(after.nurses - made, after.cap - after.load(colour)) if options else 0,
            "nurses": after.nurses if producing else 0,
            "capacity": after.cap if producing else after.capacity(colour),
            "units": after.load(colour),
            "done": not options,
        }

    def why(self, board: Board, piece: object) -> str | None:
        """Why the piece on the cell ``piece`` has no legal movement here.

        :raises BadRequest: when ``piece`` is not a cell name.
        """
        if not isinstance(piece, str):
            raise BadRequest(f"'piece' must be a cell name such as 'e5', not {shown(piece)}.")
        cell = parse_cell(piece)
        _check_cell(piece, cell)
        if board.is_game_over():
            return "The game is over."
        if any(t.origin == cell for t in board.legal_movements):
            return None
        found = board.piece_at(cell)
        if found is None:
            return f"There is no piece on {NAMES[cell]}."
        colour, kind = found
        if colour != board.turn:
            owner, mover = board.sides[colour], board.sides[board.turn]
            return f"The {KIND_NAMES[kind]} on {NAMES[cell]} is {owner}'s; it is {mover}'s turn."
        # Any other cell will do: the rules are checked piece first, so the reason is about the piece.
        other = next(c for c in range(len(NAMES)) if c != cell)
        rule = movement_reason(board, Turn(cell, other))
        return f"The {KIND_NAMES[kind]} on {NAMES[cell]} has no legal movement here. {rule}"


VIEW: View = HiveQueenView()
