"""The browser game's rules of play, without HTTP: games in memory and on disk, who may do what, and when.

The database is the authority. A game in memory is a :class:`~hive.web.play.session.Session` holding the record
stored at some version and its live board; before a game is used its version is compared with the database's, and a
copy that is behind is brought up to date by playing or taking back only the moves that differ (never by replaying
the game). Every change is checked, then stored in one transaction over the version it was made from
(:meth:`~hive.web.play.commit.Commits.commit`); a change that lost a race with another process's is refused, and the
board put back. A move is checked once (by the view, through the game's own checks), written in the game's notation,
pushed, and popped again if it cannot be stored. Within a process, the changes to one game are made one at a time.

Each stored change is announced once (a :class:`~hive.web.play.events.GameEvent`): the AI, the flags and the
sockets watching the game follow from that event, here and in the other processes. A timed game's clock
(:mod:`~hive.web.play.clock`) is charged with every move and stored with it; a flag that falls ends the game as soon
as anyone looks at it or its timer fires (:meth:`~hive.web.play.timed.Timed.check_clock`), and moves are not taken
back under a clock. Who may ask the engine is :mod:`~hive.web.play.access`'s to say; the game list, rematches and
deletions are :mod:`~hive.web.play.game_list`'s.

The service is built in parts, one concern each: :mod:`~hive.web.play.commit` (storing a change, its event and its
rating), :mod:`~hive.web.play.cache` (the games in memory and their versions), :mod:`~hive.web.play.page_state`
(the page's JSON), :mod:`~hive.web.play.timed` (the clock, flags, aborts) and :mod:`~hive.web.play.ai_turns` (the
AI's moves and hints); this module adds creating, opening and joining a game.

The service raises the errors of :mod:`hive.web.shared.errors`; the HTTP layer turns them into status codes.
"""

from __future__ import annotations

from ...sdk.view import JSON
from ..shared.errors import Forbidden
from ..views import assets, description, on_page, view_for
from .ai_turns import AITurns
from .cache import damage
from .commit import first_score
from .events import CREATED, JOINED
from .newgame import NewGame, all_ai_levels, new_game
from .page_state import PageState, summary
from .repository import StaleError
from .session import Session
from .timed import ended

#: How often a socket opening a game notes its seat before giving up on changes stored elsewhere first.
JOIN_TRIES = 5


class GameService(AITurns, PageState):
    """The games: created, loaded, played and stored.

    :param store: where the games are kept.
    :param live_games: games kept in memory (the least recently used are loaded again when asked for).
    :param now: the clock's time source, seconds since the epoch.
    :param origin: this server process's name in the events it announces.
    :param announcer: who hears of each change (see :class:`~hive.web.play.events.Announcer`).
    :param first_move: seconds each side has for its first move in a real-time game between two players online
        before the game is aborted (see :mod:`~hive.web.play.aborts`).
    """

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
        """Start and store the game ``data`` asks for (see :func:`~hive.web.play.newgame.new_game`); returns it in
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


__all__ = ["JOIN_TRIES", "GameService", "Session", "damage", "ended", "first_score", "summary"]
