"""Writing Boardspace SGF records: each move as a piece and a grid location, in Boardspace's current dialect."""

from __future__ import annotations

from ..games.hive.geometry import DIRECTIONS, NEIGHBOUR
from ..games.hive.pieces import PIECES_PER_COLOUR
from .boardspace import column_name, piece_name
from .recorded import RecordedGame
from .sgf import escape

# Boardspace's first piece goes on N 13; the hive may not reach past column A or row 1
_FIRST_COLUMN = 13
_FIRST_ROW = 13
_COLUMNS = 26

# (piece, axial q, axial r, reference text) of a move, None for a pass
_Placed = tuple[int, int, int, str] | None


def write_sgf(game: RecordedGame) -> str:
    """The game as a Boardspace SGF record (current dialect: ``Move`` + ``Done`` per turn, ``PMove`` for
    a piece thrown by the opponent's Pillbug).

    :raises ValueError: when the hive spreads beyond Boardspace's A..Z columns.
    """
    placed = _placements(game)
    qs = [p[1] for p in placed if p]
    rs = [p[2] for p in placed if p]
    q0 = max(_FIRST_COLUMN, -min(qs, default=0)) if qs else _FIRST_COLUMN
    r0 = max(_FIRST_ROW, max(rs, default=0) + 1) if rs else _FIRST_ROW
    if qs and max(qs) + q0 >= _COLUMNS:
        raise ValueError("the hive is too wide for Boardspace's columns A..Z")
    headers = game.headers
    result_text = headers.get("SgfResult") or {
        "WhiteWins": f"Game won by {headers.get('White', '')}",
        "BlackWins": f"Game won by {headers.get('Black', '')}",
        "Draw": "Game drawn",
    }.get(game.result, "")
    lines = [" (;", "GM[27]VV[1]", f"SU[{_variant_name(game)}]"]
    lines.append(f"DT[{escape(headers.get('SgfDate', headers.get('Date', '')))}]")
    lines.append(f"GN[{escape(headers.get('SgfGameName', ''))}]")
    if result_text:
        lines.append(f"RE[{escape(result_text)}]")
    lines.append(f'P0[id "{escape(headers.get("White", ""))}"]')
    lines.append(f'P1[id "{escape(headers.get("Black", ""))}"]')
    lines.append("; P0[0 Start P0]")
    seq = 1
    for ply, entry in enumerate(placed):
        player = ply & 1
        if entry is None:
            lines.append(f"; P{player}[{seq} Pass]")
        else:
            pid, q, r, text = entry
            colour = pid // PIECES_PER_COLOUR
            command = "PMove" if colour != player else "Move"
            location = f"{column_name(q + q0)} {r0 - r}"
            lines.append(f"; P{player}[{seq} {command} {'WB'[colour]} {piece_name(pid)} {location} {escape(text)}]")
        lines.append(f"; P{player}[{seq + 1} Done ]")
        seq += 2
    lines.append(")")
    return "\n".join(lines) + "\n"


def _variant_name(game: RecordedGame) -> str:
    gt = game.game_type
    letters = ("p" if gt.pillbug else "") + ("l" if gt.ladybug else "") + ("m" if gt.mosquito else "")
    return "hive" + ("-" + letters if letters else "")


def _placements(game: RecordedGame) -> list[_Placed]:
    """Where each move puts its piece, in axial coordinates of one frame (the first piece at 0, 0), and the
    reference of its MoveString (``.`` for the first piece and a piece on top of another).

    The cells of the board's grid wrap around; coordinates are unwrapped from the pieces already placed, cell by
    cell, as the hive grows and moves.
    """
    board = game.board
    coords: dict[int, tuple[int, int]] = {}
    stacks: dict[int, list[int]] = {}  # the pieces on each cell, bottom first, as the moves are made
    placed: list[_Placed] = []
    for ply, (move, move_text) in enumerate(zip(board.move_stack, board.move_texts(), strict=True)):
        dst = move.destination
        if dst is None:
            placed.append(None)
            continue
        pid = move.piece_id
        if ply == 0:
            where = (0, 0)
        elif stacks.get(dst):
            where = coords[dst]
        else:
            where = _unwrapped(dst, coords, stacks, pid, ply)
        if move.origin is not None:
            stacks[move.origin].pop()
        stacks.setdefault(dst, []).append(pid)
        coords[dst] = where
        text = move_text.split(" ", 1)[1] if " " in move_text and len(stacks[dst]) == 1 else "."
        placed.append((pid, where[0], where[1], text))
    return placed


def _unwrapped(
    cell: int, coords: dict[int, tuple[int, int]], stacks: dict[int, list[int]], mover: int, ply: int
) -> tuple[int, int]:
    """The coordinates of an empty ``cell`` from an occupied neighbour's, preferring one the mover does not leave."""
    beside = [
        (n, dq, dr) for d, (dq, dr) in enumerate(DIRECTIONS) if stacks.get(n := NEIGHBOUR[cell * 6 + d]) and n in coords
    ]
    if not beside:
        raise ValueError(f"no piece next to the destination of move {ply + 1}")
    n, dq, dr = min(beside, key=lambda b: stacks[b[0]] == [mover])  # the first of the best, in direction order
    q, r = coords[n]
    return q - dq, r - dr
