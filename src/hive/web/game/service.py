"""The browser game's rules of play, without HTTP: games in memory and on disk, who may do what, and when.

A game in memory is a :class:`Session`: its stored :class:`~hive.web.storage.games.GameRecord` (options, mode, seat
tokens, the texts of the moves in effect and of those taken back, the result, an offer, the players' names and
choices of engine help), its game's view and its live board. Every change is checked, stored in one transaction,
and kept in memory only once stored: a move is checked once (by the view, through the game's own checks), written
in the game's notation, pushed, and popped again if it cannot be stored. Undo pops, redo pushes the stored texts;
a game is replayed only to load it into memory after a restart. A timed game's clock (:mod:`~hive.web.game.clock`) is
charged with every move and stored with it; a flag that falls ends the game as soon as anyone looks at it
(:meth:`GameService.check_clock`), and moves are not taken back under a clock. Who may ask the engine is
:mod:`~hive.web.game.access`'s to say; the game list, rematches and deletions are :mod:`~hive.web.game.lobby`'s.

The service raises the errors of :mod:`hive.web.errors`; the HTTP layer turns them into status codes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ...game import Outcome, Termination
from ..errors import BadRequest, Conflict, Forbidden, GameError, NotFound, Unavailable, shown
from ..storage.games import GameRecord, StaleError, Storage
from ..views import JSON, Board, View, description, in_sides, kinds, pass_note, replay, view_for
from . import access, clock
from .actions import ACTIONS, HANDLERS, ended
from .cache import LiveGames
from .lobby import summary
from .newgame import NewGame, all_ai_levels, new_game

#: What a player does to a game, and what anyone may ask of it.
QUERIES = ("why", "preview")
log = logging.getLogger("hive.web")


@dataclass
class Session:
    """A game in memory: its stored record, its view and live board, and what its AI is doing."""

    record: GameRecord
    view: View
    board: Board
    thinking: bool = False
    ai_error: str | None = None
    #: Counts the states sent out, so that a page can drop a late reply older than what it has.
    version: int = 0

    @property
    def over(self) -> bool:
        """Whether the game has a result (by the rules, a resignation or an agreement)."""
        return self.record.result is not None

    @property
    def sides(self) -> list[str]:
        """The names the page gives the two sides (``Warm``/``Cool`` with that set), first player first."""
        return self.view.sides(self.record.options)

    def shown(self, text: str) -> str:
        """A text of the notation's sides (``Black's Queen Bee is surrounded``) in the page's names for them."""
        return in_sides(text, self.board.sides, self.sides)


class GameService:
    """The games: created, loaded, played and stored.

    :param storage: where the games are kept.
    :param live_games: games kept in memory (the least recently used are reloaded from storage when asked for).
    :param now: the clock's time source, seconds since the epoch.
    """

    def __init__(self, storage: Storage, live_games: int = 256, now: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.now = now
        self.sessions: LiveGames[Session] = LiveGames(live_games)
        #: Tells this server's states from an earlier run's (with :attr:`Session.version`).
        self.boot = secrets.token_hex(4)
        #: Called with each game loaded into memory from storage (the AI takes its turn if it is due).
        self.loaded: Callable[[Session], None] = lambda session: None

    # ------------------------------------------------------------------
    # games

    def assets(self) -> JSON:
        """What the page needs beyond a game: every view's assets, the AI levels of every game, and the games on
        offer (``games``: each view's :func:`~hive.web.views.description`, in the registry's order)."""
        assets: JSON = {}
        for kind in kinds():
            assets.update(view_for(kind).assets())
        return {**assets, "levels": all_ai_levels(), "games": [description(view_for(kind)) for kind in kinds()]}

    def create(self, data: JSON) -> tuple[Session, NewGame]:
        """Start and store the game ``data`` asks for (see :func:`~hive.web.game.newgame.new_game`); returns it in
        memory, and what was dealt (the seat tokens).

        :raises BadRequest: naming the field at fault.
        """
        game = new_game(data)
        return self.start(game), game

    def start(self, game: NewGame) -> Session:
        """Store a new game and keep it in memory."""
        with self._storing():
            self.storage.create(game.record)
        session = self.sessions[game.record.id] = Session(game.record, game.view, game.board)
        return session

    def store(self, session: Session, **changes: Any) -> None:
        """Store ``changes`` to a game's record (fields of :class:`~hive.web.storage.games.GameRecord`)."""
        self.save(session, None, **changes)

    def forget(self, session: Session) -> None:
        """Delete a game from storage and from memory."""
        with self._storing():
            self.storage.delete(session.record.id)
        self.sessions.pop(session.record.id, None)

    def session(self, game_id: str) -> Session:
        """The game ``game_id``, loaded into memory if it is not there yet.

        :raises NotFound: when there is no such game.
        """
        session = self.sessions.get(game_id)
        if session is not None:
            return session
        with self._storing("read"):
            record = self.storage.load(game_id) if len(game_id) <= 64 else None
        if record is None:
            raise NotFound(f"There is no game {shown(game_id)}.")
        view = view_for(record.kind)
        session = Session(record, view, replay(view, record.options, record.moves, record.start))
        self.sessions[game_id] = session
        self.loaded(session)
        return session

    seats = staticmethod(access.seats)

    def note_seats(self, session: Session, held: frozenset[int]) -> None:
        """Remember that the holder of ``held`` has opened the game (stored once per seat)."""
        joined = session.record.joined | sum(1 << seat for seat in held)
        if joined != session.record.joined:
            with self._storing():
                self.storage.mark_joined(session.record.id, joined)
            session.record.joined = joined

    def state(
        self, session: Session, seats: frozenset[int] = frozenset(), present: tuple[bool, bool] = (False, False)
    ) -> JSON:
        """The game as the page shows it to the holder of ``seats``; ``present`` tells which seats are watching it
        now."""
        record = session.record
        position = session.view.position(session.board)
        if session.over:
            position["legal"], position["pass"] = {}, False
        return {
            **summary(record, session.view, len(record.moves)),
            "moves": record.moves,
            "redo": len(record.redo),
            "reason": session.shown(record.reason) if record.reason else None,
            "offer": record.offer,
            "thinking": session.thinking,
            "ai_error": session.ai_error,
            "seats": sorted(seats),
            "help": {"on": access.help_on(record), "choices": list(record.help)},
            "joined": access.joined(record),
            "present": list(present),
            "note": None if session.over else pass_note(position, session.sides),
            "game_string": session.board.record(),
            "clock": clock.report(record.clock, self.now()),
            "view": position,
            "version": [self.boot, session.version],
        }

    def position(self, session: Session, ply: str) -> JSON:
        """The position after the first ``ply`` moves (a number in text, as in a URL).

        :raises BadRequest: when ``ply`` is not a number of moves played.
        """
        wanted = self.ply(session, ply)
        board = session.board.copy()
        for _ in range(len(session.record.moves) - wanted):
            board.pop()
        return {"ply": wanted, "view": session.view.position(board)}

    @staticmethod
    def ply(session: Session, ply: str) -> int:
        """A number of moves played, read from a URL's text.

        :raises BadRequest: when ``ply`` is not a number from 0 to the number of moves played.
        """
        played = len(session.record.moves)
        if not re.fullmatch(r"[0-9]{1,6}", ply) or int(ply) > played:
            raise BadRequest(f"'ply' must be a number from 0 to {played}, not {shown(ply)}.")
        return int(ply)

    # ------------------------------------------------------------------
    # what players do

    def act(self, session: Session, action: str, token: str | None, data: JSON) -> JSON | None:
        """Do ``action`` (one of :data:`ACTIONS`) as the holder of ``token``, or answer a query (:data:`QUERIES`,
        open to anyone): returns the query's answer, or ``None`` once the change is stored.

        :raises NotFound: for an unknown action.
        :raises Forbidden: when ``token`` holds no seat of the game.
        :raises BadRequest, Conflict: naming what the action cannot do, or not now.
        """
        if action == "why":
            return {"piece": data.get("piece"), "reason": session.view.why(session.board, data.get("piece"))}
        if action == "preview":
            if session.over:
                raise Conflict("The game is over.")
            return session.view.preview(session.board, data)
        if action not in ACTIONS:
            raise NotFound(f"Unknown action {shown(action)}: expected one of {', '.join((*ACTIONS, *QUERIES))}.")
        seats = self.holder(session, token)
        self.check_clock(session)
        HANDLERS[action](self, session, seats, data)
        return None

    def holder(self, session: Session, token: str | None) -> frozenset[int]:
        """The seats ``token`` holds in the game, noted as having opened it.

        :raises Forbidden: when the token holds no seat of the game.
        """
        seats = self.seats(session.record, token)
        if not seats:
            raise Forbidden("This seat token does not belong to this game." if token else "A seat token is needed.")
        self.note_seats(session, seats)
        return seats

    def play(self, session: Session, move: Any) -> None:
        """Play ``move`` (checked already) on the game, charging the clock, and store it."""
        board = session.board
        text = board.move_text(move)
        seat = board.turn
        board.push(move)
        result = ended(board)
        moves = [*session.record.moves, text]
        timed = clock.moved(session.record.clock, seat, len(moves), self.now(), result["result"] is not None)
        self.save(session, board.pop, moves=moves, redo=[], **result, offer=None, clock=timed)

    def check_clock(self, session: Session) -> bool:
        """End the game if the running clock's flag has fallen: the player out of time loses, or draws when the
        opponent could not win by any series of legal moves (the game's :meth:`~hive.game.Game.could_win`). Returns
        whether it ended the game now."""
        seat = clock.fallen(session.record.clock, self.now())
        if seat is None or session.over:
            return False
        if session.board.could_win(1 - seat):
            out = Outcome(Termination.FORFEIT, 1 - seat, session.board.sides, "time ran out")
        else:
            late, other = session.board.sides[seat], session.board.sides[1 - seat]
            detail = f"{late} ran out of time, and {other} could not have won"
            out = Outcome(Termination.FORFEIT, None, session.board.sides, detail)
        stopped = clock.stopped(session.record.clock, self.now(), seat)
        self.save(session, None, **ended(session.board, out), offer=None, clock=stopped)
        return True

    # ------------------------------------------------------------------
    # the AI's part

    def ai_to_move(self, session: Session) -> bool:
        """Whether the AI is due to move in ``session``."""
        record = session.record
        return record.mode == "ai" and not session.over and session.board.turn == record.ai_seat

    def play_ai(self, session: Session, moves: list[str], text: str) -> bool:
        """Play the AI's move ``text``, chosen after ``moves``; ``False`` (and nothing played) when the game has
        moved on since, or the AI is no longer due."""
        if session.record.moves != moves or self.check_clock(session) or not self.ai_to_move(session):
            return False
        self.play(session, session.board.parse_move(text))
        return True

    def engine_moves(self, session: Session, token: str | None, ply: str | None = None) -> list[str]:
        """The moves the engine is asked to look after, for the holder of ``token``: the game's, or its first
        ``ply`` (a review).

        :raises Forbidden: when the engine's help is not for this token now (see
            :func:`~hive.web.game.access.check_engine`).
        :raises BadRequest: for a ``ply`` that is not a number of moves played.
        :raises Conflict: when the position asked about is the end of the game: there is nothing to suggest.
        """
        held = self.seats(session.record, token)
        access.check_engine(session.record, held)
        self.note_seats(session, held)
        moves = session.record.moves[: self.ply(session, ply)] if ply is not None else session.record.moves
        if session.over and len(moves) == len(session.record.moves):
            raise Conflict("The game is over: there is nothing to suggest.")
        return list(moves)

    def check_hint(self, session: Session, moves: list[str], review: bool = False) -> None:
        """Make sure a hint worked out after ``moves`` is still for the game as it stands (for a ``review`` of an
        earlier position, that the game still has it).

        :raises Conflict: when the game has moved on.
        """
        played = session.record.moves
        if (played[: len(moves)] if review else played) != moves:
            raise Conflict("The game moved on while the AI was thinking; ask again.")

    # ------------------------------------------------------------------
    # storage

    def save(self, session: Session, revert: Callable[[], object] | None, **changes: Any) -> None:
        """Store the game with ``changes`` to its record in one transaction, then keep the new record; if it
        cannot be stored, ``revert`` takes back what was done to the board for it."""
        record = session.record
        updated = dataclasses.replace(record, **changes)
        try:
            with self._storing():
                self.storage.save(updated, len(record.moves))
        except GameError:
            if revert is not None:
                revert()
            raise
        session.record = updated

    @contextlib.contextmanager
    def _storing(self, doing: str = "saved") -> Iterator[None]:
        try:
            yield
        except StaleError as err:
            raise Conflict(str(err)) from None
        except sqlite3.Error as err:
            log.exception("database error")
            raise Unavailable(f"The game could not be {doing}: {err}") from None


__all__ = ["ACTIONS", "QUERIES", "GameService", "Session"]
