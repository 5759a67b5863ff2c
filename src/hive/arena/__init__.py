"""The arena: matches between two players of any game, in parallel, with an Elo estimate (``hive match``).

A player is a built-in level (``easy``, ``medium``, ``hard``, ``max``), ``random``, or ``uhp:<command line>`` for
an external UHP engine where the game is Hive's (see :mod:`hive.players`). Games come in pairs: both games of a pair
start from the same random opening, with the players' sides swapped.

>>> from hive.arena import run_match
>>> result = run_match("random", "easy", games=2, game="Base", jobs=1, seed=1)  # doctest: +SKIP
>>> result.wins, result.draws, result.losses, result.elo()  # doctest: +SKIP

Its parts: :mod:`~hive.arena.loop` plays one game, :mod:`~hive.arena.openings` draws the openings,
:mod:`~hive.arena.stats` scores the games, :mod:`~hive.arena.match` runs the match.
"""

from .loop import PlayedGame, forfeit, game_spec, new_board, play_game
from .match import check_settings, run_match
from .openings import opening_score, random_opening
from .stats import GameRecord, MatchResult, elo_difference, plural, plural_noun, progress_line

__all__ = [
    "GameRecord",
    "MatchResult",
    "PlayedGame",
    "check_settings",
    "elo_difference",
    "forfeit",
    "game_spec",
    "new_board",
    "opening_score",
    "play_game",
    "plural",
    "plural_noun",
    "progress_line",
    "random_opening",
    "run_match",
]
