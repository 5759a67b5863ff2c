"""The browser's AI keeps a game's transposition table between its moves, as the in-process player does, where the
same worker answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hive.web.ai import work
from hive.web.ai.work import choose_move
from hive.web.views import view_for

OPTIONS = view_for("hive").options({"game_type": "Base+MLP"})


@pytest.fixture(autouse=True)
def no_tables() -> Iterator[None]:
    work._tables.clear()
    yield
    work._tables.clear()


def test_a_games_table_is_kept_for_its_next_move() -> None:
    moves: list[str] = []
    moves.append(choose_move("hive", OPTIONS, moves, "medium", 1, None, None, "g1"))
    table = work._tables["g1"][1]
    assert len(table) > 0
    moves.append(choose_move("hive", OPTIONS, moves, "medium", 2, None, None, "g1"))
    assert work._tables["g1"][1] is table, "the game went on: its table searched again"
    choose_move("hive", OPTIONS, moves[:1], "medium", 3, None, None, "g1")  # a take-back
    assert work._tables["g1"][1] is table
    choose_move("hive", OPTIONS, ["wG1"], "medium", 4, None, None, "g1")  # not this game's moves
    assert work._tables["g1"][1] is not table
    choose_move("hive", OPTIONS, [], "medium", 5)  # no game: nothing kept
    assert list(work._tables) == ["g1"]


def test_a_worker_keeps_the_tables_of_its_last_games() -> None:
    for number in range(work.KEPT_TABLES + 2):
        choose_move("hive", OPTIONS, [], "easy", 1, None, None, f"g{number}")
    assert list(work._tables) == [f"g{number}" for number in range(2, work.KEPT_TABLES + 2)]
