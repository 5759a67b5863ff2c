"""What a game offers ``hive tune``, asked of the game rather than assumed of its kind: parameters to tune (its
AI's :attr:`~hive.plugin.GameAI.parameters`, set by :attr:`~hive.plugin.GameAI.searcher_with`), and readers of its
games' records for ``--texel`` (its plug-in's ``tune`` settings, each ``"module:attribute"``, imported only when
used). A game that offers none of them is still played by every other app."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..game import Game
from ..games import plugin_of
from ..plugin import GameSpec, load


class RecordedGame(Protocol):
    """A game as a reader of records gives it (Hive's :class:`hive.records.RecordedGame`)."""

    result: str
    errors: list[str]

    @property
    def board(self) -> Game[Any]:
        """The position after the last move replayed, its moves on its move stack."""
        ...

    def game_string(self) -> str:
        """The game as one text, the same for the same game whatever file it was read from."""
        ...


#: Reads the games of one record file.
FileReader = Callable[[Path], Iterator[RecordedGame]]
#: Reads games from the arena's records of them (its :attr:`~hive.arena.GameRecord.record`), one a text.
TextReader = Callable[[Iterable[str]], Iterator[RecordedGame]]


@dataclass(frozen=True)
class TuneSettings:
    """A game's readers for ``hive tune --texel`` (its plug-in's ``tune`` settings); ``None`` where it has none.

    :ivar records: ``read(path)`` yields the games of a record file, each with its ``result`` (``WhiteWins``,
        ``BlackWins``, ``Draw``...), final ``board``, ``errors`` and ``game_string()`` (Hive's:
        :func:`hive.records.iter_games`).
    :ivar replay: ``read(texts)`` yields the games of the arena's records, whatever result they declare (a game
        adjudicated at the move limit declares one its moves do not reach; Hive's:
        :func:`hive.records.read_game_strings`).
    """

    records: str | None = None
    replay: str | None = None


def tune_settings(game: GameSpec) -> TuneSettings:
    """What ``game``'s plug-in sets for ``hive tune``."""
    return plugin_of(game.kind).settings_for("tune", TuneSettings)


def has_parameters(game: GameSpec) -> bool:
    """Whether ``game``'s AI has parameters ``hive tune`` can set."""
    return bool(game.ai.parameters) and game.ai.searcher_with is not None


def record_reader(game: GameSpec) -> FileReader | None:
    """``game``'s reader of record files of real games, or ``None``."""
    reference = tune_settings(game).records
    return None if reference is None else load(reference)


def replay_reader(game: GameSpec) -> TextReader | None:
    """``game``'s reader of the arena's records, or ``None``."""
    reference = tune_settings(game).replay
    return None if reference is None else load(reference)


__all__ = [
    "FileReader",
    "RecordedGame",
    "TextReader",
    "TuneSettings",
    "has_parameters",
    "record_reader",
    "replay_reader",
    "tune_settings",
]
