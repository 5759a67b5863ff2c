"""The arena: matches between two players of any game, in parallel, with an Elo estimate (``hive match``).

A player is a built-in level (``easy``, ``medium``, ``hard``, ``max``), ``random``, or ``uhp:<command line>`` for
an external UHP engine where the game is Hive's (see :mod:`hive.players`). Games come in pairs: both games of a pair
start from the same random opening, with the players' sides swapped. They are played in this process, in worker
processes or on a Ray cluster (``ray=``), with the same results, and a sequential probability ratio test
(``sprt=``) can stop the match as soon as it is decided.

>>> from hive.arena import MatchPlan, run_match
>>> result = run_match("random", "easy", MatchPlan(game="Base", games=2, jobs=1, seed=1))  # doctest: +SKIP
>>> result.wins, result.draws, result.losses, result.elo()  # doctest: +SKIP

Its parts: :mod:`~hive.arena.plan` says how a match's games are played (:class:`MatchPlan`, which every caller
builds and hands over), :mod:`~hive.arena.loop` plays one game, :mod:`~hive.arena.openings` draws the openings,
:mod:`~hive.arena.stats` scores the games, :mod:`~hive.arena.thinking` times the players' moves,
:mod:`~hive.arena.sprt` tests them, :mod:`~hive.arena.tasks` makes them tasks, :mod:`~hive.arena.runners` and
:mod:`~hive.arena.cluster` (Ray) play them, :mod:`~hive.arena.match` runs the match.
"""

from .loop import PlayedGame, forfeit, game_spec, judge_game, new_board, play_game, rules_state
from .match import run_match
from .openings import opening_score, random_opening
from .plan import MatchPlan
from .sprt import Sprt, SprtError, SprtResult, elo_score, log_likelihood_ratio
from .stats import GameRecord, MatchResult, elo_difference, games_thinking, plural, plural_noun, progress_line
from .thinking import Thinking

__all__ = [
    "GameRecord",
    "MatchPlan",
    "MatchResult",
    "PlayedGame",
    "Sprt",
    "SprtError",
    "SprtResult",
    "Thinking",
    "elo_difference",
    "elo_score",
    "forfeit",
    "game_spec",
    "games_thinking",
    "judge_game",
    "log_likelihood_ratio",
    "new_board",
    "opening_score",
    "play_game",
    "plural",
    "plural_noun",
    "progress_line",
    "random_opening",
    "rules_state",
    "run_match",
]
