"""``hive match``: a match between two players of any game, with its progress and an Elo estimate."""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Callable, Sequence
from typing import IO

from ..arena import GameRecord, MatchResult, Sprt, check_settings, plural, plural_noun, progress_line, run_match
from ..arena.cluster import check_address, import_ray
from ..arena.settings import arena_settings
from ..engine import EngineError
from ..games import games
from ..players import DEFAULT_ENGINE_TIME, PLAYER_CHOICES, PlayerSpec, check_player, describe, parse_player
from ..plugin import GameSpec
from .common import reported, standalone

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
    parser.add_argument(
        "--sprt",
        nargs=2,
        type=float,
        default=None,
        metavar=("ELO0", "ELO1"),
        help="stop as soon as a sequential probability ratio test accepts H0 (PLAYER1 is ELO0 stronger) or H1 "
        "(ELO1 stronger), logistic Elo, over pairs of games",
    )
    for name, meaning in (("alpha", "accepting H1 when H0 holds"), ("beta", "accepting H0 when H1 holds")):
        parser.add_argument(
            f"--{name}", type=float, default=None, help=f"the SPRT's chance of {meaning} (default 0.05)"
        )
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
        default="Base+MLP",
        metavar="NAME",
        help=f"the game: {', '.join(games())} (default Base+MLP; UHP engines play Hive's game types only)",
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
        help=f"save every game's record ({_per_game(lambda spec: plural_noun(spec.record_noun))})",
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


def _heading(args: argparse.Namespace, spec: GameSpec, seed: int, jobs: int | None) -> str:
    balanced = "balanced " if arena_settings(spec).balanced_openings is not None else ""
    games = plural(args.games, "game")
    if args.ray is True:
        where = f"on a local Ray cluster of {plural(jobs or 1, 'CPU')}"
    elif args.ray:
        where = f"on the Ray cluster at {args.ray}" + (f", {plural(jobs, 'job')}" if jobs is not None else "")
    else:
        where = plural(jobs or 1, "job")
    return (
        f"Match {args.player1} vs {args.player2}: {'up to ' if args.sprt else ''}{games} of {spec.name}, "
        f"{balanced}openings of {plural(args.openings, f'random {spec.move_noun}')}, "
        f"adjudicated after {plural(args.max_moves, spec.move_noun)}, seed {seed}, {where}"
    )


def _jobs(args: argparse.Namespace) -> int | None:
    """The games played at once (``None``: all the CPUs of the Ray cluster named); with --ray, Ray is checked
    first: installed, and its cluster reachable."""
    jobs: int | None = args.jobs
    if args.ray is not False:
        import_ray()
        if args.ray is not True:
            check_address(args.ray)
            return jobs
    games: int = args.games
    return min(jobs if jobs is not None else os.cpu_count() or 1, games)


def checked_game(args: argparse.Namespace, players: list[PlayerSpec]) -> GameSpec:
    """The game the options of :func:`add_game_options` name, once they and the players are known to be good.

    :raises ValueError: naming the bad option or player.
    """
    spec = check_settings(
        args.game,
        games=args.games,
        time=args.time,
        depth=args.depth,
        max_moves=args.max_moves,
        openings=args.openings,
        jobs=args.jobs,
    )
    for player in players:
        check_player(player, spec)
    if args.engine_timeout is not None and not args.engine_timeout > 0:
        raise ValueError(f"engine timeout must be > 0 seconds, not {args.engine_timeout}")
    return spec


def _sprt(args: argparse.Namespace) -> Sprt | None:
    """The test asked for by --sprt, --alpha and --beta."""
    if args.sprt is None:
        for name in ("alpha", "beta"):
            if getattr(args, name) is not None:
                raise ValueError(f"--{name} {getattr(args, name):g} needs --sprt ELO0 ELO1")
        return None
    chances = {name: getattr(args, name) for name in ("alpha", "beta") if getattr(args, name) is not None}
    return Sprt(*args.sprt, **chances)


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


def _save(out: IO[str], path: str, records: list[str], spec: GameSpec) -> str:
    """Write ``records`` (one a line, or a blank line between those of several lines) and say so."""
    texts = [record.rstrip("\n") for record in records]
    separator = "\n\n" if any("\n" in text for text in texts) else "\n"
    out.write(separator.join(texts) + "\n" if texts else "")
    return f"Saved {len(records)} {plural_noun(spec.record_noun)} to {path}"


def _play(args: argparse.Namespace) -> int:
    """Play the match ``args`` asks for and print it; returns the exit code."""
    out: IO[str] | None = None
    try:
        specs = [
            own_settings(args, number, parse_player(text)) for number, text in ((1, args.player1), (2, args.player2))
        ]
        sprt = _sprt(args)
        if args.games is None:
            args.games = SPRT_GAMES if sprt is not None else 2
        spec = checked_game(args, specs)
        if args.max_moves is None:
            args.max_moves = arena_settings(spec).max_moves
        if args.out is not None:
            try:
                out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115
            except OSError as err:
                raise ValueError(f"cannot write {args.out!r}: {err.strerror}") from None
        jobs = _jobs(args)
        seed = args.seed if args.seed is not None else random.randrange(2**32)
        print(_heading(args, spec, seed, jobs), flush=True)
        for number, player in enumerate(specs, start=1):
            print(f"Player {number} {player.text}: {describe(player, spec, args.time, args.depth)}", flush=True)
        if sprt is not None:
            print(f"SPRT: {sprt.describe()}", flush=True)
        finished: list[int] = []

        def report(record: GameRecord, result: MatchResult) -> None:
            finished.append(record.number)
            print(progress_line(record, result, args.games), flush=True)

        result = run_match(
            specs[0],
            specs[1],
            games=args.games,
            game=spec,
            time=args.time,
            depth=args.depth,
            max_moves=args.max_moves,
            openings=args.openings,
            seed=seed,
            jobs=jobs,
            engine_timeout=args.engine_timeout,
            on_game=report,
            ray=args.ray,
            sprt=sprt,
        )
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
    "shared_threads",
]
