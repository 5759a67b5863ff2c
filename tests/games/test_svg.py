"""SVG pictures: valid XML, one hex per occupied cell, stacks, last move, highlights, themes, Jupyter hook."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import hive
import hive.svg
from hive import records

from ..shared import TESTDATA

NS = {"svg": "http://www.w3.org/2000/svg"}
MOVES = ["wG1", "bL wG1-", "wQ -wG1", "bQ bL-", "wB1 \\wQ", "bB1 bQ/", "wB1 wQ", "bB1 bQ", "wA1 /wQ", "bB1 bL"]


def position() -> hive.Board:
    """Five cells, two of them stacks (wB1 on wQ, bB1 on bL); Black's beetle has just moved from bQ onto bL."""
    board = hive.Board("Base+MLP")
    for text in MOVES:
        board.push_uhp(text)
    return board


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def hexes(root: ET.Element) -> list[ET.Element]:
    return root.findall(".//svg:polygon", NS)


def occupied(board: hive.Board) -> list[int]:
    return [cell for cell in range(len(board.height)) if board.height[cell]]


def test_valid_xml_with_the_requested_size() -> None:
    root = parse(hive.svg.board(position(), size=321))
    assert root.get("width") == root.get("height") == "321"
    assert root.find("svg:title", NS) is not None


def test_one_polygon_per_occupied_cell_naming_the_top_piece() -> None:
    board = position()
    polygons = hexes(parse(hive.svg.board(board)))
    assert len(polygons) == len(occupied(board)) == 5
    by_piece = {p.get("data-piece"): p for p in polygons}
    for cell in occupied(board):
        stack = board.stack(cell)
        polygon = by_piece[hive.PIECE_NAMES[stack[-1]]]
        assert polygon.get("data-height") == str(len(stack))
        assert polygon.get("data-stack") == " ".join(hive.PIECE_NAMES[p] for p in stack)
        assert "hex" in (polygon.get("class") or "").split()
        assert len((polygon.get("points") or "").split()) == 6
    assert by_piece["wB1"].get("class") == "hex white beetle"
    assert by_piece["bQ"].get("data-colour") == "black"


def test_each_bug_has_a_glyph_and_its_letter() -> None:
    board = position()
    root = parse(hive.svg.board(board))
    cells = root.findall(".//svg:g[@class='cell']", NS)
    assert len(cells) == 5
    for cell in cells:
        glyph = cell.find("svg:g[@class='bug']", NS)
        assert glyph is not None and len(glyph) >= 2
        label = cell.find("svg:text[@class='label']", NS)
        piece = cell.find("svg:polygon", NS)
        assert label is not None and piece is not None
        assert label.text == (piece.get("data-piece") or "")[1:]


def test_stacks_are_marked() -> None:
    root = parse(hive.svg.board(position()))
    badges = root.findall(".//svg:g[@class='height-badge']", NS)
    assert [b.get("data-height") for b in badges] == ["2", "2"]
    assert [b.findtext("svg:text", namespaces=NS) for b in badges] == ["2", "2"]
    under = root.findall(".//svg:path[@class='under']", NS)
    assert sorted(str(u.get("data-piece")) for u in under) == ["bL", "wQ"]
    board = hive.Board()
    board.push_uhp("wG1")
    assert parse(hive.svg.board(board)).findall(".//svg:g[@class='height-badge']", NS) == []


def test_last_move_and_highlights_are_outlined() -> None:
    board = position()
    move = board.peek()
    assert move.origin is not None and move.destination is not None
    targets = [m.destination for m in board.legal_moves if m.destination is not None][:3]
    root = parse(hive.svg.board(board, last_move=move, highlight=targets))
    to = root.findall(".//svg:path[@class='last-move last-move-to']", NS)
    origin = root.findall(".//svg:path[@class='last-move last-move-from']", NS)
    assert [p.get("data-cell") for p in to] == [str(move.destination)]
    assert [p.get("data-cell") for p in origin] == [str(move.origin)]
    assert origin[0].get("stroke-dasharray")
    marked = root.findall(".//svg:path[@class='highlight']", NS)
    assert sorted(str(p.get("data-cell")) for p in marked) == sorted(map(str, targets))
    assert len(hexes(root)) == 5  # outlines are paths, not extra hexes


def test_outlines_of_empty_cells_sit_next_to_the_hive() -> None:
    board = hive.Board("Base")
    board.push_uhp("wS1")
    board.push_uhp("bS1 wS1-")
    placements = sorted({m.destination for m in board.legal_moves if m.destination is not None})
    root = parse(hive.svg.board(board, highlight=placements))
    assert len(root.findall(".//svg:path[@class='highlight']", NS)) == len(placements) == 3
    _, _, width, height = map(float, (root.get("viewBox") or "").split())
    assert width == height and width < 400


def test_placement_as_last_move_has_no_origin_outline() -> None:
    board = hive.Board()
    move = board.push_uhp("wA1")
    root = parse(hive.svg.board(board, last_move=move))
    assert len(root.findall(".//svg:path[@class='last-move last-move-to']", NS)) == 1
    assert root.findall(".//svg:path[@class='last-move last-move-from']", NS) == []
    passed = parse(hive.svg.board(board, last_move=hive.Move.PASS))
    assert [p for p in passed.iter() if "last-move" in (p.get("class") or "")] == []


def test_themes_differ() -> None:
    board = position()
    default = hive.svg.board(board)
    warm = hive.svg.board(board, theme="warm-cool")
    assert default != warm
    fills = {
        theme: {p.get("data-piece"): p.get("fill") for p in hexes(parse(hive.svg.board(board, theme=theme)))}
        for theme in ("default", "warm-cool")
    }
    assert fills["default"]["wG1"] == fills["default"]["wB1"]  # ivory tiles, coloured bugs
    assert fills["warm-cool"]["wG1"] != fills["warm-cool"]["wB1"]  # a colour per bug
    assert fills["default"] != fills["warm-cool"]
    assert parse(warm).findtext("svg:title", namespaces=NS) == "Base+MLP;InProgress;Warm[6]"
    assert parse(default).findtext("svg:title", namespaces=NS) == "Base+MLP;InProgress;White[6]"
    assert 'class="hive-board theme-warm-cool"' in warm
    with pytest.raises(ValueError, match="'neon'"):
        hive.svg.board(board, theme="neon")


def test_flipped_turns_the_picture_around() -> None:
    board = position()
    plain = {p.get("data-piece"): p.get("points") for p in hexes(parse(hive.svg.board(board)))}
    flipped = {p.get("data-piece"): p.get("points") for p in hexes(parse(hive.svg.board(board, flipped=True)))}
    assert plain.keys() == flipped.keys() and plain != flipped

    def centre(points: str | None) -> tuple[float, float]:
        xy = [tuple(map(float, pair.split(","))) for pair in (points or "").split()]
        return sum(x for x, _ in xy) / 6, sum(y for _, y in xy) / 6

    (ax, ay), (bx, by) = centre(plain["wG1"]), centre(plain["bQ"])
    (fx, fy), (gx, gy) = centre(flipped["wG1"]), centre(flipped["bQ"])
    assert bx - ax == pytest.approx(-(gx - fx), abs=0.05) and by - ay == pytest.approx(-(gy - fy), abs=0.05)


def test_empty_board() -> None:
    root = parse(hive.svg.board(hive.Board()))
    assert hexes(root) == []
    assert "empty board" in ET.tostring(root, encoding="unicode")


@pytest.mark.parametrize("path", sorted((TESTDATA / "records").glob("*.pgn")), ids=lambda p: p.stem)
def test_every_record_draws(path: Path) -> None:
    for game in records.iter_games(path):
        board = game.board
        for theme in hive.svg.THEMES:
            root = parse(hive.svg.board(board, theme=theme, last_move=board.peek() if board.history else None))
            assert len(hexes(root)) == len(occupied(board))


def test_boards_show_as_svg_in_notebooks() -> None:
    board = position()
    root = parse(board._repr_svg_())
    assert len(hexes(root)) == 5
    assert root.findall(".//svg:path[@class='last-move last-move-to']", NS)


def test_readme_pictures_are_current() -> None:
    """The SVG examples in docs/ are what hive.svg draws today (regenerate them when the drawing changes)."""
    from pathlib import Path

    import hive.svg

    from ..shared import POSITIONS, ROOT

    board = hive.Board.from_game_string((POSITIONS / "midgame_mlp.txt").read_text())
    for theme, name in (("default", "midgame_mlp.svg"), ("warm-cool", "midgame_mlp_warm_cool.svg")):
        drawn = hive.svg.board(board, size=420, last_move=board.peek(), theme=theme)
        assert Path(ROOT / "docs" / name).read_text() == drawn
