"""Game records: Boardspace SGF, PGN (Mzinga's and hivegame.com's dialects) and UHP GameStrings.

Modelled on python-chess's ``chess.pgn``: readers are generators over an open text file and
yield one :class:`RecordedGame` at a time, so an archive of any size is read in constant memory::

    import hive.records

    with open("games.pgn", encoding="utf-8") as handle:
        for game in hive.records.read_pgn(handle):
            print(game.headers.get("White"), len(game.moves), game.result, game.errors)

Every move is replayed and checked. A record whose move is illegal yields the game up to that
move, with an error naming the move number, the move text and the rule broken; the reader then
goes on with the next game of the file. Records are read liberally (forms other programs write,
Boardspace's viewer events) with a warning on the game, and always written canonically.

Any text is safe to read: every reader runs in time linear in its input and in bounded memory. An SGF property
value, a PGN line or a GameString line longer than :data:`hive.records.text.MAX_TEXT` characters (1 MiB) is an
error on its game and skipped without being held; an error quotes at most 200 characters of a record with the
length of what it cut; anything else a record makes go wrong is an error on that game alone, and the games after
it are read. :func:`hive.records.text.printable` escapes what a terminal should not be sent (``hive replay``,
``hive scan`` and ``hive convert`` print record text through it).

Headers alone are read much faster, without replaying a move, for filtering a large archive; a
filter given as ``where=`` replays only the games it accepts::

    from hive.records import HeaderFilter, iter_games, iter_headers

    for found in iter_headers("archive.sgf"):
        print(found.number, found.headers["White"], found.headers["Black"], found.moves)
    for game in iter_games("archive.sgf", where=HeaderFilter(player="Dumbot", min_moves=40)):
        ...
"""

from __future__ import annotations

from .detect import EXTENSIONS, FORMATS, WRITERS, detect_format, iter_games, iter_headers, read_string
from .gamestring import read_game_string_headers, read_game_strings
from .pgn import read_pgn, read_pgn_headers
from .recorded import RESULTS, RecordedGame, RecordFormatError, RecordHeaders, Where, write_game_string, write_pgn
from .scan import HeaderFilter, InvalidFilterError
from .sgf_reader import read_sgf, read_sgf_headers
from .sgf_writer import write_sgf

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "RESULTS",
    "WRITERS",
    "HeaderFilter",
    "InvalidFilterError",
    "RecordFormatError",
    "RecordHeaders",
    "RecordedGame",
    "Where",
    "detect_format",
    "iter_games",
    "iter_headers",
    "read_game_string_headers",
    "read_game_strings",
    "read_pgn",
    "read_pgn_headers",
    "read_sgf",
    "read_sgf_headers",
    "read_string",
    "write_game_string",
    "write_pgn",
    "write_sgf",
]
