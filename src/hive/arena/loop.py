"""One game between two players, from an opening to its end or a move limit, through the game protocol only."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import EngineError
from ..game import Game, Outcome, Termination
from ..games import DEFAULT_GAME, find_game
from ..players import Judge, Player
from ..plugin import GameSpec
from .settings import arena_settings
from .thinking import Thinking, timed_choice


class Finished:
    """A finished game's result and reason, in words, read from its :attr:`outcome`."""

    outcome: Outcome

    @property
    def result(self) -> str:
        """``WhiteWins``, ``NorthWins``, ``Draw``..."""
        return self.outcome.result

    @property
    def reason(self) -> str:
        """Why the game ended, in the words every app uses (:attr:`Outcome.reason <hive.game.Outcome.reason>`)."""
        return self.outcome.reason


@dataclass(frozen=True)
class PlayedGame(Finished):
    """A finished game of the arena: how it ended, the moves played (the opening's included) and its record.

    :ivar outcome: the rules' ending, the move limit's adjudication or a forfeit.
    :ivar moves: how many moves (plies for Hive, turns for HiveQueen) were played.
    :ivar record: the game in the game's own record format (:meth:`~hive.game.Game.record`).
    :ivar judges: the players that said how the finished game stands by their own rules (external engines).
    :ivar disputes: where a judge's rules and the arena's part: ``nokamute: InProgress, the arena's rules: Draw``.
    :ivar thinking: the moves each player chose (the opening's are not), the first mover's first.
    """

    outcome: Outcome
    moves: int
    record: str
    judges: tuple[str, ...] = ()
    disputes: tuple[str, ...] = ()
    thinking: tuple[tuple[Thinking, ...], ...] = ((), ())


def game_spec(game: GameSpec | str) -> GameSpec:
    """``game`` itself, or the game it names (see :func:`hive.find_game`)."""
    return game if isinstance(game, GameSpec) else find_game(game)


def new_board(game: GameSpec | str) -> Game[Any]:
    """A new board of ``game`` under the arena's rules (its :attr:`~hive.arena.settings.ArenaSettings.options`:
    for Hive, the repetition draw on)."""
    spec = game_spec(game)
    return spec(**arena_settings(spec).options)


def forfeit(
    board: Game[Any], side: int, error: Exception, thinking: tuple[tuple[Thinking, ...], ...] = ((), ())
) -> PlayedGame:
    """The game on ``board`` lost by ``side`` (0 the first player), whose player failed with ``error`` (after the
    moves of ``thinking``)."""
    outcome = Outcome(Termination.FORFEIT, 1 - side, board.sides, str(error))
    return PlayedGame(outcome, len(board.move_stack), board.record(), thinking=thinking)


def play_game(
    first: Player,
    second: Player,
    *,
    game: GameSpec | str = DEFAULT_GAME,
    opening: Sequence[str] = (),
    max_moves: int | None = None,
) -> PlayedGame:
    """Play one game: the opening's moves (in the game's notation) first, then the players in turn.

    A game still running after ``max_moves`` moves (default: the game's
    :attr:`~hive.arena.settings.ArenaSettings.max_moves`) is decided by :meth:`~hive.game.Game.adjudicate`: a draw
    for Hive, units for HiveQueen. A player whose engine fails (:class:`~hive.engine.EngineError`) forfeits the game.
    """
    spec = game_spec(game)
    limit = arena_settings(spec).max_moves if max_moves is None else max_moves
    board = new_board(spec)
    for text in opening:
        if board.is_game_over():
            break
        board.push_text(text)
    players = (first, second)
    # the players' names, where the record format has headers (HiveQueen's; a GameString has none)
    headers = {spec.sides[0]: first.name, spec.sides[1]: second.name}
    played = len(board.move_stack)
    thinking: tuple[list[Thinking], list[Thinking]] = ([], [])
    while not board.is_game_over() and played < limit:
        side = board.turn
        try:
            move, thought = timed_choice(players[side], board)
        except EngineError as err:
            return forfeit(board, side, err, (tuple(thinking[0]), tuple(thinking[1])))
        thinking[side].append(thought)
        board.push(move)
        played += 1
    outcome = board.outcome()
    if outcome is None:
        adjudicated = board.adjudicate()
        detail = ", ".join(filter(None, (f"{spec.move_noun} limit {limit}", adjudicated.detail)))
        outcome = dataclasses.replace(adjudicated, detail=detail)
        headers["Adjudicated"] = str(outcome)
    judges, disputes = judge_game(board, players)
    return PlayedGame(
        outcome, played, board.record(headers), judges, disputes, (tuple(thinking[0]), tuple(thinking[1]))
    )


def rules_state(board: Game[Any]) -> str:
    """How ``board``'s game stands by the arena's rules, in UHP's words: ``InProgress`` (or ``NotStarted``) while
    they have not ended it (a game stopped at the move limit included), else its result."""
    outcome = board.outcome()
    if outcome is not None:
        return outcome.result
    return "InProgress" if board.move_stack else "NotStarted"


def judge_game(board: Game[Any], players: Sequence[Player]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Ask each player with rules of its own (a :class:`~hive.players.Judge`) how the finished game on ``board``
    stands: the names of those that said, and where they part from the arena's rules."""
    ours = rules_state(board)
    judges: list[str] = []
    disputes: list[str] = []
    for player in players:
        if not isinstance(player, Judge):
            continue
        try:
            theirs = player.judge(board)
        except EngineError as err:
            disputes.append(f"{player.name} could not say: {err}")
            continue
        judges.append(player.name)
        if theirs != ours:
            disputes.append(f"{player.name}: {theirs}, the arena's rules: {ours}")
    return tuple(judges), tuple(disputes)


__all__ = ["Finished", "PlayedGame", "forfeit", "game_spec", "judge_game", "new_board", "play_game", "rules_state"]
