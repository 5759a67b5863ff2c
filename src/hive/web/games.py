"""Game kinds behind the web app: everything the server needs to know about one game's rules.

The server stores a game as its kind, its options and its list of MoveStrings; a :class:`GameKind`
replays them, checks and plays a move, and describes a position as JSON for the browser. Hive is
the first kind; another game plugs in by implementing the same small protocol.
"""

from __future__ import annotations

import math
import random
from typing import Any, Protocol

from ..ai import LEVELS, RandomPlayer, Searcher
from ..ai.evaluation import WIN
from ..core import Board, IllegalMoveError, InvalidGameStringError, InvalidMoveError, Move
from ..core.geometry import DIRECTIONS, NEIGHBOUR, NEIGHBOURS, axial_of, cell_of
from ..core.pieces import BUG_LETTERS, GAME_TYPES, KIND, PIECE_IDS, PIECE_NAMES, PIECES, PIECES_PER_COLOUR
from ..core.position import HAND, PASS
from ..core.position import IN_PROGRESS as QUEEN_IN_PROGRESS
from ..core.render import layout, stack_of
from ..hivequeen import Board as QueenBoard
from ..hivequeen import Turn
from ..hivequeen import ai as queen_ai
from ..hivequeen.geometry import COORDS as QUEEN_COORDS
from ..hivequeen.geometry import NAMES, parse_cell
from ..hivequeen.position import END as QUEEN_END
from ..hivequeen.position import PRODUCTION as QUEEN_PRODUCTION
from ..hivequeen.records import GAME_NAME as QUEEN_GAME_NAME
from ..hivequeen.records import read_record, write_record
from ..hivequeen.rules import FIELD_LIMIT, KIND_NAMES, LETTERS, PRODUCIBLE

JSON = dict[str, Any]

#: Opponents the browser offers: the AI's levels and the random mover.
AI_LEVELS = ("random", *LEVELS)
#: The level of HiveQueen's hints (its medium level takes seconds a turn).
QUEEN_HINT_LEVEL = "easy"


class BadRequest(ValueError):
    """A request the game cannot take: malformed, against the rules, or out of turn (the message says which)."""


class GameKind(Protocol):
    """The rules of one kind of game, as the server uses them.

    A game is the options returned by :meth:`options` plus a list of move texts; the live object
    returned by :meth:`replay` is opaque to the server.
    """

    name: str
    #: The two sides' names, first player first (also the names of the results, e.g. ``WhiteWins``).
    sides: tuple[str, str]

    def options(self, raw: JSON) -> JSON: ...

    def replay(self, options: JSON, moves: list[str]) -> Any: ...

    def import_game(self, text: str, options: JSON) -> tuple[JSON, list[str]]: ...

    def play(self, game: Any, request: JSON) -> str: ...

    def undo(self, game: Any) -> None: ...

    def push(self, game: Any, move: str) -> None: ...

    def turn(self, game: Any) -> int: ...

    def outcome(self, game: Any) -> tuple[str, str] | None: ...

    def why(self, game: Any, piece: str) -> str | None: ...

    def export(self, game: Any) -> str: ...

    def view(self, game: Any) -> JSON: ...

    def preview(self, game: Any, request: JSON) -> JSON: ...


def _wrap(v: int) -> int:
    return ((v + 16) & 31) - 16


def _coordinates(board: Board, cells: list[int]) -> dict[int, tuple[int, int]]:
    # One frame for every position of a game: the first piece's cell (cell 0) is (0, 0), and the
    # walk over the connected hive gives true offsets even where the grid wraps around.
    coords = layout(board)
    if coords:
        anchor = next(iter(coords))
        aq, ar = axial_of(anchor)
        sq, sr = _wrap(aq) - coords[anchor][0], _wrap(ar) - coords[anchor][1]
        coords = {c: (q + sq, r + sr) for c, (q, r) in coords.items()}
    for cell in cells:
        if cell in coords:
            continue
        for d, (dq, dr) in enumerate(DIRECTIONS):
            n = NEIGHBOUR[cell * 6 + d]
            if n in coords and board.height[n]:
                q, r = coords[n]
                coords[cell] = (q - dq, r - dr)
                break
        else:
            q, r = axial_of(cell)
            coords[cell] = (_wrap(q), _wrap(r))
    return coords


def _flag(raw: JSON, key: str, default: bool) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise BadRequest(f"Option {key!r} must be true or false, not {value!r}.")
    return value


class HiveKind:
    """Hive with any expansions, either opening rule and an optional repetition draw."""

    name = "hive"
    sides = ("White", "Black")

    def options(self, raw: JSON) -> JSON:
        """Check and complete the options of a new game.

        :raises BadRequest: naming the bad option.
        """
        game_type = raw.get("game_type", "Base+MLP")
        names = [str(t) for t in GAME_TYPES]
        if not isinstance(game_type, str) or game_type not in names:
            raise BadRequest(f"Unknown game type {game_type!r}: expected one of {', '.join(names)}.")
        return {
            "game_type": game_type,
            "tournament_opening": _flag(raw, "tournament_opening", True),
            "repetition_draw": _flag(raw, "repetition_draw", False),
        }

    def _board(self, options: JSON) -> Board:
        return Board(
            options["game_type"],
            tournament_opening=options["tournament_opening"],
            repetition_draw=options["repetition_draw"],
        )

    def replay(self, options: JSON, moves: list[str]) -> Board:
        """Build the board after ``moves`` (stored moves were checked when played)."""
        board = self._board(options)
        for text in moves:
            board.push_uhp(text)
        return board

    def import_game(self, text: str, options: JSON) -> tuple[JSON, list[str]]:
        """Read a GameString into options (its game type, the other rules from ``options``) and moves.

        :raises BadRequest: naming the token that failed.
        """
        try:
            board = Board.from_game_string(
                text,
                tournament_opening=options["tournament_opening"],
                repetition_draw=options["repetition_draw"],
            )
        except (InvalidGameStringError, InvalidMoveError, IllegalMoveError) as err:
            raise BadRequest(str(err)) from None
        replay = self._board({**options, "game_type": str(board.game_type)})
        moves = []
        for code in board.history:
            move = Move.from_code(code)
            moves.append(replay.uhp(move))
            replay.push(move)
        return {**options, "game_type": str(board.game_type)}, moves

    def play(self, game: Board, request: JSON) -> str:
        """Play ``{"move": MoveString}`` or ``{"piece": "wA1", "to": [q, r]}`` and return its MoveString.

        :raises BadRequest: saying what is malformed, or which rule the move breaks.
        """
        if "move" in request:
            text = request["move"]
            if not isinstance(text, str):
                raise BadRequest(f"'move' must be a MoveString, not {text!r}.")
            try:
                move = game.parse_uhp(text)
            except (InvalidMoveError, IllegalMoveError) as err:
                raise BadRequest(str(err)) from None
        else:
            piece, to = request.get("piece"), request.get("to")
            if not isinstance(piece, str) or piece.lower() not in PIECE_IDS:
                raise BadRequest(f"Give 'move' (a MoveString) or 'piece' (e.g. 'wA1') and 'to'; got piece {piece!r}.")
            if not (
                isinstance(to, list)
                and len(to) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in to)
            ):
                raise BadRequest(f"'to' must be the [q, r] of a cell, not {to!r}.")
            pid = PIECE_IDS[piece.lower()]
            src = game.pos[pid]
            move = Move(pid, None if src < 0 else src, cell_of(to[0], to[1]))
            if move.code not in game.generate():
                try:
                    game.push(move)  # not legal: raises, naming the rule
                except IllegalMoveError as err:
                    raise BadRequest(str(err)) from None
                game.pop()
        text = game.uhp(move)
        game.push(move)
        return text

    def undo(self, game: Board) -> None:
        game.pop()

    def push(self, game: Board, move: str) -> None:
        game.push_uhp(move)

    def turn(self, game: Board) -> int:
        return game.turn

    def outcome(self, game: Board) -> tuple[str, str] | None:
        """``(state, reason)`` when the rules ended the game, else ``None``."""
        if not game.is_game_over():
            return None
        surrounded = [
            game.pos[q] >= 0 and all(game.height[n] for n in NEIGHBOURS[game.pos[q]]) for q in (0, PIECES_PER_COLOUR)
        ]
        if game.state == "Draw":
            return "Draw", "both Queens are surrounded" if all(surrounded) else "the same position came up three times"
        loser = "White" if game.state == "BlackWins" else "Black"
        return game.state, f"{loser}'s Queen Bee is surrounded"

    def why(self, game: Board, piece: str) -> str | None:
        """Why ``piece`` has no legal move here, in the rules' words (``None`` when it has one).

        :raises BadRequest: when ``piece`` is not a piece name.
        """
        pid = PIECE_IDS.get(piece.lower(), -1) if isinstance(piece, str) else -1
        if pid < 0:
            raise BadRequest(f"Unknown piece {piece!r}.")
        codes = game.generate()
        if any(code != PASS and code & 31 == pid for code in codes):
            return None
        if game.is_game_over():
            return "The game is over."
        src = game.pos[pid]
        # Any destination will do: the rules are checked piece first, so the reason is about the piece.
        targets = [n for c in range(len(game.height)) if game.height[c] for n in NEIGHBOURS[c] if not game.height[n]]
        dst = targets[0] if targets else 0
        try:
            game.push(Move(pid, None if src < 0 else src, dst))
        except IllegalMoveError as err:
            return str(err)
        game.pop()
        return None

    def export(self, game: Board) -> str:
        return game.game_string()

    def view(self, game: Board) -> JSON:
        """The position for the browser: cells in axial coordinates, hands, Queens, last move and legal moves."""
        codes = game.generate()
        last = game.history[-1] if game.history else PASS
        extra = [code >> 16 for code in codes if code != PASS]
        if last != PASS:
            extra += [c for c in (last >> 5 & 2047, last >> 16) if c != HAND]
        coords = _coordinates(game, extra)
        cells = []
        for cell in sorted(c for c in coords if game.height[c]):
            q, r = coords[cell]
            cells.append({"q": q, "r": r, "stack": [PIECE_NAMES[p] for p in stack_of(game, cell)]})
        hands: list[list[str]] = [[], []]
        for pid in range(PIECES):
            if game.pos[pid] < 0 and game.enabled[KIND[pid]]:
                hands[pid // PIECES_PER_COLOUR].append(PIECE_NAMES[pid])
        queens: list[JSON | None] = []
        for qid in (0, PIECES_PER_COLOUR):
            cell = game.pos[qid]
            if cell < 0:
                queens.append(None)
                continue
            q, r = coords[cell]
            queens.append({"q": q, "r": r, "surrounded": sum(1 for n in NEIGHBOURS[cell] if game.height[n])})
        legal: dict[str, list[JSON]] = {}
        for code in codes:
            if code == PASS:
                continue
            q, r = coords[code >> 16]
            legal.setdefault(PIECE_NAMES[code & 31], []).append({"to": [q, r], "move": game.uhp(Move.from_code(code))})
        last_move = None
        if last != PASS:
            src = last >> 5 & 2047
            last_move = {
                "piece": PIECE_NAMES[last & 31],
                "from": None if src == HAND else list(coords[src]),
                "to": list(coords[last >> 16]),
            }
        return {
            "cells": cells,
            "hands": hands,
            "queens": queens,
            "legal": legal,
            "pass": codes == [PASS],
            "last": last_move,
            "turn": game.turn,
            "ply": game.ply,
            "state": game.state,
            "turn_string": game.turn_string,
            "bugs": [BUG_LETTERS[k] for k in range(len(BUG_LETTERS)) if game.enabled[k]],
        }

    def preview(self, game: Board, request: JSON) -> JSON:
        """Hive has no partial turns to preview.

        :raises BadRequest: always.
        """
        raise BadRequest("A Hive turn is a single move: there is nothing to preview.")


def _queen_text(request: JSON, key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str):
        raise BadRequest(f"{key!r} must be a cell name such as 'c3', not {value!r}.")
    return value


class HiveQueenKind:
    """L. Lynn Smith's HiveQueen: whole turns (a movement, then productions) in HiveQueen notation."""

    name = "hivequeen"
    sides = ("South", "North")

    def options(self, raw: JSON) -> JSON:
        """HiveQueen has no options: the rules page fixes every reading.

        :raises BadRequest: naming an option it was given.
        """
        if raw:
            raise BadRequest(f"HiveQueen takes no options, not {', '.join(map(repr, raw))}.")
        return {}

    def replay(self, options: JSON, moves: list[str]) -> QueenBoard:
        """Build the board after ``moves`` (stored turns were checked when played)."""
        board = QueenBoard()
        for text in moves:
            board.push_move_string(text)
        return board

    def import_game(self, text: str, options: JSON) -> tuple[JSON, list[str]]:
        """Read a HiveQueen record (headers optional: bare turns one per line will do) into its turns.

        :raises BadRequest: naming the line and the turn that failed.
        """
        lines = [line.strip() for line in text.strip().splitlines()]
        if not any(line.startswith("[") for line in lines):
            lines.insert(0, f'[Game "{QUEEN_GAME_NAME}"]')
        try:
            board = read_record("\n".join(lines))
        except ValueError as err:
            raise BadRequest(f"Not a HiveQueen record: {err}") from None
        replay = QueenBoard()
        moves = []
        for turn in board.turns():
            moves.append(replay.move_string(turn))
            replay.push(turn)
        return {}, moves

    def _turn(self, game: QueenBoard, request: JSON) -> Turn:
        """The (possibly partial) turn a request names: ``move`` in notation, or ``from``, ``to`` and ``promote``."""
        if "move" in request:
            text = request["move"]
            if not isinstance(text, str):
                raise BadRequest(f"'move' must be a turn in HiveQueen notation such as 'Wc3-c4;+Sd4', not {text!r}.")
            try:
                return game.parse_move(text)
            except (InvalidMoveError, IllegalMoveError) as err:
                raise BadRequest(str(err)) from None
        origin, destination = _queen_text(request, "from"), _queen_text(request, "to")
        promote = request.get("promote", False)
        if not isinstance(promote, bool):
            raise BadRequest(f"'promote' must be true or false, not {promote!r}.")
        src, dst = parse_cell(origin), parse_cell(destination)
        for name, cell in ((origin, src), (destination, dst)):
            if cell < 0:
                raise BadRequest(f"{name!r} is not a cell of the 61-cell field (a1 to i9, e.g. e5).")
        turn = Turn(src, dst, promote)
        try:
            game.push(turn)  # raises, naming the rule, when the movement is not legal
        except IllegalMoveError as err:
            raise BadRequest(str(err)) from None
        game.pop()
        return turn

    def play(self, game: QueenBoard, request: JSON) -> str:
        """Play ``{"move": "Wc3-c4;+Sd4"}`` (or a movement alone as ``from``/``to``) and return its notation.

        :raises BadRequest: saying what is malformed, or which rule the turn breaks.
        """
        turn = self._turn(game, request)
        text = game.move_string(turn)
        game.push(turn)
        return text

    def preview(self, game: QueenBoard, request: JSON) -> JSON:
        """The field after part of a turn (its movement and the productions so far) and what may be produced next.

        ``productions`` lists every legal next production; ``left`` is how many more pieces the Nurses and the
        capacity allow at most; ``done`` is true when the turn can take no production (it ends as it stands).

        :raises BadRequest: when the partial turn is malformed or illegal.
        """
        turn = self._turn(game, request)
        board = game.copy()
        colour = board.turn
        for step in turn.steps():
            board.make(step)
        producing = board.ply == game.ply and board.phase == QUEEN_PRODUCTION and board.status == QUEEN_IN_PROGRESS
        options = []
        if producing:
            for step in board.productions():
                if step != QUEEN_END:
                    kind, cell = step >> 6 & 7, step & 63
                    move = f"+{LETTERS[kind]}{NAMES[cell]}"
                    options.append({"kind": LETTERS[kind], "cell": NAMES[cell], "move": move})
        made = len(turn.productions)
        left = 0
        if options:
            left = min(board.nurses - made, board.cap - board.load(colour))
        view = self.view(board, last=turn, legal=False)
        return {
            "move": game.move_string(turn),
            "view": view,
            "productions": options,
            "made": made,
            "left": left,
            "nurses": board.nurses if producing else 0,
            "capacity": board.cap if producing else board.capacity(colour),
            "units": board.load(colour),
            "done": not options,
        }

    def undo(self, game: QueenBoard) -> None:
        game.pop()

    def push(self, game: QueenBoard, move: str) -> None:
        game.push_move_string(move)

    def turn(self, game: QueenBoard) -> int:
        return game.turn

    def outcome(self, game: QueenBoard) -> tuple[str, str] | None:
        """``(state, reason)`` when the rules ended the game, else ``None``."""
        if not game.is_game_over():
            return None
        return game.state, game.end_reason()

    def why(self, game: QueenBoard, piece: str) -> str | None:
        """Why the piece on the cell ``piece`` has no legal movement, in the rules' words (``None`` when it has one).

        :raises BadRequest: when ``piece`` is not a cell name.
        """
        cell = parse_cell(piece) if isinstance(piece, str) else -1
        if cell < 0:
            raise BadRequest(f"{piece!r} is not a cell of the 61-cell field (a1 to i9, e.g. e5).")
        if game.is_game_over():
            return "The game is over."
        if any(t.origin == cell for t in game.legal_movements):
            return None
        found = game.piece_at(cell)
        if found is None:
            return f"There is no piece on {NAMES[cell]}."
        colour, kind = found
        if colour != game.turn:
            owner, mover = self.sides[colour], self.sides[game.turn]
            return f"The {KIND_NAMES[kind]} on {NAMES[cell]} is {owner}'s; it is {mover}'s turn."
        # Any other cell will do: the rules are checked piece first, so the reason is about the piece.
        other = next(c for c in range(len(NAMES)) if c != cell)
        try:
            game.push(Turn(cell, other))
        except IllegalMoveError as err:
            return f"The {KIND_NAMES[kind]} on {NAMES[cell]} has no legal movement here. {err}"
        game.pop()
        return None

    def export(self, game: QueenBoard) -> str:
        return write_record(game)

    def view(self, game: QueenBoard, last: Turn | None = None, legal: bool = True) -> JSON:
        """The position for the browser: all 61 cells, units and capacity per side, legal movements, the last turn."""
        cells = []
        for cell, name in enumerate(NAMES):
            q, r = QUEEN_COORDS[cell]
            found = game.piece_at(cell)
            piece = None if found is None else {"side": found[0], "kind": LETTERS[found[1]]}
            cells.append({"cell": name, "q": q, "r": r, "piece": piece})
        moves: dict[str, list[JSON]] = {}
        if legal:
            for turn in game.legal_movements:
                target = game.piece_at(turn.destination)
                moves.setdefault(NAMES[turn.origin], []).append(
                    {
                        "to": NAMES[turn.destination],
                        "move": game.move_string(turn),
                        "promote": turn.promote,
                        "capture": target is not None and target[0] != game.turn,
                        "swap": target is not None and target[0] == game.turn,
                    }
                )
        played = game.turns()
        if last is None and played:
            last = played[-1]
        counts = {LETTERS[k]: [game.count[k], game.count[k | 8]] for k in range(1, len(LETTERS))}
        return {
            "cells": cells,
            "legal": moves,
            "pass": False,
            "last": None
            if last is None
            else {
                "from": NAMES[last.origin],
                "to": NAMES[last.destination],
                "promote": last.promote,
                "productions": [NAMES[p.cell] for p in last.productions],
            },
            "turn": game.turn,
            "ply": len(played),
            "state": game.state,
            "units": list(game.units),
            "capacity": [game.capacity(0), game.capacity(1)],
            "counts": counts,
            "limits": {LETTERS[k]: FIELD_LIMIT[k] for k in PRODUCIBLE if FIELD_LIMIT[k] < 100},
            "can_promote": [game.can_promote(0), game.can_promote(1)],
            "quiet": game.quiet,
        }


KINDS: dict[str, GameKind] = {"hive": HiveKind(), "hivequeen": HiveQueenKind()}


def kind_of(name: object) -> GameKind:
    """The game kind called ``name``.

    :raises BadRequest: naming the unknown kind.
    """
    if not isinstance(name, str) or name not in KINDS:
        raise BadRequest(f"Unknown game kind {name!r}: expected one of {', '.join(KINDS)}.")
    return KINDS[name]


def choose_move(kind: str, options: JSON, moves: list[str], level: str, seed: int | None = None) -> str:
    """The AI's move (a MoveString) after ``moves``; runs in a worker process, so it takes plain data."""
    game = KINDS[kind].replay(options, moves)
    if isinstance(game, QueenBoard):
        random_mover = level == "random"
        turn = queen_ai.RandomPlayer(seed).choose(game) if random_mover else queen_ai.best_turn(game, level, seed)
        return game.move_string(turn)
    assert isinstance(game, Board)
    if level == "random":
        move = RandomPlayer(seed).choose(game)
    else:
        move = Move.from_code(Searcher(seed, opening_noise=4).search(game, LEVELS[level]).move)
    return game.uhp(move)


def analyse(kind: str, options: JSON, moves: list[str], level: str = "medium") -> JSON:
    """A hint and an evaluation: the AI's best move, its score and White's winning chance (0..1)."""
    game = KINDS[kind].replay(options, moves)
    if isinstance(game, QueenBoard):
        # HiveQueen's search gives a turn, not a calibrated score: the hint is the turn alone.
        return {"move": game.move_string(queen_ai.best_turn(game, QUEEN_HINT_LEVEL)), "level": QUEEN_HINT_LEVEL}
    assert isinstance(game, Board)
    result = Searcher().search(game, LEVELS[level])
    score = result.score if game.turn == 0 else -result.score
    # A won or lost line is certain; otherwise a logistic curve turns the score into a chance.
    white = (1.0 if score > 0 else 0.0) if abs(score) >= WIN - 100 else 1 / (1 + math.exp(-score / 150))
    return {
        "move": game.uhp(Move.from_code(result.move)),
        "score": score,
        "white": round(white, 3),
        "depth": result.depth,
        "level": level,
    }


def random_seed() -> int:
    return random.randrange(1 << 30)
