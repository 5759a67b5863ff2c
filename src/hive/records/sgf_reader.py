"""Reading Boardspace SGF records: a game tree's properties become headers, its actions moves."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from ..games.hive import Board, GameType
from .boardspace import Action, BoardspaceReplay, black_starts, parse_action
from .game import Game, RecordFormatError
from .replay import finish, new_board
from .sgf import SgfTree, game_trees

_MONTHS = {
    m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)
}
_PLAYER = re.compile(r'^\s*id\s+"(.*)"\s*$')
_DATE = re.compile(r"^(\d{4})[-./](\d{1,2})[-./](\d{1,2})")
_DRAWN = ("draw", "tie", "nulle", "remis")


def read_sgf(handle: TextIO) -> Iterator[Game]:
    """Read the games of a Boardspace SGF file (one or several game trees) one at a time.

    Every Boardspace Hive dialect is read: old colourless piece names (``pick w 2 G1`` / ``dropb g1 N 13 .``)
    and current ones (``Pick B 8 bP1`` / ``Dropb bP1 O 14 wB1/``), ``pick``/``pickb``/``dropb``/``move``/
    ``movedone``/``done`` in either case, pillbug moves (``pdropb``, ``PMove``), passes (explicit, a bare
    ``Done``, or left out when forced), resignations and draw offers. Players (``P0[id "..."]``), date
    (``DT``), variant (``SU[hive-plm]``) and result (``RE``) become PGN-style headers.

    Moves are decoded from Boardspace's grid coordinates (column letter, row number): the first piece's
    cell is the origin, a column to the right is one step east and a row up is one step north-west.

    :param handle: an open text file.
    """
    pending_error: str | None = None
    for item in game_trees(handle):
        if isinstance(item, str):
            pending_error = item
            continue
        game = game_of_tree(item)
        if pending_error is not None:
            game.errors.insert(0, pending_error)
            pending_error = None
        yield game
    if pending_error is not None:
        yield Game(headers={"Result": "InProgress"}, errors=[pending_error])


def game_of_tree(tree: SgfTree) -> Game:
    """The game of one SGF game tree, its actions replayed up to the first that fails."""
    props: dict[str, list[str]] = {}
    actions: list[Action] = []
    for node in tree.nodes:
        for ident, value in node:
            step = parse_action(int(ident[1]), value) if ident in ("P0", "P1") else None
            if step is not None:
                actions.append(step)
            else:
                props.setdefault(ident, []).append(value)
    players = _players(props)
    errors: list[str] = []
    try:
        game_type = _variant(props.get("SU", [""])[0])
    except RecordFormatError as err:
        game_type = GameType(True, True, True)
        errors.append(str(err))
    date = _date(props.get("DT", [""])[0])
    headers = {"GameType": str(game_type), "Date": date, "Event": "", "Site": "", "Round": ""}
    headers["White"], headers["Black"] = players
    if props.get("DT"):
        headers["SgfDate"] = props["DT"][0]
    if props.get("GN", [""])[0]:
        headers["SgfGameName"] = props["GN"][0]
    declared: str | None = None
    if props.get("RE"):
        headers["SgfResult"] = props["RE"][0]
        declared = _declared(props["RE"][0], players)
    game = Game(headers, game_type, [], "InProgress", new_board(game_type, True), errors)
    queen_first = False
    if not errors:
        replay = BoardspaceReplay(game, black_starts(actions))
        replay.play(actions)
        queen_first = replay.queen_first
        if replay.outcome is not None and declared is None:
            declared = replay.outcome
    _settle_opening(game, queen_first)
    return finish(game, declared)


def _players(props: dict[str, list[str]]) -> tuple[str, str]:
    """The names of P0 and P1 (``P0[id "name"]``), empty where the record has none."""
    names = ["", ""]
    for side in (0, 1):
        for value in props.get(f"P{side}", []):
            match = _PLAYER.match(value)
            if match:
                names[side] = match.group(1)
    return names[0], names[1]


def _declared(text: str, players: tuple[str, str]) -> str | None:
    """The result an ``RE`` text states: the player it names (the longer name if both appear) won, or a draw."""
    hits = sorted((len(name), side) for side, name in enumerate(players) if name and name in text)
    if hits and not (len(hits) == 2 and hits[0][0] == hits[1][0]):
        return "WhiteWins" if hits[-1][1] == 0 else "BlackWins"
    if any(word in text.lower() for word in _DRAWN):
        return "Draw"
    return None


def _variant(text: str) -> GameType:
    word = text.split()[0].lower() if text.split() else ""
    head, _, letters = word.partition("-")
    if head != "hive" or any(ch not in "mlp" for ch in letters) or len(set(letters)) != len(letters):
        raise RecordFormatError(f"unsupported Boardspace variant SU[{text}]: expected hive, hive-m ... hive-plm")
    return GameType("m" in letters, "l" in letters, "p" in letters)


def _date(text: str) -> str:
    """A ``DT`` date (``2024-03-03``, ``Sun Mar 03 10:00:00 GMT 2024``...) as a PGN date, ``????.??.??`` if unread."""
    digits = _DATE.match(text.strip())
    if digits:
        return f"{digits.group(1)}.{int(digits.group(2)):02d}.{int(digits.group(3)):02d}"
    words = text.replace(",", " ").split()
    month = next((_MONTHS[w[:3].lower()] for w in words if w[:3].lower() in _MONTHS), 0)
    year = next((w for w in reversed(words) if re.fullmatch(r"\d{4}", w)), "")
    day = next((w for w in words if re.fullmatch(r"\d{1,2}", w)), "")
    if month and year and day:
        return f"{year}.{month:02d}.{int(day):02d}"
    return "????.??.??"


def _settle_opening(game: Game, queen_first: bool) -> None:
    """Give the final board the tournament opening unless a Queen was played on a first turn.

    The record is replayed without it, since the reader learns the opening only from the moves.
    """
    board = game.board
    if queen_first:
        return
    if board.ply >= 2:  # the opening rule bears on the first two plies only
        board.tournament_opening = True
        return
    settled = Board(board.game_type, tournament_opening=True)
    for move in board.move_stack:
        settled.push(move)
    game.board = settled
