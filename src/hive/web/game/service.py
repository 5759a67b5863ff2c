"""The browser game's rules of play, without HTTP: games in memory and on disk, who may do what, and when.

The database is the authority. A game in memory is a :class:`~hive.web.game.session.Session` holding the record
stored at some version and its live board; before a game is used its version is compared with the database's, and a
copy that is behind is brought up to date by playing or taking back only the moves that differ (never by replaying
the game). Every change is checked, then stored in one transaction over the version it was made from
(:meth:`GameService.commit`); a change that lost a race with another process's is refused, and the board put back.
A move is checked once (by the view, through the game's own checks), written in the game's notation, pushed, and
popped again if it cannot be stored. Within a process, the changes to one game are made one at a time.

Each stored change is announced once (a :class:`~hive.web.game.events.GameEvent`): the AI, the flags and the
sockets watching the game follow from that event, here and in the other processes. A timed game's clock
(:mod:`~hive.web.game.clock`) is charged with every move and stored with it; a flag that falls ends the game as soon
as anyone looks at it or its timer fires (:meth:`GameService.check_clock`), and moves are not taken back under a
clock. Who may ask the engine is :mod:`~hive.web.game.access`'s to say; the game list, rematches and deletions are
:mod:`~hive.web.game.lobby`'s.

The service raises the errors of :mod:`hive.web.shared.errors`; the HTTP layer turns them into status codes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
import secrets
import time
import weakref
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from ...game import Outcome, Termination
from ..shared.errors import BadRequest, Conflict, Damaged, Forbidden, NotFound, shown
from ..shared.model import AIJob, GameRecord
from ..storage import Effects, Store
from ..storage.games import StaleError, Within
from ..views import (
    JSON,
    Board,
    View,
    assets,
    description,
    in_sides,
    kinds,
    on_page,
    pass_note,
    replay,
    spec_of,
    view_for,
)
from . import aborts, access, clock
from .events import AI_ERROR, AI_MOVE, CREATED, FLAG, JOINED, Announcer, GameEvent, Unheard, game_event
from .newgame import NewGame, all_ai_levels, new_game
from .session import LiveGames, Session

log = logging.getLogger("hive.web")


def damage(record: GameRecord) -> str | None:
    """What makes a stored record unusable, short of playing its moves (an unknown kind, a clock that cannot be
    read), as a message naming the game; ``None`` when nothing does."""
    if record.kind not in kinds():
        return f"Game {shown(record.id)} cannot be loaded: its kind {shown(record.kind)} is unknown."
    if record.clock is not None:
        try:
            clock.check(record.clock)
        except ValueError as err:
            return f"Game {shown(record.id)} cannot be loaded: {err}."
    return None


def ended(board: Board, outcome: Outcome | None = None) -> dict[str, Any]:
    """The record's result and reason for ``outcome``, by default the rules' own on ``board``."""
    outcome = outcome or board.outcome()
    return {"result": outcome.result if outcome else None, "reason": outcome.reason if outcome else None}


def first_score(sides: tuple[str, str], result: str) -> float:
    """The first player's points for a game's result (``WhiteWins``, ``Draw``...)."""
    wins = [f"{side}Wins" for side in sides]
    return 0.5 if result not in wins else 1.0 - wins.index(result)


def summary(record: GameRecord, view: View, length: int) -> JSON:
    """A game as the game list and the page describe it: kind, mode, options, the sides' names, the players' names,
    the number of moves, the result (``winner``: the winner's seat), the position record it started from (``start``,
    ``None`` for the start of a game), the time control's label, whether it is rated, which seats accounts hold
    (``seat_accounts``: a game from a seek, a challenge or a tournament; their names are the accounts'), and the
    dates."""
    sides = view.sides(record.options)
    notation = spec_of(record.kind).sides
    winner = next((seat for seat, side in enumerate(notation) if record.result == f"{side}Wins"), None)
    return {
        "id": record.id,
        "kind": record.kind,
        "mode": record.mode,
        "options": record.options,
        "ai": {"level": record.ai_level, "seat": record.ai_seat} if record.mode == "ai" else None,
        "sides": sides,
        "names": list(record.names),
        "length": length,
        "result": record.result,
        "winner": winner,
        "reason": in_sides(record.reason, notation, sides) if record.reason else None,
        "rematch": record.rematch,
        "start": record.start,
        "time_control": clock.label(record.clock["control"] if record.clock else None),
        "rated": record.rated,
        "seat_accounts": [account is not None for account in record.accounts],
        "created": record.created,
        "updated": record.updated,
    }


#: How often a socket opening a game notes its seat before giving up on changes stored elsewhere first.
JOIN_TRIES = 5


class GameService:
    """The games: created, loaded, played and stored.

    :param store: where the games are kept.
    :param live_games: games kept in memory (the least recently used are loaded again when asked for).
    :param now: the clock's time source, seconds since the epoch.
    :param origin: this server process's name in the events it announces.
    :param announcer: who hears of each change (see :class:`~hive.web.game.events.Announcer`).
    :param first_move: seconds each side has for its first move in a real-time game between two players online
        before the game is aborted (see :mod:`~hive.web.game.aborts`).
    """

    def __init__(
        self,
        store: Store,
        *,
        live_games: int = 256,
        now: Callable[[], float] = time.time,
        origin: str = "",
        announcer: Announcer | None = None,
        first_move: float = 30.0,
    ) -> None:
        self.store = store
        self.now = now
        self.first_move = first_move
        self.origin = origin or secrets.token_hex(6)
        self.announcer: Announcer = announcer or Unheard()
        self.sessions: LiveGames[Session] = LiveGames(live_games)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock under which this process changes a game, one change at a time."""
        held = self._locks.get(game_id)
        if held is None:
            held = self._locks[game_id] = asyncio.Lock()
        return held

    # ------------------------------------------------------------------
    # games

    def assets(self) -> JSON:
        """What the page needs beyond a game: every view's assets, the AI levels of every game, and the games on
        offer on the page (``games``: each view's :func:`~hive.web.views.description`, in the registry's order)."""
        pictures: JSON = {}
        for kind in on_page():
            pictures.update(assets(view_for(kind)))
        return {**pictures, "levels": all_ai_levels(), "games": [description(view_for(kind)) for kind in on_page()]}

    async def create(self, data: JSON, client: str = "") -> tuple[Session, NewGame]:
        """Start and store the game ``data`` asks for (see :func:`~hive.web.game.newgame.new_game`); returns it in
        memory, and what was dealt (the seat tokens).

        :raises BadRequest: naming the field at fault.
        """
        game = new_game(data)
        return await self.start(game, client), game

    async def start(self, game: NewGame, client: str = "") -> Session:
        """Store a new game, keep it in memory and announce it."""
        session = Session(game.record, game.view, game.board)
        game.record.created = game.record.created or self.now()  # its first move's time counts from now
        await self.placed(session)
        event = self._event(session, CREATED, None)
        await self.store.games.create(game.record, self._effects(session, event, client))
        session.last = event
        self.sessions[game.record.id] = session
        await self.announcer.announce(event)
        return session

    async def session(self, game_id: str) -> Session:
        """The game ``game_id`` as stored now: the copy in memory if it is current, brought up to date if it is
        behind, loaded if there is none.

        :raises NotFound: when there is no such game.
        :raises Damaged: when its stored record cannot be read or played again.
        """
        async with self.lock(game_id):
            return await self.fresh(game_id)

    async def fresh(self, game_id: str) -> Session:
        """:meth:`session`, for a caller holding the game's :meth:`lock`."""
        if len(game_id) > 64:
            raise NotFound(f"There is no game {shown(game_id)}.")
        session = self.sessions.get(game_id)
        if session is not None and not self.store.database.shared:
            return session  # nobody else writes this database: the copy in memory is the stored game
        version = await self.store.games.version(game_id)
        if version is None:
            self.sessions.pop(game_id, None)
            raise NotFound(f"There is no game {shown(game_id)}.")
        if session is not None and session.record.version == version:
            return session
        return await self._read(game_id, session)

    async def _read(self, game_id: str, session: Session | None) -> Session:
        """The game as stored, read into its copy in memory (only what changed since it) or into a new one."""
        games = self.store.games
        record = await (games.changes(game_id, session.record) if session is not None else games.load(game_id))
        if record is None:
            self.sessions.pop(game_id, None)
            raise NotFound(f"There is no game {shown(game_id)}.")
        if session is not None and session.record.kind == record.kind and session.record.start == record.start:
            try:
                self._catch_up(session, record)
                await self.placed(session)
                return session
            except (ValueError, IndexError):
                log.warning("game %s could not be brought up to date in memory; loading it again", game_id)
        session = self._load(record)
        await self.placed(session)
        self.sessions[game_id] = session
        return session

    async def placed(self, session: Session) -> None:
        """Look up whether a game that may be aborted is a tournament's (once a game: see
        :attr:`~hive.web.game.session.Session.paired`)."""
        record = session.record
        if session.paired is None and aborts.open_to_abort(record):
            paired = None not in record.accounts and await self.store.seeks.tournament_of(record.id) is not None
            session.paired = paired

    async def refresh(self, event: GameEvent) -> Session | None:
        """Bring the copy in memory of the game an event from another process changed up to date, when there is one
        (``None`` otherwise, or when the game is gone); the event becomes its last change. The event names the
        version stored, so that the database is asked only for what changed."""
        try:
            async with self.lock(event.game_id):
                session = self.sessions.get(event.game_id)
                if session is None:
                    return None
                if session.record.version < event.version:
                    session = await self._read(event.game_id, session)
        except (NotFound, Damaged):
            return None
        if session.record.version == event.version:
            session.last = event
        return session

    def _load(self, record: GameRecord) -> Session:
        """A game in memory from its stored record, its moves played again.

        :raises Damaged: when the record names an unknown kind of game, or its moves cannot be played.
        """
        try:
            view = view_for(record.kind)
        except BadRequest:
            raise Damaged(
                f"Game {shown(record.id)} cannot be loaded: its kind {shown(record.kind)} is unknown."
            ) from None
        try:
            if record.clock is not None:
                clock.check(record.clock)
            board = replay(view, record.options, record.moves, record.start)
        except (ValueError, IndexError, KeyError, TypeError) as err:
            raise Damaged(f"Game {shown(record.id)} cannot be loaded: {err}") from None
        return Session(record, view, board)

    @staticmethod
    def _catch_up(session: Session, record: GameRecord) -> None:
        """Bring a copy in memory to ``record``: take back the moves it has that the record has not, play the
        record's new ones."""
        old, new = session.record.moves, record.moves
        common = 0
        while common < min(len(old), len(new)) and old[common] == new[common]:
            common += 1
        board = session.board
        for _ in range(len(old) - common):
            board.pop()
        for text in new[common:]:
            board.push(board.parse_move(text), text)  # a stored text: the notation move_text wrote
        session.record = record
        session.shown_view = None

    async def forget(self, session: Session, by: int | None) -> None:
        """Delete a game from storage and from memory, and announce it."""
        event = dataclasses.replace(self._event(session, "deleted", by), version=session.record.version + 1)
        await self.store.games.delete(session.record.id, lambda connection: self.announcer.stored(connection, event))
        self.sessions.pop(session.record.id, None)
        await self.announcer.announce(event)

    # ------------------------------------------------------------------
    # the game as the page shows it

    def view_of(self, session: Session) -> JSON:
        """The board's view for the page (its legal moves none once the game is over), worked out once a version."""
        version = session.record.version
        if session.shown_view is None or session.shown_view[0] != version:
            position = session.view.position(session.board)
            if session.over:
                position["legal"], position["pass"] = {}, False
            session.shown_view = (version, position)
        return session.shown_view[1]

    def state(
        self, session: Session, seats: frozenset[int] = frozenset(), present: tuple[bool, bool] = (False, False)
    ) -> JSON:
        """The game as the page shows it to the holder of ``seats``; ``present`` tells which seats are watching it
        now."""
        record = session.record
        position = self.view_of(session)
        return {
            **summary(record, session.view, len(record.moves)),
            "moves": record.moves,
            "redo": len(record.redo),
            "reason": session.shown(record.reason) if record.reason else None,
            "offer": record.offer,
            "thinking": session.ai_due,
            "ai_error": record.ai_error,
            "seats": sorted(seats),
            "help": {"on": access.help_on(record), "choices": list(record.help)},
            "abortable": aborts.abortable(record, session.paired),
            "joined": access.joined(record),
            "present": list(present),
            "note": None if session.over else pass_note(position, session.sides),
            "game_string": session.board.record(),
            "clock": clock.report(record.clock, self.now()),
            "view": position,
            "event": session.last.shown() if session.last is not None else None,
            "version": record.version,
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

    seats = staticmethod(access.seats)

    # ------------------------------------------------------------------
    # what players do

    async def holder(self, session: Session, token: str | None) -> frozenset[int]:
        """The seats ``token`` holds in the game, noted as having opened it (for a caller holding the game's lock).

        :raises Forbidden: when the token holds no seat of the game.
        """
        seats = self.seats(session.record, token)
        if not seats:
            raise Forbidden("This seat token does not belong to this game." if token else "A seat token is needed.")
        await self.note_seats(session, seats)
        return seats

    async def note_seats(self, session: Session, held: frozenset[int]) -> None:
        """Remember that the holder of ``held`` has opened the game (stored once per seat, for a caller holding the
        game's lock)."""
        joined = session.record.joined | sum(1 << seat for seat in held)
        if joined != session.record.joined:
            await self.commit(session, JOINED, min(held), joined=joined)

    async def join(self, game_id: str, held: frozenset[int]) -> Session:
        """:meth:`note_seats` for a socket opening the game: the game as it stands after."""
        async with self.lock(game_id):
            tries = 0
            while True:
                session = await self.fresh(game_id)
                try:
                    await self.note_seats(session, held)
                    return session
                except StaleError:
                    tries += 1
                    if tries == JOIN_TRIES:
                        raise
                    # a change stored elsewhere came first (a move, the other seat joining): note the seat again

    async def play(self, session: Session, move: Any, client: str = "", what: str = "move") -> GameEvent:
        """Play ``move`` (checked already) on the game, charging the clock, and store it."""
        board = session.board
        text = board.move_text(move)
        seat = board.turn
        board.push(move, text)
        result = ended(board)
        moves = [*session.record.moves, text]
        timed = clock.moved(session.record.clock, seat, len(moves), self.now(), result["result"] is not None)
        return await self.commit(
            session,
            what,
            seat,
            client=client,
            revert=board.pop,
            moves=moves,
            redo=[],
            **result,
            offer=None,
            clock=timed,
        )

    async def check_clock(self, game_id: str) -> bool:
        """End the game if its running clock's flag has fallen (see :meth:`flag`); whether it ended it now. Of
        several processes noticing the same flag, one stores it; the others find it stored."""
        try:
            async with self.lock(game_id):
                session = await self.fresh(game_id)
                return await self.flag(session)
        except Conflict:  # another process stored a change first: the flag is its to report
            return False

    async def flag(self, session: Session) -> bool:
        """End the game if the running clock's flag has fallen: the player out of time loses, or draws when the
        opponent could not win by any series of legal moves (the game's :meth:`~hive.game.Game.could_win`). A game
        between accounts is aborted instead when its flag falls before both sides moved, or its side to move made
        no first move in time (see :mod:`~hive.web.game.aborts`). Returns whether it ended the game now (for a
        caller holding the game's lock)."""
        if session.over:
            return False
        now = self.now()
        seat = clock.fallen(session.record.clock, now)
        await self.placed(session)
        if aborts.watched(session.record, session.paired):
            due = aborts.due(session.record, session.paired, self.first_move)
            if seat is not None or (due is not None and now >= due):
                await self.abort(session, None)
                return True
        if seat is None:
            return False
        if session.board.could_win(1 - seat):
            out = Outcome(Termination.FORFEIT, 1 - seat, session.board.sides, "time ran out")
        else:
            late, other = session.board.sides[seat], session.board.sides[1 - seat]
            detail = f"{late} ran out of time, and {other} could not have won"
            out = Outcome(Termination.FORFEIT, None, session.board.sides, detail)
        stopped = clock.stopped(session.record.clock, self.now(), seat)
        await self.commit(
            session, FLAG, None, detail={"flag": seat}, **ended(session.board, out), offer=None, clock=stopped
        )
        return True

    async def abort(self, session: Session, by: int | None, client: str = "") -> None:
        """Abort the game (checked abortable already): by the player of seat ``by``, or by the server (``None``) as
        its side to move made no first move in time. Its result is :data:`~hive.web.game.aborts.ABORTED`, neither a
        win nor a loss; no rating moves (for a caller holding the game's lock)."""
        board = session.board
        stopped = clock.stopped(session.record.clock, self.now())
        why = aborts.reason(board.sides, by, board.turn)
        await self.commit(
            session, "abort", by, client=client, result=aborts.ABORTED, reason=why, offer=None, clock=stopped
        )

    async def no_show(self, session: Session, after: float) -> bool:
        """End a game whose first player has not moved ``after`` seconds after it began: a loss by forfeit for the
        absent player (for a caller holding the game's lock). Returns whether it ended the game now."""
        if session.over or session.record.moves or self.now() - session.record.created < after:
            return False
        absent = session.board.turn
        out = Outcome(Termination.FORFEIT, 1 - absent, session.board.sides, "did not make a first move")
        await self.commit(session, "forfeit", None, **ended(session.board, out), offer=None)
        return True

    # ------------------------------------------------------------------
    # the AI's part

    async def play_ai(self, job: AIJob, text: str) -> bool:
        """Play the AI's move ``text``, worked out for the position of ``job``; ``False`` (and nothing played) when
        the game has moved on since, or the AI is no longer due."""
        try:
            async with self.lock(job.game_id):
                session = await self.fresh(job.game_id)
                if len(session.record.moves) != job.ply or await self.flag(session) or not session.ai_due:
                    return False
                await self.play(session, session.board.parse_move(text), what=AI_MOVE)
                return True
        except (NotFound, Conflict):
            return False

    async def ai_failed(self, job: AIJob, message: str) -> None:
        """Say on the game that the AI could not move in the position of ``job`` (the error shows until the game
        changes again)."""
        try:
            async with self.lock(job.game_id):
                session = await self.fresh(job.game_id)
                if len(session.record.moves) == job.ply and session.ai_due:
                    await self.commit(session, AI_ERROR, None, ai_error=message)
        except (NotFound, Conflict):
            pass

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
        moves = session.record.moves[: self.ply(session, ply)] if ply is not None else session.record.moves
        if session.over and len(moves) == len(session.record.moves):
            raise Conflict("The game is over: there is nothing to suggest.")
        return list(moves)

    async def check_hint(self, game_id: str, moves: list[str], review: bool = False) -> None:
        """Make sure a hint worked out after ``moves`` is still for the game as it stands (for a ``review`` of an
        earlier position, that the game still has it).

        :raises Conflict: when the game has moved on.
        """
        played = (await self.session(game_id)).record.moves
        if (played[: len(moves)] if review else played) != moves:
            raise Conflict("The game moved on while the AI was thinking; ask again.")

    # ------------------------------------------------------------------
    # storing a change

    async def commit(
        self,
        session: Session,
        what: str,
        by: int | None,
        *,
        client: str = "",
        revert: Callable[[], object] | None = None,
        detail: JSON | None = None,
        **changes: Any,
    ) -> GameEvent:
        """Store ``changes`` to the game's record (fields of :class:`~hive.web.shared.model.GameRecord`), made by seat
        ``by``
        (``None``: the server) from ``session``'s version, in one transaction, then keep the new record in memory and
        announce the change. The board already shows the change; if it cannot be stored, ``revert`` takes it back.
        Any change clears the AI's error, unless it sets one.

        :raises StaleError: (a :class:`~hive.web.shared.errors.Conflict`) when another change was stored first.
        :raises Unavailable: when the database cannot be reached.
        """
        record = session.record
        updated = dataclasses.replace(record, **{"ai_error": None, **changes}, version=record.version + 1)
        previous, session.record = record, updated  # what the event is worked out from
        event = self._event(session, what, by, detail, ended=record.result is None and updated.result is not None)
        try:
            rating = self._rating(session, previous, updated)
            await self.store.games.save(updated, previous, self._effects(session, event, client, rating))
        except BaseException:
            session.record = previous
            if revert is not None:
                revert()
            raise
        session.shown_view = None
        session.last = event
        await self.announcer.announce(event)
        return event

    def _event(
        self, session: Session, what: str, by: int | None, detail: JSON | None = None, *, ended: bool = False
    ) -> GameEvent:
        record = session.record
        deadline = None if record.result is not None else clock.deadline(record.clock)
        abort = aborts.due(record, session.paired, self.first_move)  # the flag watcher aborts it then
        if abort is not None:
            deadline = abort if deadline is None else min(deadline, abort)
        return game_event(what, ended)(
            record.id, record.version, what, by, len(record.moves), session.ai_due, deadline, detail, origin=self.origin
        )

    def _effects(self, session: Session, event: GameEvent, client: str, rating: Within | None = None) -> Effects:
        announcer = self.announcer

        def within(connection: sa.Connection) -> None:
            announcer.stored(connection, event)
            if rating is not None:
                rating(connection)

        return Effects(ai_due=event.ai_due, client=client or "server", deadline=event.deadline, within=within)

    def _rating(self, session: Session, previous: GameRecord, updated: GameRecord) -> Within | None:
        """What rates a rated game in the transaction that ends it: only a game between two accounts that both moved
        (one aborted before is not rated)."""
        first, second = updated.accounts
        if not updated.rated or updated.result in (None, aborts.ABORTED) or previous.result is not None:
            return None
        if first is None or second is None or len(updated.moves) < 2:
            return None
        board = session.board
        score0 = first_score(board.sides, updated.result)
        game, speed = board.game_name, clock.speed_of(updated.clock)
        ratings = self.store.ratings
        return lambda connection: ratings.rate_within(connection, updated.id, game, speed, (first, second), score0)


__all__ = ["GameService", "Session", "damage", "ended", "first_score", "summary"]
