"""Tuning the AI's parameters (``hive tune``): SPSA on games played by the arena, and Texel tuning of the
evaluation's weights on positions labelled with their games' results.

A game's AI says which of its parameters can be tuned (:attr:`hive.plugin.GameAI.parameters`: for Hive, the
evaluation's weights and the search's contempt and draw aversion) and makes a searcher with any values of them
(:attr:`~hive.plugin.GameAI.searcher_with`); a player ``LEVEL@FILE`` of the arena plays with the values in a file
(:func:`hive.players.read_values`), so ``hive match medium@tuned.json medium --sprt 0 40`` tests what a run found.

Its parts: :mod:`~hive.tune.spec` reads and checks a parameter spec (:data:`~hive.tune.spec.DEFAULT_SPEC` is
shipped), :mod:`~hive.tune.spsa` is the algorithm, :mod:`~hive.tune.games` plays a run's games with the arena,
:mod:`~hive.tune.run` runs it with its files (:mod:`~hive.tune.files`: the state, resumable, and the log) and
:mod:`~hive.tune.plot` draws it; :mod:`~hive.tune.positions` gathers labelled positions and :mod:`~hive.tune.texel`
fits the weights to them.
"""

from .games import ArenaPlayer, Confirmation, Games, PairOutcome
from .positions import Features, LabelledGame, PositionsError, Sample, recorded_games, samples, self_play, split
from .run import Run, Settings, tune
from .spec import DEFAULT_SPEC, Gains, Parameter, Spec, SpecError, load_spec, parse_spec
from .spsa import Perturbation, maximise, perturb, update
from .texel import Fit, Losses, fit

__all__ = [
    "DEFAULT_SPEC",
    "ArenaPlayer",
    "Confirmation",
    "Features",
    "Fit",
    "Gains",
    "Games",
    "LabelledGame",
    "Losses",
    "PairOutcome",
    "Parameter",
    "Perturbation",
    "PositionsError",
    "Run",
    "Sample",
    "Settings",
    "Spec",
    "SpecError",
    "fit",
    "load_spec",
    "maximise",
    "parse_spec",
    "perturb",
    "recorded_games",
    "samples",
    "self_play",
    "split",
    "tune",
    "update",
]
