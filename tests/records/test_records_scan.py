"""Header-only scanning of record archives (no move replayed), filters on the headers, and the commands that use
them: ``hive scan``, ``hive replay``/``hive convert`` with filters, and ``hive convert``'s output written whole or
not at all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hive import records
from hive.records import HeaderFilter, InvalidFilterError, RecordHeaders, iter_games, iter_headers

from ..commands import run
from ..shared import ROOT, TESTDATA

RECORDS = TESTDATA / "records"
ALL = sorted(RECORDS.iterdir())
QUODLIBET = RECORDS / "HV-Quodlibet-Jewdoka-2018-10-10-0140.sgf"


def archive(tmp_path: Path, fmt: str, copies: int = 3) -> Path:
    """The shared records of one format (the invalid ones too), repeated ``copies`` times in one file."""
    paths = [p for p in ALL if p.suffix == f".{fmt}"]
    path = tmp_path / f"archive.{fmt}"
    path.write_text("\n\n".join(p.read_text(encoding="utf-8-sig").strip() for p in paths * copies) + "\n")
    return path


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_headers_agree_with_the_full_read(path: Path) -> None:
    (found,) = iter_headers(path)
    (game,) = iter_games(path)
    assert found.number == 1 and not found.errors
    assert found.headers["GameType"] == str(game.game_type)
    assert {k: v for k, v in found.headers.items() if k != "Result"} == {
        k: v for k, v in game.headers.items() if k != "Result"
    }
    if not game.errors:  # a bad move cuts the game short: the headers count what the record writes
        assert found.moves == len(game.moves)
    if "Result" in found.headers and not game.errors:  # else the final position alone tells
        assert found.headers["Result"] == game.result


def test_game_string_headers() -> None:
    lines = [
        "Base+MLP;InProgress;White[3];wQ;bQ wQ-;wA1 -wQ;bG1 bQ-",
        "Base+X;InProgress;White[1]",
        "Base;InProgress;White[²];wQ",
    ]
    found = list(records.read_game_string_headers(lines))
    assert [(f.number, f.headers, f.moves) for f in found[:2]] == [
        (1, {"GameType": "Base+MLP", "Result": "InProgress"}, 4),
        (2, {"GameType": "Base+X", "Result": "InProgress"}, 0),
    ]
    games = records.read_string("\n".join(lines), "gamestring")
    assert not found[0].errors and not games[0].errors
    for index, bad in ((1, "Base+X"), (2, "White[²]")):
        assert bad in found[index].errors[0] and found[index].errors == games[index].errors


@pytest.mark.parametrize("fmt", ["pgn", "sgf"])
def test_where_replays_only_the_games_it_accepts(tmp_path: Path, fmt: str) -> None:
    path = archive(tmp_path, fmt)
    seen: list[RecordHeaders] = []

    def long_dumbot_games(found: RecordHeaders) -> bool:
        seen.append(found)
        return found.moves >= 40 and "Dumbot" in (found.headers["White"], found.headers["Black"])

    chosen = list(iter_games(path, where=long_dumbot_games))
    everything = list(iter_games(path))
    assert [f.number for f in seen] == list(range(1, len(everything) + 1))  # each game's headers seen once
    expected = [g for g in everything if len(g.moves) >= 40 and "Dumbot" in (g.headers["White"], g.headers["Black"])]
    assert [g.moves for g in chosen] == [g.moves for g in expected] and len(chosen) >= 3
    assert list(iter_games(path, where=lambda found: False)) == []
    assert [f.headers for f in iter_headers(path)] == [f.headers for f in seen]


def test_header_filter_conditions() -> None:
    found = RecordHeaders(
        7,
        {"White": "Dumbot", "Black": "Kaur50", "GameType": "Base+MLP", "Result": "BlackWins", "Date": "2023.01.17"},
        88,
    )
    assert HeaderFilter()(found)
    for good in (
        HeaderFilter(player="dumbot"),
        HeaderFilter(player="KAUR"),
        HeaderFilter(white="bot", black="kaur"),
        HeaderFilter(game_type="base+mlp", result="0-1"),
        HeaderFilter(min_moves=88, max_moves=88),
        HeaderFilter(since="2023", until="2023.01"),
        HeaderFilter(since="2023.01.17", until="2023.01.17"),
    ):
        assert good(found), good
    for bad in (
        HeaderFilter(player="Quodlibet"),
        HeaderFilter(white="Kaur"),
        HeaderFilter(game_type="Base+ML"),
        HeaderFilter(result="WhiteWins"),
        HeaderFilter(min_moves=89),
        HeaderFilter(max_moves=87),
        HeaderFilter(since="2023.01.18"),
        HeaderFilter(until="2022"),
    ):
        assert not bad(found), bad
    unknown = RecordHeaders(1, {"GameType": "Base", "Date": "????.??.??"}, 0)
    assert HeaderFilter(result="InProgress")(unknown) and not HeaderFilter(since="2000")(unknown)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"game_type": "Base+X"}, "game type 'Base+X'"),
        ({"result": "won"}, "result 'won': expected one of InProgress, Draw, WhiteWins, BlackWins"),
        ({"min_moves": -1}, "expected 0 <= minimum <= maximum"),
        ({"min_moves": 10, "max_moves": 5}, "moves from 10 to 5"),
        ({"since": "17.01.2023"}, "date '17.01.2023': expected YYYY, YYYY.MM or YYYY.MM.DD"),
    ],
)
def test_header_filter_names_a_bad_value(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidFilterError, match=message.replace("+", r"\+").replace(".", r"\.")):
        HeaderFilter(**options)  # type: ignore[arg-type]


def test_an_sgf_ending_inside_a_game_keeps_its_numbering(tmp_path: Path) -> None:
    text = QUODLIBET.read_text()
    path = tmp_path / "cut.sgf"
    path.write_text(text + "\n" + text[: len(text) // 2])
    first, second = iter_headers(path)
    assert (first.number, first.errors, second.number) == (1, [], 2)
    assert second.errors == ["the SGF ends inside a game (missing ')')"]
    assert [g.errors[:1] for g in iter_games(path, where=lambda f: f.number == 2)] == [second.errors]


# ----------------------------------------------------------------------
# commands


def test_scan_command_lists_the_matching_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = archive(tmp_path, "sgf", copies=2)
    assert run(["scan", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{path}#1\tDumbot\tKaur50\tBase+MLP\t2023.01.16\tBlackWins\t88"
    assert lines[-1] == "total 8 of 8 games matched"
    assert run(["scan", str(path), "--player", "dumbot", "--min-moves", "50"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in out[:-1]] == [f"{path}#1", f"{path}#4", f"{path}#5", f"{path}#8"]
    assert out[-1] == "total 4 of 8 games matched"
    assert run(["scan", str(path), "--player", "nobody"]) == 1
    assert capsys.readouterr().out == "total 0 of 8 games matched\n"


def test_scan_command_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["scan", str(QUODLIBET), "--result", "won"]) == 2
    assert "hive scan: result 'won': expected one of" in capsys.readouterr().err
    assert run(["scan", str(tmp_path / "missing.pgn"), str(QUODLIBET)]) == 2
    captured = capsys.readouterr()
    assert "missing.pgn: No such file or directory" in captured.err
    assert captured.out.splitlines()[-1] == "total 1 of 1 game matched, 1 unreadable files"


def test_replay_and_convert_take_the_filters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = archive(tmp_path, "pgn", copies=1)
    assert run(["replay", str(path), "--game-type", "Base+P"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"OK {path}#4 140 BlackWins", f"OK {path}#7 32 BlackWins", "total 2 games: 2 OK, 0 failed"]
    out = tmp_path / "p.txt"
    assert run(["convert", str(path), "-o", str(out), "--game-type", "Base+P"]) == 0
    assert [g.moves for g in iter_games(out)] == [g.moves for g in iter_games(path) if str(g.game_type) == "Base+P"]
    assert run(["convert", str(path), "-o", str(out), "--until", "1999"]) == 1
    assert "no game to write" in capsys.readouterr().err
    assert len(list(iter_games(out))) == 2  # left as it was


def test_convert_never_leaves_an_empty_or_partial_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.pgn"
    out.write_text("kept\n")
    assert run(["convert", str(tmp_path / "missing.sgf"), "-o", str(out)]) == 2
    empty = tmp_path / "empty.sgf"
    empty.write_text("")
    assert run(["convert", str(empty), "-o", str(out)]) == 1
    assert "no game to write" in capsys.readouterr().err
    assert out.read_text() == "kept\n" and sorted(p.name for p in tmp_path.iterdir()) == ["empty.sgf", "out.pgn"]
    assert run(["convert", str(empty), "-o", str(tmp_path / "new.pgn")]) == 1
    assert not (tmp_path / "new.pgn").exists()

    text = QUODLIBET.read_text()
    odd = tmp_path / "odd.sgf"  # a row no reader expects, then a good game
    odd.write_text(text.replace("; P0[14 dropb wA1 N 13 wM\\\\]", "; P0[14 dropb wA1 N ² wM\\\\]") + "\n" + text)
    assert run(["convert", str(odd), "-o", str(out)]) == 1
    assert "out.pgn is left as it was" in capsys.readouterr().err and out.read_text() == "kept\n"
    broken = tmp_path / "broken.sgf"  # a game tree never closed: nothing of it is a game
    broken.write_text("((((((((")
    assert run(["convert", str(broken), "-o", str(out)]) == 1
    assert "missing ')'" in capsys.readouterr().err and out.read_text() == "kept\n"
    assert run(["convert", str(odd), "-o", str(out), "--partial"]) == 1
    err = capsys.readouterr().err
    assert f"{odd} game 1: ILLEGAL move 5 'dropb wA1 N ² wM\\': bad board location 'N ²'" in err
    assert f"{odd} game 1: warning: the record's result WhiteWins is not kept" in err
    first, second = iter_games(out)
    assert (len(first.moves), first.result, len(second.moves), second.result) == (4, "InProgress", 49, "WhiteWins")


def test_commands_without_a_traceback() -> None:
    script = (
        "import argparse, sys\nfrom hive.cli import records\np = argparse.ArgumentParser()\n"
        "records.add_parsers(p.add_subparsers(required=True))\na = p.parse_args(sys.argv[1:])\nsys.exit(a.func(a))\n"
    )
    for argv in (
        ["scan", str(QUODLIBET), "--since", "yesterday"],
        ["convert", str(QUODLIBET), "--to", "pgn", "--game-type", "X"],
    ):
        out = subprocess.run(
            [sys.executable, "-c", script, *argv], capture_output=True, text=True, timeout=60, cwd=ROOT
        )
        assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
        assert "yesterday" in out.stderr or "'X'" in out.stderr
