"""The analysis board: variations explored from any position of a game, kept with it as a tree beside the main line.

A position is named by a line and a number of moves along it: ``{"line": null, "ply": 12}`` is the main line's twelfth
position, ``{"line": 3, "ply": 14}`` line 3's fourteenth (its moves count from the start of the game). A move played
there goes through the game's own checks (the view's, as a real move) and is stored as a line
(:mod:`~hive.web.analysis.line_repository`); the game's record is never touched. A move that a line already has next
is followed rather than stored twice; one played at the end of a line extends it; any other starts a new line from the
one it leaves.

Who may analyse is who may ask the engine (:func:`~hive.web.play.access.check_engine`): the players of a game against
the AI or on one screen at any time, the players of a two-browser game while it is on only when both chose a casual game
with help, and anyone once a game is over. Only a game's players add and delete lines; a spectator of a finished game
looks at them.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence

from ...sdk.view import JSON, Board
from ..play import GameService, Session, access
from ..shared.errors import BadRequest, Conflict, Forbidden, NotFound, TooMany, shown
from ..shared.model import Line
from ..views import preview, why
from .line_repository import LineRepository

#: The most lines a game keeps, and the most moves a line holds from the start of the game.
MAX_LINES = 200
MAX_PLIES = 1000
#: Why a spectator cannot add or delete lines.
PLAYERS_WRITE = "Only the game's players add or delete lines; a spectator may look at them."
#: The queries of the game's own actions that may name a position of the analysis board.
QUERIES = ("why", "preview")

Where = tuple[Line | None, int]
#: The engine's hint on a position: the game, the moves from its start to the position.
Hinter = Callable[[Session, list[str]], Awaitable[JSON]]


def shared(a: Sequence[str], b: Sequence[str]) -> int:
    """How many moves two sequences have in common from the start."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def branch(line: Line, lines: dict[int, Line], main: Sequence[str]) -> int:
    """The number of moves ``line`` shares with its parent: its first move of its own is the next one."""
    parent = lines[line.parent].moves if line.parent is not None else main
    return shared(line.moves, parent)


def descendants(lines: dict[int, Line], root: int) -> list[int]:
    """``root`` and every line explored from it, at any depth."""
    found = [root]
    for current in found:
        found.extend(line.id for line in lines.values() if line.parent == current)
    return found


class Analysis:
    """The analysis board of every game.

    :param service: the games.
    :param store: where the lines are kept.
    :param hinter: the engine's hint and evaluation of a position of a line.
    """

    def __init__(self, service: GameService, store: LineRepository, hinter: Hinter) -> None:
        self.service = service
        self.store = store
        self.hinter = hinter

    # ------------------------------------------------------------------
    # who

    def reader(self, session: Session, token: str | None) -> frozenset[int]:
        """The seats ``token`` holds, once it is sure that its holder may look at the game's analysis.

        :raises Forbidden: while a fair game is played, or for a spectator of a game in progress.
        """
        held = self.service.seats(session.record, token)
        access.check_engine(session.record, held)
        return held

    def writer(self, session: Session, token: str | None) -> frozenset[int]:
        """The seats ``token`` holds, once it is sure that its holder may add and delete lines.

        :raises Forbidden: as :meth:`reader`, and for a spectator.
        """
        held = self.reader(session, token)
        if not held:
            raise Forbidden(PLAYERS_WRITE)
        return held

    # ------------------------------------------------------------------
    # the tree

    async def listing(self, session: Session, token: str | None) -> JSON:
        """The game's lines as the move list shows them: ``lines``, each with its number (``id``), the line it
        branches from (``parent``, ``null`` for the main line), ``ply`` (the moves it shares with its parent) and its
        own ``moves`` (the first of them is move ``ply + 1``); ``writable``: whether the asker may add and delete.

        :raises Forbidden: when the asker may not look at the analysis (see :meth:`reader`).
        """
        held = self.reader(session, token)
        return await self._listing(session, bool(held))

    async def _listing(self, session: Session, writable: bool) -> JSON:
        lines = await self._lines(session)
        shown_ids: set[int] = set()
        out: list[JSON] = []
        for line in lines.values():  # parents come first: they are older
            start = branch(line, lines, session.record.moves)
            if start == len(line.moves) or (line.parent is not None and line.parent not in shown_ids):
                continue  # the main line has played it since, or its parent is hidden
            shown_ids.add(line.id)
            out.append({"id": line.id, "parent": line.parent, "ply": start, "moves": list(line.moves[start:])})
        return {"lines": out, "writable": writable}

    async def position(self, session: Session, token: str | None, line: object, ply: object) -> JSON:
        """The position after the first ``ply`` moves of ``line`` (a line's number; ``None`` for the main line):
        ``line``, ``ply``, ``view`` (the game's view of the board, without legal moves once the game is over there)
        and ``end`` (why the game is over there, or ``None``).

        :raises Forbidden: when the asker may not look at the analysis.
        :raises NotFound: for a line the game does not have.
        :raises BadRequest: for a ``ply`` that is not a number of moves of the line.
        """
        self.reader(session, token)
        where = await self.where(session, line, ply)
        return self._shown(session, where, self.board(session, self.moves(session, where)))

    async def play(self, session: Session, token: str | None, data: JSON) -> JSON:
        """Play a move (``move``, or the game's own fields as for a real move) at the position ``line`` and ``ply``
        name (``ply`` missing: the end of the line), storing it as a line: the position after it (as
        :meth:`position`) with the game's lines (as :meth:`listing`).

        :raises Forbidden: when the asker may not add lines.
        :raises NotFound: for a line the game does not have.
        :raises BadRequest: for a bad ``ply``, or the game's reason why the move is malformed or illegal.
        :raises Conflict: when the game is over in that position.
        :raises TooMany: when the game has as many lines as it may keep, or the line as many moves.
        """
        self.writer(session, token)
        where = await self.where(session, data.get("line"), data.get("ply"))
        moves = self.moves(session, where)
        board = self.board(session, moves)
        if board.is_game_over():
            raise Conflict("The game is over in this position: no move can be played from it.")
        try:
            move = session.view.move(board, data)
        except BadRequest as err:
            if isinstance(data.get("move"), str) and data["move"] not in str(err):
                raise BadRequest(f"{shown(data['move'])} cannot be played here: {err}") from None
            raise
        text = board.move_text(move)
        board.push(move, text)
        after = [*moves, text]
        if len(after) > MAX_PLIES:
            raise TooMany(f"A line holds at most {MAX_PLIES} moves.")
        line = await self._keep(session, where, after)
        return {**self._shown(session, (line, len(after)), board), **(await self._listing(session, True))}

    async def delete(self, session: Session, token: str | None, line: object) -> JSON:
        """Delete a line and every line explored from it: answers the lines left (as :meth:`listing`).

        :raises Forbidden: when the asker may not delete lines.
        :raises NotFound: for a line the game does not have.
        """
        self.writer(session, token)
        found = (await self.where(session, line, None))[0]
        assert found is not None
        await self.store.delete(session.record.id, descendants(await self._lines(session), found.id))
        return await self._listing(session, True)

    async def query(self, session: Session, action: str, token: str | None, data: JSON) -> JSON | None:
        """Answer a query of the game's (:data:`QUERIES`: why a piece cannot move, a part of a turn) about the
        position of the analysis board that ``data`` names with ``line`` (``null``: the main line) and ``ply``;
        ``None`` when the query names no such position (it is about the game as it stands).

        :raises Forbidden, NotFound, BadRequest, Conflict: as :meth:`position`, or the view's own refusal.
        """
        if action not in QUERIES or "line" not in data:
            return None
        self.reader(session, token)
        board = self.board(session, self.moves(session, await self.where(session, data.get("line"), data.get("ply"))))
        if action == "why":
            return {"piece": data.get("piece"), "reason": why(session.view, board, data.get("piece"))}
        if board.is_game_over():
            raise Conflict("The game is over in this position.")
        return preview(session.view, board, data)

    async def hint(self, session: Session, token: str | None, line: object, ply: object) -> JSON:
        """The engine's suggestion and evaluation (as :meth:`~hive.web.ai.player.AIPlayer.hint`) at a position of the
        analysis board, with its ``line`` and ``ply``.

        :raises Forbidden, NotFound, BadRequest: as :meth:`position`.
        :raises Conflict: when the game is over in that position.
        :raises TooMany: when the AI's queue is full.
        """
        self.reader(session, token)
        where = await self.where(session, line, ply)
        moves = self.moves(session, where)
        if self.board(session, moves).is_game_over():
            raise Conflict("The game is over in this position: there is nothing to suggest.")
        hint = await self.hinter(session, moves)
        return {**hint, "line": where[0].id if where[0] else None, "ply": where[1]}

    # ------------------------------------------------------------------
    # positions

    async def where(self, session: Session, line: object, ply: object) -> Where:
        """The position a request names: a line of the game (``None``, or a missing value, for the main line; a
        number, or its text in a URL) and a number of its moves (``None``: all of them).

        :raises NotFound: for a line the game does not have.
        :raises BadRequest: for a line or ``ply`` that is not a number, or a ``ply`` beyond the line's end.

        A position that a line shares with the line it branches from is named by that line (or the main line).
        """
        lines = await self._lines(session) if line is not None else {}
        found = None if line is None else lines.get(_number(line, "line"))
        if line is not None and found is None:
            raise NotFound(f"This game has no line {shown(line)}.")
        length = len(found.moves) if found else len(session.record.moves)
        wanted = length if ply is None else _number(ply, "ply")
        if wanted > length:
            what = f"line {found.id}" if found else "the game"
            raise BadRequest(f"'ply' must be a number from 0 to {length} ({what} has {length} moves), not {wanted}.")
        # a position a line shares with its parent is the parent's: a line started there branches from the parent
        while found is not None and wanted <= branch(found, lines, session.record.moves):
            found = lines[found.parent] if found.parent is not None else None
        return found, wanted

    def moves(self, session: Session, where: Where) -> list[str]:
        """The moves from the start of the game to a position."""
        line, ply = where
        return list((line.moves if line else session.record.moves)[:ply])

    @staticmethod
    def board(session: Session, moves: Sequence[str]) -> Board:
        """The board after ``moves``: the game's own, copied and taken back to the moves it shares with them, then
        played on."""
        played = session.record.moves
        common = shared(played, moves)
        board = session.board.copy()
        for _ in range(len(played) - common):
            board.pop()
        for text in moves[common:]:
            board.push(board.parse_move(text), text)
        return board

    def _shown(self, session: Session, where: Where, board: Board) -> JSON:
        view = session.view.position(board)
        outcome = board.outcome()
        if outcome is not None:
            view["legal"], view["pass"] = {}, False
        line, ply = where
        end = session.shown(outcome.reason) if outcome and outcome.reason else None
        return {"line": line.id if line else None, "ply": ply, "view": view, "end": end}

    async def _keep(self, session: Session, where: Where, after: list[str]) -> Line | None:
        """The line that has the moves ``after`` (``None``: the main line), stored if no line has them yet."""
        line, ply = where
        if shared(session.record.moves, after) == len(after):
            return None
        lines = await self._lines(session)
        same = [other for other in lines.values() if shared(other.moves, after) == len(after)]
        if same:
            return line if line in same else same[0]
        game_id = session.record.id
        if line is not None and ply == len(line.moves):
            return await self.store.extend(game_id, line, after)
        if len(lines) >= MAX_LINES:
            raise TooMany(f"A game keeps at most {MAX_LINES} lines: delete one first.")
        return await self.store.add(game_id, line.id if line else None, after)

    async def _lines(self, session: Session) -> dict[int, Line]:
        return await self.store.lines(session.record.id)


def _number(value: object, name: str) -> int:
    """A non-negative whole number from a request: a JSON number, or its digits in a URL.

    :raises BadRequest: naming ``name`` and the value.
    """
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,6}", value):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1_000_000:
        return value
    raise BadRequest(f"'{name}' must be a whole number, not {shown(value)}.")


__all__ = ["MAX_LINES", "MAX_PLIES", "PLAYERS_WRITE", "QUERIES", "Analysis", "branch", "descendants", "shared"]
