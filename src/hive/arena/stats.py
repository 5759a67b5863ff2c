"""A match's games and score: the Elo difference with its interval, the summary and the progress lines."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..game import Outcome
from ..games import DEFAULT_GAME, find_game
from .loop import Finished
from .sprt import SprtResult
from .thinking import Thinking, thinking_report

_Z95 = statistics.NormalDist().inv_cdf(0.975)


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


def plural_noun(noun: str) -> str:
    """The plural of one of the nouns the apps count in: ``plies``, ``turns``, ``GameStrings``, ``games``."""
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return f"{noun[:-1]}ies"
    return f"{noun}s"


def plural(count: int, noun: str) -> str:
    """``1 game``, ``2 games``, ``3 plies``, ``4 HiveQueen records``."""
    return f"{count} {noun if count == 1 else plural_noun(noun)}"


@dataclass(frozen=True)
class GameRecord(Finished):
    """One finished game of a match (``number`` counts from 1).

    :ivar first: the label of the player who moved first (White, South).
    :ivar second: the label of the other player.
    :ivar player1_first: whether PLAYER1 moved first.
    :ivar outcome: how the game ended.
    :ivar moves: the moves played, the opening's included.
    :ivar record: the game in its own record format.
    :ivar game: the game's name (``Base+MLP``, ``HiveQueen``).
    :ivar judges: the players that said how the game stands by their own rules (see :func:`~hive.arena.judge_game`).
    :ivar disputes: where their rules and the arena's part.
    :ivar thinking: the moves each player chose (see :class:`~hive.arena.thinking.Thinking`), the first mover's
        first.
    """

    number: int
    first: str
    second: str
    player1_first: bool
    outcome: Outcome
    moves: int
    record: str
    game: str = DEFAULT_GAME
    judges: tuple[str, ...] = ()
    disputes: tuple[str, ...] = ()
    thinking: tuple[tuple[Thinking, ...], ...] = ((), ())

    @property
    def player1_score(self) -> float:
        """1, ½ or 0 from PLAYER1's point of view."""
        winner = self.outcome.winner
        if winner is None:
            return 0.5
        return 1.0 if (winner == 0) == self.player1_first else 0.0


@dataclass
class MatchResult:
    """The games of a match so far, scored from PLAYER1's point of view.

    :ivar sprt: where the match's sequential probability ratio test stands, if it has one.
    """

    player1: str
    player2: str
    seed: int
    games: list[GameRecord] = field(default_factory=list)
    sprt: SprtResult | None = None

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

    def thinking(self) -> list[str]:
        """A line for each player on the moves it chose (:func:`games_thinking`), PLAYER1's first."""
        return games_thinking(self.games, (self.player1, self.player2))

    def summary(self) -> str:
        """The final report: W/D/L, score and Elo difference, from PLAYER1's point of view, and the SPRT's verdict."""
        n = len(self.games)
        if not n:
            return f"Result of {self.player1} vs {self.player2}: no games played"
        lines = [
            f"Result of {self.player1} vs {self.player2} after {plural(n, 'game')}: "
            f"W/D/L {self.wins}/{self.draws}/{self.losses} for {self.player1}, "
            f"score {self.score:g}/{n} = {100 * self.score / n:.1f}%"
        ]
        estimate, low, high = self.elo()
        if estimate == math.inf:
            lines.append(f"Elo difference: +inf (every game won), 95% interval >= {low:+.1f}")
        elif estimate == -math.inf:
            lines.append(f"Elo difference: -inf (every game lost), 95% interval <= {high:+.1f}")
        else:
            lines.append(f"Elo difference: {estimate:+.1f}, 95% interval {low:+.1f} to {high:+.1f}")
        judged = [g for g in self.games if g.judges]
        if judged:
            names = sorted({name for g in judged for name in g.judges})
            parted = [str(g.number) for g in self.games if g.disputes]
            noun = "games" if len(parted) > 1 else "game"
            verdict = f"disputed in {noun} {', '.join(parted)}" if parted else "no dispute"
            lines.append(
                f"Rules check ({', '.join(names)} against the arena's rules): {plural(len(judged), 'game')}, {verdict}"
            )
        if self.sprt is not None:
            lines.append(self.sprt.describe())
        return "\n".join(lines)


def games_thinking(games: Sequence[GameRecord], players: Sequence[str] = ()) -> list[str]:
    """``Thinking of <player>: ...``, a line for each player of ``games`` on the moves it chose, ``players`` first
    (:func:`~hive.arena.thinking.thinking_report`)."""
    lines = thinking_report((((g.first, g.second), g.thinking) for g in games), players)
    return [f"Thinking of {line}" for line in lines]


def progress_line(record: GameRecord, result: MatchResult, total: int) -> str:
    """One line about a finished game and the running score, in the game's words (its sides, its moves), and the
    SPRT's log-likelihood ratio if the match has a test."""
    spec = find_game(record.game)
    first, second = (side.lower() for side in spec.sides)
    line = (
        f"Game {record.number}/{total}: {first} {record.first}, {second} {record.second}: {record.result} "
        f"in {plural(record.moves, spec.move_noun)} ({record.reason}) | "
        f"{result.player1} {result.score:g} - {len(result.games) - result.score:g} {result.player2}"
    )
    if record.disputes:
        line += f" | rules: {'; '.join(record.disputes)}"
    if result.sprt is None:
        return line
    test, pairs = result.sprt.sprt, plural(result.sprt.pairs, "pair")
    return f"{line} | LLR {result.sprt.llr:.2f} ({test.lower:.2f}, {test.upper:.2f}) after {pairs}"


__all__ = ["GameRecord", "MatchResult", "elo_difference", "games_thinking", "plural", "plural_noun", "progress_line"]
