"""``hive tune``: SPSA tuning of the AI's parameters on games played by the arena, resumable (``--resume``), each
candidate confirmed against the shipped values by the arena's SPRT; and ``hive tune --texel``, the evaluation's
weights fitted to the results of real and self-played games."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any

from ..arena import plural
from ..arena.cluster import ClusterError, import_ray
from ..engine import EngineError
from ..games import DEFAULT_GAME, games
from ..tune.games import ArenaPlayer, Confirmation, Games, rounded
from ..tune.run import Run, Settings, tune
from ..tune.texel import LOSSES
from .common import reported, standalone
from .sprt import add_sprt_options, sprt_from
from .texel import SELF_PLAY, TEXEL_DEPTH, TEXEL_OPENINGS, TEXEL_OUT, chosen_game, chosen_spec, run_texel

DESCRIPTION = (
    "Tune the AI's parameters (its evaluation's weights and its search's numbers) by SPSA: each iteration plays a "
    "pair of games (sides swapped, one random opening) between the values set apart both ways, and moves the "
    "values toward the side that scored; every N iterations the values are tested against the shipped ones by the "
    "arena's SPRT. The run writes its state after every iteration (--resume goes on from it), a log of JSON lines "
    "and a plot (SVG). With --texel, fit the evaluation's weights to the results of the games positions come from "
    "(self-play and records of real games) instead."
)
#: The defaults of a new run.
ITERATIONS = 500
DEPTH = 3
OPENINGS = 4
SPSA_OUT = "tune-run"
# the options of each mode, as their dests, for the errors when one is given to the wrong mode
_RUN_OPTIONS = (
    "spec",
    "depth",
    "time",
    "game",
    "openings",
    "max_moves",
    "pairs",
    "confirm_every",
    "confirm_sprt",
    "confirm_alpha",
    "confirm_beta",
    "confirm_games",
    "seed",
    "out",
)
_TEXEL_ONLY = ("records", "self_play", "loss", "holdout", "skip")
_SPSA_ONLY = (
    "time",
    "max_moves",
    "pairs",
    "confirm_every",
    "confirm_sprt",
    "confirm_alpha",
    "confirm_beta",
    "confirm_games",
    "iterations",
)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``tune`` subcommand."""
    parser = subparsers.add_parser(
        "tune", help="tune the AI's parameters by SPSA (or fit its evaluation: --texel)", description=DESCRIPTION
    )
    add_arguments(parser)


def _option(flag: str) -> str:
    return "--" + flag.replace("_", "-")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``hive tune``; the parser's ``func`` runs it."""
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--resume", default=None, metavar="STATE", help="go on with the run whose state file is STATE (DIR/state.json)"
    )
    mode.add_argument("--texel", action="store_true", help="fit the evaluation's weights to games' results instead")
    parser.add_argument(
        "--spec",
        default=None,
        metavar="FILE",
        help="the parameters to tune, their bounds, steps and learning rates (TOML, or JSON for .json; default: "
        "the shipped spec, every parameter of the AI but the null move's)",
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help=f"the run's directory: state.json, log.jsonl, parameters.svg, tuned.json (default {SPSA_OUT}); with "
        f"--texel: fitted.json and texel.json (default {TEXEL_OUT})",
    )
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        metavar="N",
        help=f"SPSA iterations (default {ITERATIONS}; with --resume, a new total)",
    )
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument(
        "--depth",
        type=int,
        default=None,
        metavar="N",
        help=f"every move searched to depth N: games that do not depend on the machine's load (default {DEPTH}; "
        f"{TEXEL_DEPTH} for --texel's self-play)",
    )
    limit.add_argument(
        "--time", type=float, default=None, metavar="SECONDS", help="every move searched for SECONDS instead"
    )
    parser.add_argument(
        "--game", default=None, metavar="NAME", help=f"the game: {', '.join(games())} (default {DEFAULT_GAME})"
    )
    parser.add_argument(
        "--openings",
        type=int,
        default=None,
        metavar="K",
        help=f"random moves opening each pair of games (default {OPENINGS}; {TEXEL_OPENINGS} for --texel's "
        "self-play, each game its own)",
    )
    parser.add_argument(
        "--max-moves",
        type=int,
        default=None,
        metavar="N",
        help="adjudicate a game after N moves (default: the arena's)",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=None,
        metavar="P",
        help="pairs of games an iteration plays, from P openings (default 1)",
    )
    confirm = Confirmation()
    parser.add_argument(
        "--confirm-every",
        type=int,
        default=None,
        metavar="N",
        help="test the values against the shipped ones every N iterations and after the last "
        f"(default {confirm.every}; 0: never)",
    )
    add_sprt_options(
        parser,
        f"the confirmations' sequential probability ratio test (default {confirm.elo0:g} {confirm.elo1:g})",
        "the values are",
        prefix="confirm-",
    )
    parser.add_argument(
        "--confirm-games",
        type=int,
        default=None,
        metavar="N",
        help=f"the most games a confirmation plays before it ends with no verdict (default {confirm.games})",
    )
    parser.add_argument(
        "--records",
        action="append",
        default=None,
        metavar="PATH",
        help="--texel: a record file or a directory of them (PGN, SGF, GameStrings) of finished games; repeatable",
    )
    parser.add_argument(
        "--self-play",
        type=int,
        default=None,
        metavar="N",
        help=f"--texel: games of self-play (default {SELF_PLAY}; 0: none)",
    )
    parser.add_argument(
        "--loss", choices=LOSSES, default=None, help="--texel: log-loss (default) or mean squared error"
    )
    parser.add_argument(
        "--holdout", type=float, default=None, metavar="F", help="--texel: the share of games held out (default 0.2)"
    )
    parser.add_argument(
        "--skip",
        type=int,
        default=None,
        metavar="N",
        help="--texel: leave out each game's first N positions (default 4)",
    )
    parser.add_argument("--seed", type=int, default=None, help="the seed of everything random in the run")
    parser.add_argument(
        "--jobs", type=int, default=None, metavar="J", help="games played in parallel (default: one per core)"
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const=True,
        default=False,
        metavar="ADDRESS",
        help="play the games on a Ray cluster, as hive match --ray does (put it after the other options)",
    )
    parser.set_defaults(func=cmd_tune)


def _given(args: argparse.Namespace, names: Sequence[str]) -> list[str]:
    return [_option(name) for name in names if getattr(args, name, None) not in (None, False)]


def _check_mode(args: argparse.Namespace) -> None:
    """:raises ValueError: naming an option that the mode asked for does not take."""
    if args.resume is not None:
        wrong = _given(args, (*_RUN_OPTIONS, *_TEXEL_ONLY))
        if wrong:
            raise ValueError(f"{wrong[0]} cannot be given with --resume: the run keeps the settings it started with")
    elif args.texel:
        wrong = _given(args, _SPSA_ONLY)
        if wrong:
            raise ValueError(f"{wrong[0]} is an option of SPSA runs, not of --texel")
    else:
        wrong = _given(args, _TEXEL_ONLY)
        if wrong:
            raise ValueError(f"{wrong[0]} is an option of --texel")
    if args.jobs is not None and args.jobs < 1:
        raise ValueError(f"jobs must be >= 1, not {args.jobs}")
    if args.ray is not False:
        import_ray()


def _verdict_line(entry: dict[str, Any]) -> str:
    test = entry["sprt"]
    verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no verdict"}[entry["verdict"]]
    wins, draws, losses = entry["wdl"]
    elo = entry["elo"]
    low = "-inf" if elo[1] is None else f"{elo[1]:+.1f}"
    high = "+inf" if elo[2] is None else f"{elo[2]:+.1f}"
    estimate = "inf" if elo[0] is None else f"{elo[0]:+.1f}"
    return (
        f"Confirmation after {plural(entry['iteration'], 'iteration')}: SPRT elo0 {test['elo0']:g}, elo1 "
        f"{test['elo1']:g}, alpha {test['alpha']:g}, beta {test['beta']:g}: LLR {entry['llr']:.2f} after "
        f"{plural(entry['pairs'], 'pair')} [{'/'.join(map(str, entry['counts']))}]: {verdict}; "
        f"W/D/L {wins}/{draws}/{losses}, Elo {estimate} ({low} to {high})"
    )


def _iteration_line(run: Run, entry: dict[str, Any]) -> str:
    games = len(entry["games"])
    return (
        f"Iteration {entry['iteration']}/{run.settings.iterations}: plus {entry['points']:g} - "
        f"{games - entry['points']:g} minus, result {entry['result']:+.2f} ({entry['seconds']:.1f} s)"
    )


def _changes(run: Run) -> str:
    now = rounded(run.theta)
    moved = [f"{p.name} {p.start:g} -> {now[p.name]}" for p in run.spec.parameters if now[p.name] != round(p.start)]
    return "Values now (those moved): " + (", ".join(moved) if moved else "none")


def _run_spsa(args: argparse.Namespace) -> int:
    if args.resume is not None:
        run = Run.resume(args.resume, args.iterations)
        print(
            f"Resuming {args.resume} after {plural(run.iteration, 'iteration')} of {run.settings.iterations}",
            flush=True,
        )
    else:
        game = chosen_game(args)
        spec = chosen_spec(args, game)
        confirm = Confirmation()
        sprt = sprt_from(args, "confirm-", confirm.sprt)
        confirmation = Confirmation(
            every=confirm.every if args.confirm_every is None else args.confirm_every,
            elo0=sprt.elo0,
            elo1=sprt.elo1,
            alpha=sprt.alpha,
            beta=sprt.beta,
            games=confirm.games if args.confirm_games is None else args.confirm_games,
        )
        play = Games(
            game=game.name,
            depth=args.depth if args.depth is not None or args.time is not None else DEPTH,
            time=args.time,
            openings=OPENINGS if args.openings is None else args.openings,
            max_moves=args.max_moves,
            pairs=1 if args.pairs is None else args.pairs,
        )
        play.check()
        confirmation.check()
        seed = args.seed if args.seed is not None else random.randrange(2**32)
        settings = Settings(play, confirmation, ITERATIONS if args.iterations is None else args.iterations, seed)
        run = Run.create(args.out or SPSA_OUT, spec, settings)
    settings = run.settings
    print(
        f"Tuning {plural(len(run.spec.parameters), 'parameter')} by SPSA: {settings.games.describe()}, "
        f"{plural(settings.iterations, 'iteration')}, seed {settings.seed}, in {run.directory}",
        flush=True,
    )
    confirmation = settings.confirmation
    if confirmation.every:
        print(
            f"Confirmations every {plural(confirmation.every, 'iteration')} and after the last, against the shipped "
            f"values: SPRT {confirmation.sprt.describe()}, at most {confirmation.games} games",
            flush=True,
        )
    player = ArenaPlayer(settings.games, confirmation, jobs=args.jobs, ray=args.ray)
    try:
        tune(
            run,
            player,
            on_iteration=lambda r, e: print(_iteration_line(r, e), flush=True),
            on_confirmation=lambda r, e: print(f"{_verdict_line(e)}\n{_changes(r)}", flush=True),
        )
    except KeyboardInterrupt:
        print(
            f"hive tune: interrupted after iteration {run.iteration}: go on with hive tune --resume {run.state_path}",
            file=sys.stderr,
        )
        return 130
    finally:
        player.close()
    if not run.verdicts or run.verdicts[-1]["iteration"] != run.iteration:
        print(_changes(run))
    if run.verdicts:
        verdicts = ", ".join(f"{e['iteration']}: {e['verdict'] or 'none'}" for e in run.verdicts)
        print(f"Verdicts after iterations {verdicts}")
    print(
        f"Wrote {run.state_path}, {run.log_path}, {run.plot_path} and {run.values_path} "
        f"(play them: hive match medium@{run.values_path} medium)"
    )
    return 0


def _tune(args: argparse.Namespace) -> int:
    """Run the tuning ``args`` asks for; returns the exit code."""
    _check_mode(args)
    return run_texel(args) if args.texel else _run_spsa(args)


def cmd_tune(args: argparse.Namespace) -> int:
    """Run ``hive tune`` from parsed arguments; returns the exit code."""
    return reported("tune", (ValueError, EngineError, ClusterError), lambda: _tune(args))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hive tune`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    return standalone("tune", DESCRIPTION, add_arguments, argv)


__all__ = ["add_arguments", "add_parser", "cmd_tune", "main"]
