"""``hive tournament``: a round robin or a gauntlet among any players the arena knows, with a crosstable."""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..arena import GameRecord, games_thinking, plural, plural_noun
from ..arena.tournament import FORMATS, GAUNTLET, ROUND_ROBIN, TournamentResult, run_tournament, schedule
from ..engine import EngineError
from ..games import find_game
from ..players import PLAYER_CHOICES, describe, parse_player
from .common import reported, standalone
from .match import add_game_options, checked_game, plan_from, ready, shared_threads

DESCRIPTION = (
    "Play a round robin (every pair of players meets) or a gauntlet (the first player meets each other one) of any "
    "game; each pairing is a short match whose games come in pairs from a shared random opening, sides swapped. "
    "Prints each game as it ends, then a crosstable with the scores, each player's Elo against the field with a "
    "95% interval, and the Sonneborn-Berger tie-break."
)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``tournament`` subcommand."""
    parser = subparsers.add_parser(
        "tournament", help="play a round robin or a gauntlet among several players", description=DESCRIPTION
    )
    add_arguments(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``hive tournament``; the parser's ``func`` runs it."""
    parser.add_argument("players", metavar="PLAYER", nargs="+", help=f"{PLAYER_CHOICES}; a round robin takes 3 or more")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=ROUND_ROBIN,
        help=f"{ROUND_ROBIN} (Berger tables) or {GAUNTLET} (the first player against each other one); "
        f"default {ROUND_ROBIN}",
    )
    parser.add_argument(
        "--double", action="store_true", help="every pairing twice over (a double round robin), colours reversed"
    )
    parser.add_argument(
        "-n", "--games", type=int, default=2, help="games of each pairing (default 2: one with each side first)"
    )
    add_game_options(parser)
    parser.set_defaults(func=cmd_tournament)


def _progress(record: GameRecord, result: TournamentResult) -> str:
    spec = find_game(record.game)
    first, second = (side.lower() for side in spec.sides)
    line = (
        f"Game {len(result.games)}/{result.total}: {first} {record.first}, {second} {record.second}: "
        f"{record.result} in {plural(record.moves, spec.move_noun)} ({record.reason})"
    )
    return f"{line} | rules: {'; '.join(record.disputes)}" if record.disputes else line


def _write(path: str, records: list[str]) -> None:
    """Write the records to ``path`` whole or not at all: a failure leaves what was there."""
    texts = [record.rstrip("\n") for record in records]
    separator = "\n\n" if any("\n" in text for text in texts) else "\n"
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(separator.join(texts) + "\n" if texts else "")
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _check_out(path: str | None) -> None:
    if path is None:
        return
    folder = Path(path).parent
    if not folder.is_dir():
        raise ValueError(f"cannot write {path!r}: no folder {str(folder)!r}")
    if Path(path).is_dir():
        raise ValueError(f"cannot write {path!r}: it is a folder")


def _play(args: argparse.Namespace) -> int:
    """Play the tournament ``args`` asks for and print it; returns the exit code."""
    specs = [(player := parse_player(text)).own(threads=shared_threads(args, player)) for text in args.players]
    plan = plan_from(args)
    checked_game(plan, specs)
    cycles = 2 if args.double else 1
    pairings = schedule([f"{i}" for i in range(len(specs))], args.format, cycles)
    _check_out(args.out)
    total = len(pairings) * args.games
    plan = ready(plan, specs, total)
    spec = plan.spec
    kind = "Round robin" if args.format == ROUND_ROBIN else "Gauntlet"
    print(
        f"{kind}{' (double)' if args.double else ''} of {plural(len(specs), 'player')}: "
        f"{plural(len(pairings), 'pairing')} of {plural(args.games, 'game')}, {total} in all, of {spec.name}, "
        f"openings of {plural(args.openings, f'random {spec.move_noun}')}, adjudicated after "
        f"{plural(plan.move_limit, spec.move_noun)}, seed {plan.seed}, "
        f"{'on Ray' if args.ray is not False else plural(plan.jobs or 1, 'job')}",
        flush=True,
    )
    for number, player in enumerate(specs, start=1):
        print(f"Player {number} {player.text}: {describe(player, spec, args.time, args.depth)}", flush=True)
    result = run_tournament(
        specs,
        plan,
        format=args.format,
        cycles=cycles,
        on_game=lambda record, so_far: print(_progress(record, so_far), flush=True),
    )
    for line in games_thinking(result.games, result.players):
        print(line)
    print(result.summary())
    if args.out is not None:
        try:
            _write(args.out, [game.record for game in result.games])
        except OSError as err:
            raise ValueError(f"cannot write {args.out!r}: {err.strerror}") from None
        print(f"Saved {len(result.games)} {plural_noun(spec.record_noun)} to {args.out}")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    """Run ``hive tournament`` from parsed arguments; returns the exit code."""
    return reported("tournament", (ValueError, EngineError), lambda: _play(args))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hive tournament`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    return standalone("tournament", DESCRIPTION, add_arguments, argv)


__all__ = ["add_arguments", "add_parser", "cmd_tournament", "main"]
