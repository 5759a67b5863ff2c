"""Round robins by the Berger tables (FIDE's Handbook, C.05 Annex 1): every pair meets once a cycle.

For ``n`` players (one more, a bye, when ``n`` is odd) numbered from 1, the first round pairs ``i`` with ``n + 1 - i``,
``i`` moving first. Each next round adds ``n / 2`` to every number but ``n``'s, counting round ``1 .. n - 1``, and
keeps the boards' order and who moves first; player ``n`` moves first in the even rounds and second in the odd
ones. A double round robin plays the table again with the colours reversed.
"""

from __future__ import annotations

from collections.abc import Sequence

from .games import Game, TournamentError


def berger_table(count: int) -> list[list[tuple[int, int]]]:
    """The rounds of a single round robin of ``count`` players (even), as pairs of numbers from 1, first mover first.

    :raises TournamentError: for an odd or too small count.
    """
    if count < 2 or count % 2:
        raise TournamentError(f"A Berger table has an even number of players, at least 2, not {count}.")
    half, cycle = count // 2, count - 1
    pairs = [(i, count + 1 - i) for i in range(1, half + 1)]
    rounds = [pairs]
    for number in range(2, count):
        moved = [tuple(_shift(p, count, half, cycle) for p in pair) for pair in rounds[-1]]
        fixed = moved[0][0] if moved[0][1] == count else moved[0][1]
        moved[0] = (count, fixed) if number % 2 == 0 else (fixed, count)
        rounds.append([(a, b) for a, b in moved])
    return rounds


def _shift(player: int, count: int, half: int, cycle: int) -> int:
    return player if player == count else (player - 1 + half) % cycle + 1


def round_robin_rounds(players: Sequence[str], cycles: int = 1) -> list[list[Game]]:
    """Every round of a round robin of ``players`` (in seeding order), ``cycles`` times, the colours reversed in each
    second cycle; with an odd number of players, the one paired with the missing last number has a bye.

    :raises TournamentError: for fewer than two players or a cycle count other than 1 or 2.
    """
    if len(players) < 2:
        raise TournamentError(f"A round robin needs at least 2 players, not {len(players)}.")
    if cycles not in (1, 2):
        raise TournamentError(f"A round robin is single (1 cycle) or double (2), not {cycles} cycles.")
    count = len(players) + len(players) % 2
    rounds: list[list[Game]] = []
    for cycle in range(cycles):
        for table in berger_table(count):
            games = []
            for a, b in table:
                first, second = (a, b) if cycle == 0 else (b, a)
                if count > len(players) and count in (first, second):
                    games.append(Game(players[(a if b == count else b) - 1], None))
                else:
                    games.append(Game(players[first - 1], players[second - 1]))
            games.sort(key=lambda game: game.bye)  # the bye after the games
            rounds.append(games)
    return rounds


__all__ = ["berger_table", "round_robin_rounds"]
