"""The ``hive`` command line: perft output and the terminal game of every kind."""

from __future__ import annotations

import random
import socket
import subprocess
import sys

import pytest

import hive
from hive.cli import main
from hive.cli.play import play_terminal
from hive.games import find_game, plugin_of
from hive.players import RandomPlayer

BASE = find_game("Base")


def test_perft_prints_one_line_per_depth(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "Base+MLP", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines] == [["0", "1"], ["1", "7"], ["2", "294"], ["3", "6678"]]
    assert all(float(line.split()[2]) >= 0 for line in lines)


def test_perft_from_a_game_string(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "Base;InProgress;White[2];wS1;bS1 wS1-", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("1 15 ")


def test_perft_bad_input_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "Chess", "2"]) == 2
    assert "Unknown game 'Chess': expected one of Base," in capsys.readouterr().err
    assert main(["perft", "Base", "-1"]) == 2
    assert "depth" in capsys.readouterr().err


def test_console_script_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "hive", "--version"], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == f"hive {hive.__version__} ({hive.BUILD})"


def test_terminal_game_plays_to_the_end() -> None:
    """A scripted player (itself random) and the random mover finish a game; bad input is answered, not fatal."""
    board = hive.Board("Base")
    script = RandomPlayer(BASE, 1)
    outputs: list[str] = []
    inputs = iter(["", "help", "moves", "board", "nonsense", "wQ", "undo"])

    def read(prompt: str) -> str:
        for line in inputs:
            return line
        if board.ply > 400:
            return "quit"
        return board.uhp(script.choose(board))

    result = play_terminal(board, hive.WHITE, RandomPlayer(BASE, 2), read, outputs.append)
    text = "\n".join(outputs)
    assert "Not played: Invalid MoveString 'nonsense'" in text
    assert "Not played: You can't play your Queen Bee on your first turn." in text
    assert "Nothing to undo yet." in text
    assert result in ("WhiteWins", "BlackWins", "Draw", "Abandoned")
    if result != "Abandoned":
        assert text.splitlines()[-1] == board.game_string()


def test_terminal_game_ends_cleanly_on_end_of_input() -> None:
    def read(prompt: str) -> str:
        raise EOFError

    assert play_terminal(hive.Board(), hive.WHITE, RandomPlayer(BASE, 0), read, lambda s: None) == "Abandoned"


def test_play_with_a_bad_opponent_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--terminal", "--opponent", "grandmaster"]) == 2
    assert "'grandmaster'" in capsys.readouterr().err


def test_play_against_the_ai(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = iter(["wS1", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(lines))
    assert main(["play", "--terminal", "--opponent", "easy", "--game-type", "Base"]) == 0
    assert "easy plays b" in capsys.readouterr().out


def test_terminal_hivequeen_plays_to_the_end() -> None:
    """The same terminal game for HiveQueen: its notation, its sides, its help, its record."""
    game = find_game("HiveQueen")
    board = game()
    script = RandomPlayer(game, 1)
    outputs: list[str] = []
    inputs = iter(["help", "nonsense", "undo"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        for line in inputs:
            return line
        if len(board.move_stack) > 60:
            return "quit"
        return board.move_text(script.choose(board))

    result = play_terminal(board, 1, RandomPlayer(game, 2), read, outputs.append)
    text = "\n".join(outputs)
    assert plugin_of(game.kind).settings["cli"]["help"] in text
    assert "Not played: " in text and "Nothing to undo yet." in text
    assert prompts[0] == "North[1]> " and "random plays " in text
    assert result in ("SouthWins", "NorthWins", "Draw", "Abandoned")
    if result != "Abandoned":
        assert text.splitlines()[-1] == board.record().splitlines()[-1]


def test_play_hivequeen_in_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = iter(["quit"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(lines))
    assert main(["play", "--terminal", "--game", "hivequeen", "--opponent", "random", "--colour", "north"]) == 0
    assert "random plays " in capsys.readouterr().out
    assert main(["play", "--terminal", "--game", "hivequeen", "--colour", "white"]) == 2
    assert "--colour must be south or north in HiveQueen, not 'white'" in capsys.readouterr().err
    assert main(["play", "--terminal", "--game", "hivequeen", "--opponent", "uhp:nokamute uhp"]) == 2
    assert "UHP engines play Hive only" in capsys.readouterr().err
    assert main(["play", "--terminal", "--game", "hivequeen", "--original-opening"]) == 2
    assert "--original-opening is not a rule of HiveQueen" in capsys.readouterr().err


def test_play_in_the_browser_refuses_a_bad_or_busy_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--no-browser", "--port", "70000"]) == 2
    assert "--port must be 0..65535, not 70000" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["play", "--no-browser", "--port", str(port)]) == 2
    assert f"Port {port} on 127.0.0.1 is in use" in capsys.readouterr().err


def test_perft_counts_every_game_s_moves(capsys: pytest.CaptureFixture[str]) -> None:
    """HiveQueen through the game protocol: whole turns, from its start or from a position record, counted as a
    board's copies count them."""
    queen = find_game("HiveQueen")
    assert main(["perft", "HiveQueen", "1"]) == 0
    assert [line.split()[:2] for line in capsys.readouterr().out.splitlines()] == [
        ["0", "1"],
        ["1", str(len(list(queen().legal_moves)))],
    ]
    board = queen()
    rng = random.Random(3)
    while len(board.move_stack) < 30 and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    after = [board.copy() for _ in board.legal_moves]
    for copy, move in zip(after, board.legal_moves, strict=True):
        copy.push(move)
    expected = sum(0 if copy.is_game_over() else len(list(copy.legal_moves)) for copy in after)
    assert main(["perft", board.position_text(), "2"]) == 0
    assert capsys.readouterr().out.splitlines()[2].split()[:2] == ["2", str(expected)]
    assert main(["perft", "HiveQueen;North[1]", "1"]) == 2
    assert "from a position record" in capsys.readouterr().err
    assert main(["perft", "HiveQueen", "1", "--original-opening"]) == 2
    assert "no opening rule" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--bogus"], ["--bogus", "play"], ["-x"]])
def test_an_unknown_option_before_the_command_is_named(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert f"unrecognized option {argv[0]!r}" in err and "required: command" not in err


@pytest.mark.parametrize("name", ["Base+MLP", "HiveQueen"])
def test_the_terminal_game_numbers_the_moves_and_plays_one_by_its_number(name: str) -> None:
    spec = find_game(name)
    board = spec()
    first = sorted(board.move_text(move) for move in board.legal_moves)
    outputs: list[str] = []
    inputs = iter(["moves", "0", str(len(first) + 1), "2", "quit"])
    assert play_terminal(board, 0, RandomPlayer(spec, 1), lambda prompt: next(inputs), outputs.append) == "Abandoned"
    listing = outputs[2].splitlines()  # after the help and the board
    assert listing[0].lstrip().startswith(f"1. {first[0]}") and f"{len(first)}. {first[-1]}" in listing[-1]
    assert all(len(line) <= 80 for line in listing)
    assert f"there is no move 0 here; 'moves' lists {len(first)}" in outputs[3]
    assert f"there is no move {len(first) + 1} here" in outputs[4]
    assert board.move_stack[0] == spec().parse_move(first[1])  # move 2, then the opponent's answer
