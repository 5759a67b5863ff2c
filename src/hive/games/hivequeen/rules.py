"""The rules of HiveQueen as named constants: pieces, units, limits, the setup and the readings they need.

The rules page (``shared/docs/hivequeen-rules.md``) marks the points where the seed is silent or lost as readings.
Those that are numbers or choices of the code are constants here, so that a better source changes them in one
place. Those that are the shape of a movement are written into the movement generator itself
(``position.Position.movements``), and stated here:

- The Queen swaps places with a friendly Highborn at any distance, not only an adjacent one.
- The Nurse swaps places with a friendly Worker, Soldier, Drone or Nurse at any distance.
- A Highborn slides any distance in a straight line (a rider), not one cell at a time along any path.
- South moves first.
"""

from __future__ import annotations

COLOUR_NAMES = ("South", "North")

EMPTY = 0
QUEEN = 1
HIGHBORN = 2
DRONE = 3
NURSE = 4
WORKER = 5
SOLDIER = 6
KINDS = 7  # kind codes 1..6; 0 is an empty cell
#: Piece letters of the notation, by kind.
LETTERS = ".QHDNWS"
KIND_NAMES = ("", "Queen", "Highborn", "Drone", "Nurse", "Worker", "Soldier")
#: Units a piece counts for capacity and the tie-break, by kind.
UNITS = (0, 6, 3, 1, 1, 1, 1)

#: Units each friendly Worker on the field supports.
UNITS_PER_WORKER = 5
#: Most pieces of a kind a player may have on the field after production (0: none may be produced).
FIELD_LIMIT = (0, 0, 0, 2, 2, 8, 1_000)
#: Kinds that may be introduced in the production phase.
PRODUCIBLE = (DRONE, NURSE, WORKER, SOLDIER)

#: [reading] South's starting setup, rows r = 4, 3, 2 from low q to high q; North mirrors it through the centre.
SETUP: tuple[tuple[int, tuple[int, ...]], ...] = (
    (4, (WORKER, HIGHBORN, QUEEN, HIGHBORN, WORKER)),
    (3, (NURSE, WORKER, DRONE, DRONE, WORKER, NURSE)),
    (2, (EMPTY, SOLDIER, WORKER, SOLDIER, EMPTY, SOLDIER, EMPTY)),
)
#: Kinds a Nurse may swap with (a Nurse-Nurse swap leaves the field as it was, but is a movement).
NURSE_SWAPS_WITH = (DRONE, NURSE, WORKER, SOLDIER)
#: [reading] Capacity is counted in units, not pieces: the seed's own first-turn example only works in units.
CAPACITY_IN_UNITS = True
#: Workers counted for capacity are those on the field when the production phase starts ("there must be the
#: necessary Workers ... before the production phase"); a Worker produced this phase adds capacity next turn.
CAPACITY_COUNTED_AT_PHASE_START = True
#: Units a promotion adds (a Highborn of 3 becomes a Queen of 6); the Workers must support them.
PROMOTION_EXTRA_UNITS = UNITS[QUEEN] - UNITS[HIGHBORN]
#: [reading] The third occurrence of a position with the same player to move is a draw.
REPETITION_DRAW_COUNT = 3
#: [reading] After this many turns (one player's movement and production) without a capture, units decide.
TURN_LIMIT_WITHOUT_CAPTURE = 300
