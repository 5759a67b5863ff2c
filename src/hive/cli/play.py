"""``hive play``: the browser game on a local web server, or a game of any kind in the terminal."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import EngineError
from ..game import Game, IllegalMoveError, InvalidMoveError
from ..games import DEFAULT_GAME, find_game, games, plugin_of
from ..players import PLAYER_CHOICES, Player, make_player
from ..plugin import GameSpec
from .server_options import add_server_options, settings_from


@dataclass(frozen=True)
class CliSettings:
    """What a game sets for the terminal game (its plug-in's ``cli`` settings).

    :ivar help: how to type a move.
    """

    help: str = ""


COMMANDS = (
    "Commands: moves (the legal moves, numbered: type a number to play that move), undo (take back your last move),"
    " board, help, quit."
)
#: How wide the numbered list of moves may run.
WIDTH = 80


def _prompt(board: Game[Any]) -> str:
    """``White[3]> ``: the side to move and its turn number."""
    return f"{board.sides[board.turn]}[{1 + len(board.move_stack) // 2}]> "


def _undo(board: Game[Any], human: int) -> bool:
    """Take back the human's last move and the opponent's answer; ``False`` when there is none yet."""
    played = len(board.move_stack)
    if played < 2 or (played < 3 and human == 1):
        return False
    board.pop()
    if board.turn != human:
        board.pop()
    return True


def play_terminal(
    board: Game[Any],
    human: int,
    opponent: Player,
    read: Callable[[str], str] | None = None,
    write: Callable[[str], None] = print,
) -> str:
    """Play a game in the terminal: the human (side ``human``, 0 the first player) types moves in the game's
    notation, the opponent answers.

    Returns the result (``WhiteWins``, ``NorthWins``, ``Draw``...) or ``Abandoned`` when the human quits or input
    ends.
    """
    read = read or input
    spec = find_game(board.game_name)
    help_text = f"{plugin_of(spec.kind).settings_for('cli', CliSettings).help}\n{COMMANDS}"
    write(help_text)
    write(str(board))
    while not board.is_game_over():
        if board.turn != human:
            move = opponent.choose(board)
            text = board.move_text(move)
            write(f"{opponent.name} plays {text}")
            board.push(move, text)
            write(str(board))
            continue
        try:
            line = read(_prompt(board)).strip()
        except (EOFError, KeyboardInterrupt):
            write("")
            return "Abandoned"
        word = line.lower()
        if not line:
            continue
        if word in ("quit", "exit", "resign"):
            return "Abandoned"
        if word == "help":
            write(help_text)
        elif word == "board":
            write(str(board))
        elif word == "moves":
            write(numbered(_listed(board)))
        elif word == "undo":
            if not _undo(board, human):
                write("Nothing to undo yet.")
                continue
            write(str(board))
        elif word.isdecimal():
            listed = _listed(board)
            if not 1 <= int(word) <= len(listed):
                write(f"Not played: there is no move {int(word)} here; 'moves' lists {len(listed)}.")
                continue
            board.push_text(listed[int(word) - 1])
            write(str(board))
        else:
            try:
                board.push_text(line)
            except (InvalidMoveError, IllegalMoveError) as err:
                write(f"Not played: {err}")
                continue
            write(str(board))
    outcome = board.outcome() or board.adjudicate()
    write(f"Game over: {outcome}")
    write(board.record().rstrip("\n"))
    return outcome.result


def _listed(board: Game[Any]) -> list[str]:
    """The legal moves' texts in the order ``moves`` numbers them."""
    return sorted(board.move_text(move) for move in board.legal_moves)


def numbered(texts: list[str], width: int = WIDTH) -> str:
    """``texts`` numbered from 1 in columns, as many to a line as ``width`` holds (each text may hold spaces)."""
    if not texts:
        return "No legal move."
    cells = [f"{number:>{len(str(len(texts)))}}. {text}" for number, text in enumerate(texts, start=1)]
    column = max(map(len, cells)) + 3
    per_line = max(1, (width + 3) // column)
    lines = [cells[start : start + per_line] for start in range(0, len(cells), per_line)]
    return "\n".join("".join(cell.ljust(column) for cell in line).rstrip() for line in lines)


def _terminal_game(args: argparse.Namespace) -> tuple[GameSpec, Game[Any], int]:
    """The game of ``hive play --terminal``, its board and the human's side.

    :raises ValueError: naming the unknown game, the side it does not have or the rule it does not know.
    """
    spec = find_game(args.game)
    if args.original_opening and "tournament_opening" not in spec.options:
        raise ValueError(f"--original-opening is not a rule of {spec.name}")
    board = spec(tournament_opening=False) if args.original_opening else spec()
    sides = [side.lower() for side in spec.sides]
    colour = sides[0] if args.colour is None else args.colour.lower()
    if colour not in sides:
        raise ValueError(f"--colour must be {' or '.join(sides)} in {spec.name}, not {args.colour!r}")
    return spec, board, sides.index(colour)


def cmd_play(args: argparse.Namespace) -> int:
    """``hive play``: the browser game, or with ``--terminal`` a game in the terminal."""
    if not args.terminal:
        return cmd_play_browser(args)
    try:
        spec, board, human = _terminal_game(args)
        opponent = make_player(args.opponent, spec, seed=args.seed)
    except (ValueError, EngineError) as err:
        print(f"hive play: {err}", file=sys.stderr)
        return 2
    try:
        play_terminal(board, human, opponent)
    finally:
        opponent.close()
    return 0


def cmd_play_browser(args: argparse.Namespace) -> int:
    """Serve the browser game (:func:`hive.web.http.run.serve`) until interrupted."""
    from ..web.http.run import serve

    if not 0 <= args.port <= 65535:
        print(f"hive play: --port must be 0..65535, not {args.port}", file=sys.stderr)
        return 2
    if args.ai_workers < 1:
        print(f"hive play: --ai-workers must be at least 1, not {args.ai_workers}", file=sys.stderr)
        return 2
    try:
        settings = settings_from(args)
        serve(
            args.host, args.port, args.db, open_browser=not args.no_browser, workers=args.ai_workers, settings=settings
        )
    except (OSError, ValueError) as err:
        print(f"hive play: {err}", file=sys.stderr)
        return 2
    return 0


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``play`` subcommand."""
    play = subparsers.add_parser(
        "play",
        help="play in the browser (a local web server), or in the terminal with --terminal",
        description="Start the browser game on a local web server and open it; --terminal plays in the terminal.",
    )
    play.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    play.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    play.add_argument("--no-browser", action="store_true", help="only print the URL, do not open a browser")
    play.add_argument("--db", default=None, help="SQLite file of the games (default: in the user's data directory)")
    play.add_argument("--terminal", action="store_true", help="play in the terminal instead of the browser")
    add_server_options(play)
    term = play.add_argument_group("terminal game (with --terminal)")
    term.add_argument(
        "--game",
        "--game-type",
        dest="game",
        default=DEFAULT_GAME,
        metavar="NAME",
        help=f"the game: {', '.join(games())} (default {DEFAULT_GAME})",
    )
    sides = sorted({side.lower() for spec in games().values() for side in spec.sides})
    term.add_argument(
        "--colour",
        "--color",
        default=None,
        metavar="SIDE",
        help=f"your side: {', '.join(sides)} (default: the first player's)",
    )
    term.add_argument("--original-opening", action="store_true", help="allow the Queen on the first turn (Hive)")
    term.add_argument("--opponent", default="medium", help=f"{PLAYER_CHOICES} (default medium)", metavar="PLAYER")
    term.add_argument("--seed", type=int, default=None, help="seed of the opponent's randomness")
    play.set_defaults(func=cmd_play)


__all__ = ["add_parser", "cmd_play", "cmd_play_browser", "play_terminal"]
