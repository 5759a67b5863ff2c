"""Pictures of Hive positions as standalone SVG, in the manner of python-chess's ``chess.svg``.

>>> import hive, hive.svg
>>> board = hive.Board("Base+MLP")
>>> move = board.push_uhp("wG1")
>>> picture = hive.svg.board(board, size=300, last_move=move)
>>> picture.startswith("<svg")
True

The drawing lives with Hive's rules (:mod:`hive.games.hive.svg`); HiveQueen's is :mod:`hive.games.hivequeen.svg`.
"""

from .games.hive.svg import GLYPHS, THEMES, Theme, board

__all__ = ["GLYPHS", "THEMES", "Theme", "board"]
