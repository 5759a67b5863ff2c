"""Record readers on hostile text: long values read in linear time and bounded memory, longer ones refused with an
error on their game (quoted in part), later games still read, anything unforeseen an error on its game only, and
no control character printed raw by ``hive replay``, ``hive scan`` or ``hive convert``."""

from __future__ import annotations

import io
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from hive.cli import records as records_cli
from hive.records import RecordedGame, iter_headers, read_pgn_headers, read_sgf_headers, read_string, replay, write_pgn
from hive.records import pgn as pgn_module
from hive.records import text as text_module
from hive.records.sgf import MAX_VALUES, SgfTree, game_trees
from hive.records.sgf_reader import _TreeRecord
from hive.records.text import MAX_TEXT, QUOTED, LongLine, bounded_lines, printable, quote

from ..commands import run
from ..shared import TESTDATA

RECORDS = TESTDATA / "records"
GOOD = RECORDS / "HV-Dumbot-Kaur50-2023-01-17-0059"
GOOD_SGF = GOOD.with_suffix(".sgf").read_text(encoding="utf-8-sig")
GOOD_PGN = GOOD.with_suffix(".pgn").read_text(encoding="utf-8-sig")
GOOD_MOVES = read_string(GOOD_PGN, "pgn")[0].moves
OVER = MAX_TEXT + 10


def seconds(read: Callable[[], object]) -> float:
    """The best of five timings of ``read`` (the best, as a busy machine only ever adds time)."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        read()
        best = min(best, time.perf_counter() - start)
    return best


def peak_kb(read: Callable[[], object]) -> float:
    """The Python heap's peak while ``read`` runs, in kB."""
    tracemalloc.start()
    try:
        read()
        return tracemalloc.get_traced_memory()[1] / 1024
    finally:
        tracemalloc.stop()


def trees(text: str, chunk_size: int = 1 << 16, limit: int = MAX_TEXT, values: int = MAX_VALUES) -> list[SgfTree | str]:
    return list(game_trees(io.StringIO(text), chunk_size, limit, values))


def assert_good_game(game: RecordedGame) -> None:
    assert (game.moves, game.errors) == (GOOD_MOVES, [])


def assert_bounded(message: str, length: int) -> None:
    """An error quotes at most ~200 characters of a long text, and tells its length."""
    assert len(message) < 600
    assert f"({length:,} characters)" in message


# ----------------------------------------------------------------------
# SGF: a value spanning many chunks is read in linear time and constant memory, up to the limit


def test_a_long_sgf_value_spanning_chunks_is_read_whole_with_few_reads() -> None:
    value = "ab\\]c" * 100_000  # escapes all along, across every chunk boundary
    reads = []

    class Counting(io.StringIO):
        def read(self, size: int | None = -1) -> str:
            reads.append(size)
            return super().read(size)

    text = f'(;GM[27]C[{value}]P0[id "x"])'
    (tree,) = game_trees(Counting(text), 1024)
    assert isinstance(tree, SgfTree)
    assert tree.nodes == [[("GM", "27"), ("C", value.replace("\\]", "]")), ("P0", 'id "x"')]]
    # a pending value makes the next read as long as it: the reads (and re-scans) double, not one per chunk
    assert len(reads) < 16, len(reads)


@pytest.mark.timing
def test_a_long_sgf_value_takes_linear_time() -> None:
    small = f"(;GM[27]C[{'x' * 100_000}])"
    large = f"(;GM[27]C[{'x' * 1_000_000}])"
    ratio = seconds(lambda: trees(large, 4096)) / seconds(lambda: trees(small, 4096))
    # 10 when linear, 20 to 40 measured (the small text's millisecond is cache-warm); re-scanning per chunk made it 100
    assert ratio < 60, ratio


def test_a_long_sgf_value_takes_little_memory() -> None:
    text = f"(;GM[27]C[{'x' * 1_000_000}])"
    assert peak_kb(lambda: trees(text)) < 8 * 1024  # the value and the buffer: 180 MB before


@pytest.mark.slow  # 18 s under tracemalloc
def test_deeply_nested_sgf_variations_take_constant_memory() -> None:
    depth = 500_000
    handle = io.StringIO("(" * depth + ")" * depth)
    found: list[SgfTree | str] = []
    # two lists of a flag a depth held 8 MB here, and 330 MB for 20 MB of '('
    assert peak_kb(lambda: found.extend(game_trees(handle))) < 1024
    (tree,) = found
    assert isinstance(tree, SgfTree) and (tree.nodes, tree.errors) == ([], [])


@pytest.mark.once
def test_an_sgf_main_line_over_the_bound_keeps_its_start_and_says_so() -> None:
    text = "(;GM[27]" + "(;C[x]" * 5_000 + ")" * 5_001 + "(;GN[next])"
    first, second = trees(text, 4096, values=1_000)
    assert isinstance(first, SgfTree) and isinstance(second, SgfTree)
    assert sum(len(node) for node in first.nodes) == 1_000 and first.nodes[0] == [("GM", "27")]
    assert first.errors == ["the game tree holds more than 1,000 values: the rest of it is not read"]
    assert (second.nodes, second.errors) == ([[("GN", "next")]], [])
    stray = trees("(;GM[27]" + " 0:04" * 50 + ";C[y])", values=10)[0]
    assert isinstance(stray, SgfTree) and len(stray.stray) == 9 and len(stray.errors) == 1
    # a 20 MB file of nested variations held 824 MB before the bound
    handle = io.StringIO("(;C[x]" * 200_000)
    assert peak_kb(lambda: list(game_trees(handle))) < 32 * 1024


def test_only_the_first_variation_at_each_depth_is_the_main_line() -> None:
    text = "(;A[1](;B[2](;C[3])(;D[4](;X[0])))(;E[5](;F[6](;Y[0]))));(;G[7])"
    first, second = trees(text)
    assert isinstance(first, SgfTree) and isinstance(second, SgfTree)
    assert first.nodes == [[("A", "1")], [("B", "2")], [("C", "3")]]
    assert second.nodes == [[("G", "7")]]


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 5, 64, 1000, 1 << 16])
def test_sgf_reads_the_same_in_any_chunk_size(chunk_size: int) -> None:
    value = "Dropb bG1 N 12 wG1\\\\" + "y\\]" * 300
    text = f"(;GM[27]C[{value}]XX[a][b{'z' * 400}]\n;P0[1 Done](;P1[2 x])(;P1[3 y]))\n(;GN[two]) junk"
    assert repr_trees(trees(text, chunk_size, limit=5000)) == repr_trees(trees(text, 1 << 20, limit=5000))


def repr_trees(found: list[SgfTree | str]) -> list[object]:
    return [item if isinstance(item, str) else (item.nodes, item.stray, item.errors) for item in found]


@pytest.mark.parametrize("chunk_size", [7, 64, 1 << 16])
def test_an_sgf_value_over_the_limit_is_skipped_with_an_error_on_its_tree(chunk_size: int) -> None:
    value = "x\\]" * 2000 + "\\\\"  # ends in an escaped backslash: the value closes at the ']' after it
    text = f"(;GM[27]C[{value}]GN[after];P0[1 Done])(;GN[next])"
    first, second = trees(text, chunk_size, limit=1000)
    assert isinstance(first, SgfTree) and isinstance(second, SgfTree)
    assert first.nodes == [[("GM", "27"), ("GN", "after")], [("P0", "1 Done")]]
    (error,) = first.errors
    assert error.startswith("SGF text 'C[x\\]x\\]")
    assert error.endswith(
        f"' ({len(value) + 3:,} characters): longer than the 1,000 characters a property value may have"
    )
    assert second.nodes == [[("GN", "next")]]


def test_a_stray_word_over_the_limit_is_skipped_with_an_error() -> None:
    first, second = trees(f"(;GM[27] {'w' * 3000} ;GN[x])(;GN[y])", 64, limit=1000)
    assert isinstance(first, SgfTree) and isinstance(second, SgfTree)
    assert first.nodes == [[("GM", "27")], [("GN", "x")]]
    assert first.errors == [
        f"SGF text '{'w' * 200}…' (3,000 characters): longer than the 1,000 characters a property value may have"
    ]


def test_read_sgf_refuses_a_value_over_the_limit_and_reads_the_next_game() -> None:
    text = f"(;GM[27]SU[hive]C[{'x' * OVER}])\n{GOOD_SGF}"
    first, second = read_string(text, "sgf")
    (error,) = first.errors
    assert_bounded(error, OVER + 3)
    assert_good_game(second)
    assert [found.errors[:1] for found in read_sgf_headers(io.StringIO(text))] == [[error], []]


def test_an_sgf_file_ending_inside_a_long_value_says_so() -> None:
    (tree,) = trees(f"(;GM[27]C[{'x' * 5000}", 64, limit=100_000)
    assert isinstance(tree, SgfTree) and tree.errors == ["the SGF ends inside a game (missing ')')"]
    assert trees(f"C[{'x' * 5000}", 64, limit=100_000)[-1] == "the SGF ends inside a property value (missing ']')"


# ----------------------------------------------------------------------
# PGN and GameStrings: lines read linearly, up to the limit


def test_a_long_pgn_header_takes_linear_time_and_little_memory() -> None:
    text = '[Event "' + 'x\\"' * 300_000 + '"]\n\n1. wA1\n'
    assert peak_kb(lambda: read_string(text, "pgn")) < 16 * 1024  # 180 bytes a character before: 160 MB
    (game,) = read_string(text, "pgn")
    assert game.headers["Event"] == 'x"' * 300_000


def test_a_pgn_line_over_the_limit_is_an_error_and_the_next_game_is_read() -> None:
    text = f'[Event "{"x" * OVER}"]\n[White "a"]\n\n1. wA1\n\n{GOOD_PGN}'
    first, second = read_string(text, "pgn")
    assert first.moves == ["wA1"] and first.headers["White"] == "a"
    (error,) = first.errors
    assert error.startswith(f"line 1 '[Event \"{'x' * 192}…' ({OVER + 10:,} characters): longer than the")
    assert_good_game(second)


def test_a_pgn_header_line_over_the_limit_after_moves_starts_the_next_game() -> None:
    text = f'{GOOD_PGN}\n[Event "{"x" * OVER}"]\n[White "b"]\n\n1. wA1\n'
    first, second = read_string(text, "pgn")
    assert_good_game(first)
    assert second.headers["White"] == "b" and second.errors[0].startswith("line ")


@pytest.mark.parametrize("chunk", [3, 1 << 16])
def test_bounded_lines_reads_a_file_in_bounded_memory(
    tmp_path: Path, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(text_module, "_CHUNK", chunk)
    path = tmp_path / "lines.txt"
    path.write_text("short\n" + "y" * 25 + "\n" + "z" * 10 + "\r\n\n" + "w" * 11 + "\nlast", newline="")
    with open(path, encoding="utf-8") as handle:  # universal newlines, as the readers open files
        lines = list(bounded_lines(handle, limit=10))
    assert lines == ["short", LongLine("y" * 25, 25), "z" * 10, "", LongLine("w" * 11, 11), "last"]
    assert list(bounded_lines(["ok\n", "x" * 30 + "\n"], limit=10)) == ["ok", LongLine("x" * 30, 30)]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("v" * 500 + "\nafter")
    with open(path, encoding="utf-8") as handle:
        assert list(bounded_lines(handle, limit=10)) == [LongLine("v" * QUOTED, 500), "after"]


def test_game_strings_over_the_limit_are_errors_and_the_next_line_is_read() -> None:
    good = read_string(GOOD_PGN, "pgn")[0].game_string()
    text = f"Base+MLP;InProgress;White[1];{'wA1;' * (OVER // 4)}\n{good}\n"
    first, second = read_string(text, "gamestring")
    assert first.errors[0].startswith("GameString 'Base+MLP;InProgress;White[1];wA1;")
    assert_good_game(second)


# ----------------------------------------------------------------------
# no error quotes a long text whole


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("pgn", f'[GameType "{"q" * 5000}"]\n\n1. wA1\n'),
        ("pgn", f"1. wA1\n2. {'bG1 ' * 2000}\n"),
        ("pgn", f'[Result "{"r" * 5000}"]\n\n1. wA1\n1-0\n'),
        ("gamestring", f"{'Base' * 2000};InProgress;White[1]\n"),
        ("gamestring", f"Base;InProgress;White[1];wA1;{'bS1 -wA1' * 1000}\n"),
        ("sgf", f"(;GM[27]SU[{'hive' * 2000}];P0[1 Move W wG1 N 13 .];P0[2 Done])"),
        ("sgf", f"(;GM[27]SU[hive];P0[1 Move W {'wG1' * 2000} N 13 .];P0[2 Done])"),
        ("sgf", f"(;GM[27]SU[hive];P0[1 Move W wG1 {'N' * 4000} 13 .];P0[2 Done])"),
        ("sgf", f"(;GM[27]SU[hive];P0[1 Move W wG1 N 13 .];P0[2 Done];P1[3 Frobnicate wQ {'x' * 8000}])"),
        ("sgf", f"(;GM[27]SU[hive];P0[1 Scroll {'x' * 8000}];P0[1 Move W wG1 N 13 .];P0[2 Done])"),
        ("sgf", f"(;GM[27]SU[hive]P0[{'scores ' * 2000}];{'XX' * 2000}[1])"),
    ],
)
def test_errors_and_warnings_quote_long_texts_in_part(fmt: str, text: str) -> None:
    (game,) = read_string(text, fmt)
    assert game.errors or game.warnings
    for message in game.errors + game.warnings:
        assert len(message) < 600, message[:300]


def test_quote_cuts_a_long_text() -> None:
    assert quote("wA1 -bQ") == "'wA1 -bQ'"
    assert quote("x" * 201) == f"'{'x' * 200}…' (201 characters)"
    assert quote("abc", 8_000_000) == "'abc…' (8,000,000 characters)"


# ----------------------------------------------------------------------
# hostile forms that cost quadratic time or escaped as exceptions


def test_a_huge_boardspace_row_is_an_error_on_its_game() -> None:
    text = f"(;GM[27]SU[hive];P0[1 Move W wG1 N {'9' * 5000} .];P0[2 Done])\n{GOOD_SGF}"
    first, second = read_string(text, "sgf")  # int() of 5,000 digits raised ValueError out of the reader
    assert first.errors[0].startswith("move 1 'Move W wG1 N 9999")
    assert "bad board location" in first.errors[0] and len(first.errors[0]) < 600
    assert_good_game(second)


@pytest.mark.timing
@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("sgf", f"(;GM[27]SU[hive];P0[1 Move {' ' * 100_000}x {' ' * 100_000}y])"),  # 40k spaces took 6 s
        ("pgn", "1. wA1 " + "{" * 300_000 + "\n"),  # 40k braces took 1 s
    ],
    ids=["boardspace-spaces", "pgn-braces"],
)
def test_texts_that_took_quadratic_time_are_read_at_once(fmt: str, text: str) -> None:
    assert seconds(lambda: read_string(text, fmt)) < 1.0  # some 15 ms: generous, yet far below quadratic time


def test_anything_unforeseen_is_an_error_on_its_game_only(monkeypatch: pytest.MonkeyPatch) -> None:
    real_game, real_headers = replay.game_from_moves, replay.headers_of
    calls = []

    def failing_first(read: Callable[..., object]) -> Callable[..., object]:
        def wrapped(*args: object) -> object:
            calls.append(read)
            if calls.count(read) == 1:
                raise RuntimeError("\x1b[2J" + "boom" * 1000)
            return read(*args)

        return wrapped

    monkeypatch.setattr(pgn_module, "game_from_moves", failing_first(real_game))
    monkeypatch.setattr(pgn_module, "headers_of", failing_first(real_headers))
    first, second = read_string(f"{GOOD_PGN}\n{GOOD_PGN}", "pgn")
    assert first.errors[0].startswith("the game could not be read (RuntimeError: '\x1b[2Jboomboom")
    assert len(first.errors[0]) < 600
    assert_good_game(second)
    found = list(read_pgn_headers(io.StringIO(f"{GOOD_PGN}\n{GOOD_PGN}")))
    assert found[0].errors[0].startswith("the game could not be read (RuntimeError: ")
    assert (found[1].moves, found[1].errors) == (len(GOOD_MOVES), [])


def test_a_failing_sgf_tree_spoils_its_game_only(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _TreeRecord.__init__
    seen = []

    def init(self: _TreeRecord, tree: SgfTree) -> None:
        seen.append(tree)
        if len(seen) == 1:
            raise KeyError("x")
        real(self, tree)

    monkeypatch.setattr(_TreeRecord, "__init__", init)
    first, second = read_string(f"{GOOD_SGF}\n{GOOD_SGF}", "sgf")
    assert first.errors == ["the game could not be read (KeyError: ''x'')"]
    assert_good_game(second)


# ----------------------------------------------------------------------
# the commands print no control character from a record


ESCAPE = "\x1b]0;owned\x07\x1b[2J\u202e"
SHOWN = "\\x1b]0;owned\\x07\\x1b[2J\\u202e"


def hostile_file(tmp_path: Path) -> Path:
    path = tmp_path / f"bad{ESCAPE[:2]}.pgn"
    path.write_text(f'[White "{ESCAPE}\tme"]\n\n1. wA1\n2. bG1 {ESCAPE}\n', encoding="utf-8")
    return path


def test_printable_escapes_what_does_not_print() -> None:
    assert printable("wA1 -bQ wG1\\") == "wA1 -bQ wG1\\"
    assert printable(ESCAPE + "\t\n\r\x00\U000e0001é") == SHOWN + "\\t\\n\\r\\x00\\U000e0001é"


@pytest.mark.parametrize("command", ["replay", "scan", "convert"])
def test_commands_escape_control_characters(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = hostile_file(tmp_path)
    argv = [command, str(path)] + (["--to", "gamestring"] if command == "convert" else [])
    run(argv)
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    assert "\x1b" not in printed and "\x07" not in printed and "\u202e" not in printed
    assert SHOWN in printed or "\\x1b" in printed
    if command == "scan":
        assert captured.out.split("\t")[1] == f"{SHOWN}\\tme"  # the fields' own tabs escaped, not the separators


def test_convert_escapes_the_record_written_to_a_terminal_only(tmp_path: Path) -> None:
    path = hostile_file(tmp_path)
    path.write_text(f'[White "{ESCAPE}"]\n\n1. wA1\n', encoding="utf-8")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal, pipe = Terminal(), io.StringIO()
    records_cli._convert(str(path), "pgn", "pgn", None, terminal)
    records_cli._convert(str(path), "pgn", "pgn", None, pipe)
    assert f'[White "{SHOWN}"]' in terminal.getvalue().splitlines()
    assert f'[White "{ESCAPE}"]' in pipe.getvalue().splitlines()  # a file or a pipe gets the record as it is


def test_scan_reads_headers_of_a_file_with_an_over_long_line(tmp_path: Path) -> None:
    path = tmp_path / "long.pgn"
    path.write_text(f'[Event "{"x" * OVER}"]\n\n1. wA1\n\n{GOOD_PGN}', encoding="utf-8")
    first, second = iter_headers(path)
    assert first.errors[0].startswith("line 1 ") and not second.errors


def test_a_line_break_in_a_header_value_is_written_as_a_space() -> None:
    sgf = '(;GM[27]SU[hive]GN[a\n[Result "WhiteWins"\\]\r\nb];P0[1 Move W wG1 N 13 .];P0[2 Done])'
    (game,) = read_string(sgf, "sgf")
    (again,) = read_string(write_pgn(game), "pgn")
    assert again.headers["SgfGameName"] == 'a [Result "WhiteWins"] b'
    assert (again.moves, again.result, again.errors) == (["wG1"], "InProgress", [])
