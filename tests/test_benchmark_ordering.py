"""``benchmarks.ordering``: nodes to a fixed depth over seeded self-play positions, the same from run to run."""

from __future__ import annotations

import re

import pytest
from benchmarks.ordering import main, self_play

import hive


def test_the_positions_are_seeded_games_in_progress() -> None:
    positions = self_play(4, 11)
    assert positions == self_play(4, 11) and positions != self_play(4, 12)
    for game_string in positions:
        board = hive.Board.from_game_string(game_string)
        assert not board.is_game_over() and 14 <= board.ply <= 49


def nodes(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    assert main(["--positions", "3", *args]) == 0
    line = capsys.readouterr().out
    found = re.search(r"depth \d+, 3 positions, ([\d,]+) nodes, .* moves digest (\w+)", line)
    assert found, line
    return int(found[1].replace(",", "")), found[2]


def test_the_counts_repeat_and_the_late_move_reductions_cut_them(capsys: pytest.CaptureFixture[str]) -> None:
    shipped = nodes(capsys, "--depth", "4")
    assert shipped == nodes(capsys, "--depth", "4") == nodes(capsys, "--depth", "4", "--values", '{"late_moves": 0}')
    reduced, _ = nodes(capsys, "--depth", "4", "--values", '{"late_moves": 2, "late_depth": 2}')
    assert reduced < shipped[0]
