"""Reading Boardspace SGF records: a game tree's properties become headers, its actions moves."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TextIO

from ..games.hive import Board, GameType
from .boardspace import Action, BoardspaceReplay, black_starts, parse_action, summarise
from .recorded import RecordedGame, RecordFormatError, RecordHeaders, Where
from .replay import finish, new_board, safe_game, safe_headers, unexpected
from .sgf import SgfTree, game_trees
from .text import quote

_MONTHS = {
    m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)
}
_PLAYER = re.compile(r'^\s*id\s+"(.*)"\s*$')
_DATE = re.compile(r"^([0-9]{4})[-./]([0-9]{1,2})[-./]([0-9]{1,2})")
_DRAWN = ("draw", "tie", "nulle", "remis")
# the properties read, and those known to say nothing of the game (Boardspace's own and SGF's file properties)
_KNOWN = frozenset({"SU", "DT", "GN", "RE", "P0", "P1", "GM", "VV", "CM", "TC", "TM", "FF", "CA", "AP", "ST", "C", "N"})
# what a player property that is no action tells: P0[id "name"], P0[ranking 1500], P0[time 0:04:57]
_PLAYER_INFO = frozenset({"id", "ranking", "time"})


def read_sgf(handle: TextIO, where: Where | None = None) -> Iterator[RecordedGame]:
    """Read the games of a Boardspace SGF file (one or several game trees) one at a time.

    Every Boardspace Hive dialect is read: old colourless piece names (``pick w 2 G1`` / ``dropb g1 N 13 .``)
    and current ones (``Pick B 8 bP1`` / ``Dropb bP1 O 14 wB1/``), ``pick``/``pickb``/``dropb``/``move``/
    ``movedone``/``done`` in either case, pillbug moves (``pdropb``, ``PMove``), passes (explicit, a bare
    ``Done``, or left out when forced), resignations and draw offers. Players (``P0[id "..."]``), date
    (``DT``), variant (``SU[hive-plm]``) and result (``RE``) become PGN-style headers.

    Moves are decoded from Boardspace's grid coordinates (column letter, row number): the first piece's
    cell is the origin, a column to the right is one step east and a row up is one step north-west.

    What does not change the position is skipped with a warning on the game: commands the reader does not know
    (viewer events such as ``P0[12 Scroll 3]``), properties it does not know (``XX[...]`` in a move node),
    and text between the nodes that belongs to no property (``[replay]``). A command it does not know that names
    a piece or a cell may be a move, and stops the game with an error.

    :param handle: an open text file.
    :param where: a filter on each game's headers, read first (see :func:`hive.records.iter_headers`): only the
        games it accepts are replayed and yielded.
    """
    for number, tree, error in _numbered(handle):
        if where is not None and not where(safe_headers(number, _summary, number, tree, error)):
            continue
        game = safe_game(tree.game) if tree is not None else RecordedGame(headers={"Result": "InProgress"})
        if error is not None:
            game.errors.insert(0, error)
        yield game


def read_sgf_headers(handle: TextIO) -> Iterator[RecordHeaders]:
    """The headers of each game of a Boardspace SGF file, without replaying the moves (for quick filtering).

    :param handle: an open text file.
    """
    for number, tree, error in _numbered(handle):
        yield safe_headers(number, _summary, number, tree, error)


def _numbered(handle: TextIO) -> Iterator[tuple[int, _TreeRecord | None, str | None]]:
    """Each game tree with its place in the file and the error met just before it (text outside any tree); an
    error after the last tree comes alone, as a game of its own."""
    error: str | None = None
    number = 0
    for item in game_trees(handle):
        if isinstance(item, str):
            error = error or item
            continue
        number += 1
        try:
            record: _TreeRecord | None = _TreeRecord(item)
        except Exception as err:  # whatever the text does, it spoils its own game only
            record, error = None, error or unexpected(err)
        yield number, record, error
        error = None
    if error is not None:
        yield number + 1, None, error


def _summary(number: int, tree: _TreeRecord | None, error: str | None) -> RecordHeaders:
    found = tree.summary(number) if tree is not None else RecordHeaders(number, {}, 0)
    if error is not None:
        found.errors.insert(0, error)
    return found


def game_of_tree(tree: SgfTree) -> RecordedGame:
    """The game of one SGF game tree, its actions replayed up to the first that fails."""
    return _TreeRecord(tree).game()


class _TreeRecord:
    """What a game tree says before its actions are played: headers, variant, declared result, actions."""

    def __init__(self, tree: SgfTree) -> None:
        props: dict[str, list[str]] = {}
        actions: list[Action] = []
        unknown: dict[str, int] = {}
        for node in tree.nodes:
            for ident, value in node:
                step = parse_action(int(ident[1]), value) if ident in ("P0", "P1") else None
                if step is not None:
                    actions.append(step)
                    continue
                props.setdefault(ident, []).append(value)
                if ident not in _KNOWN or (ident in ("P0", "P1") and _first_word(value) not in _PLAYER_INFO):
                    shown = _short(ident if ident not in ("P0", "P1") else f"{ident}[{value.strip()}]")
                    unknown[shown] = unknown.get(shown, 0) + 1
        self.actions = actions
        self.errors = list(tree.errors)
        self.warnings = _warnings(tree.stray, unknown)
        players = _players(props)
        self.variant_ok = True
        try:
            self.game_type = _variant(props.get("SU", [""])[0])
        except RecordFormatError as err:
            self.game_type = GameType(True, True, True)
            self.errors.append(str(err))
            self.variant_ok = False
        headers = {"GameType": str(self.game_type), "Date": _date(props.get("DT", [""])[0])}
        headers.update({"Event": "", "Site": "", "Round": "", "White": players[0], "Black": players[1]})
        if props.get("DT"):
            headers["SgfDate"] = props["DT"][0]
        if props.get("GN", [""])[0]:
            headers["SgfGameName"] = props["GN"][0]
        self.declared: str | None = None
        if props.get("RE"):
            headers["SgfResult"] = props["RE"][0]
            self.declared = _declared(props["RE"][0], players)
        self.headers = headers

    def summary(self, number: int) -> RecordHeaders:
        """The game's headers, its turns counted and its result as declared, without playing the actions."""
        turns, outcome = summarise(self.actions)
        headers = dict(self.headers)
        declared = self.declared or outcome
        if declared is not None:
            headers["Result"] = declared
        return RecordHeaders(number, headers, turns, list(self.errors))

    def game(self) -> RecordedGame:
        """The game, its actions played up to the first that fails."""
        game_type = self.game_type
        board = new_board(game_type, True)
        game = RecordedGame(
            dict(self.headers), game_type, [], "InProgress", board, list(self.errors), list(self.warnings)
        )
        declared = self.declared
        queen_first = False
        complete = not self.errors
        if self.variant_ok:
            replay = BoardspaceReplay(game, black_starts(self.actions))
            complete = replay.play(self.actions) and complete
            queen_first = replay.queen_first
            if replay.outcome is not None and declared is None:
                declared = replay.outcome
        _settle_opening(game, queen_first)
        return finish(game, declared, complete)


def _warnings(stray: list[str], unknown: dict[str, int]) -> list[str]:
    """The warnings for the text between nodes and the properties a tree holds that the reader skips."""
    out = []
    if unknown:
        named = [f"{name} ({times} times)" if times > 1 else name for name, times in unknown.items()]
        out.append(f"ignored SGF properties the reader does not know: {_listed(named)}")
    if stray:
        texts = [repr(_short(text)) for text in stray]
        out.append(f"ignored text between the SGF nodes that belongs to no property: {_listed(texts)}")
    return out


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _listed(items: list[str], shown: int = 5) -> str:
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more


def _first_word(text: str) -> str:
    words = text.split(None, 1)
    return words[0].lower() if words else ""


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
        raise RecordFormatError(f"unsupported Boardspace variant {quote(text)}: expected hive, hive-m ... hive-plm")
    return GameType("m" in letters, "l" in letters, "p" in letters)


def _date(text: str) -> str:
    """A ``DT`` date (``2024-03-03``, ``Sun Mar 03 10:00:00 GMT 2024``...) as a PGN date, ``????.??.??`` if unread."""
    digits = _DATE.match(text.strip())
    if digits:
        return f"{digits.group(1)}.{int(digits.group(2)):02d}.{int(digits.group(3)):02d}"
    words = text.replace(",", " ").split()
    month = next((_MONTHS[w[:3].lower()] for w in words if w[:3].lower() in _MONTHS), 0)
    year = next((w for w in reversed(words) if re.fullmatch(r"[0-9]{4}", w)), "")
    day = next((w for w in words if re.fullmatch(r"[0-9]{1,2}", w)), "")
    if month and year and day:
        return f"{year}.{month:02d}.{int(day):02d}"
    return "????.??.??"


def _settle_opening(game: RecordedGame, queen_first: bool) -> None:
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
