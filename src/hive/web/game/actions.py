"""What a player does to a game (:data:`HANDLERS`): move, take back and replay moves, resign, offer and answer draws
and takebacks, name a seat, choose engine help.

Each handler checks the action against the game as it stands, then stores the change through
:meth:`~hive.web.game.service.GameService.save` (one transaction; the live board is changed only once stored, or put
back if it cannot be). Moves are not taken back under a clock; an online game takes moves back only by agreement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...game import Outcome, Termination
from ..errors import BadRequest, Conflict, shown
from ..views import JSON, Board
from . import access, clock
from .newgame import display_name

if TYPE_CHECKING:
    from .service import GameService, Session

Handler = Callable[["GameService", "Session", frozenset[int], JSON], None]


def ended(board: Board, outcome: Outcome | None = None) -> dict[str, str | None]:
    """The record's result and reason for ``outcome``, by default the rules' own on ``board``."""
    outcome = outcome or board.outcome()
    return {"result": outcome.result if outcome else None, "reason": outcome.reason if outcome else None}


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


def move(service: GameService, session: Session, seats: frozenset[int], data: JSON) -> None:
    """``{"ply": n, …}`` and the view's fields of a move: play it for the seat whose turn it is."""
    check_ply(session, data)
    if session.over:
        raise Conflict("The game is over.")
    turn = session.board.turn
    if turn not in seats:
        raise Conflict(f"It's {session.sides[turn]}'s turn, not yours.")
    if session.thinking:
        raise Conflict("The AI is thinking.")
    service.play(session, session.view.move(session.board, data))


def undo(service: GameService, session: Session, seats: frozenset[int], data: JSON) -> None:
    """Take back the last move (on one screen), the player's last move and the AI's answer, or offer it online."""
    check_ply(session, data)
    _untimed(session)
    record = session.record
    if record.mode == "online":
        offer(service, session, seats, {"what": "undo"})
        return
    if not record.moves:
        raise Conflict("Nothing to undo yet.")
    if record.mode == "local":
        _take_back(service, session, 1)
    else:
        assert record.ai_seat is not None
        _take_back(service, session, _back_to(session, 1 - record.ai_seat))


def _back_to(session: Session, seat: int) -> int:
    """How many moves to take back so that ``seat`` plays its last move again.

    :raises Conflict: when ``seat`` has not moved yet.
    """
    played = len(session.record.moves)
    for n in range(1, played + 1):
        if (session.board.turn + n) % 2 == seat:  # a game set up from a position may start with either side
            return n
    raise Conflict("Nothing to undo yet.")


def _take_back(service: GameService, session: Session, n: int) -> None:
    record = session.record
    keep = len(record.moves) - n
    redo_texts = record.moves[keep:] + record.redo
    service.save(session, None, moves=record.moves[:keep], redo=redo_texts, result=None, reason=None, offer=None)
    for _ in range(n):
        session.board.pop()


def redo(service: GameService, session: Session, seats: frozenset[int], data: JSON) -> None:
    """Play again a move taken back (with the AI's answer in a game against it)."""
    check_ply(session, data)
    record = session.record
    if record.mode == "online":
        raise Conflict("Redo is for games on one screen or against the AI.")
    _untimed(session)
    if not record.redo:
        raise Conflict("Nothing to redo.")
    if session.over:
        raise Conflict("The game is over.")
    n = 1
    if record.mode == "ai" and (session.board.turn + 1) % 2 == record.ai_seat:
        n = min(2, len(record.redo))  # the player's move and the AI's answer
    board = session.board
    texts = record.redo[:n]
    for text in texts:
        again = board.parse_move(text)
        board.move_text(again)
        board.push(again)

    def revert() -> None:
        for _ in texts:
            board.pop()

    service.save(session, revert, moves=record.moves + texts, redo=record.redo[n:], **ended(board), offer=None)


def resign(service: GameService, session: Session, seats: frozenset[int], data: JSON) -> None:
    """Resign for the seat held (for the side to move when the token holds both)."""
    if session.over:
        raise Conflict("The game is over.")
    board = session.board
    seat = board.turn if len(seats) == 2 else next(iter(seats))
    resigned = Outcome(Termination.RESIGNATION, 1 - seat, board.sides)
    stopped = clock.stopped(session.record.clock, service.now())
    service.save(session, None, **ended(board, resigned), offer=None, clock=stopped)


def offer(service: GameService, session: Session, seats: frozenset[int], data: JSON) -> None:
    """``{"what": "draw" | "undo"}``: offer it to the opponent online; agreed at once on one screen."""
    what = data.get("what")
    if what not in ("draw", "undo"):
        raise BadRequest(f"'what' must be 'draw' or 'undo', not {shown(what)}.")
    record = session.record
    if what == "draw" and session.over:
        raise Conflict("The game is over.")
    if what == "undo":
        _untimed(session)
    if record.mode == "ai":
        if what == "draw":
            raise Conflict("The AI plays on: it does not agree to draws.")
        undo(service, session, seats, {})
        return
    if record.mode == "local":
        _agree(service, session, what, session.board.turn)
        return
    seat = next(iter(seats))
    if what == "undo":
        _back_to(session, seat)  # raises when there is nothing to undo
    if record.offer and record.offer["what"] == what and record.offer["by"] != seat:
        _agree(service, session, what, record.offer["by"])
        return
    service.save(session, None, offer={"what": what, "by": seat})


def answer(service: GameService, session: Session, seats: frozenset[int], data: JSON) -> None:
    """``{"accept": true or false}``: answer the opponent's offer."""
    accept = data.get("accept")
    if not isinstance(accept, bool):
        raise BadRequest(f"'accept' must be true or false, not {shown(accept)}.")
    standing = session.record.offer
    if not standing or (standing["by"] in seats and len(seats) == 1):
        raise Conflict("There is no offer from your opponent to answer.")
    if accept:
        _agree(service, session, standing["what"], standing["by"])
    else:
        service.save(session, None, offer=None)


def name(service: GameService, session: Session, seats: frozenset[int], data: JSON) -> None:
    """``{"name": text or null}``, and ``seat`` for a token holding both: the seat's display name."""
    seat = access.seat_of(seats, data, "the name is for")
    if session.record.mode == "ai" and seat == session.record.ai_seat:
        raise BadRequest("The AI's seat is named by its level.")
    names = list(session.record.names)
    names[seat] = display_name(data.get("name"))
    service.save(session, None, names=(names[0], names[1]))


def help_choice(service: GameService, session: Session, seats: frozenset[int], data: JSON) -> None:
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
    service.save(session, None, help=(helps[0], helps[1]))


def _agree(service: GameService, session: Session, what: str, by: int) -> None:
    if what == "draw":
        agreed = Outcome(Termination.AGREEMENT, None, session.board.sides)
        stopped = clock.stopped(session.record.clock, service.now())
        service.save(session, None, **ended(session.board, agreed), offer=None, clock=stopped)
    else:
        _take_back(service, session, _back_to(session, by))


#: The handler of each action a seat holder may take.
HANDLERS: dict[str, Handler] = {
    "move": move,
    "undo": undo,
    "redo": redo,
    "resign": resign,
    "offer": offer,
    "answer": answer,
    "name": name,
    "help": help_choice,
}
ACTIONS = tuple(HANDLERS)

__all__ = ["ACTIONS", "HANDLERS", "check_ply", "ended"]
