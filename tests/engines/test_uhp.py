"""The UHP engine: a scripted session over every command and error, the process, and a fuzz of malformed input."""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import string
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest

import hive
from hive.cli.uhp import add_parser, main
from hive.games.hive import Searcher
from hive.games.hive.ai import LEVELS
from hive.uhp import UHPEngine, run

from ..positions import BLACK_QUEEN_TRAPPED, MIDGAME, PASS_ONLY
from ..processes import Engine

COMMANDS = "info, newgame, play, pass, validmoves, bestmove, undo, options, perft, exit"
NO_GAME = "err No game in progress. Try 'newgame' to start a new game."
GAME_TYPES = "Base, Base+M, Base+L, Base+P, Base+ML, Base+MP, Base+LP, Base+MLP"
OPTIONS = [
    "TournamentOpening;bool;True;True",
    "RepetitionDraw;bool;True;True",
    "DefaultLevel;enum;hard;hard;" + ";".join(LEVELS),
    "MaxTime;int;600;600;1;86400",
    "TTSizeMB;int;250;250;1;65536",
    "Threads;int;1;1;1;16",
]
OPTION_KEYS = "TournamentOpening, RepetitionDraw, DefaultLevel, MaxTime, TTSizeMB, Threads"

# The third occurrence of the position after White's 1st queen move (nokamute's UHP tests).
REPETITION = (
    r"Base;Draw;White[7];wS1;bB1 wS1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;"
    r"wQ \wS1;bQ bB1\ "
)

Expected = list[str] | Callable[[list[str]], bool]


def check_reply(line: str, out: list[str]) -> None:
    """The framing every reply obeys: exactly one ``ok``, last; single lines; no crash report."""
    if line.split() and line.split()[0].lower() == "exit" and len(line.split()) == 1:
        assert out == [], (line, out)
        return
    assert out and out[-1] == "ok", (line, out)
    assert out.count("ok") == 1, (line, out)
    for text in out:
        assert isinstance(text, str)
        assert not any(ch in text for ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"), (line, text)
        assert not re.match(r"err [A-Za-z_][\w.]*: ", text), f"unexpected exception for {line!r}: {text}"


def play_script(engine: UHPEngine, script: list[tuple[str, Expected]]) -> None:
    for line, expected in script:
        out = engine.handle(line)
        check_reply(line, out)
        if callable(expected):
            assert expected(out[:-1]), (line, out)
        else:
            assert out[:-1] == expected, (line, out)


def moves_are(*moves: str) -> Callable[[list[str]], bool]:
    return lambda body: len(body) == 1 and set(body[0].split(";")) == set(moves)


def legal_move(game_string: str) -> Callable[[list[str]], bool]:
    def check(body: list[str]) -> bool:
        board = hive.Board.from_game_string(game_string, repetition_draw=True)
        return len(body) == 1 and board.parse_uhp(body[0]) in board.legal_moves

    return check


def perft_lines(*counts: int) -> Callable[[list[str]], bool]:
    def check(body: list[str]) -> bool:
        rows = [line.split() for line in body]
        return [row[:2] for row in rows] == [[str(d), str(c)] for d, c in enumerate(counts)] and all(
            float(row[2]) >= 0 for row in rows
        )

    return check


def test_banner_and_info() -> None:
    engine = UHPEngine()
    assert engine.banner() == [f"id hive {hive.__version__}", "Mosquito;Ladybug;Pillbug", "ok"]
    assert engine.handle("info") == engine.banner()
    assert engine.handle("  INFO \r\n") == engine.banner()


def test_commands_before_newgame() -> None:
    play_script(
        UHPEngine(),
        [
            ("play wS1", [NO_GAME]),
            ("pass", [NO_GAME]),
            ("validmoves", [NO_GAME]),
            ("bestmove", [NO_GAME]),
            ("bestmove depth 1", [NO_GAME]),
            ("undo", [NO_GAME]),
            ("perft 1", [NO_GAME]),
            ("options", OPTIONS),
            ("info", [f"id hive {hive.__version__}", "Mosquito;Ladybug;Pillbug"]),
        ],
    )


def test_scripted_session() -> None:
    after_2 = "Base;InProgress;White[2];wS1;bS1 wS1-"
    after_3 = r"Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1"
    script: list[tuple[str, Expected]] = [
        ("", [f"err Empty command. Commands: {COMMANDS}."]),
        ("   \t ", [f"err Empty command. Commands: {COMMANDS}."]),
        ("hello world", [f"err Unknown command 'hello'. Commands: {COMMANDS}."]),
        ("\x00\x01", [f"err Unknown command '\\x00\\x01'. Commands: {COMMANDS}."]),
        ("x" * 100, [f"err Unknown command '{'x' * 60}...'. Commands: {COMMANDS}."]),
        ("info now", ["err info takes no arguments, not 'now'."]),
        # newgame
        ("newgame", ["Base;NotStarted;White[1]"]),
        ("NewGame  base+mlp ", ["Base+MLP;NotStarted;White[1]"]),
        ("newgame Chess", [f"err Unknown game type 'Chess': expected one of {GAME_TYPES}."]),
        (
            "newgame Base;Playing;White[1]",
            [
                "err Invalid GameString: token 2 'Playing' is not a game state "
                "(NotStarted, InProgress, Draw, WhiteWins, BlackWins)."
            ],
        ),
        (
            "newgame Base;InProgress;Black[1];wQ",
            ["err GameString token 4 'wQ' (move 1): You can't play your Queen Bee on your first turn."],
        ),
        (
            "newgame Base;InProgress;Black[1];wS1;bX1",
            ["err GameString token 5 'bX1' (move 2): Invalid MoveString 'bX1': unknown piece 'bX1'."],
        ),
        ("validmoves", moves_are("wS1", "wB1", "wG1", "wA1", "wM", "wL", "wP")),  # the failed newgames changed nothing
        # the position comes from the moves; state and turn tokens are checked for form only
        ("newgame Base;NotStarted;Black[1];wS1", ["Base;InProgress;Black[1];wS1"]),
        ("newgame Base;InProgress;White[3];wS1;bS1 wS1-", ["Base;InProgress;White[2];wS1;bS1 wS1-"]),
        ("newgame   Base;InProgress;White[2];wS1;bS1   wS1-  ", [after_2]),
        # play and pass
        ("play", ["err play needs a MoveString, e.g. 'play wS1'."]),
        (
            "play wQ wS1- extra",
            ["invalidmove Invalid MoveString 'wQ wS1- extra': expected 'piece', 'piece reference' or 'pass'."],
        ),
        ("play wX1 wS1-", ["invalidmove Invalid MoveString 'wX1 wS1-': unknown piece 'wX1'."]),
        ("play bG1 wS1-", ["invalidmove It's not that player's turn."]),
        ("play wQ -wS1", [after_3]),
        ("undo", [after_2]),
        ("PLAY   wq   -ws1 ", [after_3]),
        ("pass", ["invalidmove You can't pass when you have valid moves."]),
        ("pass now", ["err pass takes no arguments, not 'now'."]),
        ("validmoves please", ["err validmoves takes no arguments, not 'please'."]),
        ("validmoves", lambda body: len(body) == 1 and "bQ bS1-" in body[0].split(";") and "pass" not in body[0]),
        # undo
        ("undo 0", ["err Invalid number of moves to undo '0': expected a whole number, 1 or more."]),
        ("undo -1", ["err Invalid number of moves to undo '-1': expected a whole number, 1 or more."]),
        ("undo two", ["err Invalid number of moves to undo 'two': expected a whole number, 1 or more."]),
        ("undo 999", ["err Unable to undo 999 moves: only 3 played."]),
        (
            "undo 99999999999999999999",
            ["err Invalid number of moves to undo '99999999999999999999': expected a whole number, 1 or more."],
        ),
        ("undo 1 2", ["err Invalid undo arguments '1 2': expected 'undo' or 'undo N'."]),
        ("undo 2", ["Base;InProgress;Black[1];wS1"]),
        ("undo 1", ["Base;NotStarted;White[1]"]),
        ("undo", ["err Unable to undo 1 move: only 0 played."]),
        # pass as the only move
        ("newgame " + PASS_ONLY, [PASS_ONLY]),
        ("validmoves", ["pass"]),
        ("bestmove depth 1", ["pass"]),
        ("pass", [PASS_ONLY.replace("Black[7]", "White[8]") + ";pass"]),
        # a finished game
        ("newgame " + BLACK_QUEEN_TRAPPED, [BLACK_QUEEN_TRAPPED]),
        ("bestmove depth 1", ["wA2 /bQ"]),
        ("play wA2 /bQ", [BLACK_QUEEN_TRAPPED.replace("InProgress;White[6]", "WhiteWins;Black[6]") + ";wA2 /bQ"]),
        ("validmoves", ["err The game is over (WhiteWins). Try 'newgame' or 'undo'."]),
        ("bestmove", ["err The game is over (WhiteWins). Try 'newgame' or 'undo'."]),
        ("play bA1 bG3-", ["invalidmove You can't play, the game is over."]),
        ("play pass", ["invalidmove You can't pass, the game is over."]),
        ("pass", ["invalidmove You can't pass, the game is over."]),
        ("perft 2", perft_lines(1, 0, 0)),
        ("undo", [BLACK_QUEEN_TRAPPED]),
        # bestmove
        ("newgame Base", ["Base;NotStarted;White[1]"]),
        ("bestmove depth 1", lambda body: body[0] in ("wS1", "wB1", "wG1", "wA1")),
        ("bestmove depth 0", ["err Invalid depth '0': expected a whole number of plies, 1 or more."]),
        ("bestmove depth -3", ["err Invalid depth '-3': expected a whole number of plies, 1 or more."]),
        ("bestmove depth deep", ["err Invalid depth 'deep': expected a whole number of plies, 1 or more."]),
        (
            "bestmove depth",
            [
                "err Invalid bestmove arguments 'depth': expected 'time hh:mm:ss', 'depth N' or "
                "'clock hh:mm:ss [hh:mm:ss]'."
            ],
        ),
        (
            "bestmove depth 1 2",
            [
                "err Invalid bestmove arguments 'depth 1 2': expected 'time hh:mm:ss', 'depth N' or "
                "'clock hh:mm:ss [hh:mm:ss]'."
            ],
        ),
        (
            "bestmove fast",
            [
                "err Invalid bestmove arguments 'fast': expected 'time hh:mm:ss', 'depth N' or "
                "'clock hh:mm:ss [hh:mm:ss]'."
            ],
        ),
        ("bestmove time 99:99:99", ["err Invalid time '99:99:99': expected hh:mm:ss (minutes and seconds below 60)."]),
        ("bestmove time 5", ["err Invalid time '5': expected hh:mm:ss (minutes and seconds below 60)."]),
        (
            "bestmove time -00:00:01",
            ["err Invalid time '-00:00:01': expected hh:mm:ss (minutes and seconds below 60)."],
        ),
        ("bestmove time 00:00:00", lambda body: body[0] in ("wS1", "wB1", "wG1", "wA1")),
        ("play wS1", ["Base;InProgress;Black[1];wS1"]),
        ("BestMove  DEPTH  2", legal_move("Base;InProgress;Black[1];wS1")),
        ("bestmove time 00:00:00.2", legal_move("Base;InProgress;Black[1];wS1")),
        ("options set DefaultLevel easy", ["DefaultLevel;enum;easy;hard;" + ";".join(LEVELS)]),
        ("bestmove", legal_move("Base;InProgress;Black[1];wS1")),
        (
            "validmoves",
            moves_are(
                *(f"b{bug} wS1{mark}" for bug in ("S1", "B1", "G1", "A1") for mark in "/-\\"),
                *(f"b{bug} {mark}wS1" for bug in ("S1", "B1", "G1", "A1") for mark in "/-\\"),
            ),
        ),
        # perft
        ("newgame Base+MLP", ["Base+MLP;NotStarted;White[1]"]),
        ("perft 2", perft_lines(1, 7, 294)),
        ("perft", perft_lines(1, 7, 294, 6678)),
        ("perft 0", perft_lines(1)),
        ("perft -1", ["err Invalid perft depth '-1': expected a whole number from 0 to 32."]),
        ("perft 33", ["err Invalid perft depth '33': expected a whole number from 0 to 32."]),
        ("perft x", ["err Invalid perft depth 'x': expected a whole number from 0 to 32."]),
        ("perft 1 2", ["err Invalid perft arguments '1 2': expected 'perft' or 'perft depth'."]),
        # exit
        ("exit now", ["err exit takes no arguments, not 'now'."]),
    ]
    engine = UHPEngine()
    play_script(engine, script)
    assert not engine.finished
    assert engine.handle("  EXIT ") == []
    assert engine.finished


def test_options() -> None:
    levels = ";".join(LEVELS)
    play_script(
        UHPEngine(),
        [
            ("options", OPTIONS),
            ("options get RepetitionDraw", ["RepetitionDraw;bool;True;True"]),
            ("OPTIONS GET tournamentopening", ["TournamentOpening;bool;True;True"]),
            (
                "options get MaxBranching",
                [f"err Unknown option 'MaxBranching'. Options: {OPTION_KEYS}."],
            ),
            (
                "options set X",
                [
                    "err Invalid options arguments 'set X': expected 'options', 'options get Key' or "
                    "'options set Key Value'."
                ],
            ),
            (
                "options get",
                [
                    "err Invalid options arguments 'get': expected 'options', 'options get Key' or "
                    "'options set Key Value'."
                ],
            ),
            (
                "options reset",
                [
                    "err Invalid options arguments 'reset': expected 'options', 'options get Key' or "
                    "'options set Key Value'."
                ],
            ),
            (
                "options set X 1",
                [f"err Unknown option 'X'. Options: {OPTION_KEYS}."],
            ),
            (
                "options set RepetitionDraw maybe",
                ["err Invalid value 'maybe' for option RepetitionDraw (bool): expected True or False."],
            ),
            (
                "options set DefaultLevel godlike",
                [f"err Invalid value 'godlike' for option DefaultLevel (enum): expected one of {', '.join(LEVELS)}."],
            ),
            ("options set DefaultLevel MEDIUM", [f"DefaultLevel;enum;medium;hard;{levels}"]),
            # The rules options apply to the next newgame, and are kept across games.
            ("newgame Base", ["Base;NotStarted;White[1]"]),
            ("play wQ", ["invalidmove You can't play your Queen Bee on your first turn."]),
            ("options set TournamentOpening false", ["TournamentOpening;bool;False;True"]),
            ("play wQ", ["invalidmove You can't play your Queen Bee on your first turn."]),
            ("newgame Base", ["Base;NotStarted;White[1]"]),
            ("play wQ", ["Base;InProgress;Black[1];wQ"]),
            ("newgame Base+M", ["Base+M;NotStarted;White[1]"]),
            ("play wQ", ["Base+M;InProgress;Black[1];wQ"]),
            ("options set TournamentOpening 1", ["TournamentOpening;bool;True;True"]),
            # Repetition draw: on by default, off on request.
            ("newgame " + REPETITION, [REPETITION.strip()]),
            ("undo", [REPETITION.strip().replace("Draw;White[7]", "InProgress;Black[6]").rsplit(";", 1)[0]]),
            ("play bQ bB1\\", [REPETITION.strip()]),
            ("options set RepetitionDraw False", ["RepetitionDraw;bool;False;True"]),
            ("newgame " + REPETITION, [REPETITION.replace("Draw", "InProgress").strip()]),
            ("newgame " + REPETITION.replace("Draw", "InProgress"), [REPETITION.replace("Draw", "InProgress").strip()]),
            (
                "options set MaxTime 0",
                ["err Invalid value '0' for option MaxTime (int): expected a whole number from 1 to 86400."],
            ),
            (
                "options set TTSizeMB ²",
                ["err Invalid value '²' for option TTSizeMB (int): expected a whole number from 1 to 65536."],
            ),
            ("options set maxtime 30", ["MaxTime;int;30;600;1;86400"]),
            (
                "options",
                [
                    OPTIONS[0],
                    "RepetitionDraw;bool;False;True",
                    f"DefaultLevel;enum;medium;hard;{levels}",
                    "MaxTime;int;30;600;1;86400",
                    OPTIONS[4],
                    OPTIONS[5],
                ],
            ),
        ],
    )


def test_unexpected_errors_are_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = UHPEngine()
    engine.handle("newgame Base")

    def boom(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(engine.searcher, "search", boom)
    assert engine.handle("bestmove depth 1") == ["err RuntimeError: boom", "ok"]
    assert engine.handle("validmoves")[-1] == "ok"


def test_searcher_is_kept_between_moves() -> None:
    searcher = Searcher()
    engine = UHPEngine(searcher)
    engine.handle("newgame Base")
    engine.handle("bestmove depth 2")
    assert engine.searcher is searcher and searcher.tt
    engine.handle("play wS1")
    engine.handle("newgame Base;InProgress;Black[1];wS1")
    assert searcher.tt, "the same game: the transposition table is kept"
    engine.handle("newgame Base")
    assert not searcher.tt, "a new game: the transposition table is wiped"
    engine.handle("bestmove depth 2")
    engine.handle("newgame Base+MLP")
    assert not searcher.tt, "other rules: the transposition table is cleared"


@pytest.mark.timing
def test_bestmove_time_answers_in_time() -> None:
    engine = UHPEngine()
    engine.handle("newgame Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 -wQ;bG1 bQ-")
    start = time.perf_counter()
    out = engine.handle("bestmove time 00:00:01")
    # the search has the second less 20 ms; the slow set holds 200 such searches to 1.2 s each
    assert time.perf_counter() - start < 1.5
    assert legal_move(engine.board.game_string() if engine.board else "")(out[:-1])


def test_run_prints_the_banner_and_stops_at_exit() -> None:
    stdin = io.StringIO("info\nnewgame\nplay wS1\nexit\nvalidmoves\n")
    stdout = io.StringIO()
    assert run(stdin, stdout) == 0
    banner = [f"id hive {hive.__version__}", "Mosquito;Ladybug;Pillbug", "ok"]
    assert stdout.getvalue().splitlines() == [
        *banner,
        *banner,
        "Base;NotStarted;White[1]",
        "ok",
        "Base;InProgress;Black[1];wS1",
        "ok",
    ]


def test_run_stops_at_end_of_input() -> None:
    stdout = io.StringIO()
    assert run(io.StringIO("newgame Base+M"), stdout) == 0
    assert stdout.getvalue().splitlines()[-2:] == ["Base+M;NotStarted;White[1]", "ok"]


def test_subprocess_engine() -> None:
    commands = b"info\nnewgame Base\nplay wS1\n\xff\xfe\x00junk\nvalidmoves\nbestmove depth 1\nexit\ninfo\n"
    proc = subprocess.run(
        [sys.executable, "-m", "hive.uhp"],
        input=commands,
        capture_output=True,
        timeout=120,
        check=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    lines = proc.stdout.decode("utf-8").splitlines()
    banner = [f"id hive {hive.__version__}", "Mosquito;Ladybug;Pillbug", "ok"]
    assert lines[:6] == banner + banner
    assert lines[6:10] == ["Base;NotStarted;White[1]", "ok", "Base;InProgress;Black[1];wS1", "ok"]
    assert lines[10].startswith("err Unknown command '\ufffd\ufffd\\x00junk'")
    assert lines[11] == "ok"
    assert len(lines[12].split(";")) == 24 and lines[13] == "ok"
    assert lines[14] in lines[12].split(";") and lines[15] == "ok"
    assert len(lines) == 16, "exit ends the session"
    assert proc.stderr == b""


def test_command_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    assert "Universal Hive Protocol" in capsys.readouterr().out

    parser = argparse.ArgumentParser(prog="hive")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["uhp"])
    monkeypatch.setattr(sys, "stdin", io.StringIO("newgame\n"))
    assert args.func(args) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == ["Base;NotStarted;White[1]", "ok"]

    monkeypatch.setattr(sys, "stdin", io.StringIO("exit\n"))
    assert main([]) == 0


# ----------------------------------------------------------------------
# fuzz

PIECES = list(hive.PIECE_NAMES)
WORDS = [
    *COMMANDS.split(", "),
    "get",
    "set",
    "time",
    "depth",
    "TournamentOpening",
    "RepetitionDraw",
    "DefaultLevel",
    "True",
    "False",
    "easy",
    "yes",
    "Base",
    "Base+MLP",
    "base+pm",
    "Base+X",
    "pass",
    "00:00:00",
    "00:00:00.000",
    "99:99:99",
    "1:2",
    "::",
    "White[1]",
    "Black[3]",
    "InProgress",
    "Draw",
    ";",
    ";;",
    "\t",
]
JUNK = string.printable + "\x00\x01\x1b\x7f\x80\xff\u00e9\u4e2d\u2028\u2029\ufffd\udc80\U0001f41d"


POSITIONS = [PASS_ONLY, BLACK_QUEEN_TRAPPED, REPETITION, REPETITION.replace("Draw", "InProgress")]


def is_slow(line: str) -> bool:
    """Whether a line would search or count deeper than the fuzz affords (plain bestmove runs at level easy)."""
    words = line.lower().split()
    if not words:
        return False
    small = re.compile(r"[+-]?[0-9]{1,9}")
    if words[0] == "bestmove" and len(words) == 3:
        if words[1] == "depth":
            return bool(small.fullmatch(words[2])) and int(words[2]) > 1
        return words[1] == "time" and any(ch in "123456789" for ch in words[2])
    if words[0] == "perft":
        return len(words) == 1 or (len(words) == 2 and bool(small.fullmatch(words[1])) and int(words[1]) > 1)
    return words[0] == "options" and "defaultlevel" in words


def junk(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(JUNK) for _ in range(length))


def number(rng: random.Random) -> str:
    return rng.choice(
        [
            str(rng.randint(-3, 3)),
            str(rng.randint(-(10**30), 10**30)),
            "9" * rng.randint(1, 5000),
            f"{rng.random() * 10:.3f}",
            "1e3",
            "0x10",
            "\u0661",
            "",
        ]
    )


def move_text(rng: random.Random) -> str:
    piece = rng.choice([*PIECES, "wQ1", "wS3", "bX", "", "pass"])
    ref = rng.choice(PIECES)
    mark = rng.choice(["", "/", "-", "\\"])
    if rng.random() < 0.5:
        return f"{piece} {ref}{mark}"
    return f"{piece} {mark}{ref}" if rng.random() < 0.8 else piece


def fuzz_line(rng: random.Random, engine: UHPEngine) -> str:
    board = engine.board
    roll = rng.random()
    if roll < 0.3 and board is not None and not board.is_game_over():
        code = rng.choice(board.generate())
        return "play " + board.uhp(hive.Move.from_code(code))
    if roll < 0.45:
        return "play " + move_text(rng)
    if roll < 0.55:
        if board is not None and rng.random() < 0.7:
            tokens = board.game_string().split(";")
            edit = rng.randrange(4)
            if edit == 0 and len(tokens) > 3:
                del tokens[rng.randrange(len(tokens))]
            elif edit == 1:
                tokens.insert(rng.randrange(len(tokens) + 1), rng.choice([move_text(rng), junk(rng, 3), ""]))
            elif edit == 2 and len(tokens) > 4:
                i = rng.randrange(3, len(tokens) - 1)
                tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
            return "newgame " + ";".join(tokens)
        return "newgame " + rng.choice(
            ["", *(str(t) for t in hive.GAME_TYPES), junk(rng, 5), "Base;InProgress", *POSITIONS]
        )
    if roll < 0.6:
        return rng.choice(
            [
                "bestmove depth 1",
                "bestmove time 00:00:00",
                "bestmove",
                "perft 1",
                "validmoves",
                "pass",
                f"options set {rng.choice(['TournamentOpening', 'RepetitionDraw'])} {rng.choice(['True', 'False'])}",
            ]
        )
    if roll < 0.65:
        return "undo " + rng.choice([number(rng), "1", "2", ""])
    if roll < 0.75:
        return junk(rng, rng.randint(0, 40))
    words = [rng.choice(WORDS)]
    for _ in range(rng.randint(0, 4)):
        kind = rng.random()
        words.append(
            rng.choice(WORDS)
            if kind < 0.5
            else number(rng)
            if kind < 0.7
            else move_text(rng)
            if kind < 0.85
            else junk(rng, 4)
        )
    text = rng.choice([" ", "  ", "\t"]).join(words)
    if rng.random() < 0.2:
        text = "".join(ch.upper() if rng.random() < 0.5 else ch for ch in text)
    return text


def fuzz(lines: int, seed: int) -> None:
    rng = random.Random(seed)
    engine = UHPEngine()
    engine.handle("options set DefaultLevel easy")
    fed = 0
    while fed < lines:
        line = fuzz_line(rng, engine)
        if is_slow(line):
            continue
        fed += 1
        out = engine.handle(line)
        check_reply(line, out)
        if fed % 500 == 0 and engine.board is not None:
            text = engine.board.game_string()
            replay = hive.Board.from_game_string(
                text,
                tournament_opening=engine.board.tournament_opening,
                repetition_draw=engine.board.repetition_draw,
            )
            assert replay.game_string() == text and replay.hash == engine.board.hash
        if engine.board is not None and len(engine.board.history) > 150:
            engine.handle("newgame " + rng.choice([str(t) for t in hive.GAME_TYPES]))


@pytest.mark.parametrize("lines", [20_000, pytest.param(100_000, marks=pytest.mark.slow)])
def test_fuzz_random_lines(lines: int) -> None:
    """Random and malformed lines (100,000 in about 10 s): never an exception, always exactly one final ``ok``."""
    fuzz(lines, seed=1)


@pytest.fixture
def engine() -> Iterator[Engine]:
    running = Engine()
    yield running
    running.close()


@pytest.mark.timing
def test_a_new_line_stops_a_deep_search(engine: Engine) -> None:
    engine.send(f"newgame {MIDGAME}")
    engine.reply()
    engine.send("bestmove depth 60")
    time.sleep(1.0)
    start = time.monotonic()
    engine.send("info")
    best = engine.reply(timeout=30)
    assert time.monotonic() - start < 5
    assert legal_move(MIDGAME)(best[:-1])
    assert engine.reply(timeout=30)[0].startswith("id hive")


@pytest.mark.timing
def test_a_new_line_stops_a_deep_perft(engine: Engine) -> None:
    engine.send(f"newgame {MIDGAME}")
    engine.reply()
    engine.send("perft 32")
    time.sleep(1.0)
    start = time.monotonic()
    engine.send("validmoves")
    lines = engine.reply(timeout=30)
    assert time.monotonic() - start < 5
    assert lines[:3] == ["0 1 " + lines[0].split()[2], lines[1], lines[2]]
    assert lines[-2].startswith("err perft stopped during depth")
    assert engine.reply(timeout=30)[0].count(";") > 10


def test_closing_the_input_ends_a_search_and_the_process(engine: Engine) -> None:
    engine.send(f"newgame {MIDGAME}")
    engine.reply()
    engine.send("bestmove depth 60")
    time.sleep(1.0)
    assert engine.proc.stdin is not None
    engine.proc.stdin.close()
    assert engine.proc.wait(timeout=30) == 0


@pytest.mark.timing
def test_max_time_is_a_hard_ceiling(engine: Engine) -> None:
    engine.send("options set MaxTime 1")
    assert engine.reply() == ["MaxTime;int;1;600;1;86400", "ok"]
    engine.send(f"newgame {MIDGAME}")
    engine.reply()
    for command in ("bestmove depth 60", "perft 32"):
        start = time.monotonic()
        engine.send(command)
        engine.reply(timeout=30)
        assert time.monotonic() - start < 5, command


def test_long_lines_are_refused_and_errors_quote_little(engine: Engine) -> None:
    engine.send("newgame Base")
    engine.reply()
    engine.send("play wS1 " + "x" * 1_000_000)
    line, ok = engine.reply()
    assert line.startswith("invalidmove ") and len(line) <= 240 and ok == "ok"
    engine.send(b"y" * (3 << 20) + b"\n")
    assert engine.reply() == ["err Command too long (3,145,729 bytes; at most 1,048,576).", "ok"]
    engine.send("play wS1")
    assert engine.reply() == ["Base;InProgress;Black[1];wS1", "ok"]


def test_the_transposition_table_stays_within_its_bound_during_a_search() -> None:
    searcher = Searcher()
    searcher.tt_limit = 500
    board = hive.Board.from_game_string(MIDGAME)
    result = searcher.search(board, hive.Limits(depth=4))
    assert result.move in board.legal_moves
    assert 0 < len(searcher.tt) <= 500
    assert searcher.nodes > 5_000


def _could_map_65_gb() -> bool:
    """Whether this machine could map a 65 GB table: more memory than that, or the kernel told to promise any size."""
    try:
        with open("/proc/sys/vm/overcommit_memory") as handle:
            if handle.read().strip() == "1":
                return True
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") > 60 << 30


@pytest.mark.skipif(_could_map_65_gb(), reason="the machine could map 65 GB")
def test_a_table_larger_than_memory_is_an_error_and_the_session_goes_on() -> None:
    engine = UHPEngine()
    engine.handle("newgame Base")
    engine.handle("options set TTSizeMB 65536")
    error, ok = engine.handle("bestmove depth 1")
    assert error.startswith("err A transposition table of 4,096,000,000 entries (65,536,000,000 bytes)")
    assert error.endswith("Try a smaller TTSizeMB.") and ok == "ok"
    engine.handle("options set TTSizeMB 16")
    assert engine.handle("bestmove depth 1")[-1] == "ok" and engine.searcher.tt.entries == 1_000_000


def test_a_search_stops_when_asked_with_its_best_move_so_far() -> None:
    searcher = Searcher()
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    searcher.stop = stop
    board = hive.Board.from_game_string(MIDGAME)
    result = searcher.search(board, hive.Limits(depth=60))
    assert result.move in board.legal_moves and result.depth < 60
    assert len(calls) == 4
    assert board.game_string() == hive.Board.from_game_string(MIDGAME).game_string()


def test_perft_that_stops_restores_the_position() -> None:
    from hive.search import SearchTimeout
    from hive.search.perft import perft

    board = hive.Board.from_game_string(MIDGAME)
    assert perft(board, 3, lambda: False) == board.perft(3)
    with pytest.raises(SearchTimeout):
        perft(board, 6, lambda: True)
    assert board.game_string() == hive.Board.from_game_string(MIDGAME).game_string()
