"""Records read liberally and written canonically: the shared real records, altered into the forms other programs
write (Boardspace's viewer events and unknown properties, ``wM1`` numbering, hivegame.com's climbs written with a
direction), read with a warning to the same moves; ambiguous or illegal forms rejected naming the text and the rule;
text no reader expects (``²``) an error on its game only; a record cut short by a bad move keeps no result."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hive.games.hive import PIECE_NAMES, Board
from hive.games.hive.geometry import NEIGHBOUR
from hive.records import RecordedGame, read_string, write_game_string, write_pgn, write_sgf

from ..shared import TESTDATA

RECORDS = TESTDATA / "records"
SGFS = sorted(RECORDS.glob("HV-*.sgf")) + sorted(RECORDS.glob("U_HV-*.sgf"))
MZINGA_PGNS = [path.with_suffix(".pgn") for path in SGFS]
HIVEGAME = sorted(RECORDS.glob("hivegame_valid_*.pgn"))
QUODLIBET = RECORDS / "HV-Quodlibet-Jewdoka-2018-10-10-0140.sgf"
_MARKS = ("/", "-", "\\")  # directions 0..2 (NE, E, SE) follow the reference, 3..5 (SW, W, NW) precede it


def read_one(text: str, fmt: str) -> RecordedGame:
    (game,) = read_string(text, fmt)
    return game


def sgf_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8-sig").splitlines()


# ----------------------------------------------------------------------
# Boardspace SGF: viewer events, unknown properties, stray text between the moves


@pytest.mark.parametrize("path", SGFS, ids=lambda p: p.stem)
def test_sgf_viewer_events_between_moves_are_skipped_with_a_warning(path: Path) -> None:
    lines = sgf_lines(path)
    original = read_one("\n".join(lines), "sgf")
    moves = [i for i, line in enumerate(lines) if re.match(r"; P[01]\[\d+ (?i:done)\s*\]", line)]
    altered = list(lines)
    for i in reversed(moves[::5]):  # after every fifth Done: a scroll, a replay control, a time mark
        player = lines[i][3]
        altered[i + 1 : i + 1] = [f"; P{player}[{i} Scroll 3]", f"; P{player}[{i} Replay]", "; P0[time 0:04:57]"]
    game = read_one("\n".join(altered), "sgf")
    assert (game.moves, game.result, game.errors) == (original.moves, original.result, [])
    times = len(moves[::5])
    assert f"ignored the Boardspace event 'Scroll 3' ({times} times), which does not change the position" in (
        " ".join(game.warnings)
    )
    assert write_pgn(game) == path.with_suffix(".pgn").read_text(encoding="utf-8-sig")


@pytest.mark.parametrize("path", SGFS, ids=lambda p: p.stem)
def test_sgf_unknown_properties_and_stray_text_are_skipped_with_a_warning(path: Path) -> None:
    lines = sgf_lines(path)
    original = read_one("\n".join(lines), "sgf")
    altered = []
    for number, line in enumerate(lines):
        altered.append(line)
        if line.startswith("; P") and number % 7 == 0:
            altered[-1] = f"{line} XV[scroll {number}] TM[{number}]"
        elif line.startswith("; P") and number % 11 == 0:
            altered.append("0:04:57 [replay]")
    game = read_one("\n".join(altered), "sgf")
    assert (game.moves, game.result, game.errors) == (original.moves, original.result, [])
    assert any(w.startswith("ignored SGF properties the reader does not know: XV (") for w in game.warnings)
    assert any(w.startswith("ignored text between the SGF nodes") and "'0:04:57'" in w for w in game.warnings)
    assert write_sgf(game) == write_sgf(original)


def test_sgf_unknown_command_naming_a_piece_or_an_undo_stops_the_game() -> None:
    lines = sgf_lines(QUODLIBET)
    at = lines.index("; P0[13 pick W 1 wA1]")
    for action, message in (
        ("Highlight wA1", "unknown Boardspace command 'Highlight wA1' names a piece or a cell: it may be a move"),
        ("Undo", "'Undo' takes back moves the record does not name"),
    ):
        text = "\n".join([*lines[:at], f"; P0[13 {action}]", *lines[at:]])
        first, second = read_string(text + "\n" + QUODLIBET.read_text(), "sgf")
        assert first.errors == [f"move 5 '{action}': {message}"]
        assert len(first.moves) == 4 and first.result == "InProgress"
        assert not second.errors and second.result == "WhiteWins"  # the next game is read


# ----------------------------------------------------------------------
# PGN converted from Boardspace: the single Mosquito, Ladybug, Pillbug (and Queen) numbered


def numbered(text: str) -> str:
    """The moves of a PGN with every single bug written as Boardspace writes it: ``wM1``, ``bQ1``."""
    head, _, body = text.partition("\n\n")
    return head + "\n\n" + re.sub(r"\b([wb][QMLP])(?![0-9])", r"\g<1>1", body)


@pytest.mark.parametrize("path", [*MZINGA_PGNS, *HIVEGAME], ids=lambda p: p.stem)
def test_pgn_numbering_the_single_bugs_reads_with_a_warning(path: Path) -> None:
    text = path.read_text(encoding="utf-8-sig")
    altered = numbered(text)
    assert altered != text
    game, original = read_one(altered, "pgn"), read_one(text, "pgn")
    assert (game.moves, game.result, game.errors) == (original.moves, original.result, [])
    (warning,) = game.warnings
    assert "single bugs numbered as Boardspace writes them" in warning and "read as UHP's" in warning
    assert write_pgn(game) == write_pgn(original)  # written canonically: wM, never wM1


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("9. wS1 -wQ", "9. wS -wQ", "'wS' is ambiguous: which Spider (wS1, wS2)?"),
        ("27. wP -wB1", "27. wP2 -wB1", "unknown piece 'wP2' (each player has one Pillbug)"),
        ("10. bB1 bA1-", "10. bB1 bA4-", "unknown piece 'bA4' (a player's Soldier Ant pieces are numbered 1 to 3)"),
        ("12. bB1 bA1", "12. bB1 wQ -", "expected 'piece', 'piece reference' or 'pass'"),
    ],
)
def test_pgn_ambiguous_or_unknown_names_are_rejected(old: str, new: str, message: str) -> None:
    text = (RECORDS / "hivegame_valid_p_game.pgn").read_text()
    assert old in text
    game = read_one(text.replace(old, new), "pgn")
    number = int(new.split(".")[0])
    assert len(game.moves) == number - 1 and game.result == "InProgress"
    (error,) = game.errors
    assert error.startswith(f"move {number} '{new.split('. ')[1]}': ") and message in error


# ----------------------------------------------------------------------
# hivegame.com: a climb written with a direction pointing at the taken cell


def climbs_by_direction(path: Path) -> tuple[str, list[str], int]:
    """The PGN with every climb onto a stack written from a neighbour with a direction, the moves, the count."""
    text = path.read_text(encoding="utf-8-sig")
    original = read_one(text, "pgn")
    board = Board(original.game_type, tournament_opening=original.board.tournament_opening)
    written = []
    for move_text in original.moves:
        move = board.parse_move(move_text)
        dest = move.destination
        if dest is not None and move.origin is not None and board.height[dest]:
            move_text = _from_a_neighbour(board, move_text.split()[0], move.piece_id, dest) or move_text
        written.append(move_text)
        board.push_text(original.moves[len(written) - 1])
    head = text.partition("\n\n")[0]
    body = "\n".join(f"{n}. {m}" for n, m in enumerate(written, start=1))
    changed = sum(a != b for a, b in zip(written, original.moves, strict=True))
    return f"{head}\n\n{body}\n\n{original.result}\n", original.moves, changed


def _from_a_neighbour(board: Board, name: str, pid: int, dest: int) -> str | None:
    for direction in range(6):
        neighbour = NEIGHBOUR[dest * 6 + (direction + 3) % 6]  # the cell ``dest`` lies in ``direction`` from
        if board.height[neighbour] and board.top[neighbour] != pid:
            ref = PIECE_NAMES[board.top[neighbour]]
            mark = _MARKS[direction % 3]
            return f"{name} {ref}{mark}" if direction < 3 else f"{name} {mark}{ref}"
    return None


@pytest.mark.parametrize("path", [*MZINGA_PGNS, *HIVEGAME], ids=lambda p: p.stem)
def test_climbs_written_with_a_direction_read_as_on_top(path: Path) -> None:
    text, moves, changed = climbs_by_direction(path)
    game = read_one(text, "pgn")
    assert (game.moves, game.errors) == (moves, [])
    climbs = [w for w in game.warnings if "so the move climbs on it" in w]
    assert len(climbs) == changed
    assert write_game_string(game) == write_game_string(read_one(path.read_text(encoding="utf-8-sig"), "pgn"))


def test_the_shared_records_hold_climbs() -> None:
    assert sum(climbs_by_direction(path)[2] for path in MZINGA_PGNS) >= 10


def test_a_direction_at_a_taken_cell_for_a_piece_that_cannot_climb_is_rejected() -> None:
    text = (RECORDS / "hivegame_invalid_ant_climb.pgn").read_text()
    board = Board.from_record("Base+MLP;InProgress;Black[6];" + ";".join(_moves(text)[:11]))
    ant_to = board.pos[PIECE_NAMES.index("bP")]
    name = _from_a_neighbour(board, "bA1", PIECE_NAMES.index("bA1"), ant_to)
    assert name is not None
    game = read_one(text.replace("12. bA1 bP", f"12. {name}"), "pgn")
    (error,) = game.errors
    assert error.startswith(f"move 12 '{name}': read as 'bA1 bP', on top of the piece there: ")
    assert "Soldier Ants can't end a move on top of the hive" in error


def test_a_placement_onto_a_taken_cell_is_rejected() -> None:
    text = (RECORDS / "hivegame_valid_p_game.pgn").read_text()  # bA1 stands east of wQ from move 8
    game = read_one(text.replace("12. bB1 bA1", "12. bS1 wQ-"), "pgn")
    assert game.errors == ["move 12 'bS1 wQ-': You can't move there because a piece already exists at that position."]


def _moves(pgn: str) -> list[str]:
    return [line.split(". ", 1)[1] for line in pgn.splitlines() if re.match(r"[0-9]+\. ", line)]


# ----------------------------------------------------------------------
# text no reader expects: an error on its game, the next game read


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("14 dropb wA1 N ² wM", "move 5 'dropb wA1 N ² wM\\': bad board location 'N ²': a location is a column"),
        ("14 dropb wA² N 13 wM", "move 5 'dropb wA² N 13 wM\\': unknown piece 'wA²': a piece is a bug letter"),
        ("14 dropb wA1 É 13 wM", "move 5 'dropb wA1 É 13 wM\\': bad board location 'É 13'"),
    ],
)
def test_sgf_odd_digits_are_an_error_on_their_game_only(action: str, message: str) -> None:
    text = QUODLIBET.read_text()
    old = "; P0[14 dropb wA1 N 13 wM\\\\]"
    assert old in text
    first, second = read_string(text.replace(old, f"; P0[{action}\\\\]") + "\n" + text, "sgf")
    (error,) = first.errors
    assert error.startswith(message) and first.result == "InProgress"
    assert (second.moves, second.result, second.errors) == (read_one(text, "sgf").moves, "WhiteWins", [])


def test_sgf_odd_digits_in_a_date_or_a_sequence_number() -> None:
    text = QUODLIBET.read_text()
    game = read_one(text.replace("DT[Tue Oct 09 22:40:32 CLST 2018]", "DT[2018-1²-09]"), "sgf")
    assert game.headers["Date"] == "????.??.??" and not game.errors
    game = read_one(text.replace("; P0[14 dropb", "; P0[1² dropb"), "sgf")  # the sequence number is not read
    assert (game.moves, game.errors, game.warnings) == (read_one(text, "sgf").moves, [], [])


def test_pgn_and_game_string_odd_digits() -> None:
    game = read_one((RECORDS / "hivegame_valid_p_game.pgn").read_text().replace("3. wQ wG1/", "3. wQ wG²/"), "pgn")
    assert game.errors and game.errors[0].startswith("move 3 'wQ wG²/': ")
    bad, good = read_string("Base;InProgress;White[²];wQ\nBase;InProgress;White[2];wQ;bQ wQ-\n", "gamestring")
    assert bad.errors and "White[²]" in bad.errors[0]
    assert good.moves == ["wQ", "bQ wQ-"] and not good.errors


# ----------------------------------------------------------------------
# a record cut short keeps no result


def test_a_record_cut_short_by_an_illegal_move_keeps_no_result() -> None:
    text = QUODLIBET.read_text().replace("; P0[38 dropb wB1 N 14 wQ\\\\]", "; P0[38 dropb wB1 A 1 .]")
    game = read_one(text, "sgf")
    assert game.errors and game.errors[0].startswith("move 13 'dropb wB1 A 1 .': ")
    assert game.result == "InProgress" and game.headers["Result"] == "InProgress"
    assert "SgfResult" not in game.headers
    assert "the record's result WhiteWins is not kept: the game read stops after move 12" in game.warnings[-1]
    assert '[Result "InProgress"]' in write_pgn(game) and 'Quodlibet"]' in write_pgn(game)
    assert "RE[" not in write_sgf(game) and "won" not in write_sgf(game)
    assert write_game_string(game).split(";")[1] == "InProgress"
    again = read_one(write_sgf(game), "sgf")
    assert (again.board.move_stack, again.result, again.errors) == (game.board.move_stack, "InProgress", [])


def test_a_pasted_game_is_read_as_a_gamestring_a_position_or_a_list_of_moves() -> None:
    from hive.game import IllegalMoveError, InvalidRecordError
    from hive.records.pasted import read_pasted

    assert read_pasted("wS1; bS1 wS1-", game_type="Base").board.move_texts() == ["wS1", "bS1 wS1-"]
    assert read_pasted("wS1\nbM wS1-", game_type="Base").board.game_name == "Base+M"  # widened to the bugs named
    assert read_pasted("Base;InProgress;White[2];wS1;bS1 wS1-").board.game_name == "Base"
    with pytest.raises(InvalidRecordError, match="says the game is Draw, but its moves leave it InProgress"):
        read_pasted("Base;Draw;White[2];wS1;bS1 wS1-")
    with pytest.raises(IllegalMoveError, match=r"^Move 2 'wQ -wS1'"):
        read_pasted("wS1;wQ -wS1", game_type="Base")
    for empty in ("", " ;\n"):
        with pytest.raises(InvalidRecordError, match="nothing to import"):
            read_pasted(empty)
    with pytest.raises(InvalidRecordError, match="neither a game type"):
        read_pasted("hello")
