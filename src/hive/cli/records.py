"""``hive convert``, ``hive replay`` and ``hive scan``: the command line over :mod:`hive.records`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO, TypeVar

from ..records import (
    EXTENSIONS,
    FORMATS,
    WRITERS,
    HeaderFilter,
    InvalidFilterError,
    RecordedGame,
    RecordFormatError,
    RecordHeaders,
    Where,
    detect_format,
    iter_games,
    iter_headers,
)
from ..records.text import printable

_T = TypeVar("_T")


def _named(path: str, games: Iterator[RecordedGame]) -> Iterator[tuple[str, RecordedGame]]:
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


def _filtered(path: str, fmt: str | None, where: Where | None) -> Iterator[tuple[str, RecordedGame]]:
    """The games of a file with their names; with a filter, the games it accepts, named by their place in the file."""
    if where is None:
        yield from _named(path, iter_games(path, fmt))
        return
    places: list[int] = []

    def accept(found: RecordHeaders) -> bool:
        if where(found):
            places.append(found.number)
            return True
        return False

    for game in iter_games(path, fmt, accept):
        yield f"{path}#{places.pop(0)}", game


def _say(line: str, stream: TextIO | None = None) -> None:
    """Print a line: the text of a record in it, which may hold anything, is written with its control characters
    (and anything else that does not print, such as terminal escape sequences) escaped."""
    print(printable(line), file=stream or sys.stdout, flush=True)


def _failure(game: RecordedGame) -> str:
    """``ILLEGAL move N 'text': rule`` for a bad move, ``INVALID <what>`` for anything else wrong."""
    message = next((e for e in game.errors if e.startswith("move ")), None)
    return f"ILLEGAL {message}" if message else f"INVALID {game.errors[0]}"


class _Files:
    """The files a command reads: each one that cannot be read is named on standard error and counted."""

    def __init__(self, command: str, where: HeaderFilter | None) -> None:
        self.command = command
        #: The filter the command's options give, ``None`` without any.
        self.where = where
        self.unreadable = 0

    def each(self, paths: list[str], read: Callable[[str], Iterator[_T]]) -> Iterator[_T]:
        """What ``read`` yields for each path in turn."""
        for path in paths:
            try:
                yield from read(path)
            except (OSError, RecordFormatError) as err:
                self.unreadable += 1
                _say(f"hive {self.command}: {_unreadable(path, err)}", sys.stderr)

    def total(self, text: str) -> str:
        """The command's last line: ``text`` and the files it could not read."""
        return text + (f", {self.unreadable} unreadable files" if self.unreadable else "")


def cmd_replay(args: argparse.Namespace) -> int:
    """``hive replay FILE...``: check every move of every game, one line per game, then a total."""
    files = _files(args, "replay")
    if isinstance(files, int):
        return files
    total = failed = 0
    for name, game in files.each(args.files, lambda path: _filtered(path, args.format, files.where)):
        total += 1
        if game.errors:
            failed += 1
            kind, _, message = _failure(game).partition(" ")
            _say(f"{kind} {name} {message}")
        else:
            _say(f"OK {name} {len(game.moves)} {game.result}")
        for warning in game.warnings:
            _say(f"WARNING {name} {warning}")
    _say(files.total(f"total {total} game{'' if total == 1 else 's'}: {total - failed} OK, {failed} failed"))
    return 2 if files.unreadable else 1 if failed else 0


def cmd_scan(args: argparse.Namespace) -> int:
    """``hive scan FILE...``: list the games (their headers, no move replayed) that match the filters."""
    files = _files(args, "scan")
    if isinstance(files, int):
        return files
    total = matched = 0
    for path, found in files.each(args.files, lambda path: ((path, f) for f in iter_headers(path, args.format))):
        total += 1
        if files.where is not None and not files.where(found):
            continue
        matched += 1
        headers = found.headers
        fields = [f"{path}#{found.number}", headers.get("White", ""), headers.get("Black", "")]
        fields += [headers.get("GameType", "?"), headers.get("Date", ""), headers.get("Result", "InProgress")]
        fields.append(str(found.moves))
        fields.extend(f"INVALID {error}" for error in found.errors[:1])
        print("\t".join(printable(field) for field in fields), flush=True)  # tabs between the fields only
    _say(files.total(f"total {matched} of {total} game{'' if total == 1 else 's'} matched"))
    return 2 if files.unreadable else 0 if matched else 1


def _unreadable(path: str, err: OSError | RecordFormatError) -> str:
    if isinstance(err, OSError):
        return f"cannot read {path}: {err.strerror or err}"
    return str(err)


def _files(args: argparse.Namespace, command: str) -> _Files | int:
    """The files of a command, with the filter its options give; or the exit code 2 after naming a bad value."""
    values = {name: getattr(args, name) for name in _FILTERS if getattr(args, name) is not None}
    try:
        return _Files(command, HeaderFilter(**values) if values else None)
    except InvalidFilterError as err:
        _say(f"hive {command}: {err}", sys.stderr)
        return 2


def cmd_convert(args: argparse.Namespace) -> int:
    """``hive convert INPUT -o OUTPUT [--to FORMAT]``: rewrite a record file in another format.

    The output is written whole or not at all: to a file beside it first, which replaces it once every game is
    written. An unreadable input, a game that cannot be read whole or written, or no game to write leaves an existing
    output as it was, unless ``--partial`` asks for what could be read (the exit status is 1 all the same).
    """
    source: str = args.input
    output: str | None = args.output if args.output != "-" else None
    files = _files(args, "convert")
    if isinstance(files, int):
        return files
    where = files.where
    try:  # the input first: a missing file is the first thing to say
        with open(source, encoding="utf-8-sig", errors="replace") as probe:
            head = probe.read(4096)
        fmt = args.format or detect_format(source, head)
        if output and Path(output).exists() and Path(output).samefile(source):
            _say(f"hive convert: the output {output} is the input file", sys.stderr)
            return 2
    except (OSError, RecordFormatError) as err:
        _say(f"hive convert: {_unreadable(source, err)}", sys.stderr)
        return 2
    target: str | None = args.to
    if target is None:
        target = EXTENSIONS.get(Path(output).suffix.lower() if output else "")
        if target is None:
            _say(
                "hive convert: give --to pgn|gamestring|sgf, or an output file ending in .pgn, .sgf or .txt", sys.stderr
            )
            return 2
    if output is None:
        code, written = _convert(source, fmt, target, where, sys.stdout)
        if not written and code != 2:
            _say("hive convert: no game to write", sys.stderr)
            return 1
        return code
    part = Path(output).with_name(f".{Path(output).name}.{os.getpid()}.part")
    try:
        sink = open(part, "x", encoding="utf-8")  # noqa: SIM115
    except OSError as err:
        _say(f"hive convert: cannot write {output}: {err.strerror or err}", sys.stderr)
        return 2
    try:
        with sink:
            code, written = _convert(source, fmt, target, where, sink)
        if written and (code == 0 or args.partial):
            os.replace(part, output)
        elif code == 1 and written:
            _say(
                f"hive convert: {output} is left as it was, as not every game could be converted whole"
                " (--partial writes what could be read)",
                sys.stderr,
            )
        elif code != 2:
            _say(f"hive convert: no game to write; {output} is left as it was", sys.stderr)
            code = 1
    except OSError as err:
        _say(f"hive convert: cannot write {output}: {err.strerror or err}", sys.stderr)
        code = 2
    finally:
        part.unlink(missing_ok=True)
    return code


def _convert(source: str, fmt: str, target: str, where: Where | None, sink: TextIO) -> tuple[int, int]:
    """Write the games of ``source`` to ``sink``: the exit code and the number of games written (none on an
    unreadable input)."""
    writer = WRITERS[target]
    failed = written = 0
    try:
        for name, game in _filtered(source, fmt, where):
            label = name.replace("#", " game ")
            if game.errors:
                failed += 1
                _say(f"hive convert: {label}: {_failure(game)}", sys.stderr)
            for warning in game.warnings:
                _say(f"hive convert: {label}: warning: {warning}", sys.stderr)
            try:
                text = writer(game)
            except ValueError as err:
                failed += 1
                _say(f"hive convert: {label}: {err}", sys.stderr)
                continue
            if written and target != "gamestring":
                sink.write("\n")
            if sink.isatty():
                text = "\n".join(printable(line) for line in text.split("\n"))
            sink.write(text if text.endswith("\n") else text + "\n")
            written += 1
    except (OSError, RecordFormatError) as err:
        _say(f"hive convert: {_unreadable(source, err)}", sys.stderr)
        return 2, 0
    return (1 if failed else 0), written


_FILTERS = ("player", "white", "black", "game_type", "result", "min_moves", "max_moves", "since", "until")


def _add_filters(parser: argparse.ArgumentParser) -> None:
    """The options of a :class:`~hive.records.HeaderFilter`: games are chosen by their headers, unreplayed."""
    group = parser.add_argument_group("filters (on the headers, read without replaying the moves)")
    group.add_argument("--player", help="either player's name contains this (letter case aside)")
    group.add_argument("--white", help="White's name contains this")
    group.add_argument("--black", help="Black's name contains this")
    group.add_argument("--game-type", help="exactly this game type, e.g. Base+MLP")
    group.add_argument("--result", help="WhiteWins, BlackWins, Draw or InProgress (as the record states it)")
    group.add_argument("--min-moves", type=int, metavar="N", help="at least N moves")
    group.add_argument("--max-moves", type=int, metavar="N", help="at most N moves")
    group.add_argument("--since", metavar="DATE", help="played on or after DATE (YYYY, YYYY.MM or YYYY.MM.DD)")
    group.add_argument("--until", metavar="DATE", help="played on or before DATE")


def add_parsers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``convert``, ``replay`` and ``scan`` commands on the ``hive`` command's subparsers."""
    convert = subparsers.add_parser(
        "convert", help="convert game records between SGF (Boardspace), PGN and UHP GameStrings"
    )
    convert.add_argument("input", help="a .sgf, .pgn or GameString file")
    convert.add_argument("-o", "--output", default=None, help="the file to write (default: standard output)")
    convert.add_argument(
        "--partial",
        action="store_true",
        help="write the output file even when some games cannot be read whole: what could be read of them",
    )
    convert.add_argument(
        "--to", choices=FORMATS, default=None, help="output format (default: by the output's extension)"
    )
    convert.add_argument(
        "--from", dest="format", choices=FORMATS, default=None, help="input format (default: detected)"
    )
    _add_filters(convert)
    convert.set_defaults(func=cmd_convert)

    replay = subparsers.add_parser("replay", help="check every move of every game in record files")
    replay.add_argument("files", nargs="+", metavar="FILE", help=".sgf, .pgn or GameString files")
    replay.add_argument("--format", choices=FORMATS, default=None, help="input format (default: detected)")
    _add_filters(replay)
    replay.set_defaults(func=cmd_replay)

    scan = subparsers.add_parser(
        "scan", help="list the games of record files by their headers, fast (no move replayed), with filters"
    )
    scan.add_argument("files", nargs="+", metavar="FILE", help=".sgf, .pgn or GameString files")
    scan.add_argument("--format", choices=FORMATS, default=None, help="input format (default: detected)")
    _add_filters(scan)
    scan.set_defaults(func=cmd_scan)
