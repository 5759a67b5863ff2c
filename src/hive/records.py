"""Game records: Boardspace SGF, PGN (Mzinga's and hivegame.com's dialects) and UHP GameStrings.

Modelled on python-chess's ``chess.pgn``: readers are generators over an open text file and
yield one :class:`Game` at a time, so an archive of any size is read in constant memory::

    import hive.records

    with open("games.pgn", encoding="utf-8") as handle:
        for game in hive.records.read_pgn(handle):
            print(game.headers.get("White"), len(game.moves), game.result, game.errors)

Every move is replayed and checked. A record whose move is illegal yields the game up to that
move, with an error naming the move number, the move text and the rule broken; the reader then
goes on with the next game of the file.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .core import PIECE_NAMES, Board, GameType, IllegalMoveError, InvalidMoveError, Move
from .core.errors import InvalidGameStringError, InvalidGameTypeError
from .core.geometry import DIRECTIONS, NEIGHBOUR, cell_of
from .core.pieces import BUG_COUNT, BUG_FIRST, BUG_LETTERS, KIND, PIECE_IDS, PIECES_PER_COLOUR, QUEEN

__all__ = [
    "FORMATS",
    "RESULTS",
    "Game",
    "RecordFormatError",
    "add_parsers",
    "detect_format",
    "iter_games",
    "read_game_strings",
    "read_pgn",
    "read_sgf",
    "read_string",
    "write_game_string",
    "write_pgn",
    "write_sgf",
]

#: The results a :class:`Game` can have (UHP game states, ``InProgress`` for an unfinished record).
RESULTS = ("InProgress", "Draw", "WhiteWins", "BlackWins")
_FINISHED = ("Draw", "WhiteWins", "BlackWins")
_RESULT_TOKENS = {
    "whitewins": "WhiteWins",
    "blackwins": "BlackWins",
    "draw": "Draw",
    "inprogress": "InProgress",
    "notstarted": "InProgress",
    "1-0": "WhiteWins",
    "0-1": "BlackWins",
    "1/2-1/2": "Draw",
    "½-½": "Draw",
    "*": "InProgress",
}
_PGN_ORDER = ("GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result")


class RecordFormatError(ValueError):
    """A file is not a game record of any known format."""


@dataclass(eq=False)
class Game:
    """One game record: headers, game type, moves, result and the final position.

    :ivar headers: PGN-style tags (``White``, ``Black``, ``Date``, ``Result``, ``GameType``, ...).
    :ivar game_type: the :class:`hive.GameType` the game is played with.
    :ivar moves: the UHP MoveStrings of the moves replayed (for SGF records, written by this library).
    :ivar result: ``WhiteWins``, ``BlackWins``, ``Draw`` or ``InProgress``; a finished position
        decides, otherwise the record's own result (resignation, agreed draw, ...).
    :ivar board: the position after the last move replayed.
    :ivar errors: what went wrong, e.g. ``"move 12 'bA1 bP': <rule>"``; empty for a good record.
    """

    headers: dict[str, str] = field(default_factory=dict)
    game_type: GameType = field(default_factory=lambda: GameType(True, True, True))
    moves: list[str] = field(default_factory=list)
    result: str = "InProgress"
    board: Board = field(default_factory=Board)
    errors: list[str] = field(default_factory=list)

    @classmethod
    def from_board(cls, board: Board, headers: dict[str, str] | None = None) -> Game:
        """Make a record of the moves played on ``board`` (the board itself becomes the record's position)."""
        replay = Board(board.game_type, tournament_opening=board.tournament_opening)
        moves = []
        for move in board.move_stack:
            moves.append(replay.uhp(move))
            replay.push(move)
        game = cls(dict(headers or {}), board.game_type, moves, board.state, board)
        if game.result == "NotStarted":
            game.result = "InProgress"
        game.headers.setdefault("GameType", str(board.game_type))
        return game

    def mainline_moves(self) -> list[Move]:
        """The moves replayed, as :class:`hive.Move` values."""
        return self.board.move_stack

    @property
    def ok(self) -> bool:
        """True when every move of the record was read and is legal."""
        return not self.errors

    def game_string(self) -> str:
        """The UHP GameString of the moves replayed."""
        return write_game_string(self)

    def __str__(self) -> str:
        return write_pgn(self)

    def __repr__(self) -> str:
        white, black = self.headers.get("White", "?"), self.headers.get("Black", "?")
        return f"<Game {white} vs {black}, {self.game_type}, {len(self.moves)} moves, {self.result}>"


# ----------------------------------------------------------------------
# replay


def _normalise_result(text: str) -> str | None:
    return _RESULT_TOKENS.get(text.strip().lower().replace(" ", ""))


def _queen_first(first_moves: Iterable[str]) -> bool:
    """Whether either player's first MoveString places the Queen (the original opening rule)."""
    return any(text.split()[0].lower()[1:2] == "q" for text in first_moves if text.split())


def _new_board(game_type: GameType, queen_first: bool) -> Board:
    return Board(game_type, tournament_opening=not queen_first, repetition_draw=False)


def _finish(game: Game, declared: str | None) -> Game:
    state = game.board.state
    if state in _FINISHED:
        if declared in _FINISHED and declared != state and not game.errors:
            game.errors.append(f"the record's result {declared} disagrees with the final position ({state})")
        game.result = state
    else:
        game.result = declared if declared in RESULTS else "InProgress"
    game.headers["Result"] = game.result
    return game


def _replay_uhp(game: Game, texts: list[str]) -> None:
    """Replay MoveStrings on ``game.board``, stopping at the first bad one."""
    board = game.board
    for number, text in enumerate(texts, start=1):
        try:
            board.push_uhp(text)
        except (InvalidMoveError, IllegalMoveError) as err:
            game.errors.append(f"move {number} '{text}': {err}")
            return
        game.moves.append(text)


def _infer_game_type(texts: list[str]) -> GameType:
    letters = {t.split()[0][1:2].upper() for t in texts if t.split() and t.lower() != "pass"}
    return GameType("M" in letters, "L" in letters, "P" in letters)


def _game_from_moves(headers: dict[str, str], texts: list[str], notes: list[str]) -> Game:
    declared = _normalise_result(headers["Result"]) if "Result" in headers else None
    type_text = headers.get("GameType")
    try:
        game_type = GameType.parse(type_text) if type_text is not None else _infer_game_type(texts)
    except InvalidGameTypeError as err:
        game = Game(dict(headers), errors=[f"GameType header: {err}", *notes])
        return _finish(game, declared)
    game = Game(dict(headers), game_type, [], "InProgress", _new_board(game_type, _queen_first(texts[:2])), notes)
    _replay_uhp(game, texts)
    game.headers["GameType"] = str(game_type)
    return _finish(game, declared)


# ----------------------------------------------------------------------
# PGN

_HEADER = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_NUMBERED = re.compile(r"^(\d+)\s*\.+\s*(.*)$")
_COMMENT = re.compile(r"\{[^}]*\}")


def read_pgn(handle: Iterable[str]) -> Iterator[Game]:
    """Read the games of a PGN file one at a time.

    Both dialects are read: Mzinga's (result ``WhiteWins``/``BlackWins``/``Draw`` in the headers and after
    the moves) and hivegame.com's (``1-0``/``0-1``/``1/2-1/2``); a ``[GameType "..."]`` header names the
    game type (without one it is inferred from the bugs played). Moves are numbered UHP MoveStrings, one
    per line, ``pass`` included.

    :param handle: an open text file (or any iterable of lines).
    """
    headers: dict[str, str] = {}
    texts: list[str] = []
    errors: list[str] = []
    in_moves = False
    for number, raw in enumerate(handle, start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("%") or line.startswith(";"):
            continue
        header = _HEADER.match(line)
        if header:
            if in_moves:
                yield _game_from_moves(headers, texts, errors)
                headers, texts, errors, in_moves = {}, [], [], False
            headers[header.group(1)] = header.group(2).replace('\\"', '"').replace("\\\\", "\\")
            continue
        in_moves = True
        line = " ".join(_COMMENT.sub(" ", line).split())
        if not line:
            continue
        result = _normalise_result(line)
        if result is not None:
            headers.setdefault("Result", line)
            if _normalise_result(headers["Result"]) != result:
                errors.append(f"line {number}: result {line!r} disagrees with the Result header {headers['Result']!r}")
            continue
        numbered = _NUMBERED.match(line)
        text = numbered.group(2).strip() if numbered else line
        if text:
            texts.append(text)
    if headers or texts:
        yield _game_from_moves(headers, texts, errors)


def _pgn_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def write_pgn(game: Game) -> str:
    """The game as PGN in Mzinga's dialect: tags, numbered MoveStrings one per line, then the result.

    Reading the text back with :func:`read_pgn` gives the same headers, moves and result.
    """
    headers = dict(game.headers)
    headers["GameType"] = str(game.game_type)
    headers["Result"] = game.result
    for key in ("Event", "Site", "Round", "White", "Black"):
        headers.setdefault(key, "")
    headers.setdefault("Date", "????.??.??")
    keys = [k for k in _PGN_ORDER if k in headers] + [k for k in headers if k not in _PGN_ORDER]
    lines = [f'[{key} "{_pgn_escape(headers[key])}"]' for key in keys]
    lines.append("")
    lines.extend(f"{number}. {text}" for number, text in enumerate(game.moves, start=1))
    lines.append("")
    lines.append(game.result)
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------
# GameStrings


def read_game_strings(handle: Iterable[str]) -> Iterator[Game]:
    """Read UHP GameStrings, one game per line (blank lines and ``#`` comments are skipped)."""
    for raw in handle:
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        tokens = [t.strip() for t in line.split(";")]
        texts = [t for t in tokens[3:] if t]
        try:
            Board.from_game_string(";".join(tokens[:3]))
        except (InvalidGameStringError, InvalidGameTypeError) as err:
            game = Game(errors=[str(err)])
            game.headers.update({"GameType": str(game.game_type), "Result": "InProgress"})
            yield game
            continue
        headers = {"GameType": tokens[0]}
        game = _game_from_moves(headers, texts, [])
        declared = _normalise_result(tokens[1]) if len(tokens) > 1 else None
        if game.result == "InProgress" and declared in _FINISHED and not game.errors:
            game.errors.append(f"state {tokens[1]} disagrees with the position after the moves (InProgress)")
        yield game


def write_game_string(game: Game) -> str:
    """The UHP GameString of the game (state and turn from the position after the moves)."""
    board = game.board
    parts = [str(game.game_type), board.state, board.turn_string, *game.moves]
    return ";".join(parts)


# ----------------------------------------------------------------------
# Boardspace SGF: streaming tokenizer

_SGF_TOKEN = re.compile(r"\s+|\(|\)|;|([A-Za-z][A-Za-z0-9]*)\s*|\[((?:[^\]\\]|\\.)*)\]", re.DOTALL)


class _SgfTree:
    """The nodes of one game tree's main line: a list of property lists."""

    __slots__ = ("nodes",)

    def __init__(self) -> None:
        self.nodes: list[list[tuple[str, str]]] = []


def _sgf_unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value.replace("\\\n", "").replace("\\\r\n", ""), flags=re.DOTALL)


def _sgf_trees(handle: TextIO, chunk_size: int = 1 << 16) -> Iterator[_SgfTree | str]:
    """Yield each game tree's main line (variations after the first are skipped), or an error string."""
    buffer = ""
    depth = 0
    skip: list[bool] = []
    children: list[int] = []
    tree: _SgfTree | None = None
    node: list[tuple[str, str]] | None = None
    ident = ""
    eof = False
    while not eof:
        chunk = handle.read(chunk_size)
        eof = not chunk
        buffer += chunk
        pos = 0
        size = len(buffer)
        while pos < size:
            match = _SGF_TOKEN.match(buffer, pos)
            if match is None or (match.end() == size and not eof):
                if not eof and (match is not None or buffer[pos] == "["):
                    break  # the token may go on in the next chunk
                if buffer[pos] == "[":
                    yield "the SGF ends inside a property value (missing ']')"
                    pos = size
                    break
                yield f"unexpected text {buffer[pos : pos + 20].splitlines()[0]!r} in the SGF"
                pos += 1
                continue
            pos = match.end()
            first = buffer[match.start()]
            if first == "(":
                if depth == 0:
                    tree = _SgfTree()
                    skip, children = [False], [0]
                else:
                    skip.append(skip[-1] or children[-1] > 0)
                    children[-1] += 1
                    children.append(0)
                depth += 1
                node = None
            elif first == ")":
                if depth == 0:
                    continue
                depth -= 1
                skip.pop()
                children.pop()
                node = None
                if depth == 0 and tree is not None:
                    yield tree
                    tree = None
            elif first == ";":
                if tree is not None and not skip[-1]:
                    node = []
                    tree.nodes.append(node)
                else:
                    node = None
            elif first == "[":
                if node is not None and ident:
                    value = match.group(2)
                    node.append((ident, _sgf_unescape(value) if "\\" in value else value))
            elif match.group(1):
                ident = match.group(1).upper()
        buffer = buffer[pos:]
    if tree is not None:
        yield "the SGF ends inside a game (missing ')')"
        if tree.nodes:
            yield tree


# ----------------------------------------------------------------------
# Boardspace SGF: the Hive move dialect

_ACTION = re.compile(r"^\s*(\d+)\s+([A-Za-z]+)\b\s*(.*?)\s*$", re.DOTALL)
_PIECE = re.compile(r"^([wWbB]?)([QSBGAMLPqsbgamlp])(\d?)$")
_MONTHS = {
    m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)
}
_REFERENCE = re.compile(r"([-/\\]?)([wbWB][A-Za-z]\d?)([-/\\]?)\.?")
# (mark, written after the reference) in direction order NE, E, SE, SW, W, NW
_MARKS = (("/", True), ("-", True), ("\\", True), ("/", False), ("-", False), ("\\", False))
_IGNORED = frozenset({"start", "edit"})


def _column(text: str) -> int:
    value = 0
    for ch in text.upper():
        value = value * 26 + ord(ch) - ord("A") + 1
    return value - 1


def _column_name(index: int) -> str:
    name = ""
    index += 1
    while index > 0:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def _variant(text: str) -> GameType:
    word = text.split()[0].lower() if text.split() else ""
    head, _, letters = word.partition("-")
    if head != "hive" or any(ch not in "mlp" for ch in letters) or len(set(letters)) != len(letters):
        raise RecordFormatError(f"unsupported Boardspace variant SU[{text}]: expected hive, hive-m ... hive-plm")
    return GameType("m" in letters, "l" in letters, "p" in letters)


def _sgf_date(text: str) -> str:
    words = text.replace(",", " ").split()
    digits = re.match(r"^(\d{4})[-./](\d{1,2})[-./](\d{1,2})", text.strip())
    if digits:
        return f"{digits.group(1)}.{int(digits.group(2)):02d}.{int(digits.group(3)):02d}"
    month = next((_MONTHS[w[:3].lower()] for w in words if w[:3].lower() in _MONTHS), 0)
    year = next((w for w in reversed(words) if re.fullmatch(r"\d{4}", w)), "")
    day = next((w for w in words if re.fullmatch(r"\d{1,2}", w)), "")
    if month and year and day:
        return f"{year}.{month:02d}.{int(day):02d}"
    return "????.??.??"


class _SgfError(Exception):
    pass


@dataclass
class _Pending:
    """An action waiting for its ``Done``: a move (piece to a Boardspace location), a pass, a draw offer..."""

    kind: str
    action: str
    piece: int = -1
    where: tuple[int, int] = (0, 0)
    ref: str = ""


class _SgfReplay:
    """Turns one game tree's Boardspace actions into moves on a board."""

    def __init__(self, game: Game, swap: bool) -> None:
        self.game = game
        self.board = game.board
        self.swap = swap
        self.anchor: tuple[int, int] | None = None
        self.picked = -1
        self.pending: _Pending | None = None
        self.outcome: str | None = None

    def colour(self, letter: str) -> int:
        colour = 0 if letter.lower() == "w" else 1
        return colour ^ 1 if self.swap else colour

    def piece(self, token: str, colour: int, action: str) -> int:
        """The piece named by ``token`` (``wA1``, ``bQ``, ``wM1``, or colourless ``A1``, ``q``)."""
        match = _PIECE.match(token)
        if match is None:
            raise _SgfError(f"unknown piece {token!r} in '{action}'")
        letter, bug, number = match.groups()
        kind = BUG_LETTERS.index(bug.upper())
        if letter:
            colour = self.colour(letter)
        index = int(number) if number else 1
        if not 1 <= index <= BUG_COUNT[kind] or (BUG_COUNT[kind] > 1 and not number):
            raise _SgfError(f"unknown piece {token!r} in '{action}'")
        return colour * PIECES_PER_COLOUR + BUG_FIRST[kind] + index - 1

    @staticmethod
    def location(col: str, row: str, action: str) -> tuple[int, int]:
        if not col.isalpha() or not row.isdigit():
            raise _SgfError(f"bad board location '{col} {row}' in '{action}'")
        return _column(col), int(row)

    def cell(self, where: tuple[int, int]) -> int:
        if self.anchor is None:
            return -1
        return cell_of(where[0] - self.anchor[0], self.anchor[1] - where[1])

    def act(self, player: int, command: str, args: list[str], action: str) -> None:
        if command in _IGNORED:
            return
        wanted = {"pick": 3, "pickb": 3, "dropb": 3, "pdropb": 3, "move": 4, "pmove": 4, "movedone": 4}
        if len(args) < wanted.get(command, 0):
            raise _SgfError(f"malformed '{action}'")
        if command == "pick":
            self.picked = self.piece(args[2], self.colour(args[0]), action)
        elif command == "pickb":
            where = self.location(args[0], args[1], action)
            if self.pending is not None and self.pending.where == where and self.pending.kind == "move":
                self.picked = self.pending.piece
            else:
                top = self.board.top[self.cell(where)] if self.anchor is not None else -1
                self.picked = self.piece(args[2], top // PIECES_PER_COLOUR if top >= 0 else player, action)
        elif command in ("dropb", "pdropb"):
            colour = self.picked // PIECES_PER_COLOUR if self.picked >= 0 else player
            pid = self.piece(args[0], colour, action)
            self.pending = _Pending("move", action, pid, self.location(args[1], args[2], action), " ".join(args[3:]))
        elif command in ("move", "pmove", "movedone"):
            pid = self.piece(args[1], self.colour(args[0]), action)
            self.pending = _Pending("move", action, pid, self.location(args[2], args[3], action), " ".join(args[4:]))
            if command == "movedone":
                self.commit(player)
        elif command == "drop":
            self.pending = None
            self.picked = -1
        elif command in ("pass", "offerdraw", "declinedraw", "acceptdraw"):
            self.pending = _Pending(command, action)
        elif command == "resign":
            self.outcome = "BlackWins" if player == 0 else "WhiteWins"
        elif command == "done":
            self.commit(player)
        else:
            raise _SgfError(f"unknown Boardspace command '{action}'")

    def commit(self, player: int) -> None:
        pending, self.pending, self.picked = self.pending, None, -1
        board = self.board
        if pending is None:
            if player == board.turn and board.ply > 0:  # a bare Done is a pass
                self.play_pass(f"move {board.ply + 1} 'Done'")
            return
        if pending.kind in ("offerdraw", "declinedraw"):
            return
        if pending.kind == "acceptdraw":
            self.outcome = "Draw"
            return
        if player != board.turn and board.generate() == [Move.PASS.code]:
            self.play_pass(f"move {board.ply + 1} (forced pass, not recorded)")
        where = f"move {board.ply + 1} '{pending.action}'"
        if pending.kind == "pass":
            self.play_pass(where)
            return
        if self.anchor is None:
            self.anchor = pending.where
        pid = pending.piece
        origin = board.pos[pid]
        move = Move(pid, None if origin < 0 else origin, self.cell(pending.where))
        try:
            text = self.notation(pid, pending.ref, move) or board.uhp(move)
        except IllegalMoveError:  # no piece next to the destination: let the rules say why
            text = ""
        try:
            if text:
                board.push_uhp(text)
            else:
                board.push(move)  # raises: no move with nothing next to its destination is legal
        except (InvalidMoveError, IllegalMoveError) as err:
            text = self.by_reference(pid, pending.ref) or ""
            if not text:
                raise _SgfError(f"{where}: {err}") from None
        self.game.moves.append(text)

    def notation(self, pid: int, ref: str, move: Move) -> str | None:
        """Boardspace's own relative notation (``wG1/``, ``-bQ``) as a MoveString, if it names ``move``."""
        match = _REFERENCE.fullmatch(ref.strip())
        if match is None:
            return None
        before, name, after = match.groups()
        name = name[:2] if name[1].upper() in "QMLP" else name
        if self.swap:
            name = ("b" if name[0] in "wW" else "w") + name[1:]
        ref_id = PIECE_IDS.get(name.lower(), -1)
        cell = self.board.pos[ref_id] if ref_id >= 0 else -1
        mark = before or after
        if cell < 0 or not mark:
            return None
        direction = _MARKS.index((mark, bool(after)))
        if NEIGHBOUR[cell * 6 + direction] != move.destination:
            return None
        return f"{PIECE_NAMES[pid]} {before}{PIECE_NAMES[ref_id]}{after}"

    def by_reference(self, pid: int, ref: str) -> str | None:
        """Boardspace's relative notation (``wG1/``, ``-bQ``), tried when the coordinates give an illegal move."""
        match = _REFERENCE.fullmatch(ref.strip())
        if match is None or not self.board.ply:
            return None
        before, name, after = match.groups()
        if name[1].upper() in "QMLP":
            name = name[:2]
        if self.swap:
            name = ("b" if name[0] == "w" else "w") + name[1:]
        text = f"{PIECE_NAMES[pid]} {before}{name}{after}"
        try:
            self.board.push_uhp(text)
        except (InvalidMoveError, IllegalMoveError):
            return None
        return text

    def play_pass(self, where: str) -> None:
        try:
            self.board.push_uhp("pass")
        except IllegalMoveError as err:
            raise _SgfError(f"{where}: {err}") from None
        self.game.moves.append("pass")


def _sgf_game(tree: _SgfTree) -> Game:
    props: dict[str, list[str]] = {}
    actions: list[tuple[int, str]] = []
    for node in tree.nodes:
        for ident, value in node:
            if ident in ("P0", "P1") and _ACTION.match(value):
                actions.append((int(ident[1]), value))
            else:
                props.setdefault(ident, []).append(value)
    players = {0: "", 1: ""}
    for ident in ("P0", "P1"):
        for value in props.get(ident, []):
            match = re.match(r'^\s*id\s+"(.*)"\s*$', value)
            if match:
                players[int(ident[1])] = match.group(1)
    headers: dict[str, str] = {}
    errors: list[str] = []
    variant = props.get("SU", [""])[0]
    try:
        game_type = _variant(variant)
    except RecordFormatError as err:
        game_type = GameType(True, True, True)
        errors.append(str(err))
    headers["GameType"] = str(game_type)
    headers["Date"] = _sgf_date(props.get("DT", [""])[0])
    headers.update({"Event": "", "Site": "", "Round": ""})
    headers["White"], headers["Black"] = players[0], players[1]
    if props.get("DT"):
        headers["SgfDate"] = props["DT"][0]
    if props.get("GN", [""])[0]:
        headers["SgfGameName"] = props["GN"][0]
    declared: str | None = None
    if props.get("RE"):
        text = props["RE"][0]
        headers["SgfResult"] = text
        hits = sorted((len(name), side) for side, name in players.items() if name and name in text)
        if hits and not (len(hits) == 2 and hits[0][0] == hits[1][0]):
            declared = "WhiteWins" if hits[-1][1] == 0 else "BlackWins"
        elif any(word in text.lower() for word in ("draw", "tie", "nulle", "remis")):
            declared = "Draw"
    swap = _black_starts(actions)
    game = Game(headers, game_type, [], "InProgress", _new_board(game_type, True), errors)
    if not errors:
        replay = _SgfReplay(game, swap)
        for player, value in actions:
            match = _ACTION.match(value)
            assert match is not None
            command = match.group(2).lower()
            args = match.group(3).split()
            action = f"{match.group(2)} {match.group(3)}".strip()
            try:
                replay.act(player, command, args, action)
            except _SgfError as err:
                message = str(err)
                if not message.startswith("move "):
                    message = f"move {game.board.ply + 1} '{action}': {message}"
                errors.append(message)
                break
            if replay.outcome is not None and command == "resign":
                break
        if replay.outcome is not None and declared is None:
            declared = replay.outcome
    _settle_opening(game)
    return _finish(game, declared)


def _black_starts(actions: list[tuple[int, str]]) -> bool:
    """Whether P0's first piece is a black one (Boardspace lets the first player take either colour)."""
    for player, value in actions:
        match = _ACTION.match(value)
        if match is None or player != 0:
            continue
        words = match.group(3).split()
        command = match.group(2).lower()
        if command in ("pick", "move", "movedone") and words:
            return words[0].lower() == "b"
        if command == "dropb" and words:
            match = _PIECE.match(words[0])
            if match and match.group(1):
                return match.group(1).lower() == "b"
    return False


def _settle_opening(game: Game) -> None:
    """Give the final board the tournament opening unless a Queen was played on a first turn."""
    board = game.board
    first = [m.piece_id for m in board.move_stack[:2]]
    if any(pid >= 0 and KIND[pid] == QUEEN for pid in first):
        return
    settled = Board(board.game_type, tournament_opening=True)
    for code in board.history:
        settled.make(code)
    game.board = settled


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
    for item in _sgf_trees(handle):
        if isinstance(item, str):
            pending_error = item
            continue
        game = _sgf_game(item)
        if pending_error is not None:
            game.errors.insert(0, pending_error)
            pending_error = None
        yield game
    if pending_error is not None:
        yield Game(headers={"Result": "InProgress"}, errors=[pending_error])


def _boardspace_name(pid: int) -> str:
    name = PIECE_NAMES[pid]
    return name + "1" if len(name) == 2 and name[1] in "MLP" else name


def write_sgf(game: Game) -> str:
    """The game as a Boardspace SGF record (current dialect: ``Move`` + ``Done`` per turn, ``PMove`` for
    a piece thrown by the opponent's Pillbug).

    :raises ValueError: when the hive spreads beyond Boardspace's A..Z columns.
    """
    replay = Board(game.game_type, tournament_opening=False)
    coords: dict[int, tuple[int, int]] = {}
    placed: list[tuple[int, int, int, str] | None] = []
    for move in game.board.move_stack:
        if move.is_pass:
            placed.append(None)
            replay.push(move)
            continue
        pid = move.piece_id
        dst = move.destination
        assert dst is not None
        ref = replay.uhp(move)
        if replay.ply == 0:
            where = (0, 0)
        elif replay.height[dst]:
            where = coords[dst]
        else:
            where = _unwrapped(replay, dst, coords, pid)
        replay.push(move)
        coords[dst] = where
        text = ref.split(" ", 1)[1] if " " in ref else "."
        if replay.height[dst] > 1:
            text = "."
        placed.append((pid, where[0], where[1], text))
    qs = [p[1] for p in placed if p]
    rs = [p[2] for p in placed if p]
    q0 = max(13, -min(qs, default=0)) if qs else 13
    r0 = max(13, max(rs, default=0) + 1) if rs else 13
    if qs and max(qs) + q0 > 25:
        raise ValueError("the hive is too wide for Boardspace's columns A..Z")
    gt = game.game_type
    letters = ("p" if gt.pillbug else "") + ("l" if gt.ladybug else "") + ("m" if gt.mosquito else "")
    variant = "hive" + ("-" + letters if letters else "")
    headers = game.headers
    result_text = headers.get("SgfResult") or {
        "WhiteWins": f"Game won by {headers.get('White', '')}",
        "BlackWins": f"Game won by {headers.get('Black', '')}",
        "Draw": "Game drawn",
    }.get(game.result, "")
    lines = [" (;", "GM[27]VV[1]", f"SU[{variant}]"]
    lines.append(f"DT[{_sgf_escape(headers.get('SgfDate', headers.get('Date', '')))}]")
    lines.append(f"GN[{_sgf_escape(headers.get('SgfGameName', ''))}]")
    if result_text:
        lines.append(f"RE[{_sgf_escape(result_text)}]")
    lines.append(f'P0[id "{_sgf_escape(headers.get("White", ""))}"]')
    lines.append(f'P1[id "{_sgf_escape(headers.get("Black", ""))}"]')
    lines.append("; P0[0 Start P0]")
    seq = 1
    for ply, entry in enumerate(placed):
        player = ply & 1
        if entry is None:
            lines.append(f"; P{player}[{seq} Pass]")
        else:
            pid, q, r, text = entry
            colour = pid // PIECES_PER_COLOUR
            command = "PMove" if colour != player else "Move"
            location = f"{_column_name(q + q0)} {r0 - r}"
            lines.append(
                f"; P{player}[{seq} {command} {'WB'[colour]} {_boardspace_name(pid)} {location} {_sgf_escape(text)}]"
            )
        lines.append(f"; P{player}[{seq + 1} Done ]")
        seq += 2
    lines.append(")")
    return "\n".join(lines) + "\n"


def _unwrapped(board: Board, cell: int, coords: dict[int, tuple[int, int]], mover: int) -> tuple[int, int]:
    for d, (dq, dr) in enumerate(DIRECTIONS):
        n = NEIGHBOUR[cell * 6 + d]
        if board.height[n] and not (board.top[n] == mover and board.height[n] == 1) and n in coords:
            q, r = coords[n]
            return q - dq, r - dr
    for d, (dq, dr) in enumerate(DIRECTIONS):
        n = NEIGHBOUR[cell * 6 + d]
        if n in coords and board.height[n]:
            q, r = coords[n]
            return q - dq, r - dr
    raise ValueError(f"no piece next to the destination of move {board.ply + 1}")


def _sgf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


# ----------------------------------------------------------------------
# files

#: The record formats, as named by ``iter_games(fmt=...)`` and ``hive convert --to``.
FORMATS = ("sgf", "pgn", "gamestring")
_EXTENSIONS = {".sgf": "sgf", ".pgn": "pgn", ".txt": "gamestring", ".gs": "gamestring", ".gamestring": "gamestring"}
_READERS: dict[str, Callable[[TextIO], Iterator[Game]]] = {
    "sgf": read_sgf,
    "pgn": read_pgn,
    "gamestring": read_game_strings,
}
_WRITERS: dict[str, Callable[[Game], str]] = {"sgf": write_sgf, "pgn": write_pgn, "gamestring": write_game_string}


def detect_format(path: str | Path, head: str | None = None) -> str:
    """``"sgf"``, ``"pgn"`` or ``"gamestring"``, by the file's extension, else by its first characters.

    :raises RecordFormatError: naming the file when neither tells.
    """
    suffix = Path(path).suffix.lower()
    if suffix in _EXTENSIONS and suffix != ".txt":
        return _EXTENSIONS[suffix]
    if head is None:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            head = handle.read(4096)
    text = head.lstrip("\ufeff \t\r\n")
    if text.startswith("("):
        return "sgf"
    if text.startswith("[") or re.match(r"^\d+\s*\.", text):
        return "pgn"
    if re.match(r"^base", text, re.IGNORECASE) or (suffix == ".txt" and not text):
        return "gamestring"
    raise RecordFormatError(f"{path}: not a game record (expected SGF, PGN or UHP GameStrings)")


def iter_games(path: str | Path, fmt: str | None = None) -> Iterator[Game]:
    """Stream the games of a record file, choosing the reader by ``fmt``, the extension or the content.

    :raises OSError: when the file cannot be read.
    :raises RecordFormatError: when it is not a game record.
    """
    kind = fmt or detect_format(path)
    if kind not in _READERS:
        raise RecordFormatError(f"unknown record format {kind!r}: expected one of {', '.join(FORMATS)}")
    with open(path, encoding="utf-8-sig", errors="replace", newline=None) as handle:
        yield from _READERS[kind](handle)


def read_string(text: str, fmt: str) -> list[Game]:
    """Read every game of a record held in a string (``fmt`` is ``sgf``, ``pgn`` or ``gamestring``)."""
    return list(_READERS[fmt](io.StringIO(text)))


# ----------------------------------------------------------------------
# commands: hive convert, hive replay


def _named(path: str, games: Iterator[Game]) -> Iterator[tuple[str, Game]]:
    """Pair each game with a name: the path, or ``path#n`` when the file holds several games."""
    first = next(games, None)
    if first is None:
        return
    second = next(games, None)
    if second is None:
        yield path, first
        return
    yield f"{path}#1", first
    yield f"{path}#2", second
    for index, game in enumerate(games, start=3):
        yield f"{path}#{index}", game


def _failure(game: Game) -> str:
    """``ILLEGAL move N 'text': rule`` for a bad move, ``INVALID <what>`` for anything else wrong."""
    message = next((e for e in game.errors if e.startswith("move ")), None)
    return f"ILLEGAL {message}" if message else f"INVALID {game.errors[0]}"


def cmd_replay(args: argparse.Namespace) -> int:
    """``hive replay FILE...``: check every move of every game, one line per game, then a total."""
    total = failed = unreadable = 0
    for path in args.files:
        try:
            for name, game in _named(path, iter_games(path, args.format)):
                total += 1
                if game.errors:
                    failed += 1
                    kind, _, message = _failure(game).partition(" ")
                    print(f"{kind} {name} {message}", flush=True)
                else:
                    print(f"OK {name} {len(game.moves)} {game.result}", flush=True)
        except (OSError, RecordFormatError) as err:
            unreadable += 1
            print(f"hive replay: {_unreadable(path, err)}", file=sys.stderr)
    print(
        f"total {total} game{'' if total == 1 else 's'}: {total - failed} OK, {failed} failed"
        + (f", {unreadable} unreadable files" if unreadable else "")
    )
    return 2 if unreadable else 1 if failed else 0


def _unreadable(path: str, err: OSError | RecordFormatError) -> str:
    if isinstance(err, OSError):
        return f"cannot read {path}: {err.strerror or err}"
    return str(err)


def cmd_convert(args: argparse.Namespace) -> int:
    """``hive convert INPUT -o OUTPUT [--to FORMAT]``: rewrite a record file in another format."""
    source: str = args.input
    output: str | None = args.output
    target: str | None = args.to
    if target is None:
        suffix = Path(output).suffix.lower() if output and output != "-" else ""
        target = _EXTENSIONS.get(suffix)
        if target is None:
            print(
                "hive convert: give --to pgn|gamestring|sgf, or an output file ending in .pgn, .sgf or .txt",
                file=sys.stderr,
            )
            return 2
    try:
        with open(source, encoding="utf-8-sig", errors="replace") as probe:
            head = probe.read(4096)
        fmt = args.format or detect_format(source, head)
        if output and output != "-" and Path(output).exists() and Path(output).samefile(source):
            print(f"hive convert: the output {output} is the input file", file=sys.stderr)
            return 2
    except (OSError, RecordFormatError) as err:
        print(f"hive convert: {_unreadable(source, err)}", file=sys.stderr)
        return 2
    writer = _WRITERS[target]
    failed = written = 0
    try:
        sink: TextIO = open(output, "w", encoding="utf-8") if output and output != "-" else sys.stdout  # noqa: SIM115
    except OSError as err:
        print(f"hive convert: cannot write {output}: {err.strerror or err}", file=sys.stderr)
        return 2
    try:
        for index, game in enumerate(iter_games(source, fmt), start=1):
            if game.errors:
                failed += 1
                print(f"hive convert: {source} game {index}: {_failure(game)}", file=sys.stderr)
            try:
                text = writer(game)
            except ValueError as err:
                failed += 1
                print(f"hive convert: {source} game {index}: {err}", file=sys.stderr)
                continue
            if written and target != "gamestring":
                sink.write("\n")
            sink.write(text if text.endswith("\n") else text + "\n")
            written += 1
    except (OSError, RecordFormatError) as err:
        print(f"hive convert: {_unreadable(source, err)}", file=sys.stderr)
        return 2
    finally:
        if sink is not sys.stdout:
            sink.close()
    return 1 if failed else 0


def add_parsers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``convert`` and ``replay`` commands on the ``hive`` command's subparsers."""
    convert = subparsers.add_parser(
        "convert", help="convert game records between SGF (Boardspace), PGN and UHP GameStrings"
    )
    convert.add_argument("input", help="a .sgf, .pgn or GameString file")
    convert.add_argument("-o", "--output", default=None, help="the file to write (default: standard output)")
    convert.add_argument(
        "--to", choices=FORMATS, default=None, help="output format (default: by the output's extension)"
    )
    convert.add_argument(
        "--from", dest="format", choices=FORMATS, default=None, help="input format (default: detected)"
    )
    convert.set_defaults(func=cmd_convert)

    replay = subparsers.add_parser("replay", help="check every move of every game in record files")
    replay.add_argument("files", nargs="+", metavar="FILE", help=".sgf, .pgn or GameString files")
    replay.add_argument("--format", choices=FORMATS, default=None, help="input format (default: detected)")
    replay.set_defaults(func=cmd_replay)
