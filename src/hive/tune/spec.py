"""A tuning run's parameter spec: which of the AI's parameters to tune, from where, within what bounds, with what
SPSA step ``c`` and learning rate ``a``, and the gain schedule's exponents.

A spec is a TOML or JSON file (by its suffix: ``.json`` is JSON, anything else TOML) of this shape::

    [spsa]              # optional: the gain schedule (see hive.tune.spsa)
    alpha = 0.602       # a_k = a / (A + k + 1) ** alpha
    gamma = 0.101       # c_k = c / (k + 1) ** gamma
    A = 50              # the stability constant

    [parameters.queen_pressure_3]
    start = 120         # optional: the shipped value
    min = 40
    max = 240
    c = 12              # the perturbation at the first iteration, in the parameter's units
    a = 60              # the learning rate

and the same as a JSON object (``{"spsa": {...}, "parameters": {"queen_pressure_3": {...}}}``). The parameters are
tuned in the order they are written. :data:`DEFAULT_SPEC` is the spec shipped with the project (every parameter of
Hive's AI but the null move's, which are settings compared by SPRT).
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..plugin import GameSpec

#: The spec shipped with the project: every parameter of Hive's AI but the null move's, each from its shipped value.
DEFAULT_SPEC = Path(__file__).with_name("default.toml")
#: The keys of a parameter, in the order they are written.
PARAMETER_KEYS = ("start", "min", "max", "c", "a")
#: What each key means, for the errors.
_MEANING = {"start": "start value", "min": "lower bound", "max": "upper bound", "c": "SPSA step", "a": "learning rate"}


class SpecError(ValueError):
    """A spec that cannot be used; the message names the file, the parameter and what is wrong."""


@dataclass(frozen=True)
class Parameter:
    """One parameter to tune: its name (one of the AI's), its start value, its bounds, its SPSA step ``c`` (the
    perturbation at the first iteration) and its learning rate ``a``."""

    name: str
    start: float
    min: float
    max: float
    c: float
    a: float

    def clip(self, value: float) -> float:
        """``value`` within the bounds."""
        return min(self.max, max(self.min, value))


@dataclass(frozen=True)
class Gains:
    """The SPSA gain schedule: at iteration ``k`` (from 0), ``a_k = a / (A + k + 1) ** alpha`` and
    ``c_k = c / (k + 1) ** gamma``; Spall's choices by default."""

    alpha: float = 0.602
    gamma: float = 0.101
    A: float = 50.0


@dataclass(frozen=True)
class Spec:
    """The parameters to tune, in order, and the gain schedule."""

    parameters: tuple[Parameter, ...]
    gains: Gains = Gains()

    @property
    def names(self) -> list[str]:
        """The parameters' names, in order."""
        return [p.name for p in self.parameters]

    def start(self) -> dict[str, float]:
        """The start values by name."""
        return {p.name: p.start for p in self.parameters}

    def to_dict(self) -> dict[str, Any]:
        """The spec as the JSON object it reads back from (:func:`parse_spec`)."""
        return {
            "spsa": asdict(self.gains),
            "parameters": {p.name: {key: getattr(p, key) for key in PARAMETER_KEYS} for p in self.parameters},
        }


def load_spec(path: str | Path, game: GameSpec) -> Spec:
    """The spec in the file at ``path`` (TOML, or JSON for a ``.json`` file), checked against ``game``'s AI.

    :raises SpecError: naming the file, the parameter and what is wrong.
    """
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise SpecError(f"cannot read the spec {source!r}: {err.strerror or err}") from None
    try:
        data = json.loads(text) if source.endswith(".json") else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as err:
        kind = "JSON" if source.endswith(".json") else "TOML"
        raise SpecError(f"{source}: not valid {kind}: {err}") from None
    return parse_spec(data, game, source)


def parse_spec(data: object, game: GameSpec, source: str = "the spec") -> Spec:
    """The spec that ``data`` (a spec file's content, as :meth:`Spec.to_dict` writes it) describes, checked
    against ``game``'s AI: every parameter one of its parameters, named once, with numbers for all its keys (``start``
    may be left out: the shipped value), ``min < max``, ``start`` within them, ``c`` and ``a`` above 0, and both
    bounds values the AI accepts.

    :raises SpecError: naming ``source``, the parameter and what is wrong.
    """
    if not isinstance(data, Mapping):
        raise SpecError(f"{source}: expected a table with [spsa] and [parameters.NAME] sections")
    unknown = sorted(set(data) - {"spsa", "parameters"})
    if unknown:
        raise SpecError(f"{source}: unknown section {unknown[0]!r} (a spec has 'spsa' and 'parameters')")
    gains = _gains(data.get("spsa", {}), source)
    given = data.get("parameters")
    if not isinstance(given, Mapping) or not given:
        raise SpecError(f"{source}: no parameters to tune: add a [parameters.NAME] section for each")
    shipped = game.ai.parameters
    if not shipped or game.ai.searcher_with is None:
        raise SpecError(f"{source}: {game.name}'s AI has no parameters to tune")
    parameters = tuple(_parameter(name, fields, game, source) for name, fields in given.items())
    return Spec(parameters, gains)


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SpecError(f"{what} must be a number, not {value!r}")
    return float(value)


def _gains(data: object, source: str) -> Gains:
    if not isinstance(data, Mapping):
        raise SpecError(f"{source}: [spsa] must be a table of alpha, gamma and A")
    unknown = sorted(set(data) - {"alpha", "gamma", "A"})
    if unknown:
        raise SpecError(f"{source}: [spsa] has an unknown key {unknown[0]!r} (its keys: alpha, gamma, A)")
    gains = Gains(**{key: _number(value, f"{source}: [spsa] {key}") for key, value in data.items()})
    if not 0 < gains.alpha <= 1:
        raise SpecError(f"{source}: [spsa] alpha must be in (0, 1], not {gains.alpha:g}")
    if not 0 < gains.gamma < gains.alpha:
        raise SpecError(
            f"{source}: [spsa] gamma must be above 0 and below alpha ({gains.alpha:g}), not {gains.gamma:g}"
        )
    if gains.A < 0:
        raise SpecError(f"{source}: [spsa] A must be 0 or more, not {gains.A:g}")
    return gains


def _parameter(name: object, fields: object, game: GameSpec, source: str) -> Parameter:
    shipped = game.ai.parameters
    if not isinstance(name, str) or name not in shipped:
        raise SpecError(
            f"{source}: parameter {name!r} is not one of {game.name}'s AI parameters ({', '.join(shipped)})"
        )
    where = f"{source}: parameter {name!r}"
    if not isinstance(fields, Mapping):
        raise SpecError(f"{where} must be a table of {', '.join(PARAMETER_KEYS)}")
    unknown = sorted(set(fields) - set(PARAMETER_KEYS))
    if unknown:
        raise SpecError(f"{where} has an unknown key {unknown[0]!r} (its keys: {', '.join(PARAMETER_KEYS)})")
    values: dict[str, float] = {"start": float(shipped[name])}
    for key in PARAMETER_KEYS:
        if key in fields:
            values[key] = _number(fields[key], f"{where}: {key} ({_MEANING[key]})")
        elif key not in values:
            raise SpecError(f"{where} has no {key} ({_MEANING[key]})")
    parameter = Parameter(name, **values)
    if not parameter.min < parameter.max:
        raise SpecError(f"{where}: min {parameter.min:g} must be below max {parameter.max:g}")
    if not parameter.min <= parameter.start <= parameter.max:
        raise SpecError(f"{where}: start {parameter.start:g} is outside min {parameter.min:g} .. max {parameter.max:g}")
    for key in ("c", "a"):
        if not getattr(parameter, key) > 0:
            raise SpecError(f"{where}: {key} ({_MEANING[key]}) must be above 0, not {getattr(parameter, key):g}")
    assert game.ai.searcher_with is not None
    for key in ("min", "max"):
        try:
            game.ai.searcher_with(None, 0, {name: getattr(parameter, key)})
        except ValueError as err:
            raise SpecError(f"{where}: {key} {getattr(parameter, key):g} is refused by the AI: {err}") from None
    return parameter


__all__ = ["DEFAULT_SPEC", "PARAMETER_KEYS", "Gains", "Parameter", "Spec", "SpecError", "load_spec", "parse_spec"]
