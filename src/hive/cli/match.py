"""``hive match``: a match between two players of any game, with its progress and an Elo estimate."""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Callable, Sequence
from typing import IO

from ..arena import GameRecord, MatchPlan, MatchResult, plural, plural_noun, progress_line, run_match
from ..arena.cluster import check_address, import_ray
from ..arena.settings import arena_settings
from ..engine import EngineError
from ..games import DEFAULT_GAME, games
from ..players import DEFAULT_ENGINE_TIME, PLAYER_CHOICES, PlayerSpec, check_player, describe, parse_player
from ..plugin import GameSpec
from .common import reported, standalone
from .sprt import add_sprt_options, sprt_from

DESCRIPTION = (
    "Play games between two players (sides alternate, each pair of games shares a random opening) and report "
    "W/D/L, the score and the Elo difference of PLAYER1; in parallel processes or on a Ray cluster, optionally "
    "until a sequential probability ratio test decides."
)
#: The most games of a match stopped by an SPRT when -n is not given.
SPRT_GAMES = 20000


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``match`` subcommand."""
    parser = subparsers.add_parser(
        "match", help="play a match between two players and estimate the Elo difference", description=DESCRIPTION
    )
    add_arguments(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``hive match``; the parser's ``func`` runs the match."""
    player_help = f"{PLAYER_CHOICES} (e.g. 'uhp:nokamute uhp')"
    parser.add_argument("player1", metavar="PLAYER1", help=player_help)
    parser.add_argument("player2", metavar="PLAYER2", help=player_help)
    parser.add_argument(
        "-n", "--games", type=int, default=None, help=f"number of games (default 2; with --sprt, at most {SPRT_GAMES})"
    )
    add_game_options(parser)
    for number in (1, 2):
        own = parser.add_argument_group(
            f"PLAYER{number}'s own settings", "in place of the match's (time odds: --time1 1 --time2 4)"
        )
        own.add_argument(
            f"--time{number}", type=float, default=None, metavar="SECONDS", help=f"PLAYER{number}'s time per move"
        )
        own.add_argument(f"--depth{number}", type=int, default=None, metavar="N", help=f"PLAYER{number}'s depth")
        own.add_argument(f"--threads{number}", type=int, default=None, metavar="N", help=f"PLAYER{number}'s threads")
        own.add_argument(
            f"--option{number}",
            action="append",
            default=None,
            metavar="NAME=VALUE",
            help=f"set PLAYER{number}'s UHP engine option NAME before its games (repeatable)",
        )
    add_sprt_options(parser, "stop as soon as a sequential probability ratio test decides", "PLAYER1 is")
    parser.set_defaults(func=cmd_match)


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The options of the games that ``hive match`` and ``hive tournament`` share: limits, game, openings, seed,
    where they are played, records, engines' timeout."""
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument(
        "--time",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"time per move for both players (UHP engines get whole seconds; default: the level's limits, "
        f"{DEFAULT_ENGINE_TIME:g} s for UHP engines)",
    )
    limit.add_argument("--depth", type=int, default=None, metavar="N", help="search depth for both players")
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        metavar="N",
        help="every player's threads: a level's search processes, a UHP engine's Threads or NumThreads option "
        "(the random mover takes none)",
    )
    parser.add_argument(
        "--game",
        "--game-type",
        dest="game",
        default=DEFAULT_GAME,
        metavar="NAME",
        help=f"the game: {', '.join(games())} (default {DEFAULT_GAME}; UHP engines play Hive's game types only)",
    )
    parser.add_argument(
        "--max-moves",
        "--max-plies",
        dest="max_moves",
        type=int,
        default=None,
        metavar="N",
        help=f"adjudicate a game still running after N moves (default: {_per_game(_limit)})",
    )
    parser.add_argument(
        "--openings", type=int, default=2, metavar="K", help="random moves opening each pair of games (default 2)"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the openings and random players")
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="J",
        help="games played in parallel (default: one per core; on a Ray cluster, all of its CPUs)",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const=True,
        default=False,
        metavar="ADDRESS",
        help="play the games on a Ray cluster: a local one, or the one at ADDRESS (HOST:PORT, ray://HOST:PORT or "
        "auto); the same games as without it (needs pip install 'hive-game[cluster]')",
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help=f"save every game's record ({_per_game(lambda spec: plural_noun(spec.record_noun))}) as the game ends, "
        "all of them in the games' order once the match is over",
    )
    parser.add_argument(
        "--engine-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="seconds a UHP engine may take beyond its move time before it forfeits (default 60)",
    )


def _limit(spec: GameSpec) -> str:
    return plural(arena_settings(spec).max_moves, spec.move_noun)


def _per_game(text: Callable[[GameSpec], str]) -> str:
    """``text`` of each family of games: ``200 plies for Hive, 400 turns for HiveQueen``."""
    texts = {spec.title: text(spec) for spec in games().values()}
    return ", ".join(f"{value} for {title}" for title, value in texts.items())


def _heading(args: argparse.Namespace, plan: MatchPlan, spec: GameSpec, sprt: bool) -> str:
    balanced = "balanced " if arena_settings(spec).balanced_openings is not None else ""
    games = plural(plan.games, "game")
    if plan.ray is True:
        where = f"on a local Ray cluster of {plural(plan.jobs or 1, 'CPU')}"
    elif plan.ray:
        where = f"on the Ray cluster at {plan.ray}" + (f", {plural(plan.jobs, 'job')}" if plan.jobs is not None else "")
    else:
        where = plural(plan.jobs or 1, "job")
    return (
        f"Match {args.player1} vs {args.player2}: {'up to ' if sprt else ''}{games} of {spec.name}, "
        f"{balanced}openings of {plural(plan.openings, f'random {spec.move_noun}')}, "
        f"adjudicated after {plural(plan.move_limit, spec.move_noun)}, seed {plan.seed}, {where}"
    )


def plan_from(args: argparse.Namespace) -> MatchPlan:
    """The plan the options of :func:`add_game_options` give, as given (no default filled in, nothing checked)."""
    return MatchPlan(
        game=args.game,
        games=args.games,
        time=args.time,
        depth=args.depth,
        max_moves=args.max_moves,
        openings=args.openings,
        seed=args.seed,
        jobs=args.jobs,
        ray=args.ray,
        engine_timeout=args.engine_timeout,
    )


def checked_game(plan: MatchPlan, players: list[PlayerSpec]) -> GameSpec:
    """The game of ``plan``, once it and the players are known to be good.

    :raises ValueError: naming the bad option or player.
    """
    spec = plan.check()
    for player in players:
        check_player(player, spec)
    return spec


def ready(plan: MatchPlan, players: list[PlayerSpec], total: int | None = None) -> MatchPlan:
    """``plan`` to play and print: checked with its players, then with its game, move limit and seed filled in
    and its jobs those played at once of its games (or of ``total``; ``None``: all the CPUs of the Ray cluster
    named). With Ray, Ray is checked first: installed, and its cluster reachable.

    :raises ValueError: naming the bad option or player.
    :raises ~hive.arena.cluster.ClusterError: when Ray is missing or its cluster cannot be reached.
    """
    spec = checked_game(plan, players)
    jobs = plan.jobs
    if plan.ray is not False:
        import_ray()
        if plan.ray is not True:
            check_address(plan.ray)
    if plan.ray is False or plan.ray is True:
        jobs = min(jobs if jobs is not None else os.cpu_count() or 1, plan.games if total is None else total)
    return dataclasses.replace(plan, game=spec, max_moves=plan.move_limit, jobs=jobs).seeded()


def own_settings(args: argparse.Namespace, number: int, player: PlayerSpec) -> PlayerSpec:
    """``player`` with the settings of its own given by ``--timeN``, ``--depthN``, ``--threadsN`` (or
    ``--threads``, which the random mover ignores) and ``--optionN``.

    :raises ValueError: naming an ``--optionN`` that is not ``NAME=VALUE``.
    """
    options: dict[str, str] = {}
    for text in getattr(args, f"option{number}") or ():
        name, equals, value = text.partition("=")
        if not equals or not name.strip():
            raise ValueError(f"--option{number} {text!r}: expected NAME=VALUE, e.g. NumThreads=2")
        options[name.strip()] = value.strip()
    threads = getattr(args, f"threads{number}")
    return player.own(
        time=getattr(args, f"time{number}"),
        depth=getattr(args, f"depth{number}"),
        threads=threads if threads is not None else shared_threads(args, player),
        options=options or None,
    )


def shared_threads(args: argparse.Namespace, player: PlayerSpec) -> int | None:
    """The thread count ``--threads`` gives ``player`` (none to the random mover)."""
    threads: int | None = args.threads
    return None if player.type == "random" else threads


def _kept(out: IO[str], record: str) -> None:
    """Add one finished game's record to ``out`` at once, so that a match stopped early keeps the games it played
    (a record of several lines ends with a blank line)."""
    text = record.rstrip("\n")
    out.write(text + ("\n\n" if "\n" in text else "\n"))
    out.flush()


def _save(out: IO[str], path: str, records: list[str], spec: GameSpec) -> str:
    """Write ``records`` in place of what ``out`` holds (one a line, or a blank line between those of several lines)
    and say so."""
    texts = [record.rstrip("\n") for record in records]
    separator = "\n\n" if any("\n" in text for text in texts) else "\n"
    out.seek(0)
    out.truncate()
    out.write(separator.join(texts) + "\n" if texts else "")
    return f"Saved {len(records)} {plural_noun(spec.record_noun)} to {path}"


def _play(args: argparse.Namespace) -> int:
    """Play the match ``args`` asks for and print it; returns the exit code."""
    out: IO[str] | None = None
    try:
        specs = [
            own_settings(args, number, parse_player(text)) for number, text in ((1, args.player1), (2, args.player2))
        ]
        sprt = sprt_from(args)
        if args.games is None:
            args.games = SPRT_GAMES if sprt is not None else 2
        plan = ready(plan_from(args), specs)
        spec = plan.spec
        if args.out is not None:
            try:
                out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115
            except OSError as err:
                raise ValueError(f"cannot write {args.out!r}: {err.strerror}") from None
        print(_heading(args, plan, spec, sprt is not None), flush=True)
        for number, player in enumerate(specs, start=1):
            print(f"Player {number} {player.text}: {describe(player, spec, plan.time, plan.depth)}", flush=True)
        if sprt is not None:
            print(f"SPRT: {sprt.describe()}", flush=True)
        finished: list[int] = []

        def report(record: GameRecord, result: MatchResult) -> None:
            finished.append(record.number)
            print(progress_line(record, result, plan.games), flush=True)
            if out is not None:
                _kept(out, record.record)

        result = run_match(specs[0], specs[1], plan, on_game=report, sprt=sprt)
        for line in result.thinking():
            print(line)
        print(result.summary())
        if len(finished) > len(result.games):
            late = len(finished) - len(result.games)
            print(f"{plural(late, 'game')} finished after the decision, not counted")
        if out is not None:
            print(_save(out, args.out, [game.record for game in result.games], spec))
    finally:
        if out is not None:
            out.close()
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    """Run ``hive match`` from parsed arguments; returns the exit code."""
    return reported("match", (ValueError, EngineError), lambda: _play(args))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hive match`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    return standalone("match", DESCRIPTION, add_arguments, argv)


__all__ = [
    "add_arguments",
    "add_game_options",
    "add_parser",
    "checked_game",
    "cmd_match",
    "main",
    "own_settings",
    "plan_from",
    "ready",
    "shared_threads",
]
