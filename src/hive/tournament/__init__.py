"""Tournaments: pairings and standings for players on the server and for engines in the arena.

The library knows nothing of games, HTTP or processes: players are names, a game is who met whom and the score.

- :class:`Tournament`: a round robin (Berger tables, single or double) or a Swiss tournament (a simplified Dutch
  system, stated in :mod:`hive.tournament.swiss`), paired one round at a time, with late joins and withdrawals;
  its state is data (:meth:`Tournament.to_json`), read back to the same next pairings.
- :func:`standings`: points and tie-breaks (Sonneborn-Berger, Buchholz and Cut-1, head-to-head, wins) of any list
  of games.
- :func:`round_robin_rounds` and :func:`berger_table`: a whole round robin's schedule at once.

>>> from hive.tournament import Tournament
>>> t = Tournament("swiss", rounds=3)
>>> for name in ["ann", "ben", "cat", "dan"]:
...     t.join(name)
>>> [game.describe() for game in t.pair_round()]
['ann - cat …', 'dan - ben …']
>>> _ = t.report(1, 1, 1); _ = t.report(1, 2, 0.5)
>>> [(s.rank, s.player, s.points) for s in t.standings()]
[(1, 'ann', 1.0), (2, 'ben', 0.5), (2, 'dan', 0.5), (4, 'cat', 0.0)]
"""

from __future__ import annotations

from .games import RESULTS, Game, PairingError, TournamentError, check_result
from .roundrobin import berger_table, round_robin_rounds
from .standings import TIEBREAKS, Standing, check_tiebreaks, standings
from .swiss import History, swiss_round
from .tournament import DEFAULT_TIEBREAKS, FORMATS, ROUND_ROBIN, SWISS, Tournament

__all__ = [
    "DEFAULT_TIEBREAKS",
    "FORMATS",
    "RESULTS",
    "ROUND_ROBIN",
    "SWISS",
    "TIEBREAKS",
    "Game",
    "History",
    "PairingError",
    "Standing",
    "Tournament",
    "TournamentError",
    "berger_table",
    "check_result",
    "check_tiebreaks",
    "round_robin_rounds",
    "standings",
    "swiss_round",
]
