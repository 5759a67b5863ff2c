"""Players as the arena's command lines name them: a PLAYER argument parsed and checked against a game
(:class:`PlayerSpec`), the limits it plays with, and a line describing it."""

from __future__ import annotations

import json
import math
import shlex
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ..games import plugin_of
from ..plugin import GameSpec
from ..search import LEVEL_NAMES, Limits

#: The time an external engine gets per move when neither a time nor a depth is given.
DEFAULT_ENGINE_TIME = 1.0
#: What a PLAYER argument may be, for help texts and errors.
PLAYER_CHOICES = (
    f"{', '.join(LEVEL_NAMES)}, random, uhp:<engine command line>, or LEVEL@FILE (a level playing with the AI's "
    "parameter values in a JSON or TOML file)"
)
#: The names under which UHP engines take their thread count (ours ``Threads``, nokamute's ``NumThreads``).
THREAD_OPTIONS = ("Threads", "NumThreads")


@dataclass(frozen=True)
class PlayerSettings:
    """What a game sets for its players (its plug-in's ``players`` settings).

    :ivar uhp: whether UHP engines play it (``uhp:<engine>`` players).
    """

    uhp: bool = False


def player_settings(game: GameSpec) -> PlayerSettings:
    """The players' settings for ``game``, from its plug-in."""
    return plugin_of(game.kind).settings_for("players", PlayerSettings)


class InvalidPlayerError(ValueError):
    """A PLAYER text that names no player, or a player the game cannot have; the message quotes the text."""


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed PLAYER argument.

    :ivar text: the argument as given.
    :ivar type: ``level``, ``random`` or ``uhp``.
    :ivar arg: the level's name, or the engine's command line (empty for ``random``).
    :ivar values: a level's AI parameters set apart from the shipped ones, by name (``LEVEL@FILE``, or ``hive tune``'s
        candidates), in the order given.
    :ivar time: this player's own time a move, in place of the match's limits (see :meth:`own`).
    :ivar depth: this player's own search depth, in place of the match's limits.
    :ivar threads: the processes a level searches on, or the thread count a UHP engine is set to (its ``Threads``
        or ``NumThreads`` option); ``None`` leaves the player's default.
    :ivar options: a UHP engine's options, set with ``options set NAME VALUE`` before its first game.
    """

    text: str
    type: str
    arg: str = ""
    values: tuple[tuple[str, float], ...] = ()
    time: float | None = None
    depth: int | None = None
    threads: int | None = None
    options: tuple[tuple[str, str], ...] = ()

    def own(
        self,
        *,
        time: float | None = None,
        depth: int | None = None,
        threads: int | None = None,
        options: Mapping[str, str] | None = None,
    ) -> PlayerSpec:
        """This player with settings of its own: a time or a depth (which replace the match's limits), a thread
        count, a UHP engine's options; what is not given stays as it was. :func:`check_player` checks them."""
        return replace(
            self,
            time=self.time if time is None else time,
            depth=self.depth if depth is None else depth,
            threads=self.threads if threads is None else threads,
            options=self.options if options is None else tuple(options.items()),
        )

    def limits_of(self, time: float | None, depth: int | None) -> tuple[float | None, int | None]:
        """The time and depth this player plays with: its own where it has either, else the match's."""
        if self.time is not None or self.depth is not None:
            return self.time, self.depth
        return time, depth

    @property
    def label(self) -> str:
        """A short name before the player is made: the level (as given, with its values' file), ``random``, or the
        engine's command line."""
        return self.text if self.values else self.arg or self.type


def read_values(path: str | Path) -> dict[str, float]:
    """The AI's parameter values in the file at ``path``, as ``hive tune`` writes them: one JSON object (or, for a
    ``.toml`` file, one TOML table) of parameter names and numbers.

    :raises ValueError: naming the file and what is wrong with it.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise ValueError(f"cannot read the parameter values in {str(path)!r}: {err.strerror or err}") from None
    try:
        data = tomllib.loads(text) if str(path).endswith(".toml") else json.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as err:
        raise ValueError(
            f"{str(path)!r} is not valid {'TOML' if str(path).endswith('.toml') else 'JSON'}: {err}"
        ) from None
    if not isinstance(data, dict):
        raise ValueError(f"{str(path)!r} must hold one object of parameter names and numbers")
    values: dict[str, float] = {}
    for name, value in data.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(f"{str(path)!r}: parameter {name!r} must be a number, not {value!r}")
        values[name] = value
    return values


def parse_player(text: str) -> PlayerSpec:
    """Parse a PLAYER argument: a level (``easy`` ... ``max``), ``LEVEL@FILE`` (the level with the parameter values
    in ``FILE``, read here: see :func:`read_values`), ``random`` or ``uhp:<command line>``.

    :raises InvalidPlayerError: naming ``text`` when it is none of them, or when its file of values cannot be read.
    """
    word = text.strip()
    if word.lower() in LEVEL_NAMES:
        return PlayerSpec(text, "level", word.lower())
    if word.lower() == "random":
        return PlayerSpec(text, "random")
    if word[:4].lower() == "uhp:":
        command = word[4:].strip()
        try:
            args = shlex.split(command)
        except ValueError as err:
            raise InvalidPlayerError(f"bad player {text!r}: cannot split the engine command line: {err}") from None
        if not args:
            raise InvalidPlayerError(
                f"bad player {text!r}: 'uhp:' needs an engine command line, e.g. 'uhp:nokamute uhp'"
            )
        return PlayerSpec(text, "uhp", command)
    level, at, path = word.partition("@")
    if at and level.strip().lower() in LEVEL_NAMES:
        if not path.strip():
            raise InvalidPlayerError(
                f"bad player {text!r}: '@' needs a file of parameter values, e.g. 'medium@tuned.json'"
            )
        try:
            values = read_values(path.strip())
        except ValueError as err:
            raise InvalidPlayerError(f"bad player {text!r}: {err}") from None
        return PlayerSpec(text, "level", level.strip().lower(), tuple(values.items()))
    raise InvalidPlayerError(f"bad player {text!r}: expected {PLAYER_CHOICES}")


def check_player(spec: PlayerSpec | str, game: GameSpec) -> PlayerSpec:
    """``spec`` parsed, once it is known that ``game`` can have it (only UHP games have UHP engines).

    :raises InvalidPlayerError: naming the player when it is not a player, or not one of ``game``'s.
    """
    spec = parse_player(spec) if isinstance(spec, str) else spec
    if spec.type == "uhp" and not player_settings(game).uhp:
        raise InvalidPlayerError(
            f"bad player {spec.text!r}: UHP engines play Hive only; {game.title} is played by the levels and 'random'"
        )
    if spec.type == "level" and spec.arg not in game.ai.levels:
        raise InvalidPlayerError(f"bad player {spec.text!r}: {game.title} has no level {spec.arg!r}")
    _check_own(spec)
    if spec.values:
        if not game.ai.parameters or game.ai.searcher_with is None:
            raise InvalidPlayerError(f"bad player {spec.text!r}: {game.title}'s AI has no parameters to set")
        unknown = [name for name, _ in spec.values if name not in game.ai.parameters]
        if unknown:
            raise InvalidPlayerError(
                f"bad player {spec.text!r}: {game.title}'s AI has no parameter {unknown[0]!r} "
                f"(its parameters: {', '.join(game.ai.parameters)})"
            )
    return spec


def _check_own(spec: PlayerSpec) -> None:
    """Check what ``spec`` sets for itself: limits, threads and options.

    :raises InvalidPlayerError: naming the player and the bad setting.
    """
    own = spec.time is not None or spec.depth is not None or spec.threads is not None or spec.options
    if own and spec.type == "random":
        raise InvalidPlayerError(f"bad player {spec.text!r}: the random mover takes no time, depth, threads or options")
    if spec.options and spec.type != "uhp":
        raise InvalidPlayerError(
            f"bad player {spec.text!r}: engine options are for UHP engines; a level takes threads and LEVEL@FILE values"
        )
    if spec.time is not None and spec.depth is not None:
        raise InvalidPlayerError(f"bad player {spec.text!r}: give it a time or a depth, not both")
    try:
        if spec.time is not None or spec.depth is not None:
            Limits(time=spec.time, depth=spec.depth)
        if spec.threads is not None:
            Limits(depth=1, threads=spec.threads)
    except ValueError as err:
        raise InvalidPlayerError(f"bad player {spec.text!r}: {err}") from None
    for name, value in spec.options:
        if not name.strip() or any(c.isspace() for c in name) or not value.strip() or "\n" in value:
            raise InvalidPlayerError(
                f"bad player {spec.text!r}: bad engine option {name}={value!r} (NAME=VALUE, a name without spaces)"
            )


def search_limits(spec: PlayerSpec, game: GameSpec, time: float | None = None, depth: int | None = None) -> Limits:
    """The limits of a level of ``game``: its own, else the match's ``time`` or ``depth``, else the level's; on
    the player's thread count."""
    time, depth = spec.limits_of(time, depth)
    limits = Limits(time=time, depth=depth) if time is not None or depth is not None else game.ai.levels[spec.arg]
    return limits if spec.threads is None else replace(limits, threads=spec.threads)


def engine_limits(time: float | None = None, depth: int | None = None) -> Limits:
    """An external engine's limits: ``time`` or ``depth``, else :data:`DEFAULT_ENGINE_TIME` seconds a move."""
    if time is None and depth is None:
        return Limits(time=DEFAULT_ENGINE_TIME)
    return Limits(time=time, depth=depth)


def describe(spec: PlayerSpec, game: GameSpec, time: float | None = None, depth: int | None = None) -> str:
    """How ``spec`` plays ``game``: ``random mover``, ``built-in AI, depth 1``, ``UHP engine 'x', 'bestmove ...'``."""
    if spec.type == "random":
        return "random mover"
    if spec.type == "level":
        text = f"built-in AI, {search_limits(spec, game, time, depth).describe()}"
        if spec.values:
            changed = sum(round(value) != game.ai.parameters.get(name) for name, value in spec.values)
            text += f", with {len(spec.values)} parameter values ({changed} apart from the shipped ones)"
        return text
    text = f"UHP engine {spec.arg!r}, '{engine_limits(*spec.limits_of(time, depth)).uhp_command()}'"
    if spec.threads is not None:
        text += f", {spec.threads} thread{'s' if spec.threads != 1 else ''}"
    if spec.options:
        text += ", options " + " ".join(f"{name}={value}" for name, value in spec.options)
    return text
