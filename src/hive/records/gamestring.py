"""Reading UHP GameStrings, one game per line."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..games.hive import Board, InvalidGameStringError, InvalidGameTypeError
from .game import FINISHED, Game
from .replay import game_from_moves, normalise_result


def read_game_strings(handle: Iterable[str]) -> Iterator[Game]:
    """Read UHP GameStrings, one game per line (blank lines and ``#`` comments are skipped)."""
    for raw in handle:
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        tokens = [t.strip() for t in line.split(";")]
        texts = [t for t in tokens[3:] if t]
        try:
            Board.from_record(";".join(tokens[:3]))  # the header tokens only: the moves are replayed below
        except (InvalidGameStringError, InvalidGameTypeError) as err:
            game = Game(errors=[str(err)])
            game.headers.update({"GameType": str(game.game_type), "Result": "InProgress"})
            yield game
            continue
        game = game_from_moves({"GameType": tokens[0]}, texts, [])
        declared = normalise_result(tokens[1]) if len(tokens) > 1 else None
        if game.result == "InProgress" and declared in FINISHED and not game.errors:
            game.errors.append(f"state {tokens[1]} disagrees with the position after the moves (InProgress)")
        yield game
