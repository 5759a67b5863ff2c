"""Hexline in the browser's state API: the view the toy game's plug-in names, written only against the SDK
(:mod:`hive.sdk.view`), with no optional capability."""

from __future__ import annotations

from typing import Any, cast

from hive.game import IllegalMoveError, InvalidMoveError, InvalidRecordError
from hive.games import find_game
from hive.sdk.refusals import BadRequest, shown
from hive.sdk.view import JSON, Board, Imported, View, parse_move

from . import CELLS, NAME, NAMES


class HexlineView:
    """Hexline's view: moves in notation only, the field as a list of cells."""

    kind = "toygame"
    record_example = "a Hexline record such as 'Hexline;0,0;1,0'"
    summary = "Three in a row on a hex field"
    first_note = "first"
    import_label = "a Hexline record"
    import_example = "Hexline;0,0;1,0"
    import_empty = "Paste a Hexline record first, e.g. Hexline;0,0;1,0"

    def sides(self, options: JSON) -> list[str]:
        return ["X", "O"]

    def options(self, raw: JSON) -> JSON:
        if raw:
            raise BadRequest(f"Hexline takes no options, not {', '.join(map(shown, raw))}.")
        return {}

    def new_board(self, options: JSON) -> Board:
        return cast(Board, find_game(NAME)(**options))

    def import_record(self, text: str, options: JSON) -> Imported:
        try:
            return Imported({}, type(self.new_board({})).from_record(text))
        except (InvalidRecordError, InvalidMoveError, IllegalMoveError) as err:
            raise BadRequest(str(err)) from None

    def from_position(self, text: str, options: JSON) -> tuple[JSON, Board]:
        try:
            return {}, cast(Board, find_game(NAME).from_position(text))
        except InvalidRecordError as err:
            raise BadRequest(str(err)) from None

    def move(self, board: Any, request: JSON) -> Any:
        return parse_move(board, request.get("move"), "a cell such as '0,0'")

    def position(self, board: Any) -> JSON:
        return {
            "cells": [{"q": q, "r": r, "stone": board.cells[i]} for i, (q, r) in enumerate(CELLS)],
            "legal": [NAMES[m.cell] for m in board.legal_moves],
            "turn": board.turn,
            "ply": board.ply,
            "state": board.state,
        }


VIEW: View = HexlineView()
