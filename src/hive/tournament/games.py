"""A tournament's games as plain data: who met whom, who moved first, and the score; and the errors of the library."""

from __future__ import annotations

from dataclasses import dataclass

#: A game's possible results, in the first player's points.
RESULTS = (1.0, 0.5, 0.0)


class TournamentError(ValueError):
    """A change the tournament's rules refuse, or a saved state that does not read; the message names what and why."""


class PairingError(TournamentError):
    """No pairing of a round keeps the rules (nobody meets twice)."""


@dataclass(frozen=True)
class Game:
    """One game of a round, or a bye.

    :ivar first: the player who moves first (White, South).
    :ivar second: the other player; ``None`` for a bye, which gives ``first`` the tournament's bye points.
    :ivar result: ``first``'s points, 1, ½ or 0; ``None`` while the game is unplayed.
    :ivar forfeit: decided without play (a player absent, or withdrawn): it counts in the score, and in no tie-break.
    """

    first: str
    second: str | None
    result: float | None = None
    forfeit: bool = False

    @property
    def bye(self) -> bool:
        """Whether this is a bye (no opponent)."""
        return self.second is None

    @property
    def played(self) -> bool:
        """Whether two players met over the board and it ended: the games the tie-breaks count."""
        return self.second is not None and self.result is not None and not self.forfeit

    def has(self, player: str) -> bool:
        """Whether ``player`` is in this game."""
        return player in (self.first, self.second)

    def opponent(self, player: str) -> str | None:
        """``player``'s opponent (``None`` for a bye)."""
        return self.second if player == self.first else self.first

    def points(self, player: str, bye_points: float = 1.0) -> float | None:
        """``player``'s points from this game (``None`` while unplayed)."""
        if self.second is None:
            return bye_points
        if self.result is None:
            return None
        return self.result if player == self.first else 1.0 - self.result

    def describe(self) -> str:
        """``alice - bob 1-0``, ``carol: bye``."""
        if self.second is None:
            return f"{self.first}: bye"
        score = {1.0: "1-0", 0.5: "½-½", 0.0: "0-1", None: "…"}[self.result]
        return f"{self.first} - {self.second} {score}{' (forfeit)' if self.forfeit else ''}"


def check_result(result: object) -> float:
    """A result as the first player's points.

    :raises TournamentError: unless it is 1, ½ or 0.
    """
    if isinstance(result, bool) or not isinstance(result, int | float) or float(result) not in RESULTS:
        raise TournamentError(f"A result is the first player's points, 1, 0.5 or 0, not {result!r}.")
    return float(result)


__all__ = ["RESULTS", "Game", "PairingError", "TournamentError", "check_result"]
