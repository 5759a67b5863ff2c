"""Hive in the browser: any expansions, either opening rule, an optional repetition draw, the classic set or the
Warm/Cool edition of seed 001; UHP MoveStrings.

Cells are sent as axial coordinates ``[q, r]`` in one frame for the whole game (:meth:`Board.layout`), so that the
page can draw the hive without knowing the grid; a move request names a MoveString, or a piece and such a cell. A
cell is read back in the same frame: one that is neither in the hive nor beside it is refused as out of reach, never
taken modulo the grid.
"""

from __future__ import annotations

from typing import cast

from ...game import IllegalMoveError, InvalidMoveError, InvalidRecordError
from ...records.pasted import Pasted, read_pasted
from ...sdk.refusals import BadRequest, shown
from ...sdk.view import JSON, Imported, View, parse_move
from .. import find_game
from . import Board, Move
from .geometry import CELLS, DIRECTIONS, NEIGHBOUR, NEIGHBOURS
from .pieces import BUG_LETTERS, GAME_TYPES, KIND, PIECE_IDS, PIECE_NAMES, PIECES, PIECES_PER_COLOUR
from .reasons import reason
from .state import ORIGIN_CELL
from .svg import GLYPHS, THEMES
from .svg import board as draw

GAME_TYPE_NAMES = [str(t) for t in GAME_TYPES]
#: The rule options a game is played with, beside its game type.
RULES = ("tournament_opening", "repetition_draw")
#: The sets of pieces a game is played with: the classic one, and seed 001's hand-made Warm/Cool edition.
SETS = {"classic": "default", "warm-cool": "warm-cool"}
#: Who goes first with the Warm/Cool set (that side takes White's part in the notation).
FIRSTS = ("warm", "cool")


def _flag(raw: JSON, key: str, default: bool) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise BadRequest(f"Option {key!r} must be true or false, not {shown(value)}.")
    return value


def _choice(raw: JSON, key: str, choices: tuple[str, ...] | list[str]) -> str:
    value = raw.get(key, choices[0])
    if value not in choices:
        raise BadRequest(f"Option {key!r} must be one of {', '.join(choices)}, not {shown(value)}.")
    return str(value)


def _cell(value: object) -> tuple[int, int]:
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return value[0], value[1]
    raise BadRequest(f"'to' must be the [q, r] of a cell, not {shown(value)}.")


def frame(board: Board) -> dict[tuple[int, int], int]:
    """The cells a move may name, by their coordinates in the page's frame: the hive's and their neighbours' (the
    middle of the table before the first piece)."""
    coords = board.layout() or board.layout([ORIGIN_CELL])
    cells: dict[tuple[int, int], int] = {}
    for cell, (q, r) in coords.items():
        cells[q, r] = cell
        if board.height[cell]:
            for d, (dq, dr) in enumerate(DIRECTIONS):
                cells.setdefault((q + dq, r + dr), NEIGHBOUR[cell * 6 + d])
    return cells


def _read(text: str, options: JSON) -> Pasted:
    """The board at the end of a pasted record (see :func:`~hive.records.pasted.read_pasted`), with the rules
    of ``options``.

    :raises BadRequest: naming the token that failed, or the header that contradicts the moves.
    """
    rules = {key: bool(options.get(key, default)) for key, default in zip(RULES, (True, False), strict=True)}
    try:
        return read_pasted(text, str(options.get("game_type", "Base+MLP")), **rules)
    except (InvalidRecordError, InvalidMoveError, IllegalMoveError) as err:
        raise BadRequest(str(err)) from None


def _far(board: Board, near: dict[tuple[int, int], int]) -> int:
    """A cell out of the hive's reach, to ask the rules why a piece cannot go that far."""
    taken = set(near.values())
    height = board.height
    return next(c for c in range(CELLS) if c not in taken and not any(height[n] for n in NEIGHBOURS[c]))


class HiveView:
    """The view of Hive's games (every game type)."""

    kind = "hive"
    record_example = "a GameString such as 'Base;InProgress;White[1]', or moves such as 'wS1;bS1 wS1-'"
    summary = "Surround the opposing Queen Bee"
    first_note = "first"
    import_label = "a GameString, a list of moves, or a PGN or SGF record"
    import_example = "Base+MLP;InProgress;White[3];wG1;bG1 wG1-;wQ -wG1;bQ bG1-"
    import_empty = "Paste a GameString first, e.g. Base;NotStarted;White[1], or moves such as wS1;bS1 wS1-"

    def options(self, raw: JSON) -> JSON:
        """``game_type`` (``Base+MLP`` by default), ``tournament_opening`` (on), ``repetition_draw`` (off), and the
        set: ``classic``, or ``warm-cool`` with ``first`` (``warm`` or ``cool``) naming the side that moves first.

        :raises BadRequest: naming the bad option.
        """
        game_type = raw.get("game_type", "Base+MLP")
        if not isinstance(game_type, str) or game_type not in GAME_TYPE_NAMES:
            raise BadRequest(f"Unknown game type {shown(game_type)}: expected one of {', '.join(GAME_TYPE_NAMES)}.")
        known = {"game_type", "tournament_opening", "repetition_draw", "set", "first"}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise BadRequest(f"Unknown option {shown(unknown[0])}: expected {', '.join(sorted(known))}.")
        options: JSON = {
            "game_type": game_type,
            "tournament_opening": _flag(raw, "tournament_opening", True),
            "repetition_draw": _flag(raw, "repetition_draw", False),
            "set": _choice(raw, "set", list(SETS)),
        }
        if options["set"] == "warm-cool":
            options["first"] = _choice(raw, "first", FIRSTS)
        elif "first" in raw:
            raise BadRequest("Option 'first' is for the Warm/Cool set, where either side may go first.")
        return options

    def options_of(self, game: str) -> JSON:
        """A game type's options: ``{"game_type": game}``."""
        return {"game_type": game}

    def sides(self, options: JSON) -> list[str]:
        """White and Black; with the Warm/Cool set, Warm and Cool, the one that goes first in White's place."""
        if options.get("set") != "warm-cool":
            return list(Board.sides)
        warm, cool = THEMES["warm-cool"].sides
        return [cool, warm] if options.get("first") == "cool" else [warm, cool]

    def new_board(self, options: JSON) -> Board:
        rules = {key: options[key] for key in RULES}
        return cast(Board, find_game(options["game_type"])(**rules))

    def import_record(self, text: str, options: JSON) -> Imported:
        """Read a GameString (its game type; the other rules from ``options``), or a bare list of moves played with
        ``options`` (widened to the expansions the moves use).

        :raises BadRequest: naming the token that failed, or the header that contradicts the moves.
        """
        board, warnings = _read(text, options)
        return Imported({**options, "game_type": board.game_name}, board, warnings)

    def from_position(self, text: str, options: JSON) -> tuple[JSON, Board]:
        """Read a position record (its game type; the opening rule and the repetition draw from ``options``).

        :raises BadRequest: quoting the part that failed and naming the rule it breaks.
        """
        rules = {key: options[key] for key in RULES}
        try:
            board = Board.from_position(text, **rules)  # the record names its game type
        except InvalidRecordError as err:
            raise BadRequest(str(err)) from None
        return {**options, "game_type": board.game_name}, board

    def move(self, board: Board, request: JSON) -> Move:
        """``{"move": MoveString}`` or ``{"piece": "wA1", "to": [q, r]}``.

        :raises BadRequest: saying what is malformed, or which rule the move breaks.
        """
        if "move" in request:
            move: Move = parse_move(board, request["move"], "a MoveString")
            return move
        piece = request.get("piece")
        if not isinstance(piece, str) or piece.lower() not in PIECE_IDS:
            raise BadRequest(f"Give 'move' (a MoveString) or 'piece' (e.g. 'wA1') and 'to'; got piece {shown(piece)}.")
        near = frame(board)
        to = _cell(request.get("to"))
        pid = PIECE_IDS[piece.lower()]
        origin = board.pos[pid]
        move = Move(pid, None if origin < 0 else origin, near[to] if to in near else _far(board, near))
        if not board.is_legal(move):  # the check push relies on: it reuses the legal moves found here
            raise BadRequest(reason(board, move.code, False))
        return move

    def position(self, board: Board) -> JSON:
        """The hive's cells in axial coordinates, the hands, the Queens, the legal moves and the last move."""
        moves = list(board.legal_moves)
        last = board.peek() if board.history else Move.PASS
        placed = [(m, m.piece, m.destination) for m in moves]  # each looked up once: a state is built every move
        ends = [destination for _, _, destination in placed]
        if last:
            ends += [last.origin, last.destination]
        coords = board.layout(c for c in ends if c is not None)
        cells = [
            {"q": coords[cell][0], "r": coords[cell][1], "stack": [PIECE_NAMES[p] for p in board.stack(cell)]}
            for cell in sorted(c for c in coords if board.height[c])
        ]
        hands: list[list[str]] = [[], []]
        for pid in range(PIECES):
            if board.pos[pid] < 0 and board.enabled[KIND[pid]]:
                hands[pid // PIECES_PER_COLOUR].append(PIECE_NAMES[pid])
        queens: list[JSON | None] = []
        for cell in (board.pos[0], board.pos[PIECES_PER_COLOUR]):
            around = sum(1 for n in NEIGHBOURS[cell] if board.height[n]) if cell >= 0 else 0
            queens.append(None if cell < 0 else {"q": coords[cell][0], "r": coords[cell][1], "surrounded": around})
        legal: dict[str, list[JSON]] = {}
        for move, piece, destination in placed:
            if piece is not None and destination is not None:
                legal.setdefault(piece, []).append({"to": list(coords[destination]), "move": board.move_text(move)})
        last_move = None
        if last and last.destination is not None:
            origin = last.origin
            last_move = {
                "piece": last.piece,
                "from": None if origin is None else list(coords[origin]),
                "to": list(coords[last.destination]),
            }
        return {
            "cells": cells,
            "hands": hands,
            "queens": queens,
            "legal": legal,
            "pass": moves == [Move.PASS],
            "passed": bool(board.history) and board.peek() == Move.PASS,
            "last": last_move,
            "turn": board.turn,
            "ply": board.ply,
            "state": board.state,
            "turn_string": board.turn_string,
            "bugs": [letter for k, letter in enumerate(BUG_LETTERS) if board.enabled[k]],
        }

    def why(self, board: Board, piece: object) -> str | None:
        """Why ``piece`` (a UHP piece name) has no legal move here.

        :raises BadRequest: when ``piece`` is not a piece name.
        """
        if not isinstance(piece, str):
            raise BadRequest(f"'piece' must be a piece name such as 'wQ', not {shown(piece)}.")
        pid = PIECE_IDS.get(piece.lower(), -1)
        if pid < 0:
            raise BadRequest(f"Unknown piece {shown(piece)}.")
        if any(move.piece_id == pid for move in board.legal_moves):
            return None
        if board.is_game_over():
            return "The game is over."
        # Any destination will do: the rules are checked piece first, so the reason is about the piece.
        height = board.height
        targets = [n for c in range(len(height)) if height[c] for n in NEIGHBOURS[c] if not height[n]]
        origin = board.pos[pid]
        return reason(board, Move(pid, None if origin < 0 else origin, targets[0] if targets else 0).code, False)

    def figure(self, spec: str) -> str:
        """A picture of a position for the rules page: ``[warm-cool] GameString [| piece]``, the piece's legal
        destinations lit (or, when it has none, its own cell). Built with the original opening rule.

        :raises BadRequest: naming the part of ``spec`` that failed.
        """
        text, _, piece = spec.partition("|")
        theme = "default"
        if text.strip().startswith("warm-cool "):
            theme, text = "warm-cool", text.strip().removeprefix("warm-cool ")
        board = _read(text, {"tournament_opening": False, "repetition_draw": False, "game_type": "Base"}).board
        lit: list[int] = []
        if piece.strip():
            pid = PIECE_IDS.get(piece.strip().lower(), -1)
            if pid < 0:
                raise BadRequest(f"Unknown piece {shown(piece.strip())} in the picture {shown(spec)}.")
            ends = [m.destination for m in board.legal_moves if m.piece_id == pid]
            lit = [c for c in ends if c is not None] or [board.pos[pid]]
        return draw(board, size=300, highlight=lit, theme=theme)

    def assets(self) -> JSON:
        """The bugs' pictures and the tile themes (each names the two sides)."""
        return {"glyphs": GLYPHS, "themes": {name: theme.__dict__ for name, theme in THEMES.items()}}


VIEW: View = HiveView()
