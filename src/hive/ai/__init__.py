"""Players that choose moves: for now a seeded random mover."""

from .random_player import RandomPlayer

__all__ = ["RandomPlayer"]
