"""``hive match``: an arena playing games between two players, in parallel, with an Elo estimate.

A player is a built-in level (``easy``, ``medium``, ``hard``, ``max``), ``random``, or ``uhp:<command line>``
for any external UHP engine. Games come in pairs: both games of a pair start from the same random opening, with
colours swapped. ``game="hivequeen"`` plays L. Lynn Smith's HiveQueen instead (built-in players only: UHP is a
protocol of Hive), saving records in HiveQueen's record format.

>>> from hive.match import run_match
>>> result = run_match("random", "easy", games=2, game_type="Base", jobs=1, seed=1)  # doctest: +SKIP
>>> result.wins, result.draws, result.losses, result.elo()  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import contextlib
import math
import multiprocessing
import os
import random
import shlex
import signal
import statistics
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Protocol

from .ai import LEVELS, Limits, RandomPlayer, Searcher
from .ai.evaluation import WIN
from .core import WHITE, Board, GameType, Move
from .engine import EngineError, Limit, SimpleEngine
from .hivequeen import ai as queen_ai
from .hivequeen.board import Board as QueenBoard
from .hivequeen.board import Turn
from .hivequeen.records import write_record

#: The time an external engine gets per move when neither ``--time`` nor ``--depth`` is given.
DEFAULT_ENGINE_TIME = 1.0
PLAYER_CHOICES = f"{', '.join(LEVELS)}, random, or uhp:<engine command line>"
#: The games ``hive match`` plays.
GAMES = ("hive", "hivequeen")
#: Turns after which a HiveQueen match game still running is adjudicated by units (its own rules end it sooner
#: or later: 300 turns without a capture, repetition).
QUEEN_DEFAULT_MAX_TURNS = 400
#: HiveQueen's random turns can decide a game at once (a random production in reach of an enemy Soldier, a Drone
#: moved off its Queen), so that the colour, not the player, wins both games of a pair: an opening is drawn again
#: until a search of QUEEN_OPENING_DEPTH turns scores it within QUEEN_OPENING_MARGIN (about a Worker), keeping the
#: most balanced of QUEEN_OPENING_TRIES draws if none is.
QUEEN_OPENING_DEPTH = 3
QUEEN_OPENING_MARGIN = 100
QUEEN_OPENING_TRIES = 100
_Z95 = statistics.NormalDist().inv_cdf(0.975)


class Player(Protocol):
    """Anything that chooses moves: :func:`play_game` asks it for a move whenever it is its turn."""

    name: str

    def choose(self, board: Board) -> Move: ...


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed PLAYER argument: ``kind`` is ``"level"``, ``"random"`` or ``"uhp"``; ``arg`` the level or command."""

    text: str
    kind: str
    arg: str = ""

    def describe(self, time: float | None = None, depth: int | None = None, game: str = "hive") -> str:
        """How this player plays in ``game``, e.g. ``built-in AI, depth 1``."""
        if self.kind == "random":
            return "random mover"
        if self.kind == "level":
            levels = queen_ai.LEVELS if game == "hivequeen" else LEVELS
            return f"built-in AI, {_limits_text(_search_limits(self, time, depth, levels))}"
        return f"UHP engine {self.arg!r}, '{_engine_limit(time, depth).uhp_command()}'"


def parse_player(text: str) -> PlayerSpec:
    """Parse a PLAYER argument.

    :raises ValueError: naming ``text`` when it is not a level, ``random`` or ``uhp:<command line>``.
    """
    word = text.strip()
    if word.lower() in LEVELS:
        return PlayerSpec(text, "level", word.lower())
    if word.lower() == "random":
        return PlayerSpec(text, "random")
    if word[:4].lower() == "uhp:":
        command = word[4:].strip()
        try:
            args = shlex.split(command)
        except ValueError as err:
            raise ValueError(f"bad player {text!r}: cannot split the engine command line: {err}") from None
        if not args:
            raise ValueError(f"bad player {text!r}: 'uhp:' needs an engine command line, e.g. 'uhp:nokamute uhp'")
        return PlayerSpec(text, "uhp", command)
    raise ValueError(f"bad player {text!r}: expected {PLAYER_CHOICES}")


def _limits_text(limits: Limits) -> str:
    parts = []
    if limits.time is not None:
        parts.append(f"{limits.time:g} s per move")
    if limits.depth is not None:
        parts.append(f"depth {limits.depth}")
    return ", ".join(parts)


def _search_limits(
    spec: PlayerSpec, time: float | None, depth: int | None, levels: Mapping[str, Limits] = LEVELS
) -> Limits:
    if time is not None or depth is not None:
        return Limits(time=time, depth=depth)
    return levels[spec.arg]


def _engine_limit(time: float | None, depth: int | None) -> Limit:
    if time is None and depth is None:
        return Limit(time=DEFAULT_ENGINE_TIME)
    return Limit(time=time, depth=depth)


class SearchPlayer:
    """The built-in alpha-beta AI with fixed limits."""

    def __init__(self, limits: Limits, name: str = "ai", seed: int | None = None) -> None:
        self.name = name
        self.limits = limits
        self.searcher = Searcher(seed)

    def choose(self, board: Board) -> Move:
        return Move.from_code(self.searcher.search(board, self.limits).move)


class EnginePlayer:
    """An external UHP engine (started at once; call :meth:`close` when done)."""

    def __init__(self, command: str, limit: Limit, *, timeout: float | None = 60.0) -> None:
        self.limit = limit
        self.engine = SimpleEngine.popen_uhp(command, timeout=timeout)
        self.name = self.engine.name

    def choose(self, board: Board) -> Move:
        return self.engine.play(board, self.limit).move

    def close(self) -> None:
        self.engine.quit()


def make_player(
    spec: PlayerSpec | str,
    *,
    time: float | None = None,
    depth: int | None = None,
    seed: int | None = None,
    engine_timeout: float | None = 60.0,
) -> Player:
    """Build a player; ``time``/``depth`` override a level's limits and set an engine's.

    External engines are started here: close them with :func:`close_player`.

    :raises ValueError: for a bad spec or limits.
    :raises EngineError: when an external engine cannot be started.
    """
    spec = parse_player(spec) if isinstance(spec, str) else spec
    if spec.kind == "random":
        return RandomPlayer(seed)
    if spec.kind == "level":
        return SearchPlayer(_search_limits(spec, time, depth), spec.arg, seed)
    return EnginePlayer(spec.arg, _engine_limit(time, depth), timeout=engine_timeout)


def close_player(player: Player) -> None:
    """Release a player's resources (quit an external engine)."""
    close: Callable[[], None] | None = getattr(player, "close", None)
    if close is not None:
        close()


@dataclass(frozen=True)
class GameOutcome:
    """How one game ended: ``result`` is ``WhiteWins``, ``BlackWins`` or ``Draw`` (a ply-limit draw included)."""

    result: str
    reason: str
    plies: int
    game_string: str


_COLOURS = ("white", "black")


def play_game(
    white: Player,
    black: Player,
    *,
    game_type: str | GameType = "Base+MLP",
    opening: Sequence[str] = (),
    max_plies: int = 200,
) -> GameOutcome:
    """Play one game with the repetition draw on: the opening MoveStrings first, then the players.

    A game still running after ``max_plies`` plies is adjudicated a draw. A player whose engine fails
    (:class:`~hive.engine.EngineError`) forfeits the game.
    """
    board = Board(game_type, repetition_draw=True)
    for text in opening:
        if board.is_game_over():
            break
        board.push_uhp(text)
    players = (white, black)
    while not board.is_game_over() and board.ply < max_plies:
        side = board.turn
        try:
            move = players[side].choose(board)
        except EngineError as err:
            result = "BlackWins" if side == WHITE else "WhiteWins"
            return GameOutcome(result, f"{_COLOURS[side]} forfeits: {err}", board.ply, board.game_string())
        board.push(move)
    if not board.is_game_over():
        return GameOutcome("Draw", f"ply limit {max_plies}", board.ply, board.game_string())
    state = board.state
    if state == "WhiteWins":
        reason = "black queen surrounded"
    elif state == "BlackWins":
        reason = "white queen surrounded"
    elif board.seen.get(board.hash, 0) >= 3:
        reason = "threefold repetition"
    else:
        reason = "both queens surrounded"
    return GameOutcome(state, reason, board.ply, board.game_string())


def random_opening(game_type: str | GameType, plies: int, seed: int | None) -> tuple[str, ...]:
    """``plies`` uniformly random legal moves from the start, as MoveStrings (fewer if the game ends)."""
    board = Board(game_type, repetition_draw=True)
    mover = RandomPlayer(seed)
    texts: list[str] = []
    while len(texts) < plies and not board.is_game_over():
        move = mover.choose(board)
        texts.append(board.uhp(move))
        board.push(move)
    return tuple(texts)


def elo_difference(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """Logistic Elo difference from a score, with a 95 % interval: ``(estimate, low, high)``.

    The interval comes from the per-game score's standard error (normal approximation), clipped to
    ``-inf``/``+inf`` where it leaves (0, 1). When every game was won (lost) the estimate is ``+inf`` (``-inf``)
    and the finite bound is the exact one-sided Clopper-Pearson bound on the score, ``0.025 ** (1 / n)``.

    :raises ValueError: for negative counts or no games.
    """
    if min(wins, draws, losses) < 0:
        raise ValueError(f"game counts must be >= 0, not {wins}/{draws}/{losses}")
    n = wins + draws + losses
    if n == 0:
        raise ValueError("no games played: the Elo difference is unknown")
    score = (wins + 0.5 * draws) / n
    if wins == n:
        return math.inf, _elo(0.025 ** (1 / n)), math.inf
    if losses == n:
        return -math.inf, -math.inf, -_elo(0.025 ** (1 / n))
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    margin = _Z95 * math.sqrt(variance / n)
    return _elo(score), _elo(score - margin), _elo(score + margin)


def _elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 0.0 - 400 * math.log10(1 / score - 1)


@dataclass(frozen=True)
class GameRecord:
    """One finished game of a match (``number`` counts from 1)."""

    number: int
    white: str
    black: str
    player1_white: bool
    result: str
    reason: str
    plies: int
    game_string: str
    game: str = "hive"

    @property
    def player1_score(self) -> float:
        """1, ½ or 0 from PLAYER1's point of view (South is HiveQueen's first player, as White is Hive's)."""
        if self.result == "Draw":
            return 0.5
        return 1.0 if (self.result in ("WhiteWins", "SouthWins")) == self.player1_white else 0.0


@dataclass
class MatchResult:
    """The games of a match so far, scored from PLAYER1's point of view."""

    player1: str
    player2: str
    seed: int
    games: list[GameRecord] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.player1_score == 1.0)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.player1_score == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if g.player1_score == 0.0)

    @property
    def score(self) -> float:
        """PLAYER1's points (a draw is half a point)."""
        return self.wins + 0.5 * self.draws

    def elo(self) -> tuple[float, float, float]:
        """:func:`elo_difference` of PLAYER1 over PLAYER2."""
        return elo_difference(self.wins, self.draws, self.losses)

    def summary(self) -> str:
        """The final report: W/D/L, score and Elo difference, from PLAYER1's point of view."""
        n = len(self.games)
        lines = [
            f"Result of {self.player1} vs {self.player2} after {_plural(n, 'game')}: "
            f"W/D/L {self.wins}/{self.draws}/{self.losses} for {self.player1}, "
            f"score {self.score:g}/{n} = {100 * self.score / n:.1f}%"
            if n
            else f"Result of {self.player1} vs {self.player2}: no games played"
        ]
        if n:
            estimate, low, high = self.elo()
            if estimate == math.inf:
                lines.append(f"Elo difference: +inf (every game won), 95% interval >= {low:+.1f}")
            elif estimate == -math.inf:
                lines.append(f"Elo difference: -inf (every game lost), 95% interval <= {high:+.1f}")
            else:
                lines.append(f"Elo difference: {estimate:+.1f}, 95% interval {low:+.1f} to {high:+.1f}")
        return "\n".join(lines)


@dataclass(frozen=True)
class _GameTask:
    number: int
    white: PlayerSpec
    black: PlayerSpec
    white_label: str
    black_label: str
    player1_white: bool
    game_type: str
    opening: tuple[str, ...]
    max_plies: int
    time: float | None
    depth: int | None
    seed: int
    engine_timeout: float | None
    game: str = "hive"


class QueenPlayer(Protocol):
    """Anything that chooses HiveQueen turns."""

    name: str

    def choose(self, board: QueenBoard) -> Turn: ...


def make_queen_player(
    spec: PlayerSpec | str, *, time: float | None = None, depth: int | None = None, seed: int | None = None
) -> QueenPlayer:
    """Build a HiveQueen player: a level (``time``/``depth`` override its limits) or ``random``.

    :raises ValueError: for a bad spec, or a UHP engine (UHP is a protocol of Hive, not of HiveQueen).
    """
    spec = parse_player(spec) if isinstance(spec, str) else spec
    if spec.kind == "random":
        return queen_ai.RandomPlayer(seed)
    if spec.kind == "level":
        return queen_ai.SearchPlayer(_search_limits(spec, time, depth, queen_ai.LEVELS), spec.arg, seed)
    raise ValueError(
        f"bad player {spec.text!r}: UHP engines play Hive only; HiveQueen is played by the levels and 'random'"
    )


def play_queen_game(
    south: QueenPlayer,
    north: QueenPlayer,
    *,
    opening: Sequence[str] = (),
    max_turns: int = QUEEN_DEFAULT_MAX_TURNS,
) -> GameOutcome:
    """Play one HiveQueen game: the opening turns first, then the players; the result is ``SouthWins``,
    ``NorthWins`` or ``Draw``, and ``game_string`` holds the game's record.

    A game still running after ``max_turns`` turns is decided by units, as the rules decide a game at their
    turn limit.
    """
    board = QueenBoard()
    for text in opening:
        if board.is_game_over():
            break
        board.push_move_string(text)
    players = (south, north)
    while not board.is_game_over() and board.ply < max_turns:
        board.push(players[board.turn].choose(board))
    headers = {"South": south.name, "North": north.name}
    if not board.is_game_over():
        status = board.units_decision()
        result = ("Draw", "Draw", "Draw", "SouthWins", "NorthWins")[status]
        reason = f"turn limit {max_turns}, units {board.units[0]}-{board.units[1]}"
        headers["Adjudicated"] = f"{result} ({reason})"
        return GameOutcome(result, reason, board.ply, write_record(board, headers))
    return GameOutcome(board.state, board.end_reason(), board.ply, write_record(board, headers))


def random_queen_opening(turns: int, seed: int | None, balanced: bool = True) -> tuple[str, ...]:
    """``turns`` random HiveQueen turns from the start, in notation (fewer if the game ends); ``balanced`` draws
    them again until the position is balanced (see :data:`QUEEN_OPENING_MARGIN`)."""
    mover = queen_ai.RandomPlayer(seed)
    best: tuple[str, ...] = ()
    best_score = -1
    for _ in range(QUEEN_OPENING_TRIES if balanced and turns else 1):
        board = QueenBoard()
        texts: list[str] = []
        while len(texts) < turns and not board.is_game_over():
            turn = mover.choose(board)
            texts.append(board.move_string(turn))
            board.push(turn)
        if not balanced or not turns:
            return tuple(texts)
        score = abs(opening_score(board)) if not board.is_game_over() else WIN
        if best_score < 0 or score < best_score:
            best, best_score = tuple(texts), score
        if score <= QUEEN_OPENING_MARGIN:
            break
    return best


def opening_score(board: QueenBoard) -> int:
    """The score of a :data:`QUEEN_OPENING_DEPTH`-turn search of ``board`` for the side to move."""
    view = queen_ai.search_view(board)
    return queen_ai.QueenSearcher().search(view, Limits(depth=QUEEN_OPENING_DEPTH)).score


def _play_queen_task(task: _GameTask) -> GameRecord:
    players = [
        make_queen_player(spec, time=task.time, depth=task.depth, seed=task.seed + colour)
        for colour, spec in enumerate((task.white, task.black))
    ]
    outcome = play_queen_game(players[0], players[1], opening=task.opening, max_turns=task.max_plies)
    return _record(task, outcome)


def _record(task: _GameTask, outcome: GameOutcome) -> GameRecord:
    return GameRecord(
        task.number,
        task.white_label,
        task.black_label,
        task.player1_white,
        outcome.result,
        outcome.reason,
        outcome.plies,
        outcome.game_string,
        task.game,
    )


def _play_task(task: _GameTask) -> GameRecord:
    if task.game == "hivequeen":
        return _play_queen_task(task)
    players: list[Player] = []
    try:
        for colour, spec in enumerate((task.white, task.black)):
            try:
                players.append(
                    make_player(
                        spec,
                        time=task.time,
                        depth=task.depth,
                        seed=task.seed + colour,
                        engine_timeout=task.engine_timeout,
                    )
                )
            except EngineError as err:
                result = "BlackWins" if colour == WHITE else "WhiteWins"
                outcome = GameOutcome(
                    result, f"{_COLOURS[colour]} forfeits: {err}", 0, Board(task.game_type).game_string()
                )
                break
        else:
            outcome = play_game(
                players[0], players[1], game_type=task.game_type, opening=task.opening, max_plies=task.max_plies
            )
    finally:
        for player in players:
            with contextlib.suppress(EngineError):
                close_player(player)
    return _record(task, outcome)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_tasks(tasks: list[_GameTask], jobs: int) -> Iterable[GameRecord]:
    if jobs <= 1:
        for task in tasks:
            yield _play_task(task)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, initializer=_ignore_sigint) as pool:
        yield from pool.imap_unordered(_play_task, tasks, chunksize=1)


def _probe_engine(spec: PlayerSpec, game_type: str, timeout: float | None) -> str:
    """Start the engine once, check it plays ``game_type``, and return its name."""
    with SimpleEngine.popen_uhp(spec.arg, timeout=timeout) as engine:
        engine.communicate(f"newgame {game_type}")
        return engine.name


def _check_settings(
    games: int,
    game_type: str,
    time: float | None,
    depth: int | None,
    max_plies: int,
    openings: int,
    jobs: int | None,
    game: str = "hive",
) -> str:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: expected {' or '.join(GAMES)}")
    gt = str(GameType.parse(game_type)) if game == "hive" else "HiveQueen"
    for name, value, low in (("games", games, 1), ("max plies", max_plies, 1), ("openings", openings, 0)):
        if value < low:
            raise ValueError(f"{name} must be >= {low}, not {value}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be >= 1, not {jobs}")
    if time is not None and depth is not None:
        raise ValueError("give a time or a depth, not both")
    if time is not None:
        Limits(time=time)
    if depth is not None:
        Limits(depth=depth)
    return gt


def run_match(
    player1: str | PlayerSpec,
    player2: str | PlayerSpec,
    *,
    games: int = 2,
    game_type: str = "Base+MLP",
    time: float | None = None,
    depth: int | None = None,
    max_plies: int = 200,
    openings: int = 2,
    seed: int | None = None,
    jobs: int | None = None,
    engine_timeout: float | None = 60.0,
    on_game: Callable[[GameRecord, MatchResult], None] | None = None,
    game: str = "hive",
) -> MatchResult:
    """Play a match; games ``2k`` and ``2k+1`` share a random opening of ``openings`` plies, colours swapped.

    PLAYER1 has white in the first game of each pair. ``time``/``depth`` override the built-in levels' limits and
    set the external engines' (default :data:`DEFAULT_ENGINE_TIME` seconds per move). ``jobs`` processes play
    in parallel (default: one per core). ``on_game`` is called in this process after each game.
    ``game="hivequeen"`` plays HiveQueen: ``max_plies`` counts turns and ``openings`` random turns, drawn until
    balanced (:func:`random_queen_opening`).

    :raises ValueError: naming a bad player, game type or number.
    :raises EngineError: when an external engine cannot start or rejects the game type.
    """
    specs = [parse_player(p) if isinstance(p, str) else p for p in (player1, player2)]
    gt = _check_settings(games, game_type, time, depth, max_plies, openings, jobs, game)
    labels = []
    for number, spec in enumerate(specs, start=1):
        if spec.kind == "uhp" and game == "hivequeen":
            make_queen_player(spec)  # raises the UHP error
        if spec.kind == "uhp":
            try:
                labels.append(_probe_engine(spec, gt, engine_timeout))
            except EngineError as err:
                raise EngineError(f"player {number} {spec.text!r}: {err}") from None
        else:
            labels.append(spec.arg or spec.kind)
    if labels[0] == labels[1]:
        labels = [f"{labels[0]}#1", f"{labels[1]}#2"]
    if seed is None:
        seed = random.randrange(2**32)
    rng = random.Random(seed)
    tasks: list[_GameTask] = []
    opening: tuple[str, ...] = ()
    for index in range(games):
        if index % 2 == 0:
            if game == "hivequeen":
                opening = random_queen_opening(openings, rng.randrange(2**32))
            else:
                opening = random_opening(gt, openings, rng.randrange(2**32))
        first = index % 2 == 0
        white, black = (0, 1) if first else (1, 0)
        tasks.append(
            _GameTask(
                index + 1,
                specs[white],
                specs[black],
                labels[white],
                labels[black],
                first,
                gt,
                opening,
                max_plies,
                time,
                depth,
                rng.randrange(2**32),
                engine_timeout,
                game,
            )
        )
    result = MatchResult(labels[0], labels[1], seed)
    workers = min(jobs if jobs is not None else os.cpu_count() or 1, games)
    for record in _run_tasks(tasks, workers):
        result.games.append(record)
        if on_game is not None:
            on_game(record, result)
    result.games.sort(key=lambda g: g.number)
    return result


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"


def progress_line(record: GameRecord, result: MatchResult, total: int) -> str:
    """One line about a finished game and the running score."""
    p1, p2 = result.player1, result.player2
    first, second = ("south", "north") if record.game == "hivequeen" else ("white", "black")
    return (
        f"Game {record.number}/{total}: {first} {record.white}, {second} {record.black}: {record.result} "
        f"in {record.plies} {'turns' if record.game == 'hivequeen' else 'plies'} ({record.reason}) | "
        f"{p1} {result.score:g} - {len(result.games) - result.score:g} {p2}"
    )


def add_parser(subparsers: Any) -> None:
    """Register the ``match`` subcommand on an ``argparse`` subparsers object."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "match",
        help="play a match between two players and estimate the Elo difference",
        description="Play games between two players (colours alternate, each pair of games shares a random "
        "opening) and report W/D/L, the score and the Elo difference of PLAYER1.",
    )
    _add_arguments(parser)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    player_help = f"{PLAYER_CHOICES} (e.g. 'uhp:nokamute uhp')"
    parser.add_argument("player1", metavar="PLAYER1", help=player_help)
    parser.add_argument("player2", metavar="PLAYER2", help=player_help)
    parser.add_argument("-n", "--games", type=int, default=2, help="number of games (default 2)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument(
        "--time",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"time per move for both players (UHP engines get whole seconds; default: the level's limits, "
        f"{DEFAULT_ENGINE_TIME:g} s for UHP engines)",
    )
    limit.add_argument("--depth", type=int, default=None, metavar="N", help="search depth for both players")
    parser.add_argument(
        "--game",
        choices=GAMES,
        default="hive",
        help="hive, or hivequeen for L. Lynn Smith's HiveQueen (levels and random only) (default hive)",
    )
    parser.add_argument("--game-type", default="Base+MLP", help="Base, Base+M, ... Base+MLP (default Base+MLP)")
    parser.add_argument(
        "--max-plies",
        type=int,
        default=None,
        metavar="N",
        help=f"adjudicate a draw after N plies (default 200); for hivequeen, decide by units after N turns "
        f"(default {QUEEN_DEFAULT_MAX_TURNS})",
    )
    parser.add_argument(
        "--openings", type=int, default=2, metavar="K", help="random plies opening each pair of games (default 2)"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the openings and random players")
    parser.add_argument(
        "--jobs", type=int, default=None, metavar="J", help="games played in parallel (default: one per core)"
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="save every game's GameString, one per line (HiveQueen: every game's record)",
    )
    parser.add_argument(
        "--engine-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="seconds a UHP engine may take beyond its move time before it forfeits (default 60)",
    )
    parser.set_defaults(func=_command)


def _command(args: argparse.Namespace) -> int:
    out: IO[str] | None = None
    try:
        specs = [parse_player(args.player1), parse_player(args.player2)]
        queen = args.game == "hivequeen"
        if args.max_plies is None:
            args.max_plies = QUEEN_DEFAULT_MAX_TURNS if queen else 200
        game_type = _check_settings(
            args.games, args.game_type, args.time, args.depth, args.max_plies, args.openings, args.jobs, args.game
        )
        if queen:
            for spec in specs:
                make_queen_player(spec)
        if args.engine_timeout is not None and not args.engine_timeout > 0:
            raise ValueError(f"engine timeout must be > 0 seconds, not {args.engine_timeout}")
        if args.out is not None:
            try:
                out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115
            except OSError as err:
                raise ValueError(f"cannot write {args.out!r}: {err.strerror}") from None
        seed = args.seed if args.seed is not None else random.randrange(2**32)
        jobs = min(args.jobs if args.jobs is not None else os.cpu_count() or 1, args.games)
        print(
            f"Match {args.player1} vs {args.player2}: {_plural(args.games, 'game')} of {game_type}, "
            + (
                f"balanced openings of {_plural(args.openings, 'random turn')}, "
                f"units decide after {args.max_plies} turns, "
                if queen
                else f"openings of {_plural(args.openings, 'random ply', 'random plies')}, "
                f"draw after {args.max_plies} plies, "
            )
            + f"seed {seed}, {_plural(jobs, 'job')}",
            flush=True,
        )
        for number, spec in enumerate(specs, start=1):
            print(f"Player {number} {spec.text}: {spec.describe(args.time, args.depth, args.game)}", flush=True)

        def report(record: GameRecord, result: MatchResult) -> None:
            print(progress_line(record, result, args.games), flush=True)

        result = run_match(
            specs[0],
            specs[1],
            games=args.games,
            game_type=game_type,
            time=args.time,
            depth=args.depth,
            max_plies=args.max_plies,
            openings=args.openings,
            seed=seed,
            jobs=jobs,
            engine_timeout=args.engine_timeout,
            on_game=report,
            game=args.game,
        )
        print(result.summary())
        if out is not None:
            if queen:
                out.write("\n".join(game.game_string for game in result.games))
                print(f"Saved {len(result.games)} HiveQueen records to {args.out}")
            else:
                out.writelines(game.game_string + "\n" for game in result.games)
                print(f"Saved {len(result.games)} GameStrings to {args.out}")
    except (ValueError, EngineError) as err:
        print(f"hive match: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("hive match: interrupted", file=sys.stderr)
        return 130
    finally:
        if out is not None:
            out.close()
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``hive match`` on its own (``python -m hive.match``)."""
    parser = argparse.ArgumentParser(prog="hive match", description="Play a match between two Hive players.")
    _add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hive match`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    args = build_parser().parse_args(argv)
    return _command(args)


if __name__ == "__main__":
    from hive.match import main as _main

    sys.exit(_main())
