"""``hive convert`` and ``hive replay``: the command line over :mod:`hive.records`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from ..records import EXTENSIONS, FORMATS, WRITERS, Game, RecordFormatError, detect_format, iter_games


def _named(path: str, games: Iterator[Game]) -> Iterator[tuple[str, Game]]:
    """Pair each game with a name: the path, or ``path#n`` when the file holds several games."""
    first = next(games, None)
    if first is None:
        return
    second = next(games, None)
    if second is None:
        yield path, first
        return
    yield f"{path}#1", first
    yield f"{path}#2", second
    for index, game in enumerate(games, start=3):
        yield f"{path}#{index}", game


def _failure(game: Game) -> str:
    """``ILLEGAL move N 'text': rule`` for a bad move, ``INVALID <what>`` for anything else wrong."""
    message = next((e for e in game.errors if e.startswith("move ")), None)
    return f"ILLEGAL {message}" if message else f"INVALID {game.errors[0]}"


def cmd_replay(args: argparse.Namespace) -> int:
    """``hive replay FILE...``: check every move of every game, one line per game, then a total."""
    total = failed = unreadable = 0
    for path in args.files:
        try:
            for name, game in _named(path, iter_games(path, args.format)):
                total += 1
                if game.errors:
                    failed += 1
                    kind, _, message = _failure(game).partition(" ")
                    print(f"{kind} {name} {message}", flush=True)
                else:
                    print(f"OK {name} {len(game.moves)} {game.result}", flush=True)
        except (OSError, RecordFormatError) as err:
            unreadable += 1
            print(f"hive replay: {_unreadable(path, err)}", file=sys.stderr)
    print(
        f"total {total} game{'' if total == 1 else 's'}: {total - failed} OK, {failed} failed"
        + (f", {unreadable} unreadable files" if unreadable else "")
    )
    return 2 if unreadable else 1 if failed else 0


def _unreadable(path: str, err: OSError | RecordFormatError) -> str:
    if isinstance(err, OSError):
        return f"cannot read {path}: {err.strerror or err}"
    return str(err)


def cmd_convert(args: argparse.Namespace) -> int:
    """``hive convert INPUT -o OUTPUT [--to FORMAT]``: rewrite a record file in another format."""
    source: str = args.input
    output: str | None = args.output
    target: str | None = args.to
    if target is None:
        suffix = Path(output).suffix.lower() if output and output != "-" else ""
        target = EXTENSIONS.get(suffix)
        if target is None:
            print(
                "hive convert: give --to pgn|gamestring|sgf, or an output file ending in .pgn, .sgf or .txt",
                file=sys.stderr,
            )
            return 2
    try:
        with open(source, encoding="utf-8-sig", errors="replace") as probe:
            head = probe.read(4096)
        fmt = args.format or detect_format(source, head)
        if output and output != "-" and Path(output).exists() and Path(output).samefile(source):
            print(f"hive convert: the output {output} is the input file", file=sys.stderr)
            return 2
    except (OSError, RecordFormatError) as err:
        print(f"hive convert: {_unreadable(source, err)}", file=sys.stderr)
        return 2
    writer = WRITERS[target]
    failed = written = 0
    try:
        sink: TextIO = open(output, "w", encoding="utf-8") if output and output != "-" else sys.stdout  # noqa: SIM115
    except OSError as err:
        print(f"hive convert: cannot write {output}: {err.strerror or err}", file=sys.stderr)
        return 2
    try:
        for index, game in enumerate(iter_games(source, fmt), start=1):
            if game.errors:
                failed += 1
                print(f"hive convert: {source} game {index}: {_failure(game)}", file=sys.stderr)
            try:
                text = writer(game)
            except ValueError as err:
                failed += 1
                print(f"hive convert: {source} game {index}: {err}", file=sys.stderr)
                continue
            if written and target != "gamestring":
                sink.write("\n")
            sink.write(text if text.endswith("\n") else text + "\n")
            written += 1
    except (OSError, RecordFormatError) as err:
        print(f"hive convert: {_unreadable(source, err)}", file=sys.stderr)
        return 2
    finally:
        if sink is not sys.stdout:
            sink.close()
    return 1 if failed else 0


def add_parsers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``convert`` and ``replay`` commands on the ``hive`` command's subparsers."""
    convert = subparsers.add_parser(
        "convert", help="convert game records between SGF (Boardspace), PGN and UHP GameStrings"
    )
    convert.add_argument("input", help="a .sgf, .pgn or GameString file")
    convert.add_argument("-o", "--output", default=None, help="the file to write (default: standard output)")
    convert.add_argument(
        "--to", choices=FORMATS, default=None, help="output format (default: by the output's extension)"
    )
    convert.add_argument(
        "--from", dest="format", choices=FORMATS, default=None, help="input format (default: detected)"
    )
    convert.set_defaults(func=cmd_convert)

    replay = subparsers.add_parser("replay", help="check every move of every game in record files")
    replay.add_argument("files", nargs="+", metavar="FILE", help=".sgf, .pgn or GameString files")
    replay.add_argument("--format", choices=FORMATS, default=None, help="input format (default: detected)")
    replay.set_defaults(func=cmd_replay)
