"""HiveQueen: L. Lynn Smith's "Hive" on a 61-cell field, with captures and production.

Shaped like every game package (see :mod:`hive.games.hive`): ``position`` is the compiled step core, ``board`` the
public board of the game protocol, ``evaluation`` and ``search`` its compiled AI, ``ai`` its levels and random
mover, ``records`` and ``svg`` its record format and pictures, ``view`` and ``encoding`` its parts of the browser
game and of the RL environment.

>>> from hive.games import hivequeen
>>> board = hivequeen.Board()
>>> board.push_text("Wc3-c4;+Sd4")
Turn(origin=45, destination=37, promote=False, productions=(Production(kind=6, cell=38),))
"""

from __future__ import annotations

from pathlib import Path

from ...game import IllegalMoveError, InvalidMoveError
from ...plugin import GameAI, GamePlugin, GameSpec
from . import ai
from .board import GAME_NAME, Board
from .endings import ENDINGS
from .geometry import CELLS, NAMES, cell_name, parse_cell
from .move import LegalTurns, Production, Turn
from .position import Position
from .rules import COLOUR_NAMES
from .search import Searcher

#: How to type a turn, for the terminal game.
HELP = (
    "Type a turn in HiveQueen notation: the movement, e.g. 'Wc3-c4' or 'Ha1xa5' (a capture) or 'Hb1=Q' "
    "(a promotion), then ';+<piece><cell>' for each piece produced, e.g. 'Wc3-c4;+Sd4'."
)

SPEC = GameSpec(
    name=GAME_NAME,
    kind="hivequeen",
    title="HiveQueen",
    sides=COLOUR_NAMES,
    new=Board,
    ai=GameAI(levels=ai.LEVELS, searcher=ai.searcher, random_move=ai.random_move),  # scores not calibrated as chances
    move_noun="turn",
    record_noun="HiveQueen record",
)

#: The game by name.
GAMES: dict[str, GameSpec] = {SPEC.name: SPEC}


def find(name: str) -> GameSpec | None:
    """HiveQueen's spec when ``name`` is ``HiveQueen`` (in any case), else ``None``."""
    return SPEC if name.strip().lower() == GAME_NAME.lower() else None


#: The package as the registry knows it (:mod:`hive.games`).
PLUGIN = GamePlugin(
    kind="hivequeen",
    games=GAMES,
    find=find,
    endings=ENDINGS,
    package=__name__,
    view="hive.games.hivequeen.view:VIEW",
    encoding="hive.games.hivequeen.encoding:ENCODING",
    static=Path(__file__).parent / "page",
    rules=Path(__file__).parent / "rules.md",
    locales=Path(__file__).parent / "locales",
    settings={
        # Random turns can decide a game at once (a random production in reach of an enemy Soldier, a Drone moved off
        # its Queen), so that the colour, not the player, wins both games of a pair: the arena draws an opening
        # again until a 3-turn search scores it within 100 (about a Worker).
        "arena": {"max_moves": 400, "balanced_openings": {"depth": 3, "margin": 100, "tries": 100}},
        "cli": {"help": HELP},
        "web": {"hint_level": "easy", "play_noise": 0},  # the deeper levels take seconds a turn
        "rl": {"max_moves": 400},
    },
)

__all__ = [
    "CELLS",
    "GAMES",
    "NAMES",
    "PLUGIN",
    "SPEC",
    "Board",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalTurns",
    "Position",
    "Production",
    "Searcher",
    "Turn",
    "cell_name",
    "find",
    "parse_cell",
]
