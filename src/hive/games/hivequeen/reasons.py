"""Why a HiveQueen turn is illegal, in the words of the rules."""

from __future__ import annotations

from ...game import IN_PROGRESS
from .geometry import NAMES, RAYS
from .move import Production, Turn
from .rules import (
    CAPACITY_COUNTED_AT_PHASE_START,
    COLOUR_NAMES,
    DRONE,
    FIELD_LIMIT,
    HIGHBORN,
    KIND_NAMES,
    NURSE,
    NURSE_SWAPS_WITH,
    QUEEN,
    SOLDIER,
    UNITS_PER_WORKER,
    WORKER,
)
from .state import State


def _name(p: State, cell: int) -> str:
    code = p.board[cell]
    return f"{KIND_NAMES[code & 7]} on {NAMES[cell]}" if code else f"empty cell {NAMES[cell]}"


def movement_reason(p: State, turn: Turn) -> str:
    """The rule that the movement of ``turn`` breaks in ``p``."""
    colour = p.ply & 1
    src, dst = turn.origin, turn.destination
    code = p.board[src]
    if not code:
        return f"There is no piece on {NAMES[src]} to move."
    if code >> 3 != colour:
        return f"The {_name(p, src)} belongs to {COLOUR_NAMES[1 - colour]}; it is {COLOUR_NAMES[colour]}'s turn."
    kind = code & 7
    target = p.board[dst]
    if turn.promote:
        if kind != HIGHBORN:
            return "Only a Highborn can be promoted to Queen."
        if p.count[QUEEN | colour << 3]:
            return "A Highborn is promoted only after its Queen has been captured."
        if not p.count[DRONE | colour << 3]:
            return "A Highborn is promoted only while a friendly Drone is on the field."
        if not p.can_promote(colour):
            return (
                f"The Workers cannot support the 3 extra units of a promotion "
                f"(units {p.load(colour)} + 3 > capacity {p.capacity(colour)})."
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


def no_production_reason(p: State, turn: Turn, done: int) -> str:
    """Why no production may follow the movement and the first ``done`` productions of ``turn`` (made in ``p``)."""
    colour = 1 - (p.ply & 1)
    if p.status != IN_PROGRESS:
        return "the game is over."
    made = turn.productions[:done]
    nurses = p.count[NURSE | colour << 3] - sum(1 for p in made if p.kind == NURSE)
    if nurses == 0:
        return "a player produces only while a Nurse is on the field."
    workers = p.count[WORKER | colour << 3] - sum(1 for p in made if p.kind == WORKER)
    cap = UNITS_PER_WORKER * workers if CAPACITY_COUNTED_AT_PHASE_START else p.capacity(colour)
    if p.load(colour) + 1 > cap:
        return f"units {p.load(colour)} + 1 would exceed the capacity {cap} (5 per Worker on the field)."
    return f"each Nurse produces at most one piece per turn ({nurses} Nurse{'s' if nurses > 1 else ''})."


def production_reason(p: State, production: Production) -> str:
    """The rule that ``production`` breaks in ``p`` (in its production phase)."""
    colour = p.ply & 1
    kind, cell = production.kind, production.cell
    if kind not in (DRONE, NURSE, WORKER, SOLDIER):
        return f"A {KIND_NAMES[kind]} cannot be produced: only Workers, Soldiers, Nurses and Drones."
    if p.board[cell]:
        return f"A piece is produced on a vacant cell; {NAMES[cell]} holds a {KIND_NAMES[p.board[cell] & 7]}."
    if p.count[kind | colour << 3] >= FIELD_LIMIT[kind]:
        return f"At most {FIELD_LIMIT[kind]} {KIND_NAMES[kind]}s may be on the field."
    if kind == SOLDIER:
        return f"A Soldier enters a vacant cell adjacent to a friendly piece; {NAMES[cell]} is not."
    if not p.nurses_of(cell):
        return (
            f"A {KIND_NAMES[kind]} enters a vacant cell adjacent to the Nurse that produces it "
            f"(one that was on the field when the production phase began); {NAMES[cell]} is not."
        )
    return "Each Nurse produces at most one piece per turn."


def _neighbours(cell: int) -> list[int]:
    return [RAYS[cell * 6 + d][0] for d in range(6) if RAYS[cell * 6 + d]]
