"""Swiss pairings: a simplified Dutch system, stated here in full.

FIDE's Dutch system (Handbook C.04.3) weighs a long list of criteria against each other; a club's tournament of a
few rounds needs its core, which this keeps, always with the same answer for the same state:

1. **Ranking.** The players to pair are ranked by points, then by their seeding (the order they were entered in).
2. **The bye.** With an odd number, the lowest-ranked player who has not had a bye (nor a forfeit win) gets it,
   and the tournament's bye points; if the others cannot then be paired, the next one up. A second bye is given
   only when no player without one leaves a pairing of the others, whatever the colours.
3. **Pairs.** The highest-ranked player still unpaired meets, in order of preference: the player half a score group
   below it in its own score group (the Dutch system's top half against bottom half: 1-5, 2-6, 3-7, 4-8 in a group
   of eight), then the rest of its group below that one, then those above it, then the next groups down. A group's
   odd player out floats down to the next one.
4. **Absolute rule.** Nobody meets the same opponent twice.
5. **Colours.** No player's firsts and seconds differ by more than 2, and nobody moves first (or second) three games
   in a row. Where no pairing of the round keeps this, the round is paired with the absolute rule alone.
6. **Who moves first.** The player whose history asks more strongly for it (a larger deficit of firsts, then
   having moved second last), and between equal wishes the higher-ranked player's wish. In the first round the
   higher-ranked player of a pair moves first on the odd boards and second on the even ones.

The search backtracks through these preferences, so a pairing that keeps the rules is found whenever one exists
(within :data:`SEARCH_LIMIT` steps, far more than a club's tournament takes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .games import Game, PairingError

#: The most candidate pairs a round's search tries before it gives up on a tier of rules.
SEARCH_LIMIT = 200_000


@dataclass
class History:
    """What the pairing needs to know of one player's past rounds.

    :ivar colours: the colours of its games played (or forfeited) over the board, oldest first: 1 moved first, -1
        second.
    :ivar opponents: everyone it has been paired against.
    :ivar had_bye: whether it has had a bye or a forfeit win.
    """

    colours: list[int] = field(default_factory=list)
    opponents: set[str] = field(default_factory=set)
    had_bye: bool = False

    @property
    def balance(self) -> int:
        """Firsts minus seconds."""
        return sum(self.colours)

    def wish(self) -> tuple[int, int]:
        """The colour it wants (1 first, -1 second, 0 none) and how strongly (2 owed by the balance or two in a row, 1
        to alternate, 0 none)."""
        if not self.colours:
            return 0, 0
        balance = self.balance
        if balance or self.colours[-2:] in ([1, 1], [-1, -1]):
            wanted = -1 if balance > 0 or (balance == 0 and self.colours[-1] == 1) else 1
            return wanted, 2
        return -self.colours[-1], 1

    def may_take(self, colour: int) -> bool:
        """Whether a game with ``colour`` keeps the colour rules (rule 5)."""
        return abs(self.balance + colour) <= 2 and self.colours[-2:] != [colour, colour]


def swiss_round(ranked: Sequence[str], points: Mapping[str, float], histories: Mapping[str, History]) -> list[Game]:
    """The games of the next round among ``ranked`` (best first, by points then seeding; ``points`` theirs so far),
    the bye last.

    :raises PairingError: when no pairing keeps every player from meeting an opponent again.
    """
    players = list(ranked)
    if len(players) < 2:
        raise PairingError(f"A round needs at least 2 players to pair, not {len(players)}.")
    fresh, again = _bye_candidates(players, histories)
    for byes, strict in ((fresh, True), (fresh, False), (again, True), (again, False)):
        for bye in byes:
            rest = [p for p in players if p != bye]
            pairs = _Search(points, histories, strict).pair(rest)
            if pairs is not None:
                games = [_colours(a, b, board, histories) for board, (a, b) in enumerate(pairs, 1)]
                return games + ([Game(bye, None)] if bye is not None else [])
    raise PairingError(
        f"No pairing of {len(players)} players keeps everyone from meeting an opponent again: the tournament has "
        "more rounds than these players can play without a rematch."
    )


def _bye_candidates(players: list[str], histories: Mapping[str, History]) -> tuple[list[str | None], list[str | None]]:
    """Who may have the bye, lowest-ranked first: those without one yet, and those with one (tried only when none
    of the first leaves a pairing of the others)."""
    if len(players) % 2 == 0:
        return [None], []
    bottom_up = list(reversed(players))
    return [p for p in bottom_up if not histories[p].had_bye], [p for p in bottom_up if histories[p].had_bye]


class _Search:
    """A depth-first search for the round's pairs, in the order of preference of rule 3."""

    def __init__(self, points: Mapping[str, float], histories: Mapping[str, History], strict: bool) -> None:
        self.points = points
        self.histories = histories
        self.strict = strict
        self.steps = 0

    def allowed(self, a: str, b: str) -> bool:
        if b in self.histories[a].opponents:
            return False
        if not self.strict:
            return True
        ha, hb = self.histories[a], self.histories[b]
        return (ha.may_take(1) and hb.may_take(-1)) or (ha.may_take(-1) and hb.may_take(1))

    def pair(self, players: list[str]) -> list[tuple[str, str]] | None:
        if not players:
            return []
        self.steps += 1
        if self.steps > SEARCH_LIMIT:
            return None
        top = players[0]
        for other in _preferences(players, self.points):
            if not self.allowed(top, other):
                continue
            rest = [p for p in players[1:] if p != other]
            found = self.pair(rest)
            if found is not None:
                return [(top, other), *found]
            if self.steps > SEARCH_LIMIT:
                return None
        return None


def _preferences(players: list[str], points: Mapping[str, float]) -> list[str]:
    """The opponents of ``players[0]`` (the best unpaired player) in order of preference (rule 3): its score group
    from half the group down, then the rest of the group upwards, then everyone below the group in rank order."""
    top = points[players[0]]
    size = next((i for i, p in enumerate(players) if points[p] != top), len(players))
    half = size // 2
    order = [*range(half, size), *range(half - 1, 0, -1)] if half else list(range(1, size))
    return [players[i] for i in order] + players[size:]


def _colours(a: str, b: str, board: int, histories: Mapping[str, History]) -> Game:
    """The game of ``a`` (the higher-ranked) and ``b``, with who moves first by rule 6 (and rule 5 where it binds)."""
    ha, hb = histories[a], histories[b]
    if not ha.colours and not hb.colours:
        return Game(a, b) if board % 2 else Game(b, a)
    for colour in (1, -1):  # a colour rule that binds decides alone
        if not (ha.may_take(colour) and hb.may_take(-colour)):
            return Game(b, a) if colour == 1 else Game(a, b)
    (wa, sa), (wb, sb) = ha.wish(), hb.wish()
    if wa == -wb or wb == 0:
        return Game(a, b) if wa >= 0 else Game(b, a)
    if wa == 0:
        return Game(b, a) if wb > 0 else Game(a, b)
    # the same wish: the stronger one has it, then the larger imbalance, then the higher-ranked player
    if (sb, abs(hb.balance)) > (sa, abs(ha.balance)):
        return Game(b, a) if wb > 0 else Game(a, b)
    return Game(a, b) if wa > 0 else Game(b, a)


__all__ = ["SEARCH_LIMIT", "History", "swiss_round"]
