"""The browser game's rules of play, without HTTP: games in memory and on disk, who may do what, and when.

A game in memory is a :class:`Session`: its stored :class:`~hive.web.storage.GameRecord` (options, mode, seat
tokens, the texts of the moves in effect and of those taken back, the result, an offer, the players' names and
choices of engine help), its game's view and its live board. Every change is checked, stored in one transaction,
and kept in memory only once stored: a move is checked once (by the view, through the game's own checks), written
in the game's notation, pushed, and popped again if it cannot be stored. Undo pops, redo pushes the stored texts;
a game is replayed only to load it into memory after a restart. A timed game's clock (:mod:`~hive.web.clock`) is
charged with every move and stored with it; a flag that falls ends the game as soon as anyone looks at it
(:meth:`GameService.check_clock`), and moves are not taken back under a clock. Who may ask the engine is
:mod:`~hive.web.access`'s to say; the game list, rematches and deletions are :mod:`~hive.web.lobby`'s.

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

from ..game import Outcome, Termination
from . import access, clock
from .cache import LiveGames
from .errors import BadRequest, Conflict, Forbidden, GameError, NotFound, Unavailable, shown
from .lobby import summary
from .newgame import NewGame, all_ai_levels, display_name, new_game
from .storage import GameRecord, StaleError, Storage
from .views import JSON, Board, View, description, in_sides, kinds, pass_note, replay, view_for

#: What a player does to a game, and what anyone may ask of it.
ACTIONS = ("move", "undo", "redo", "resign", "offer", "answer", "name", "help")
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
        """Start and store the game ``data`` asks for (see :func:`~hive.web.newgame.new_game`); returns it in memory,
        and what was dealt (the seat tokens).

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
        """Store ``changes`` to a game's record (fields of :class:`~hive.web.storage.GameRecord`)."""
        self._save(session, None, **changes)

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
        session = Session(record, view, replay(view, record.options, record.moves))
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
        handlers: dict[str, Callable[[Session, frozenset[int], JSON], None]] = {
            "move": self._move,
            "undo": self._undo,
            "redo": self._redo,
            "resign": self._resign,
            "offer": self._offer,
            "answer": self._answer,
            "name": self._name,
            "help": self._help,
        }
        handlers[action](session, seats, data)
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

    @staticmethod
    def _check_ply(session: Session, data: JSON) -> None:
        """Refuse a request made on a position the game has left (``ply``: the number of moves the page saw)."""
        ply = data.get("ply")
        played = len(session.record.moves)
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise BadRequest(f"'ply' must be a number, not {shown(ply)}.")
        if ply is not None and ply != played:
            raise Conflict(f"The game has moved on: {played} moves played, not {ply}.")

    def _move(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        self._check_ply(session, data)
        if session.over:
            raise Conflict("The game is over.")
        turn = session.board.turn
        if turn not in seats:
            raise Conflict(f"It's {session.sides[turn]}'s turn, not yours.")
        if session.thinking:
            raise Conflict("The AI is thinking.")
        self._play(session, session.view.move(session.board, data))

    def _play(self, session: Session, move: Any) -> None:
        board = session.board
        text = board.move_text(move)
        seat = board.turn
        board.push(move)
        ended = self._ended(board)
        moves = [*session.record.moves, text]
        timed = clock.moved(session.record.clock, seat, len(moves), self.now(), ended["result"] is not None)
        self._save(session, board.pop, moves=moves, redo=[], **ended, offer=None, clock=timed)

    def check_clock(self, session: Session) -> bool:
        """End the game if the running clock's flag has fallen: the player out of time loses. Returns whether it
        ended the game now."""
        seat = clock.fallen(session.record.clock, self.now())
        if seat is None or session.over:
            return False
        out = Outcome(Termination.FORFEIT, 1 - seat, session.board.sides, "time ran out")
        stopped = clock.stopped(session.record.clock, self.now(), seat)
        self._save(session, None, **self._ended(session.board, out), offer=None, clock=stopped)
        return True

    @staticmethod
    def _untimed(session: Session) -> None:
        if session.record.clock is not None:
            raise Conflict("Moves are not taken back in a timed game.")

    @staticmethod
    def _ended(board: Board, outcome: Outcome | None = None) -> dict[str, str | None]:
        """The record's result and reason for ``outcome``, by default the rules' own on ``board``."""
        outcome = outcome or board.outcome()
        return {"result": outcome.result if outcome else None, "reason": outcome.reason if outcome else None}

    def _undo(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        self._check_ply(session, data)
        self._untimed(session)
        record = session.record
        if record.mode == "online":
            self._offer(session, seats, {"what": "undo"})
            return
        if not record.moves:
            raise Conflict("Nothing to undo yet.")
        if record.mode == "local":
            self._take_back(session, 1)
        else:
            assert record.ai_seat is not None
            self._take_back(session, self._back_to(session, 1 - record.ai_seat))

    def _back_to(self, session: Session, seat: int) -> int:
        """How many moves to take back so that ``seat`` plays its last move again.

        :raises Conflict: when ``seat`` has not moved yet.
        """
        played = len(session.record.moves)
        for n in range(1, played + 1):
            if (played - n) % 2 == seat:
                return n
        raise Conflict("Nothing to undo yet.")

    def _take_back(self, session: Session, n: int) -> None:
        record = session.record
        keep = len(record.moves) - n
        redo = record.moves[keep:] + record.redo
        self._save(session, None, moves=record.moves[:keep], redo=redo, result=None, reason=None, offer=None)
        for _ in range(n):
            session.board.pop()

    def _redo(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        self._check_ply(session, data)
        record = session.record
        if record.mode == "online":
            raise Conflict("Redo is for games on one screen or against the AI.")
        self._untimed(session)
        if not record.redo:
            raise Conflict("Nothing to redo.")
        if session.over:
            raise Conflict("The game is over.")
        n = 1
        if record.mode == "ai" and (len(record.moves) + 1) % 2 == record.ai_seat:
            n = min(2, len(record.redo))  # the player's move and the AI's answer
        board = session.board
        texts = record.redo[:n]
        for text in texts:
            move = board.parse_move(text)
            board.move_text(move)
            board.push(move)

        def revert() -> None:
            for _ in texts:
                board.pop()

        self._save(session, revert, moves=record.moves + texts, redo=record.redo[n:], **self._ended(board), offer=None)

    def _resign(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        if session.over:
            raise Conflict("The game is over.")
        board = session.board
        seat = board.turn if len(seats) == 2 else next(iter(seats))
        resigned = Outcome(Termination.RESIGNATION, 1 - seat, board.sides)
        stopped = clock.stopped(session.record.clock, self.now())
        self._save(session, None, **self._ended(board, resigned), offer=None, clock=stopped)

    def _offer(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        what = data.get("what")
        if what not in ("draw", "undo"):
            raise BadRequest(f"'what' must be 'draw' or 'undo', not {shown(what)}.")
        record = session.record
        if what == "draw" and session.over:
            raise Conflict("The game is over.")
        if what == "undo":
            self._untimed(session)
        if record.mode == "ai":
            if what == "draw":
                raise Conflict("The AI plays on: it does not agree to draws.")
            self._undo(session, seats, {})
            return
        if record.mode == "local":
            self._agree(session, what, session.board.turn)
            return
        seat = next(iter(seats))
        if what == "undo":
            self._back_to(session, seat)  # raises when there is nothing to undo
        if record.offer and record.offer["what"] == what and record.offer["by"] != seat:
            self._agree(session, what, record.offer["by"])
            return
        self._save(session, None, offer={"what": what, "by": seat})

    def _answer(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        accept = data.get("accept")
        if not isinstance(accept, bool):
            raise BadRequest(f"'accept' must be true or false, not {shown(accept)}.")
        offer = session.record.offer
        if not offer or (offer["by"] in seats and len(seats) == 1):
            raise Conflict("There is no offer from your opponent to answer.")
        if accept:
            self._agree(session, offer["what"], offer["by"])
        else:
            self._save(session, None, offer=None)

    def _name(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        """``{"name": text or null}``, and ``seat`` for a token holding both: the seat's display name."""
        seat = access.seat_of(seats, data, "the name is for")
        if session.record.mode == "ai" and seat == session.record.ai_seat:
            raise BadRequest("The AI's seat is named by its level.")
        names = list(session.record.names)
        names[seat] = display_name(data.get("name"))
        self._save(session, None, names=(names[0], names[1]))

    def _help(self, session: Session, seats: frozenset[int], data: JSON) -> None:
        """``{"help": true or false}``: a seat's choice of a casual game with engine help, made once (when the game
        is created, or when the invitation is opened); either player may turn help off later."""
        record = session.record
        if record.mode != "online":
            raise Conflict("Engine help is always there in a game against the AI or on one screen.")
        wanted = data.get("help")
        if not isinstance(wanted, bool):
            raise BadRequest(f"'help' must be true or false, not {shown(wanted)}.")
        seat = access.seat_of(seats, data, "the choice is for")
        if wanted and record.help[seat] is not None and not record.help[seat]:
            raise Conflict("You chose a game without engine help; that choice is made once.")
        if wanted and session.over:
            raise Conflict("The game is over.")
        helps = list(record.help)
        helps[seat] = wanted
        self._save(session, None, help=(helps[0], helps[1]))

    def _agree(self, session: Session, what: str, by: int) -> None:
        if what == "draw":
            agreed = Outcome(Termination.AGREEMENT, None, session.board.sides)
            stopped = clock.stopped(session.record.clock, self.now())
            self._save(session, None, **self._ended(session.board, agreed), offer=None, clock=stopped)
        else:
            self._take_back(session, self._back_to(session, by))

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
        self._play(session, session.board.parse_move(text))
        return True

    def engine_moves(self, session: Session, token: str | None, ply: str | None = None) -> list[str]:
        """The moves the engine is asked to look after, for the holder of ``token``: the game's, or its first
        ``ply`` (a review).

        :raises Forbidden: when the engine's help is not for this token now (see :func:`~hive.web.access.check_engine`).
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

    def _save(self, session: Session, revert: Callable[[], object] | None, **changes: Any) -> None:
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
