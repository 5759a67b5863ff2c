"""Texel tuning: the evaluation's weights fitted to the results of the games its positions come from.

Each position ``i`` (:mod:`~hive.tune.positions`) has features ``f_i`` (by parameter, from the first player's point
of view) and its game's result ``y_i`` (the first player's points: 1, ½, 0). With values ``w`` its score is
``e_i = w · f_i`` and the first player's predicted result ``p_i = sigmoid(K e_i)``. The fit first finds the ``K``
that fits the start values best (a golden-section search of ``log K``), then the values that fit best at that ``K``:
logistic regression (the log-loss ``-y log p - (1 - y) log (1 - p)``, the default) or the mean squared error
``(p - y)^2`` of the original Texel method, by damped Newton steps (Gauss-Newton for the squared error) within the
spec's bounds. Whole games are held out to measure the fit on positions it has not seen. The values are rounded to
whole numbers, as the AI plays them, before the losses after the fit are measured.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import asdict, dataclass

from .positions import Sample
from .spec import Spec

#: The losses a fit can minimise.
LOSSES = ("log", "mse")
_K_RANGE = (1e-5, 1.0)
_MOST_STEPS = 60


@dataclass(frozen=True)
class Losses:
    """A set of positions' mean log-loss and mean squared error."""

    log: float
    mse: float


@dataclass(frozen=True)
class Fit:
    """What a fit found, and how well it fits.

    :ivar names: the parameters fitted, in the spec's order.
    :ivar left_out: the spec's parameters left as they were: those that leave every position's score unchanged
        (the search's parameters do).
    :ivar k: the sigmoid's scale, fitted to the start values.
    :ivar start: the fitted parameters' start values.
    :ivar values: their fitted values, rounded.
    :ivar loss: the loss minimised (``log`` or ``mse``).
    :ivar positions: the positions fitted (``train``) and held out (``holdout``), and their games likewise.
    :ivar before: the losses with the start values, on the positions fitted and on those held out.
    :ivar after: the same with the fitted values.
    :ivar steps: the Newton steps taken.
    """

    names: list[str]
    left_out: list[str]
    k: float
    start: dict[str, float]
    values: dict[str, int]
    loss: str
    positions: dict[str, int]
    games: dict[str, int]
    before: dict[str, Losses]
    after: dict[str, Losses]
    steps: int

    def to_dict(self) -> dict[str, object]:
        """The fit as JSON data (a loss of no positions is ``None``)."""
        data = asdict(self)
        for when in ("before", "after"):
            for part, losses in data[when].items():
                data[when][part] = {key: None if math.isnan(v) else v for key, v in losses.items()}
        return data

    def summary(self) -> str:
        """The fit in a few lines: the data, K, the losses before and after, and the values that moved."""
        lines = [
            f"Positions: {self.positions['train']} fitted from {self.games['train']} games, "
            f"{self.positions['holdout']} held out from {self.games['holdout']} games",
            f"K = {self.k:.6g} (a score of {1 / self.k:.0f} is a 73 % chance: sigmoid(1))",
            f"Minimised: {'log-loss' if self.loss == 'log' else 'mean squared error'}, {self.steps} Newton steps",
        ]
        for part in ("train", "holdout"):
            if self.positions[part]:
                b, a = self.before[part], self.after[part]
                label = "fitted positions" if part == "train" else "held-out positions"
                lines.append(
                    f"{label}: log-loss {b.log:.5f} -> {a.log:.5f}, mean squared error {b.mse:.5f} -> {a.mse:.5f}"
                )
        moved = [f"{name} {self.start[name]:g} -> {self.values[name]}" for name in self.names]
        lines.append("Values: " + ", ".join(moved))
        if self.left_out:
            lines.append(f"Left as they were (no effect on the static evaluation): {', '.join(self.left_out)}")
        return "\n".join(lines)


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1 / (1 + math.exp(-min(z, 60.0)))
    e = math.exp(max(z, -60.0))
    return e / (1 + e)


class _Data:
    """The positions as the fit reads them: each one's fixed part of the score, its features for the fitted
    parameters (only those not 0), and its result."""

    def __init__(self, samples: Sequence[Sample], columns: Sequence[int], fixed: Sequence[tuple[int, float]]) -> None:
        self.offsets = [sum(value * s.features[j] for j, value in fixed) for s in samples]
        self.rows = [[(i, float(s.features[j])) for i, j in enumerate(columns) if s.features[j]] for s in samples]
        self.results = [s.result for s in samples]

    def __len__(self) -> int:
        return len(self.results)

    def scores(self, w: Sequence[float]) -> list[float]:
        return [o + sum(w[i] * f for i, f in row) for o, row in zip(self.offsets, self.rows, strict=True)]

    def losses(self, w: Sequence[float], k: float) -> Losses:
        if not self.results:
            return Losses(math.nan, math.nan)
        log = mse = 0.0
        for e, y in zip(self.scores(w), self.results, strict=True):
            p = min(max(_sigmoid(k * e), 1e-12), 1 - 1e-12)
            log -= y * math.log(p) + (1 - y) * math.log(1 - p)
            mse += (p - y) ** 2
        return Losses(log / len(self.results), mse / len(self.results))


def _loss(data: _Data, w: Sequence[float], k: float, kind: str) -> float:
    losses = data.losses(w, k)
    return losses.log if kind == "log" else losses.mse


def fit_k(data: _Data, w: Sequence[float], kind: str = "log") -> float:
    """The ``K`` that fits ``data`` best with the values ``w``: a golden-section search of ``log K``."""
    low, high = math.log(_K_RANGE[0]), math.log(_K_RANGE[1])
    ratio = (math.sqrt(5) - 1) / 2
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    fa, fb = _loss(data, w, math.exp(a), kind), _loss(data, w, math.exp(b), kind)
    for _ in range(60):
        if fa < fb:
            high, b, fb = b, a, fa
            a = high - ratio * (high - low)
            fa = _loss(data, w, math.exp(a), kind)
        else:
            low, a, fa = a, b, fb
            b = low + ratio * (high - low)
            fb = _loss(data, w, math.exp(b), kind)
    return math.exp((low + high) / 2)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    """``x`` with ``matrix x = vector`` (Gaussian elimination with partial pivoting), or ``None`` if singular."""
    n = len(vector)
    m = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-300:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            if factor:
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _newton(
    data: _Data, w: list[float], k: float, kind: str, bounds: Sequence[tuple[float, float]]
) -> tuple[list[float], int]:
    """Damped Newton steps (Levenberg-Marquardt) on the loss at ``k`` from ``w``, within ``bounds``: a value at a
    bound that the gradient pushes against stays there for the step (projected Newton)."""
    n = len(w)
    damping = 1e-3
    current = _loss(data, w, k, kind)
    steps = 0
    for _ in range(_MOST_STEPS):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for e, row, y in zip(data.scores(w), data.rows, data.results, strict=True):
            p = _sigmoid(k * e)
            if kind == "log":
                g, h = p - y, p * (1 - p)
            else:
                slope = p * (1 - p)
                g, h = 2 * (p - y) * slope, 2 * slope * slope
            for a, (i, fi) in enumerate(row):
                grad[i] += g * fi
                hi = h * fi
                hess_i = hess[i]
                for j, fj in row[a:]:
                    hess_i[j] += hi * fj
        size = len(data)
        grad = [k * g / size for g in grad]
        for i in range(n):
            for j in range(i, n):
                hess[i][j] = hess[j][i] = k * k * hess[i][j] / size
        free = [
            i
            for i, (wi, gi, (lo, hi)) in enumerate(zip(w, grad, bounds, strict=True))
            if not (wi <= lo and gi > 0) and not (wi >= hi and gi < 0)
        ]
        improved = False
        for _ in range(12):
            damped = [[hess[i][j] + (damping * hess[i][i] + 1e-12 if i == j else 0.0) for j in free] for i in free]
            delta = _solve(damped, [-grad[i] for i in free]) if free else None
            if delta is None:
                damping *= 10
                continue
            trial = list(w)
            for i, di in zip(free, delta, strict=True):
                lo, hi = bounds[i]
                trial[i] = min(hi, max(lo, w[i] + di))
            loss = _loss(data, trial, k, kind)
            if loss < current:
                improved = current - loss > 1e-10 * max(1.0, current)
                w, current = trial, loss
                damping = max(damping / 3, 1e-9)
                break
            damping *= 4
        steps += 1
        if not improved:
            break
    return w, steps


def fit(
    samples: Sequence[Sample],
    names: Sequence[str],
    spec: Spec,
    shipped: Mapping[str, float],
    holdout: AbstractSet[int] = frozenset(),
    loss: str = "log",
) -> Fit:
    """Fit ``spec``'s parameters to ``samples`` (features by ``names``, the AI's parameters), the others fixed at
    their ``shipped`` values; the games numbered in ``holdout`` are held out.

    :raises ValueError: for an unknown loss, or when no position is left to fit or no parameter of the spec changes
        any score.
    """
    if loss not in LOSSES:
        raise ValueError(f"unknown loss {loss!r}: {' or '.join(LOSSES)}")
    train = [s for s in samples if s.game not in holdout]
    held = [s for s in samples if s.game in holdout]
    if not train:
        raise ValueError("no positions to fit")
    index = {name: j for j, name in enumerate(names)}
    wanted = [p for p in spec.parameters if p.name in index]
    fitted = [p for p in wanted if any(s.features[index[p.name]] for s in train)]
    left_out = [p.name for p in spec.parameters if p not in fitted]
    if not fitted:
        raise ValueError("none of the spec's parameters changes the score of any position: nothing to fit")
    columns = [index[p.name] for p in fitted]
    chosen = {p.name for p in fitted}
    fixed = [(j, float(shipped[name])) for j, name in enumerate(names) if name not in chosen]
    data, test = _Data(train, columns, fixed), _Data(held, columns, fixed)
    start = [p.start for p in fitted]
    k = fit_k(data, start, loss)
    found, steps = _newton(data, list(start), k, loss, [(p.min, p.max) for p in fitted])
    values = [float(round(v)) for v in found]
    return Fit(
        names=[p.name for p in fitted],
        left_out=left_out,
        k=k,
        start={p.name: p.start for p in fitted},
        values={p.name: round(v) for p, v in zip(fitted, values, strict=True)},
        loss=loss,
        positions={"train": len(train), "holdout": len(held)},
        games={"train": len({s.game for s in train}), "holdout": len({s.game for s in held})},
        before={"train": data.losses(start, k), "holdout": test.losses(start, k)},
        after={"train": data.losses(values, k), "holdout": test.losses(values, k)},
        steps=steps,
    )


__all__ = ["LOSSES", "Fit", "Losses", "fit", "fit_k"]
