"""The tournaments looked at in the background: every half minute those under way (absent players' forfeits fall
due, rounds end, tournaments start), and a tournament's game as soon as it ends (its round may be over)."""

from __future__ import annotations

import logging

from ...periodic import every
from .service import Tournaments

log = logging.getLogger("hive.web")
#: Seconds between two looks at the tournaments under way.
TOURNAMENT_LOOK = 30.0


class TournamentLooks:
    """What this process looks at of the tournaments, unasked.

    :param tournaments: the tournaments.
    """

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments

    async def looking(self) -> None:
        """Every :data:`TOURNAMENT_LOOK` seconds, look at the tournaments under way; until cancelled."""
        await every(TOURNAMENT_LOOK, self.tournaments.look, "could not look at the tournaments", log=log)

    async def game_over(self, game_id: str) -> None:
        """A game between accounts ended here: if it is a tournament's, its round may be over (a failure is
        logged)."""
        try:
            await self.tournaments.game_over(game_id)
        except Exception:
            log.exception("pairing the tournament of game %s", game_id)


__all__ = ["TOURNAMENT_LOOK", "TournamentLooks"]
