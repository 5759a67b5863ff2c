"""Hive, with the Mosquito, Ladybug and Pillbug expansions: rules, notation, search and pictures.

Shaped like every game package: ``position`` is the compiled core (int moves), ``board`` the public board of the
game protocol (:mod:`hive.game`), ``evaluation`` and ``search`` its compiled AI, ``ai`` its levels and random
mover, ``render`` and ``svg`` its pictures; ``view`` and ``encoding`` are its parts of the browser game and of the
RL environment, which its plug-in names. It depends on the shared infrastructure only (:mod:`hive.game`,
:mod:`hive.search`, :mod:`hive.sdk`; the view also reads pasted records with :mod:`hive.records.pasted`), never on
another game or an app.
"""

from __future__ import annotations

from pathlib import Path

from ...game import InvalidPositionError as InvalidPositionError
from ...plugin import GameAI, GamePlugin, GameSpec
from . import ai as ai
from .board import Board as Board
from .endings import ENDINGS
from .errors import GameStringWarning as GameStringWarning
from .errors import IllegalMoveError as IllegalMoveError
from .errors import InvalidGameStringError as InvalidGameStringError
from .errors import InvalidGameTypeError as InvalidGameTypeError
from .errors import InvalidMoveError as InvalidMoveError
from .geometry import axial_of as axial_of
from .geometry import cell_of as cell_of
from .move import LegalMoveGenerator as LegalMoveGenerator
from .move import Move as Move
from .pieces import BLACK as BLACK
from .pieces import COLOUR_NAMES
from .pieces import GAME_TYPES as GAME_TYPES
from .pieces import PIECE_NAMES as PIECE_NAMES
from .pieces import WHITE as WHITE
from .pieces import GameType as GameType
from .position import Position as Position
from .search import Searcher as Searcher

#: How to type a move, for the terminal game.
HELP = "Type a move in UHP notation, e.g. 'wS1' (first move), 'bG1 -wS1', 'wB1 bG1' (climb on top), or 'pass'."

AI = GameAI(
    levels=ai.LEVELS,
    searcher=ai.searcher,
    random_move=ai.random_move,
    win_chance=ai.win_chance,
    parameters=ai.PARAMETERS,
    searcher_with=ai.searcher_with,
)


def _spec(game_type: GameType) -> GameSpec:
    name = str(game_type)
    return GameSpec(
        name=name,
        kind="hive",
        title="Hive",
        sides=COLOUR_NAMES,
        new=lambda **options: Board(name, **options),
        ai=AI,
        options=("tournament_opening", "repetition_draw"),
        move_noun="ply",
        record_noun="GameString",
    )


#: Every Hive game type, by name.
GAMES: dict[str, GameSpec] = {str(gt): _spec(gt) for gt in GAME_TYPES}


def find(name: str) -> GameSpec | None:
    """The game type called ``name`` (``Base``, ``base+mlp``, ``Base+PLM``...), or ``None``."""
    try:
        return GAMES[str(GameType.parse(name))]
    except InvalidGameTypeError:
        return None


#: The package as the registry knows it (:mod:`hive.games`).
PLUGIN = GamePlugin(
    kind="hive",
    games=GAMES,
    find=find,
    endings=ENDINGS,
    package=__name__,
    view="hive.games.hive.view:VIEW",
    encoding="hive.games.hive.encoding:ENCODING",
    static=Path(__file__).parent / "page",
    rules=Path(__file__).parent / "rules.md",
    locales=Path(__file__).parent / "locales",
    settings={
        # the repetition draw on, as hivegame.com and nokamute play
        "arena": {"options": {"repetition_draw": True}, "max_moves": 200},
        "cli": {"help": HELP},
        "web": {"hint_level": "medium", "play_noise": 4},
        "players": {"uhp": True},
        "rl": {"max_moves": 200},
        "tune": {"records": "hive.records:iter_games", "replay": "hive.records:read_game_strings"},
    },
)
