"""Players for every game: the built-in levels, the random mover and external UHP engines.

One interface serves the arena, the terminal game and the browser: a :class:`Player` chooses a move of the board
it is given, whatever the game. Everything a game brings (its levels, searcher and random mover) comes from its
:class:`~hive.plugin.GameSpec`, and whether UHP engines play it from its plug-in (:class:`PlayerSettings`).

>>> import hive
>>> from hive.players import make_player
>>> game = hive.find_game("Base")
>>> board = game()
>>> player = make_player("random", game, seed=1)
>>> board.push(player.choose(board))
>>> player.close()
"""

from .kinds import (
    EnginePlayer,
    Judge,
    Player,
    RandomPlayer,
    Reporting,
    SearchPlayer,
    Timed,
    configure_engine,
    make_player,
)
from .specs import (
    DEFAULT_ENGINE_TIME,
    PLAYER_CHOICES,
    THREAD_OPTIONS,
    InvalidPlayerError,
    PlayerSettings,
    PlayerSpec,
    check_player,
    describe,
    engine_limits,
    parse_player,
    player_settings,
    read_values,
    search_limits,
)

__all__ = [
    "DEFAULT_ENGINE_TIME",
    "PLAYER_CHOICES",
    "THREAD_OPTIONS",
    "EnginePlayer",
    "InvalidPlayerError",
    "Judge",
    "Player",
    "PlayerSettings",
    "PlayerSpec",
    "RandomPlayer",
    "Reporting",
    "SearchPlayer",
    "Timed",
    "check_player",
    "configure_engine",
    "describe",
    "engine_limits",
    "make_player",
    "parse_player",
    "player_settings",
    "read_values",
    "search_limits",
]
