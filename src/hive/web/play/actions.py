"""What a player does to a game (:data:`HANDLERS`): move, take back and replay moves, resign, abort (before both sides
moved, see :mod:`~hive.web.play.aborts`), offer and answer draws and takebacks, name a seat, choose engine help.

Each handler checks the action against the game as it stands, changes the board if the action moves pieces, then
stores the change through :meth:`~hive.web.play.commit.Commits.commit` (one transaction over the game's
version; the board is put back if it cannot be stored). A finished game's result is final: nothing is taken back or
offered once the game is over (the analysis board is there to try other moves). Moves are not taken back under a
clock; an online game takes moves back only by agreement.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ...game import Outcome, Termination
from ...sdk.view import JSON
from ..shared.errors import BadRequest, Conflict, Forbidden, NotFound, shown
from ..views import preview, why
from . import aborts, access, clock
from .newgame import display_name
from .service import GameService, ended
from .session import Session

Handler = Callable[[GameService, Session, frozenset[int], JSON, str], Awaitable[None]]
#: Why nothing is taken back or offered once a game has its result.
FINAL = "The game is over: its result stands. Analyse it to try other moves."


def check_ply(session: Session, data: JSON) -> None:
    """Refuse a request made on a position the game has left (``ply``: the number of moves the page saw)."""
    ply = data.get("ply")
    played = len(session.record.moves)
    if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
        raise BadRequest(f"'ply' must be a number, not {shown(ply)}.")
    if ply is not None and ply != played:
        raise Conflict(f"The game has moved on: {played} moves played, not {ply}.")


def _untimed(session: Session) -> None:
    if session.record.clock is not None:
        raise Conflict("Moves are not taken back in a timed game.")


def _open(session: Session) -> None:
    if session.over:
        raise Conflict(FINAL)


async def move(service: GameService, session: Session, seats: frozenset[int], data: JSON, client: str) -> None:
    """``{"ply": n, …}`` and the view's fields of a move: play it for the seat whose turn it is."""
    check_ply(session, data)
    if session.over:
        raise Conflict("The game is over.")
    turn = session.board.turn
    if turn not in seats:
        raise Conflict(f"It's {session.sides[turn]}'s turn, not yours.")
    if session.ai_due:
        raise Conflict("The AI is thinking.")
    await service.play(session, session.view.move(session.board, data), client)


async def undo(service: GameService, session: Session, seats: frozenset[int], data: JSON, client: str) -> None:
    """Take back the last move (on one screen), the player's last move and the AI's answer, or offer it online."""
    check_ply(session, data)
    _open(session)
    _untimed(session)
    record = session.record
    if record.mode == "online":
        await offer(service, session, seats, {"what": "undo"}, client)
        return
    if not record.moves:
        raise Conflict("Nothing to undo yet.")
    if record.mode == "local":
        await _take_back(service, session, 1, session.board.turn, client)
    else:
        assert record.ai_seat is not None
        seat = 1 - record.ai_seat
        await _take_back(service, session, _back_to(session, seat), seat, client)


def _back_to(session: Session, seat: int) -> int:
    """How many moves to take back so that ``seat`` plays its last move again.

    :raises Conflict: when ``seat`` has not moved yet.
    """
    played = len(session.record.moves)
    for n in range(1, played + 1):
        if (session.board.turn + n) % 2 == seat:  # a game set up from a position may start with either side
            return n
    raise Conflict("Nothing to undo yet.")


async def _take_back(service: GameService, session: Session, n: int, by: int, client: str, what: str = "undo") -> None:
    record = session.record
    keep = len(record.moves) - n
    board = session.board
    taken = [board.pop() for _ in range(n)]

    def revert() -> None:
        for again in reversed(taken):
            board.push(again, board.move_text(again))

    redo_texts = record.moves[keep:] + record.redo
    changes: dict[str, Any] = {"moves": record.moves[:keep], "redo": redo_texts, "result": None, "reason": None}
    await service.commit(session, what, by, client=client, revert=revert, **changes, offer=None)


async def redo(service: GameService, session: Session, seats: frozenset[int], data: JSON, client: str) -> None:
    """Play again a move taken back (with the AI's answer in a game against it)."""
    check_ply(session, data)
    record = session.record
    if record.mode == "online":
        raise Conflict("Redo is for games on one screen or against the AI.")
    _open(session)
    _untimed(session)
    if not record.redo:
        raise Conflict("Nothing to redo.")
    n = 1
    if record.mode == "ai" and (session.board.turn + 1) % 2 == record.ai_seat:
        n = min(2, len(record.redo))  # the player's move and the AI's answer
    board = session.board
    by = board.turn
    texts = record.redo[:n]
    for text in texts:
        board.push(board.parse_move(text), text)

    def revert() -> None:
        for _ in texts:
            board.pop()

    changes = {"moves": record.moves + texts, "redo": record.redo[n:], **ended(board)}
    await service.commit(session, "redo", by, client=client, revert=revert, **changes, offer=None)


async def resign(service: GameService, session: Session, seats: frozenset[int], data: JSON, client: str) -> None:
    """Resign for the seat held (for the side to move when the token holds both)."""
    if session.over:
        raise Conflict("The game is over.")
    board = session.board
    seat = board.turn if len(seats) == 2 else next(iter(seats))
    resigned = Outcome(Termination.RESIGNATION, 1 - seat, board.sides)
    stopped = clock.stopped(session.record.clock, service.now())
    await service.commit(session, "resign", seat, client=client, **ended(board, resigned), offer=None, clock=stopped)


async def abort(service: GameService, session: Session, seats: frozenset[int], data: JSON, client: str) -> None:
    """Abort a game between two players online before both sides moved: neither a win nor a loss, and no rating
    moves (see :mod:`~hive.web.play.aborts`)."""
    why = aborts.refusal(session.record, session.paired)
    if why is not None:
        raise Conflict(why)
    await service.abort(session, next(iter(seats)) if len(seats) == 1 else session.board.turn, client)


async def offer(service: GameService, session: Session, seats: frozenset[int], data: JSON, client: str) -> None:
    """``{"what": "draw" | "undo"}``: offer it to the opponent online; agreed at once on one screen."""
    what = data.get("what")
    if what not in ("draw", "undo"):
        raise BadRequest(f"'what' must be 'draw' or 'undo', not {shown(what)}.")
    record = session.record
    _open(session)
    if what == "undo":
        _untimed(session)
    if record.mode == "ai":
        if what == "draw":
            raise Conflict("The AI plays on: it does not agree to draws.")
        await undo(service, session, seats, {}, client)
        return
    if record.mode == "local":
        await _agree(service, session, what, session.board.turn, session.board.turn, client)
        return
    seat = next(iter(seats))
    if what == "undo":
        _back_to(session, seat)  # raises when there is nothing to undo
    if record.offer and record.offer["what"] == what and record.offer["by"] != seat:
        await _agree(service, session, what, record.offer["by"], seat, client)
        return
    await service.commit(
        session, "offer", seat, client=client, detail={"offer": what}, offer={"what": what, "by": seat}
    )


async def answer(service: GameService, session: Session, seats: frozenset[int], data: JSON, client: str) -> None:
    """``{"accept": true or false}``: answer the opponent's offer."""
    accept = data.get("accept")
    if not isinstance(accept, bool):
        raise BadRequest(f"'accept' must be true or false, not {shown(accept)}.")
    standing = session.record.offer
    if not standing or (standing["by"] in seats and len(seats) == 1):
        raise Conflict("There is no offer from your opponent to answer.")
    by = next(seat for seat in sorted(seats) if seat != standing["by"]) if len(seats) > 1 else next(iter(seats))
    if accept:
        await _agree(service, session, standing["what"], standing["by"], by, client)
    else:
        detail = {"declined": standing["what"], "offered_by": standing["by"]}
        await service.commit(session, "answer", by, client=client, detail=detail, offer=None)


async def name(service: GameService, session: Session, seats: frozenset[int], data: JSON, client: str) -> None:
    """``{"name": text or null}``, and ``seat`` for a token holding both: the seat's display name."""
    seat = access.seat_of(seats, data, "the name is for")
    if session.record.mode == "ai" and seat == session.record.ai_seat:
        raise BadRequest("The AI's seat is named by its level.")
    if session.record.accounts[seat] is not None:
        raise BadRequest("An account's seat is named by the account.")
    names = list(session.record.names)
    names[seat] = display_name(data.get("name"))
    await service.commit(session, "name", seat, client=client, names=(names[0], names[1]))


async def help_choice(service: GameService, session: Session, seats: frozenset[int], data: JSON, client: str) -> None:
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
    await service.commit(session, "help", seat, client=client, help=(helps[0], helps[1]))


async def _agree(service: GameService, session: Session, what: str, offered: int, by: int, client: str) -> None:
    """Carry out an offer of ``offered``'s that ``by`` agreed to."""
    if what == "draw":
        agreed = Outcome(Termination.AGREEMENT, None, session.board.sides)
        stopped = clock.stopped(session.record.clock, service.now())
        changes = {**ended(session.board, agreed), "clock": stopped}
        await service.commit(session, "answer", by, client=client, detail={"agreed": "draw"}, offer=None, **changes)
    else:
        await _take_back(service, session, _back_to(session, offered), by, client, what="answer")


#: The handler of each action a seat holder may take.
HANDLERS: dict[str, Handler] = {
    "move": move,
    "undo": undo,
    "redo": redo,
    "resign": resign,
    "abort": abort,
    "offer": offer,
    "answer": answer,
    "name": name,
    "help": help_choice,
}
ACTIONS = tuple(HANDLERS)
#: What anyone may ask of a game, besides what a player does to it.
QUERIES = ("why", "preview")


async def act(
    service: GameService, game_id: str, action: str, token: str | None, data: JSON, client: str = ""
) -> tuple[Session, JSON | None]:
    """Do ``action`` (one of :data:`ACTIONS`) on a game as the holder of ``token``, or answer a query
    (:data:`QUERIES`, open to anyone): returns the game, and the query's answer (``None`` for an action, once its
    change is stored and announced).

    :raises NotFound: for an unknown game or action.
    :raises Forbidden: when ``token`` holds no seat of the game.
    :raises BadRequest, Conflict: naming what the action cannot do, or not now.
    """
    if action not in ACTIONS and action not in QUERIES:
        raise NotFound(f"Unknown action {shown(action)}: expected one of {', '.join((*ACTIONS, *QUERIES))}.")
    async with service.lock(game_id):
        if action in QUERIES:
            return await _query(await service.fresh(game_id), action, data)
        # The copy in memory is tried first, as the events heard keep it current. A change made from a copy that is
        # behind is refused when stored (its version); any refusal from a copy found behind is tried again on the
        # game as stored, since a seat taken or a move made elsewhere may be what it missed.
        cached = service.sessions.get(game_id)
        session = cached if cached is not None else await service.fresh(game_id)
        try:
            await _act(service, session, action, token, data, client)
        except (BadRequest, Conflict, Forbidden):
            if cached is None or not service.store.database.shared:
                raise
            behind = session.record.version
            session = await service.fresh(game_id)
            if session.record.version == behind:
                raise  # the copy was current: the refusal stands
            await _act(service, session, action, token, data, client)
        return session, None


async def _query(session: Session, action: str, data: JSON) -> tuple[Session, JSON]:
    if action == "why":
        return session, {"piece": data.get("piece"), "reason": why(session.view, session.board, data.get("piece"))}
    if session.over:
        raise Conflict("The game is over.")
    return session, preview(session.view, session.board, data)


async def _act(service: GameService, session: Session, action: str, token: str | None, data: JSON, client: str) -> None:
    seats = await service.holder(session, token)
    if await service.flag(session):
        if session.record.result == aborts.ABORTED:
            raise Conflict(f"The game was aborted: {session.shown(session.record.reason or '')}.")
        raise Conflict("The game is over: time ran out.")
    await HANDLERS[action](service, session, seats, data, client)


__all__ = ["ACTIONS", "FINAL", "HANDLERS", "QUERIES", "act", "check_ply"]
