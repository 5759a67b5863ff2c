"""A tuning run (``hive tune``): SPSA iterations (:mod:`~hive.tune.spsa`) whose games the arena plays
(:mod:`~hive.tune.games`), the values confirmed against the shipped ones by the arena's SPRT every so many
iterations, and its files (:mod:`~hive.tune.files`) in one directory:

- ``state.json``: the spec, the settings, the iterations done, ``theta`` and the verdicts so far, written atomically
  after every iteration and every confirmation: ``hive tune --resume DIR/state.json`` goes on from it as the run
  would have gone on (each iteration's signs and games depend only on the seed and its number);
- ``log.jsonl``: one JSON line an iteration (its number, ``theta`` after it, the signs, the result, the games) and a
  line a confirmation (its verdict and figures);
- ``parameters.svg``: the parameters over the iterations (:mod:`~hive.tune.plot`);
- ``tuned.json``: the values now, rounded as the AI plays them: ``hive match medium@DIR/tuned.json medium`` plays
  them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..games import find_game
from .files import (
    LOG,
    PLOT,
    STATE,
    VALUES,
    RunFileError,
    append_line,
    read_json,
    read_lines,
    rewrite_lines,
    write_atomically,
    write_json,
)
from .games import Confirmation, Games, Player, rounded
from .plot import render
from .spec import Spec, SpecError, parse_spec
from .spsa import learning_rate, perturb, step_size, update

#: What the first key of a state file says.
FORMAT = "hive tune state"
VERSION = 1
#: The plot is drawn again after every this many iterations (and after each confirmation, and at the end).
PLOT_EVERY = 25


@dataclass(frozen=True)
class Settings:
    """What a run does: its games, its confirmations, how many iterations, and the seed everything is drawn from."""

    games: Games
    confirmation: Confirmation
    iterations: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": asdict(self.games),
            "confirmation": asdict(self.confirmation),
            "iterations": self.iterations,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        return cls(Games(**data["games"]), Confirmation(**data["confirmation"]), data["iterations"], data["seed"])


def _theta(values: Mapping[str, float]) -> dict[str, float]:
    """``theta`` as the log keeps it: 4 decimals (the state keeps it exactly)."""
    return {name: round(value, 4) for name, value in values.items()}


class Run:
    """A run's state and files, in ``directory``. Make one with :meth:`create` or :meth:`resume`."""

    def __init__(self, directory: Path, spec: Spec, settings: Settings) -> None:
        self.directory = directory
        self.spec = spec
        self.settings = settings
        self.iteration = 0
        self.theta = spec.start()
        self.verdicts: list[dict[str, Any]] = []
        # each iteration's theta, the start as iteration 0, for the plot
        self.history: list[tuple[int, dict[str, float]]] = [(0, dict(self.theta))]

    @property
    def state_path(self) -> Path:
        return self.directory / STATE

    @property
    def log_path(self) -> Path:
        return self.directory / LOG

    @property
    def plot_path(self) -> Path:
        return self.directory / PLOT

    @property
    def values_path(self) -> Path:
        return self.directory / VALUES

    @classmethod
    def create(cls, directory: str | Path, spec: Spec, settings: Settings) -> Run:
        """A new run in ``directory`` (made if missing), its state written.

        :raises RunFileError: when the directory holds a run already, or cannot be written.
        """
        if settings.iterations < 1:
            raise ValueError(f"iterations must be >= 1, not {settings.iterations}")
        path = Path(directory)
        if (path / STATE).exists():
            raise RunFileError(
                f"{str(path / STATE)!r} exists: resume that run with --resume {path / STATE}, or choose another --out"
            )
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise RunFileError(f"cannot make the directory {str(path)!r}: {err.strerror or err}") from None
        run = cls(path, spec, settings)
        rewrite_lines(run.log_path, [])
        run.save()
        return run

    @classmethod
    def resume(cls, state: str | Path, iterations: int | None = None) -> Run:
        """The run whose state is the file ``state``, its log trimmed back to that state (lines written after it by
        a run stopped before it could save are dropped); ``iterations`` raises (or lowers) the number planned.

        :raises RunFileError: naming the file and what is wrong with it.
        """
        path = Path(state)
        data = read_json(path)
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise RunFileError(
                f"{str(path)!r} is not the state of a hive tune run (format {FORMAT!r}, version {VERSION})"
            )
        try:
            settings = Settings.from_dict(data["settings"])
            spec = parse_spec(data["spec"], find_game(settings.games.game), f"{path} (its spec)")
            run = cls(path.parent, spec, settings)
            run.iteration = int(data["iteration"])
            run.theta = {name: float(data["theta"][name]) for name in spec.names}
            run.verdicts = list(data["verdicts"])
        except SpecError:
            raise  # naming the parameter, before the ValueError below
        except (KeyError, TypeError, ValueError) as err:
            raise RunFileError(f"{str(path)!r} is not a complete hive tune state: {err!r}") from None
        if iterations is not None:
            if iterations < 1:
                raise ValueError(f"iterations must be >= 1, not {iterations}")
            run.settings = Settings(settings.games, settings.confirmation, iterations, settings.seed)
        confirmed = {entry["iteration"] for entry in run.verdicts}
        kept: list[dict[str, Any]] = []
        for entry in read_lines(run.log_path):
            if "confirm" in entry:
                if entry["confirm"] in confirmed and entry["confirm"] <= run.iteration:
                    kept.append(entry)
            elif entry.get("iteration", 0) <= run.iteration:
                kept.append(entry)
                run.history.append((entry["iteration"], {n: float(entry["theta"][n]) for n in spec.names}))
        rewrite_lines(run.log_path, kept)
        run.save()
        return run

    def save(self) -> None:
        """Write the state, and the values now (``tuned.json``), each atomically."""
        write_json(
            self.state_path,
            {
                "format": FORMAT,
                "version": VERSION,
                "settings": self.settings.to_dict(),
                "spec": self.spec.to_dict(),
                "iteration": self.iteration,
                "theta": self.theta,
                "verdicts": self.verdicts,
            },
        )
        write_json(self.values_path, rounded(self.theta))

    def plot(self) -> None:
        """Draw the plot of the run so far."""
        verdicts = [(entry["iteration"], entry["verdict"]) for entry in self.verdicts]
        title = f"hive tune: {self.settings.games.describe()}, seed {self.settings.seed}"
        write_atomically(self.plot_path, render(self.spec, self.history, verdicts, title))

    @property
    def done(self) -> bool:
        """Whether the iterations planned are done, and confirmed where due."""
        return self.iteration >= self.settings.iterations and not self.confirmation_due

    @property
    def confirmation_due(self) -> bool:
        """Whether the values after this iteration are to be confirmed, and are not yet."""
        every = self.settings.confirmation.every
        if not every or self.iteration == 0:
            return False
        if self.iteration % every and self.iteration != self.settings.iterations:
            return False
        return not self.verdicts or self.verdicts[-1]["iteration"] != self.iteration

    def step(self, player: Player) -> dict[str, Any]:
        """Play the next iteration, update ``theta``, and write the log line and the state; returns the line."""
        begun = time.perf_counter()
        k = self.iteration
        perturbation = perturb(self.spec, self.theta, k, self.settings.seed)
        outcome = player.pair(perturbation)
        self.theta = update(self.spec, self.theta, perturbation, outcome.result)
        self.iteration = k + 1
        first = self.spec.parameters[0]
        entry = {
            "iteration": self.iteration,
            "seed": perturbation.seed,
            "signs": perturbation.sign_text,
            "c": round(step_size(self.spec, first, k) / first.c, 6),
            "a": round(learning_rate(self.spec, first, k) / first.a, 6),
            "points": outcome.points,
            "result": outcome.result,
            "games": outcome.games,
            "theta": _theta(self.theta),
            "seconds": round(time.perf_counter() - begun, 3),
        }
        append_line(self.log_path, entry)
        self.save()
        self.history.append((self.iteration, _theta(self.theta)))
        if self.iteration % PLOT_EVERY == 0:
            self.plot()
        return entry

    def confirm(self, player: Player) -> dict[str, Any]:
        """Confirm the values now against the shipped ones; the verdict goes into the log and the state."""
        begun = time.perf_counter()
        entry = player.confirm(self.theta, self.iteration, self.settings.seed)
        entry["seconds"] = round(time.perf_counter() - begun, 3)
        self.verdicts.append(entry)
        append_line(self.log_path, {"confirm": self.iteration, **entry})
        self.save()
        self.plot()
        return entry


def tune(
    run: Run,
    player: Player,
    on_iteration: Callable[[Run, dict[str, Any]], None] | None = None,
    on_confirmation: Callable[[Run, dict[str, Any]], None] | None = None,
) -> Run:
    """Play ``run`` to the iterations planned, confirming where due (a confirmation a resumed run still owes comes
    first); the plot is drawn at the end, or when interrupted."""
    try:
        if run.confirmation_due:
            entry = run.confirm(player)
            if on_confirmation is not None:
                on_confirmation(run, entry)
        while run.iteration < run.settings.iterations:
            entry = run.step(player)
            if on_iteration is not None:
                on_iteration(run, entry)
            if run.confirmation_due:
                entry = run.confirm(player)
                if on_confirmation is not None:
                    on_confirmation(run, entry)
    finally:
        run.plot()
    return run


__all__ = ["FORMAT", "PLOT_EVERY", "VERSION", "Run", "Settings", "tune"]
