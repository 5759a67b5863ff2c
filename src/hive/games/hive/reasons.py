"""Why a move is illegal, in the words of the rules (Mzinga's messages where it has them)."""

from __future__ import annotations

from ...game import DRAW
from .geometry import CELLS, NEIGHBOURS
from .pieces import BEETLE, BUG_FIRST, BUG_NAMES, KIND, MOSQUITO, PIECE_NAMES, PIECES_PER_COLOUR, PILLBUG, QUEEN
from .state import HAND, PASS, State, destination_of, origin_of, piece_of

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
NOT_A_MOVE = "That is not a move of this game: its piece or cells are out of range."
JUST_MOVED = "You can't move that piece because it was moved on your opponent's last turn."
SAME_CELL = "A move must end somewhere other than where it started."
PLACE_ON_TOP = "You can't place a piece on top of the hive."
PLACEMENT = "You can't place a piece there: a new piece must touch your own pieces and none of your opponent's."
PLACE_AWAY = "You can't place a piece there: that space is not next to the hive."
FIRST_PIECE = "The game's first piece is placed in the middle of the table, where the hive begins."
AWAY_FROM_HIVE = "That piece can't move there: that space is not next to the hive."
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


def reason(p: State, code: int, on_top: bool) -> str:
    """The rule that int move ``code`` breaks in ``p`` (``on_top``: the text named a piece to climb on).

    The rules are checked in the order a player meets them: the game, the piece, whose turn, placing, moving.
    """
    if p.status >= DRAW:
        return PASS_GAME_OVER if code == PASS else GAME_OVER
    if code == PASS:
        return PASS_WITH_MOVES
    if not 0 <= code < CELLS << 16:
        return NOT_A_MOVE
    pid = piece_of(code)
    src = origin_of(code)
    dst = destination_of(code)
    if pid >= len(KIND) or not (src < CELLS or src == HAND):
        return NOT_A_MOVE
    kind = KIND[pid]
    colour = p.ply & 1
    own = colour * PIECES_PER_COLOUR
    queen_placed = p.pos[own] >= 0
    turn = p.ply >> 1
    if not p.enabled[kind]:
        return NOT_ENABLED
    if src != HAND and p.pos[pid] != src:
        return f"{PIECE_NAMES[pid]} is not at that position."
    if src == HAND and p.pos[pid] >= 0:
        return f"{PIECE_NAMES[pid]} is already in play."
    if (pid >= PIECES_PER_COLOUR) != (colour == 1):
        if src != HAND and _pillbug_next_to(p, src, colour):
            return PILLBUG_RULE
        return NOT_YOUR_TURN
    if src == HAND:
        if kind == QUEEN and turn == 0 and p.tournament_opening:
            return QUEEN_FIRST_TURN
        if kind != QUEEN and turn == 3 and not queen_placed:
            return QUEEN_BY_FOURTH
        if pid != own + BUG_FIRST[kind] + p.placed[colour * 8 + kind]:
            return IN_ORDER
        if p.height[dst]:
            return PLACE_ON_TOP if on_top else OCCUPIED
        if p.ply < 2:
            return FIRST_PIECE if p.ply == 0 else FIRST_REPLY
        return PLACEMENT if _touches_hive(p, dst, HAND) else PLACE_AWAY
    if dst == src:
        return SAME_CELL
    if not queen_placed:
        return MOVE_BEFORE_QUEEN
    if p.top[src] != pid:
        return COVERED
    if pid == p.last:
        return JUST_MOVED
    if p.height[dst] and not on_top:
        return OCCUPIED
    if p.height[src] == 1 and src in p.cut_cells():
        return BREAKS_HIVE
    if not p.height[dst] and dst not in NEIGHBOURS[src] and not _touches_hive(p, dst, src):
        return AWAY_FROM_HIVE  # a step to a neighbour that loses touch is told by the bug's own rule
    if p.height[dst] and kind not in (BEETLE, MOSQUITO):
        return f"That piece can't move there: {BUG_NAMES[kind]}s can't end a move on top of the hive."
    return "That piece can't move there: " + BUG_RULES[kind]


def _touches_hive(p: State, cell: int, leaving: int) -> bool:
    """Whether ``cell`` has a neighbour in the hive once a piece has left the cell ``leaving`` (or ``HAND``)."""
    return any(p.height[n] > (n == leaving) for n in NEIGHBOURS[cell])


def _pillbug_next_to(p: State, cell: int, colour: int) -> bool:
    for n in NEIGHBOURS[cell]:
        t = p.top[n]
        if t >= 0 and (t >= PIECES_PER_COLOUR) == (colour == 1) and KIND[t] in (PILLBUG, MOSQUITO):
            return True
    return False
