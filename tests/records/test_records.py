"""Game records: Boardspace SGF and PGN read against the shared real games, writers, round trips, streaming,
and the ``convert`` / ``replay`` commands."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import hive
from hive import records
from hive.games.hive import reasons
from hive.records import RecordedGame, read_pgn, read_sgf, write_game_string, write_pgn, write_sgf
from hive.records.sgf import game_trees
from hive.records.sgf_reader import game_of_tree

from ..commands import run
from ..shared import ROOT, TESTDATA

RECORDS = TESTDATA / "records"
SGFS = sorted(RECORDS.glob("*.sgf"))
VALID = sorted(RECORDS.glob("hivegame_valid_*.pgn"))
INVALID = sorted(RECORDS.glob("hivegame_invalid_*.pgn"))
ALL = sorted(RECORDS.iterdir())


def one(path: Path) -> RecordedGame:
    games = list(records.iter_games(path))
    assert len(games) == 1
    return games[0]


def from_text(text: str, fmt: str) -> list[RecordedGame]:
    return records.read_string(textwrap.dedent(text).lstrip(), fmt)


def test_the_shared_records_are_there() -> None:
    assert len(SGFS) == 4 and len(VALID) == 3 and len(INVALID) == 2


# ----------------------------------------------------------------------
# Boardspace SGF against Mzinga's conversions


@pytest.mark.parametrize("path", SGFS, ids=lambda p: p.stem)
def test_sgf_replays_to_the_end_and_equals_mzinga(path: Path) -> None:
    sgf = one(path)
    pgn = one(path.with_suffix(".pgn"))
    assert sgf.errors == [] and pgn.errors == []
    assert len(sgf.moves) == len(pgn.moves) > 30
    assert sgf.mainline_moves() == pgn.mainline_moves()  # hive.Move values: piece, origin and destination
    assert all(isinstance(m, hive.Move) for m in sgf.mainline_moves())
    assert sgf.result == pgn.result == sgf.board.state
    for key in ("GameType", "Date", "White", "Black", "Result", "SgfDate"):
        assert sgf.headers[key] == pgn.headers[key], key
    assert sgf.game_type == pgn.game_type == sgf.board.game_type


@pytest.mark.parametrize("path", SGFS, ids=lambda p: p.stem)
def test_sgf_to_pgn_reproduces_mzingas_file(path: Path) -> None:
    """Boardspace's own relative notation is kept as the MoveString when it names the decoded move."""
    assert write_pgn(one(path)) == path.with_suffix(".pgn").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", SGFS, ids=lambda p: p.stem)
def test_sgf_to_pgn_is_lossless(path: Path) -> None:
    game = one(path)
    (back,) = from_text(write_pgn(game), "pgn")
    assert back.errors == []
    assert back.headers == game.headers
    assert back.moves == game.moves
    assert back.mainline_moves() == game.mainline_moves()
    assert back.result == game.result and back.game_type == game.game_type


@pytest.mark.parametrize("path", SGFS, ids=lambda p: p.stem)
def test_written_sgf_reads_back(path: Path) -> None:
    game = one(path)
    (back,) = from_text(write_sgf(game), "sgf")
    assert back.errors == []
    assert back.mainline_moves() == game.mainline_moves()
    assert back.result == game.result
    assert {k: back.headers[k] for k in ("White", "Black", "Date", "GameType")} == {
        k: game.headers[k] for k in ("White", "Black", "Date", "GameType")
    }


def test_written_sgf_uses_boardspace_coordinates() -> None:
    """Writing puts the first piece on N 13; a record that started there comes back with the same cells."""
    path = RECORDS / "HV-blue1224-Dumbot-2016-04-02-1915.sgf"
    boardspace = []
    for line in path.read_text().splitlines():
        words = line.replace("]", " ").split()
        for command, skip in (("dropb", 2), ("movedone", 3)):
            if command in words:
                i = words.index(command) + skip
                boardspace.append((words[i], words[i + 1]))
    written = [line.split()[5:7] for line in write_sgf(one(path)).splitlines() if " Move " in line]
    assert [tuple(w) for w in written] == boardspace


def test_sgf_game_without_name_or_result() -> None:
    game = one(RECORDS / "U_HV-kearf29-Dumbot-2013-04-20-0054.sgf")
    assert "SgfGameName" not in game.headers and "SgfResult" not in game.headers
    assert game.game_type == hive.GameType.parse("Base+P")
    assert game.result == "BlackWins"  # from the final position: the old record has no RE[]


# ----------------------------------------------------------------------
# hivegame.com's regression records


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_hivegame_valid_records_replay(path: Path) -> None:
    game = one(path)
    assert game.errors == []
    numbered = [line for line in path.read_text().splitlines() if line[:1].isdigit()]
    assert len(game.moves) == len(numbered)
    assert game.board.ply == len(numbered)


def test_hivegame_results_in_both_dialects() -> None:
    assert one(RECORDS / "hivegame_valid_pass.pgn").result == "WhiteWins"  # [Result "1-0"]
    assert one(RECORDS / "hivegame_valid_p_game.pgn").result == "BlackWins"  # [Result "0-1"]
    draw = one(RECORDS / "hivegame_valid_plm_draw.pgn")  # [Result "1/2-1/2"], an agreed draw
    assert draw.result == "Draw"
    assert one(RECORDS / "HV-Dumbot-Kaur50-2023-01-17-0059.pgn").result == "BlackWins"  # BlackWins after the moves


def test_passes_are_moves() -> None:
    game = one(RECORDS / "hivegame_valid_pass.pgn")
    assert game.moves.count("pass") == 16
    assert sum(m.is_pass for m in game.mainline_moves()) == 16


EXPECTED_REJECTIONS = {
    "hivegame_invalid_ant_climb": (12, "bA1 bP", "Soldier Ants can't end a move on top of the hive"),
    "hivegame_invalid_move_before_q": (3, "wB1 bL", reasons.MOVE_BEFORE_QUEEN),
}


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_hivegame_invalid_records_are_rejected_at_the_right_move(path: Path) -> None:
    number, text, rule = EXPECTED_REJECTIONS[path.stem]
    game = one(path)
    assert not game.ok and len(game.errors) == 1
    assert game.errors[0].startswith(f"move {number} '{text}': ")
    assert rule in game.errors[0]
    assert len(game.moves) == number - 1  # the game up to the bad move
    board = game.board.copy()
    with pytest.raises(hive.IllegalMoveError, match=re.escape(rule)):
        board.push_uhp(text)


# ----------------------------------------------------------------------
# GameStrings and round trips


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_game_string_to_pgn_to_game_string(path: Path) -> None:
    game = one(path)
    text = write_game_string(game)
    assert text == game.game_string()
    (from_gs,) = from_text(text, "gamestring")
    assert from_gs.errors == []
    (from_pgn,) = from_text(write_pgn(from_gs), "pgn")
    assert write_game_string(from_pgn) == text
    assert from_pgn.mainline_moves() == game.mainline_moves()


def test_game_string_reader_reports_bad_lines_and_goes_on() -> None:
    games = from_text(
        """
        # one GameString per line
        Base;InProgress;White[2];wS1;bS1 wS1-
        Chess;InProgress;White[1]
        Base;InProgress;White[2];wS1;bS1 wS2-
        Base+MLP;NotStarted;White[1]
        """,
        "gamestring",
    )
    assert [len(g.moves) for g in games] == [2, 0, 1, 0]
    assert games[0].errors == [] and games[3].errors == []
    assert "Chess" in games[1].errors[0]
    assert games[2].errors[0].startswith("move 2 'bS1 wS2-': ")


def test_game_from_board() -> None:
    board = hive.Board("Base")
    for text in ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"):
        board.push_uhp(text)
    game = RecordedGame.from_board(board, {"White": "me"})
    assert game.moves == ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]
    (back,) = from_text(str(game), "pgn")
    assert back.headers["White"] == "me" and back.mainline_moves() == board.move_stack
    assert "4 moves" in repr(game)


def test_queen_on_the_first_turn_replays_with_the_original_opening() -> None:
    (game,) = from_text(
        """
        [GameType "Base"]
        1. wQ
        2. bS1 wQ-
        """,
        "pgn",
    )
    assert game.errors == [] and game.board.tournament_opening is False
    (tournament,) = from_text('[GameType "Base"]\n1. wS1\n2. bQ wS1-\n', "pgn")
    assert tournament.errors == [] and tournament.board.tournament_opening is False
    (usual,) = from_text('[GameType "Base"]\n1. wS1\n2. bS1 wS1-\n', "pgn")
    assert usual.board.tournament_opening is True
    sgf = one(SGFS[0])
    assert sgf.board.tournament_opening is True


def test_pgn_without_game_type_infers_it_and_ignores_comments() -> None:
    (game,) = from_text(
        """
        [White "a"]

        1. wP {a pillbug first}
        2. bS1 wP-
        *
        """,
        "pgn",
    )
    assert game.errors == [] and str(game.game_type) == "Base+P" and game.result == "InProgress"


def test_bad_game_type_header_is_an_error() -> None:
    (game,) = from_text('[GameType "Base+X"]\n\n1. wS1\n', "pgn")
    assert game.errors and "Base+X" in game.errors[0] and game.moves == []


# ----------------------------------------------------------------------
# Boardspace dialects, one by one

SGF_HEAD = '(;GM[27]VV[1]SU[{variant}]DT[Sun Mar 03 10:00:00 GMT 2024]P0[id "ann"]P1[id "bob"]\n; P0[0 Start P0]\n'


def sgf(body: str, variant: str = "hive") -> str:
    return SGF_HEAD.format(variant=variant) + textwrap.dedent(body) + ")\n"


def test_sgf_draw_offers_and_resignation() -> None:
    (game,) = from_text(
        sgf(
            r"""
            ; P0[1 Pick W 2 wG1]; P0[2 Dropb wG1 N 13 .]; P0[3 Done ]
            ; P1[4 Pick B 2 bG1]; P1[5 Dropb bG1 N 12 wG1\\]; P1[6 Done ]
            ; P0[7 OfferDraw]; P0[8 Done ]
            ; P1[9 DeclineDraw]; P1[10 Done ]
            ; P0[11 Move W wQ N 14 \\wG1]; P0[12 Done ]
            ; P1[13 Resign]; P1[14 Done ]
            """
        ),
        "sgf",
    )
    assert game.errors == []
    assert game.moves == ["wG1", "bG1 wG1\\", "wQ \\wG1"]
    assert game.result == "WhiteWins" and game.board.state == "InProgress"
    assert game.headers["Date"] == "2024.03.03" and game.headers["White"] == "ann"


def test_sgf_accepted_draw_and_explicit_pass_commands() -> None:
    (game,) = from_text(
        sgf(
            """
            ; P0[1 Move W wG1 N 13 .]; P0[2 Done ]
            ; P1[3 Move B bG1 O 13 wG1-]; P1[4 Done ]
            ; P0[5 OfferDraw]; P0[6 Done ]
            ; P1[7 AcceptDraw]; P1[8 Done ]
            """
        ),
        "sgf",
    )
    assert game.errors == [] and game.moves == ["wG1", "bG1 wG1-"] and game.result == "Draw"
    (bad,) = from_text(sgf("; P0[1 Move W wG1 N 13 .]; P0[2 Done ]\n; P1[3 Pass]; P1[4 Done ]\n"), "sgf")
    assert bad.errors == ["move 2 'Pass': You can't pass when you have valid moves."]


def test_sgf_old_colourless_dialect() -> None:
    (game,) = from_text(
        sgf(
            r"""
            ; P0[1 pick w 2 G1]; P0[2 dropb g1 N 13 .]; P0[3 done]
            ; P1[4 move B Q N 14 \\wG1]; P1[5 done]
            ; P0[6 pick w 0 Q]; P0[7 dropb q N 12 wG1\\]; P0[8 done]
            ; P1[9 movedone B B1 O 15 bQ/]
            ; P0[10 pickb N 12 q]; P0[11 dropb q M 12 /wG1]; P0[12 done]
            ; P1[13 pickb O 15 b1]; P1[14 dropb b1 N 14 .]; P1[15 done]
            """,
            "hive",
        ),
        "sgf",
    )
    assert game.errors == []
    assert game.moves == ["wG1", "bQ \\wG1", "wQ wG1\\", "bB1 bQ/", "wQ /wG1", "bB1 bQ"]
    assert game.board.height[game.board.pos[hive.PIECE_NAMES.index("bB1")]] == 2


def test_sgf_changed_mind_and_pillbug_moves() -> None:
    """Several drops before one Done: the last counts. ``pdropb``/``PMove`` move a piece with a Pillbug."""
    (game,) = from_text(
        sgf(
            r"""
            ; P0[1 Pick W 8 wP1]; P0[2 Dropb wP1 N 13 .]; P0[3 Done ]
            ; P1[4 Pick B 0 bQ]; P1[5 Dropb bQ O 13 wP-]; P1[6 Pickb O 13 bQ]; P1[7 Dropb bQ M 13 -wP]; P1[8 Done ]
            ; P0[9 Pick W 0 wQ]; P0[10 Dropb wQ O 14 wP/]; P0[11 Done ]
            ; P1[12 Pick B 2 bG1]; P1[13 Dropb bG1 L 13 -bQ]; P1[14 Done ]
            ; P0[15 Pickb O 14 wQ]; P0[16 Pdropb wQ O 13 wP-]; P0[17 Done ]
            ; P1[18 Pick B 2 bG2]; P1[19 Dropb bG2 L 12 /bQ]; P1[20 Done ]
            ; P0[21 PMove W wQ N 12 wP\\]; P0[22 Done ]
            """,
            "hive-p",
        ),
        "sgf",
    )
    assert game.errors == []
    assert game.moves[1] == "bQ -wP"
    assert game.moves[4:] == ["wQ wP-", "bG2 /bQ", "wQ wP\\"]


def test_sgf_forced_passes_may_be_left_out_or_written_as_a_bare_done() -> None:
    """The last two moves of Dumbot-Kaur50 are White passing; a record may write them as a bare Done
    (as this one does) or leave them out (newer clients)."""
    path = RECORDS / "HV-Dumbot-Kaur50-2023-01-17-0059.sgf"
    text = path.read_text()
    expected = one(path).mainline_moves()
    lines = text.splitlines()
    dropped = []
    for index, line in enumerate(lines):
        previous = lines[index - 1] if index else ""
        if line.startswith("; P0[") and " Done " in line and not previous.startswith("; P0["):
            continue  # a P0 Done right after a P1 line: a pass
        dropped.append(line)
    (without,) = from_text("\n".join(dropped), "sgf")
    assert without.errors == []
    assert without.mainline_moves() == expected
    assert sum(m.is_pass for m in expected) == 13


def test_sgf_illegal_move_names_the_move_and_the_rule() -> None:
    (game,) = from_text(
        sgf(
            """
            ; P0[1 Move W wG1 N 13 .]; P0[2 Done ]
            ; P1[3 Move B bG1 Q 13 .]; P1[4 Done ]
            """
        ),
        "sgf",
    )
    assert game.moves == ["wG1"]
    assert game.errors == [f"move 2 'Move B bG1 Q 13 .': {reasons.FIRST_REPLY}"]


@pytest.mark.parametrize(
    ("body", "variant", "message"),
    [
        ("; P0[1 Move W wX1 N 13 .]; P0[2 Done ]\n", "hive", "unknown piece 'wX1'"),
        ("; P0[1 Move W wG1 N 13 .]; P0[2 Done ]\n; P1[3 Frobnicate bA1]\n", "hive", "unknown Boardspace command"),
        ("; P0[1 Move W wG1 N 13 .]; P0[2 Done ]\n; P1[3 Move B bG1]\n", "hive", "malformed"),
        ("; P0[1 Move W wG1 N 13 .]; P0[2 Done ]\n", "hive-ultimate", "unsupported Boardspace variant"),
        ("; P0[1 Move W wM1 N 13 .]; P0[2 Done ]\n", "hive", reasons.NOT_ENABLED),
    ],
)
def test_sgf_errors_name_the_bad_input(body: str, variant: str, message: str) -> None:
    (game,) = from_text(sgf(body, variant), "sgf")
    assert game.errors and message in game.errors[0]


def test_sgf_truncated_file() -> None:
    text = (RECORDS / SGFS[0].name).read_text()
    games = from_text(text[: len(text) // 2], "sgf")
    assert len(games) == 1 and "missing ')'" in games[0].errors[0]
    assert len(games[0].moves) > 5


def test_sgf_reader_streams_across_chunk_boundaries() -> None:
    text = "".join(p.read_text() for p in SGFS)
    whole = [g.mainline_moves() for g in read_sgf(io.StringIO(text))]
    for size in (1, 7, 64):
        handle = io.StringIO(text)
        trees = list(game_trees(handle, chunk_size=size))
        assert len(trees) == 4
        assert [game_of_tree(t).mainline_moves() for t in trees if not isinstance(t, str)] == whole


# ----------------------------------------------------------------------
# multi-game files and streaming


def test_bad_game_between_good_ones_is_reported_and_reading_goes_on(tmp_path: Path) -> None:
    good = [(RECORDS / n).read_text() for n in ("hivegame_valid_pass.pgn", "HV-blue1224-Dumbot-2016-04-02-1915.pgn")]
    bad = (RECORDS / "hivegame_invalid_ant_climb.pgn").read_text()
    path = tmp_path / "three.pgn"
    path.write_text("\n".join([good[0], bad, good[1]]))
    games = list(records.iter_games(path))
    assert [len(g.moves) for g in games] == [85, 11, 39]
    assert [bool(g.errors) for g in games] == [False, True, False]
    assert games[1].errors[0].startswith("move 12 'bA1 bP': ")

    sgfs = [p.read_text() for p in SGFS[:2]]
    broken = sgf("; P0[1 Move W wG1 N 13 .]; P0[2 Done ]\n; P1[3 Move B bG1 Q 13 .]; P1[4 Done ]\n")
    path = tmp_path / "three.sgf"
    path.write_text(sgfs[0] + broken + sgfs[1])
    games = list(records.iter_games(path))
    assert [bool(g.errors) for g in games] == [False, True, False]
    assert [len(g.moves) for g in games] == [88, 1, 49]


def test_formats_are_detected_by_content(tmp_path: Path) -> None:
    for name, fmt in (("a.sgf", "sgf"), ("b.pgn", "pgn")):
        (tmp_path / name.split(".")[0]).write_text((RECORDS / SGFS[0].with_suffix("." + fmt).name).read_text())
        assert records.detect_format(tmp_path / name.split(".")[0]) == fmt
    (tmp_path / "c.txt").write_text("Base;InProgress;White[2];wS1;bS1 wS1-\n")
    assert records.detect_format(tmp_path / "c.txt") == "gamestring"
    assert len(one(tmp_path / "c.txt").moves) == 2
    (tmp_path / "d.dat").write_text("hello\n")
    with pytest.raises(records.RecordFormatError, match=r"d\.dat"):
        records.detect_format(tmp_path / "d.dat")


STREAM_CHILD = """
import resource, sys, time
import hive.records
path, checkpoint = sys.argv[1], int(sys.argv[2])
games = moves = failed = 0
start = time.perf_counter()
for game in hive.records.iter_games(path):
    games += 1
    moves += len(game.moves)
    failed += bool(game.errors)
    if games == checkpoint:
        early = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
seconds = time.perf_counter() - start
late = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(games, moves, failed, seconds, early, late)
"""


def stream(tmp_path: Path, games: int, fmt: str) -> tuple[int, int, float, int]:
    """Read a generated ``games``-game file in a fresh interpreter: (games, failed, games/s, RSS growth in kB)."""
    pattern = "*.sgf" if fmt == "sgf" else "*.pgn"
    texts = [p.read_text() for p in sorted(RECORDS.glob(pattern)) if "invalid" not in p.name]
    path = tmp_path / f"many.{fmt}"
    with open(path, "w") as handle:
        for index in range(games):
            handle.write(texts[index % len(texts)] + "\n")
    out = subprocess.run(
        [sys.executable, "-c", STREAM_CHILD, str(path), str(games // 10)],
        capture_output=True,
        text=True,
        check=True,
        timeout=1200,
    ).stdout.split()
    count, _moves, failed, seconds, early, late = (
        int(out[0]),
        int(out[1]),
        int(out[2]),
        float(out[3]),
        *map(int, out[4:]),
    )
    return count, failed, count / seconds, late - early


def test_streaming_keeps_memory_flat(tmp_path: Path) -> None:
    count, failed, rate, growth = stream(tmp_path, 600, "pgn")
    print(f"600-game PGN: {rate:.0f} games/s, peak RSS growth after game 60: {growth} kB")
    assert (count, failed) == (600, 0)
    assert growth < 4096  # 600 boards kept alive would take ~20 MB


def test_a_game_at_a_time(tmp_path: Path) -> None:
    """tracemalloc: reading 60 games peaks far below what holding them would take."""
    import tracemalloc

    text = "\n".join((RECORDS / n).read_text() for n in ("hivegame_valid_p_game.pgn",) * 60)
    tracemalloc.start()
    try:
        count = sum(1 for _ in read_pgn(io.StringIO(text)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    tracemalloc.start()
    try:
        held = list(read_pgn(io.StringIO(text)))
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == len(held) == 60
    assert peak < kept / 5


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["pgn", "sgf"])
def test_ten_thousand_games_stream_with_flat_memory(tmp_path: Path, fmt: str) -> None:
    count, failed, rate, growth = stream(tmp_path, 10_000, fmt)
    print(f"10,000-game {fmt.upper()}: {rate:.0f} games/s, peak RSS growth after game 1,000: {growth} kB")
    assert (count, failed) == (10_000, 0)
    assert growth < 4096


# ----------------------------------------------------------------------
# commands


def test_replay_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["replay", *map(str, SGFS), *map(str, VALID)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"OK {SGFS[0]} 88 BlackWins"
    assert lines[-1] == "total 7 games: 7 OK, 0 failed"

    assert run(["replay", str(RECORDS / "hivegame_valid_pass.pgn"), *map(str, INVALID)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == (
        f"ILLEGAL {INVALID[0]} move 12 'bA1 bP': That piece can't move there: Soldier Ants can't end a move"
        " on top of the hive."
    )
    assert out[2] == (
        f"WARNING {INVALID[0]} the record's result Draw is not kept: the game read stops after move 11, so it is"
        " InProgress"
    )
    assert out[3] == f"ILLEGAL {INVALID[1]} move 3 'wB1 bL': {reasons.MOVE_BEFORE_QUEEN}"
    assert out[-1] == "total 3 games: 1 OK, 2 failed"


def test_replay_names_the_games_of_a_multi_game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.pgn"
    path.write_text("\n".join(p.read_text() for p in VALID[:2]))
    assert run(["replay", str(path)]) == 0
    assert [line.split()[1] for line in capsys.readouterr().out.splitlines()[:2]] == [f"{path}#1", f"{path}#2"]


def test_replay_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "junk.dat").write_text("hello\n")
    assert run(["replay", str(tmp_path / "missing.pgn"), str(tmp_path / "junk.dat"), str(VALID[0])]) == 2
    captured = capsys.readouterr()
    assert "missing.pgn: No such file or directory" in captured.err
    assert "junk.dat: not a game record" in captured.err
    assert "Traceback" not in captured.err
    assert captured.out.splitlines()[-1] == "total 1 game: 1 OK, 0 failed, 2 unreadable files"


def test_convert_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = RECORDS / "HV-Quodlibet-Jewdoka-2018-10-10-0140.sgf"
    pgn, txt, again = tmp_path / "q.pgn", tmp_path / "q.txt", tmp_path / "again.pgn"
    assert run(["convert", str(source), "-o", str(pgn)]) == 0
    assert pgn.read_text() == source.with_suffix(".pgn").read_text()
    assert run(["convert", str(pgn), "-o", str(txt)]) == 0
    assert txt.read_text() == one(source).game_string() + "\n"
    assert run(["convert", str(txt), "-o", str(again)]) == 0
    assert one(again).mainline_moves() == one(source).mainline_moves()
    assert run(["convert", str(pgn), "--to", "sgf"]) == 0
    assert one_sgf(capsys.readouterr().out).mainline_moves() == one(source).mainline_moves()


def one_sgf(text: str) -> RecordedGame:
    (game,) = records.read_string(text, "sgf")
    return game


def test_convert_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.pgn"
    assert run(["convert", str(tmp_path / "missing.sgf"), "-o", str(out)]) == 2
    assert "missing.sgf: No such file or directory" in capsys.readouterr().err and not out.exists()
    assert run(["convert", str(VALID[0]), "-o", str(tmp_path / "out.xyz")]) == 2
    assert "--to" in capsys.readouterr().err
    assert run(["convert", str(tmp_path / "missing.sgf")]) == 2  # no --to either: the missing file comes first
    err = capsys.readouterr().err
    assert "missing.sgf: No such file or directory" in err and "--to" not in err
    assert run(["convert", str(INVALID[0]), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "ILLEGAL move 12 'bA1 bP'" in err and "left as it was" in err and not out.exists()
    assert run(["convert", str(INVALID[0]), "-o", str(out), "--partial"]) == 1
    assert "ILLEGAL move 12 'bA1 bP'" in capsys.readouterr().err
    assert len(one(out).moves) == 11
    copy = tmp_path / "same.pgn"
    copy.write_text(VALID[0].read_text())
    assert run(["convert", str(copy), "-o", str(copy), "--to", "pgn"]) == 2
    assert "is the input file" in capsys.readouterr().err


def test_commands_run_through_python_without_a_traceback() -> None:
    script = (
        "import argparse, sys\nfrom hive.cli import records\np = argparse.ArgumentParser()\n"
        "records.add_parsers(p.add_subparsers(required=True))\na = p.parse_args(sys.argv[1:])\nsys.exit(a.func(a))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, "replay", "/nonexistent/x.sgf"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr and "x.sgf" in out.stderr
