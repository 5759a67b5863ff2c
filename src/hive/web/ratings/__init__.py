"""Ratings (``hive serve``): each account's Glicko-2 rating per game and speed, moved in the transaction that stores
a rated game's end, the leaderboards and each rating's history."""

from .repository import PlayerRating, RatedGame
from .service import Ratings

__all__ = ["PlayerRating", "RatedGame", "Ratings"]
