"""Coverage-guided fuzzing of the text readers with atheris: ``python -m tests.fuzz.targets TARGET [libFuzzer args]``.

Each target feeds arbitrary text to a reader and fails on any exception other than the documented ones (the
``ValueError`` subclasses that name what was wrong), or on an error message that quotes more than the input.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import atheris

import hive
from hive.game import InvalidRecordError
from hive.records import FORMATS, RecordFormatError, read_string
from hive.uhp import UHPEngine

DOCUMENTED = (
    hive.InvalidGameStringError,
    hive.InvalidGameTypeError,
    hive.InvalidMoveError,
    hive.IllegalMoveError,
    InvalidRecordError,
    RecordFormatError,
)


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def game_string(data: bytes) -> None:
    text = _text(data)
    try:
        board = hive.Board.from_game_string(text)
    except DOCUMENTED as err:
        assert type(err) is not ValueError
        return
    again = hive.Board.from_game_string(board.game_string())
    assert again.game_string() == board.game_string()


def records(data: bytes) -> None:
    text = _text(data)
    for fmt in FORMATS:
        try:
            games = read_string(text, fmt)
        except DOCUMENTED:
            continue
        for game in games:
            for error in game.errors:
                # the readers' safety net names any exception it caught: each one is a reader's bug
                assert isinstance(error, str) and "could not be read (" not in error, error
                assert len(error) < 2_000, error


def uhp(data: bytes) -> None:
    engine = UHPEngine()
    for line in _text(data).splitlines()[:20]:
        if line.split()[:1] in (["bestmove"], ["perft"]):
            continue  # searches are bounded by time, not by their text
        out = engine.handle(line)
        assert out == [] or out[-1] == "ok"
        assert not any(text.startswith(("err ValueError", "err IndexError", "err KeyError")) for text in out), out


TARGETS: dict[str, Callable[[bytes], None]] = {"gamestring": game_string, "records": records, "uhp": uhp}


def main() -> None:
    target = TARGETS[sys.argv[1]]
    atheris.instrument_all()
    atheris.Setup([sys.argv[0], *sys.argv[2:]], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
