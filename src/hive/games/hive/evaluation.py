"""Static evaluation of a Hive position, in centi-pawn-like units for the side to move (weights in ``weights``).

The weights an evaluation reads are a :class:`Weights` object: :data:`SHIPPED` holds ``weights``'s, and a searcher
may be given others (``hive tune`` plays and fits them). The evaluation is linear in its weights: each term adds a
weight, or takes one away, for something on the board, so a position's score with weights ``w`` is the sum over
the weights of ``w[name]`` times the score with that weight alone at 1 and every other at 0 (what
:func:`hive.tune.texel` fits by).

Plain typed Python; Cython compiles it with the C types in ``evaluation.pxd``.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..._build import is_compiled, table
from .geometry import NEIGHBOUR, SLIDES
from .pieces import KIND, KINDS, MOSQUITO, PIECES_PER_COLOUR, PILLBUG
from .state import State
from .weights import BUGS, WEIGHTS

#: The largest size of a weight: with every piece counted at its most, a score stays far from a won game's.
MAX_WEIGHT = 5000


class Weights:
    """The evaluation's weights, in the C types it reads them in.

    :param values: weights by name (see :data:`hive.games.hive.weights.WEIGHTS`); those not given are the shipped
        ones. Values are rounded to whole numbers.
    :raises ValueError: naming a weight that does not exist, or one that is not a number from
        ``-MAX_WEIGHT`` to ``MAX_WEIGHT``.
    """

    def __init__(self, values: Mapping[str, float] | None = None) -> None:
        given = dict(values or {})
        unknown = sorted(set(given) - set(WEIGHTS))
        if unknown:
            raise ValueError(f"no evaluation weight {unknown[0]!r}: the weights are {', '.join(WEIGHTS)}")
        merged: dict[str, int] = {}
        for name, shipped in WEIGHTS.items():
            value = given.get(name, shipped)
            if isinstance(value, bool) or not isinstance(value, int | float) or not abs(value) <= MAX_WEIGHT:
                raise ValueError(
                    f"evaluation weight {name!r} must be a number from {-MAX_WEIGHT} to {MAX_WEIGHT}, not {value!r}"
                )
            merged[name] = round(value)
        self.values = merged
        pressure = [0] + [merged[f"queen_pressure_{n}"] for n in range(1, 6)] + [0]
        self.pressure = table("h", pressure, _COMPILED)
        self.active = table("h", [merged[f"active_{bug}"] for bug in BUGS], _COMPILED)
        self.in_hand = table("h", [merged[f"in_hand_{bug}"] for bug in BUGS], _COMPILED)
        self.queen_free = merged["queen_free"]
        self.queen_slide = merged["queen_slide"]
        self.queen_covered = merged["queen_covered"]
        self.on_top = merged["on_top"]
        self.on_queen = merged["on_queen"]
        self.guard = merged["guard"]

    def __repr__(self) -> str:
        changed = {name: value for name, value in self.values.items() if value != WEIGHTS[name]}
        return f"Weights({changed})"


def evaluate(p: State) -> int:
    """Score ``p`` for the side to move with the shipped weights: positive is good for it."""
    return evaluate_with(p, SHIPPED)


def evaluate_with(p: State, w: Weights) -> int:
    """Score ``p`` for the side to move with the weights ``w``: positive is good for it."""
    stamp = p.find_cuts()
    score = 0
    for colour in range(2):
        lo = colour * PIECES_PER_COLOUR
        enemy_queen = p.pos[PIECES_PER_COLOUR - lo]
        own_queen = p.pos[lo]
        side = 0
        if own_queen >= 0:
            side -= w.pressure[_POPCOUNT[p.nmask[own_queen]]]
            # a queen that is buried under a beetle is worth little
            if p.top[own_queen] != lo:
                side -= w.queen_covered
            elif p.cut_mark[own_queen] != stamp:
                slides = _SLIDE_COUNT[p.nmask[own_queen]]
                if slides:
                    side += w.queen_free + w.queen_slide * slides
        for pid in range(lo, lo + PIECES_PER_COLOUR):
            cell = p.pos[pid]
            kind = _KIND[pid]
            if cell < 0:
                if p.enabled[kind]:
                    side += w.in_hand[kind]
                continue
            if p.top[cell] != pid:
                continue  # covered: no value
            if p.height[cell] > 1:
                side += w.active[kind] + w.on_top
                if enemy_queen >= 0 and p.top[enemy_queen] == pid:
                    side += w.on_queen
            elif p.cut_mark[cell] != stamp:
                side += w.active[kind]
            if kind in (PILLBUG, MOSQUITO) and own_queen >= 0:
                base = cell * 6
                for d in range(6):
                    if _NB[base + d] == own_queen:
                        side += w.guard
                        break
        score += side if colour == 0 else -side
    return score if p.ply & 1 == 0 else -score


# C-typed copies (see evaluation.pxd) of the tables used above; plain lists when running as Python.
_COMPILED = is_compiled(evaluate_with)
_NB = table("i", NEIGHBOUR, _COMPILED)
_KIND = table("b", KIND, _COMPILED)
_POPCOUNT = table("b", [bin(m).count("1") for m in range(64)], _COMPILED)
_SLIDE_COUNT = table("b", [len(SLIDES[m]) for m in range(64)], _COMPILED)
assert len(BUGS) == KINDS
#: The shipped weights (:mod:`hive.games.hive.weights`), which :func:`evaluate` and a searcher given none read.
SHIPPED = Weights()
