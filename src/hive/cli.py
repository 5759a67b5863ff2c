"""The ``hive`` command: ``hive play`` (browser or terminal), ``hive perft``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

from . import BUILD, __version__, match, records, uhp
from .core import Board, IllegalMoveError, InvalidGameTypeError, InvalidMoveError
from .core.pieces import WHITE
from .engine import EngineError

HELP = """Type a move in UHP notation, e.g. 'wS1' (first move), 'bG1 -wS1', 'wB1 bG1' (climb on top), or 'pass'.
Commands: moves (list legal moves), undo (take back your last move), board, help, quit."""


def cmd_perft(args: argparse.Namespace) -> int:
    text: str = args.game
    try:
        board = Board.from_game_string(text, tournament_opening=not args.original_opening)
    except ValueError as err:
        print(f"hive perft: {err}", file=sys.stderr)
        return 2
    if args.depth < 0:
        print(f"hive perft: depth must be >= 0, not {args.depth}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    for d in range(args.depth + 1):
        t0 = time.perf_counter()
        count = board.perft(d)
        print(f"{d} {count} {time.perf_counter() - t0:.3f}", flush=True)
    if args.verbose:
        print(f"total {time.perf_counter() - start:.3f} s", file=sys.stderr)
    return 0


def play_terminal(
    board: Board,
    human: int,
    opponent: match.Player,
    read: Callable[[str], str] | None = None,
    write: Callable[[str], None] = print,
) -> str:
    """Play a game in the terminal: the human types MoveStrings, the opponent answers.

    Returns the final state (or ``"Abandoned"`` when the player quits or input ends).
    """
    read = read or input
    write(HELP)
    write(str(board))
    while not board.is_game_over():
        if board.turn != human:
            move = opponent.choose(board)
            write(f"{opponent.name} plays {board.uhp(move)}")
            board.push(move)
            write(str(board))
            continue
        try:
            line = read(f"{board.turn_string}> ").strip()
        except (EOFError, KeyboardInterrupt):
            write("")
            return "Abandoned"
        word = line.lower()
        if not line:
            continue
        if word in ("quit", "exit", "resign"):
            return "Abandoned"
        if word == "help":
            write(HELP)
        elif word == "board":
            write(str(board))
        elif word == "moves":
            write(" ".join(sorted(board.uhp(m) for m in board.legal_moves)))
        elif word == "undo":
            if board.ply < 2 or (board.ply < 3 and human == 1):
                write("Nothing to undo yet.")
                continue
            board.pop()
            if board.turn != human:
                board.pop()
            write(str(board))
        else:
            try:
                board.push_uhp(line)
            except (InvalidMoveError, IllegalMoveError) as err:
                write(f"Not played: {err}")
                continue
            write(str(board))
    write(f"Game over: {board.state}")
    write(board.game_string())
    return board.state


def cmd_play(args: argparse.Namespace) -> int:
    if not args.terminal:
        return cmd_play_browser(args)
    try:
        board = Board(args.game_type, tournament_opening=not args.original_opening)
    except InvalidGameTypeError as err:
        print(f"hive play: {err}", file=sys.stderr)
        return 2
    human = WHITE if args.colour == "white" else 1
    try:
        opponent = match.make_player(args.opponent, seed=args.seed)
    except (ValueError, EngineError) as err:
        print(f"hive play: {err}", file=sys.stderr)
        return 2
    try:
        play_terminal(board, human, opponent)
    finally:
        match.close_player(opponent)
    return 0


def cmd_play_browser(args: argparse.Namespace) -> int:
    from .web.run import serve

    if not 0 <= args.port <= 65535:
        print(f"hive play: --port must be 0..65535, not {args.port}", file=sys.stderr)
        return 2
    try:
        serve(args.host, args.port, args.db, open_browser=not args.no_browser)
    except OSError as err:
        print(f"hive play: {err}", file=sys.stderr)
        return 2
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hive", description="Hive, the board game.")
    parser.add_argument("--version", action="version", version=f"hive {__version__} ({BUILD})")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser(
        "play",
        help="play in the browser (a local web server), or in the terminal with --terminal",
        description="Start the browser game on a local web server and open it; --terminal plays in the terminal.",
    )
    play.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    play.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    play.add_argument("--no-browser", action="store_true", help="only print the URL, do not open a browser")
    play.add_argument("--db", default=None, help="SQLite file of the games (default: in the user's data directory)")
    play.add_argument("--terminal", action="store_true", help="play in the terminal instead of the browser")
    term = play.add_argument_group("terminal game (with --terminal)")
    term.add_argument("--game-type", default="Base+MLP", help="Base, Base+M, ... Base+MLP (default Base+MLP)")
    term.add_argument("--colour", "--color", choices=("white", "black"), default="white")
    term.add_argument("--original-opening", action="store_true", help="allow the Queen on the first turn")
    term.add_argument("--opponent", default="medium", help=f"{match.PLAYER_CHOICES} (default medium)", metavar="PLAYER")
    term.add_argument("--seed", type=int, default=None, help="seed of the opponent's randomness")
    play.set_defaults(func=cmd_play)

    perft = sub.add_parser("perft", help="count move-tree leaves at each depth")
    perft.add_argument("game", help="a game type (e.g. Base+MLP) or a UHP GameString")
    perft.add_argument("depth", type=int)
    perft.add_argument("--original-opening", action="store_true", help="allow the Queen on the first turn")
    perft.add_argument("-v", "--verbose", action="store_true", help="print the total time on stderr")
    perft.set_defaults(func=cmd_perft)

    uhp.add_parser(sub)
    match.add_parser(sub)
    records.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except KeyboardInterrupt:
        return 130
