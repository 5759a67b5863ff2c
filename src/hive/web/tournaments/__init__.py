"""Club tournaments (``hive serve``): an organiser creates one, players join, and the server pairs each round and
starts its games, until the final standings."""

from .service import INVITE, Tournaments

__all__ = ["INVITE", "Tournaments"]
