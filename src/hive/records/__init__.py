"""Game records: Boardspace SGF, PGN (Mzinga's and hivegame.com's dialects) and UHP GameStrings.

Modelled on python-chess's ``chess.pgn``: readers are generators over an open text file and
yield one :class:`Game` at a time, so an archive of any size is read in constant memory::

    import hive.records

    with open("games.pgn", encoding="utf-8") as handle:
        for game in hive.records.read_pgn(handle):
            print(game.headers.get("White"), len(game.moves), game.result, game.errors)

Every move is replayed and checked. A record whose move is illegal yields the game up to that
move, with an error naming the move number, the move text and the rule broken; the reader then
goes on with the next game of the file.
"""

from __future__ import annotations

from .detect import EXTENSIONS, FORMATS, WRITERS, detect_format, iter_games, read_string
from .game import RESULTS, Game, RecordFormatError, write_game_string, write_pgn
from .gamestring import read_game_strings
from .pgn import read_pgn
from .sgf_reader import read_sgf
from .sgf_writer import write_sgf

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "RESULTS",
    "WRITERS",
    "Game",
    "RecordFormatError",
    "detect_format",
    "iter_games",
    "read_game_strings",
    "read_pgn",
    "read_sgf",
    "read_string",
    "write_game_string",
    "write_pgn",
    "write_sgf",
]
