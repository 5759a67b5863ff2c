"""A tournament as data: its players, its rounds' games and their results, paired one round at a time, saved as
JSON and read back to the same state (and so to the same next pairings)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .games import Game, PairingError, TournamentError, check_result
from .roundrobin import round_robin_rounds
from .standings import Standing, check_tiebreaks, standings
from .swiss import History, swiss_round

ROUND_ROBIN = "round-robin"
SWISS = "swiss"
FORMATS = (ROUND_ROBIN, SWISS)
#: The tie-breaks of each format, unless a tournament names its own.
DEFAULT_TIEBREAKS = {
    ROUND_ROBIN: ("sonneborn-berger", "head-to-head", "wins"),
    SWISS: ("buchholz-cut1", "buchholz", "sonneborn-berger", "head-to-head"),
}
#: The longest name a player may have.
NAME_LIMIT = 64


@dataclass
class Tournament:
    """A round robin or a Swiss tournament, one round at a time.

    :ivar format: ``round-robin`` (Berger tables, see :mod:`hive.tournament.roundrobin`) or ``swiss`` (see
        :mod:`hive.tournament.swiss`).
    :ivar players: every player ever entered, in seeding order (a withdrawn one stays, for the standings).
    :ivar rounds: the rounds a Swiss tournament plays; a round robin's follow from its players and ``cycles``.
    :ivar cycles: a round robin's cycles: 1 (single) or 2 (double).
    :ivar bye_points: what a bye scores.
    :ivar tiebreaks: the tie-breaks, in order (default: the format's, :data:`DEFAULT_TIEBREAKS`).
    :ivar paired: the rounds paired so far, each a list of games, the bye last.
    :ivar withdrawn: each withdrawn player, and the number of rounds paired when it withdrew.
    :ivar joined: each player entered after the start, and the number of rounds paired when it joined.
    """

    format: str
    rounds: int = 0
    cycles: int = 1
    bye_points: float = 1.0
    tiebreaks: tuple[str, ...] = ()
    players: list[str] = field(default_factory=list)
    paired: list[list[Game]] = field(default_factory=list)
    withdrawn: dict[str, int] = field(default_factory=dict)
    joined: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise TournamentError(f"Unknown format {self.format!r}: a tournament is a {' or a '.join(FORMATS)}.")
        if self.format == SWISS and self.rounds < 1:
            raise TournamentError(f"A Swiss tournament plays at least 1 round, not {self.rounds}.")
        if self.cycles not in (1, 2):
            raise TournamentError(f"A round robin is single (1 cycle) or double (2), not {self.cycles} cycles.")
        if self.bye_points not in (0.0, 0.5, 1.0):
            raise TournamentError(f"A bye scores 1, 0.5 or 0 points, not {self.bye_points!r}.")
        self.tiebreaks = check_tiebreaks(self.tiebreaks or DEFAULT_TIEBREAKS[self.format])

    # ------------------------------------------------------------------ players

    @property
    def started(self) -> bool:
        """Whether a round has been paired."""
        return bool(self.paired)

    @property
    def active(self) -> list[str]:
        """The players still taking part, in seeding order."""
        return [p for p in self.players if p not in self.withdrawn]

    def join(self, name: str) -> None:
        """Enter ``name``; in a Swiss tournament also after the start (it scores nothing for the rounds missed).

        :raises TournamentError: for a bad or taken name, a round robin under way, or no round left to play.
        """
        if not isinstance(name, str) or not name.strip() or len(name) > NAME_LIMIT or name != name.strip():
            raise TournamentError(f"A player's name is 1 to {NAME_LIMIT} characters, not {name!r}.")
        if name.casefold() in {p.casefold() for p in self.players}:
            raise TournamentError(f"{name!r} is in the tournament already.")
        if self.started:
            if self.format == ROUND_ROBIN:
                raise TournamentError(f"{name!r} cannot join: a round robin's players are fixed once it starts.")
            if len(self.paired) >= self.rounds:
                raise TournamentError(f"{name!r} cannot join: every round has been paired.")
            self.joined[name] = len(self.paired)
        self.players.append(name)

    def withdraw(self, name: str) -> None:
        """Take ``name`` out: before the start it leaves the list; after it, it is not paired again, and in a round
        robin its games still to come are lost by forfeit.

        :raises TournamentError: when ``name`` is not taking part.
        """
        if name not in self.active:
            raise TournamentError(f"{name!r} is not taking part in the tournament.")
        if not self.started:
            self.players.remove(name)
            return
        self.withdrawn[name] = len(self.paired)

    # ------------------------------------------------------------------ rounds

    @property
    def total_rounds(self) -> int:
        """The rounds the tournament plays."""
        if self.format == SWISS:
            return self.rounds
        count = len(self.players if self.started else self.active)
        return (count - 1 + count % 2) * self.cycles

    @property
    def finished(self) -> bool:
        """Whether every round is paired and every game has its result."""
        return self.started and len(self.paired) >= self.total_rounds and self.round_done()

    def round_done(self) -> bool:
        """Whether the last round paired has every result (true before the start)."""
        return all(game.result is not None or game.bye for game in (self.paired[-1] if self.paired else []))

    def pair_round(self) -> list[Game]:
        """Pair the next round and return its games (the bye last).

        :raises TournamentError: while the last round has games without a result, when every round is paired, or
            with fewer than two players.
        :raises PairingError: when no pairing keeps players from meeting again.
        """
        if not self.round_done():
            raise TournamentError(f"Round {len(self.paired)} still has games without a result.")
        if self.started and len(self.paired) >= self.total_rounds:
            raise TournamentError(f"Every round of the tournament ({self.total_rounds}) has been paired.")
        if len(self.active) < 2:
            raise TournamentError(f"A round needs at least 2 players, not {len(self.active)}.")
        games = self._round_robin_round() if self.format == ROUND_ROBIN else self._swiss_round()
        self.paired.append(games)
        return games

    def _round_robin_round(self) -> list[Game]:
        games = round_robin_rounds(self.players, self.cycles)[len(self.paired)]
        return [self._forfeit_withdrawn(game) for game in games]

    def _forfeit_withdrawn(self, game: Game) -> Game:
        gone = [p in self.withdrawn for p in (game.first, game.second)]
        if game.second is None:
            return Game(game.first, None, None, True) if gone[0] else game
        if gone[0] and gone[1]:
            return Game(game.first, game.second, 0.5, True)
        if gone[0] or gone[1]:
            return Game(game.first, game.second, 0.0 if gone[0] else 1.0, True)
        return game

    def _swiss_round(self) -> list[Game]:
        histories = self.histories()
        points = self.points()
        seeding = {p: i for i, p in enumerate(self.players)}
        ranked = sorted(self.active, key=lambda p: (-points[p], seeding[p]))
        return swiss_round(ranked, points, histories)

    def report(self, round_number: int, board: int, result: float, *, forfeit: bool = False) -> Game:
        """Record the result of board ``board`` (from 1) of round ``round_number`` (from 1): the first player's
        points, 1, ½ or 0; ``forfeit`` when it was decided without play. A result may be corrected; pairings made
        since stand.

        :raises TournamentError: naming the round, the board or the result at fault.
        """
        points = check_result(result)
        if not 1 <= round_number <= len(self.paired):
            raise TournamentError(f"There is no round {round_number}: {len(self.paired)} paired so far.")
        games = self.paired[round_number - 1]
        if not 1 <= board <= len(games) or games[board - 1].bye:
            raise TournamentError(f"Round {round_number} has no game on board {board}.")
        game = games[board - 1]
        games[board - 1] = Game(game.first, game.second, points, forfeit)
        return games[board - 1]

    def find(self, first: str, second: str) -> tuple[int, int]:
        """The round and board (from 1) of the last game paired between ``first`` and ``second``, first mover first.

        :raises TournamentError: when they have not been paired so.
        """
        for number in range(len(self.paired), 0, -1):
            for board, game in enumerate(self.paired[number - 1], start=1):
                if (game.first, game.second) == (first, second):
                    return number, board
        raise TournamentError(f"{first!r} has not been paired to move first against {second!r}.")

    # ------------------------------------------------------------------ what it adds up to

    def points(self) -> dict[str, float]:
        """Every player's points so far."""
        points = dict.fromkeys(self.players, 0.0)
        for games in self.paired:
            for game in games:
                for player in (game.first, game.second):
                    if player is not None:
                        points[player] += game.points(player, self.bye_points) or 0.0
        return points

    def histories(self) -> dict[str, History]:
        """What the Swiss pairing needs of each player's past: colours, opponents, byes."""
        histories = {p: History() for p in self.players}
        for games in self.paired:
            for game in games:
                if game.second is None:
                    histories[game.first].had_bye = True
                    continue
                for player, opponent, colour in ((game.first, game.second, 1), (game.second, game.first, -1)):
                    history = histories[player]
                    history.opponents.add(opponent)
                    if game.forfeit and game.points(player) == 1.0:
                        history.had_bye = True
                    if not game.forfeit:
                        history.colours.append(colour)
        return histories

    def standings(self) -> list[Standing]:
        """The standings so far (see :func:`hive.tournament.standings.standings`)."""
        return standings(self.players, self.paired, self.tiebreaks, bye_points=self.bye_points)

    # ------------------------------------------------------------------ as data

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON-ready data."""
        return {
            "format": self.format,
            "rounds": self.rounds,
            "cycles": self.cycles,
            "bye_points": self.bye_points,
            "tiebreaks": list(self.tiebreaks),
            "players": list(self.players),
            "paired": [[[g.first, g.second, g.result, g.forfeit] for g in games] for games in self.paired],
            "withdrawn": dict(self.withdrawn),
            "joined": dict(self.joined),
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> Tournament:
        """The tournament ``data`` (from :meth:`to_dict`) describes, checked.

        :raises TournamentError: naming what does not read.
        """
        if not isinstance(data, dict):
            raise TournamentError(f"A saved tournament is an object, not {type(data).__name__}.")
        try:
            tournament = cls(
                data["format"],
                int(data.get("rounds", 0)),
                int(data.get("cycles", 1)),
                float(data.get("bye_points", 1.0)),
                tuple(data.get("tiebreaks", ())),
            )
            for name in data["players"]:
                tournament.join(name)
            tournament.paired = [[_game(entry) for entry in games] for games in data.get("paired", [])]
            tournament.withdrawn = {str(k): int(v) for k, v in dict(data.get("withdrawn", {})).items()}
            tournament.joined = {str(k): int(v) for k, v in dict(data.get("joined", {})).items()}
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, TournamentError):
                raise
            raise TournamentError(f"A saved tournament does not read: {err!r}.") from None
        strangers = {p for games in tournament.paired for g in games for p in (g.first, g.second) if p is not None}
        strangers -= set(tournament.players)
        if strangers:
            raise TournamentError(f"A saved tournament pairs players it does not have: {', '.join(sorted(strangers))}.")
        return tournament

    @classmethod
    def from_json(cls, text: str) -> Tournament:
        """:meth:`from_dict` of JSON text.

        :raises TournamentError: when the text is not JSON, or does not describe a tournament.
        """
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as err:
            raise TournamentError(f"A saved tournament is JSON: {err}.") from None
        return cls.from_dict(data)


def _game(entry: Any) -> Game:
    first, second, result, forfeit = entry
    if not isinstance(first, str) or not (second is None or isinstance(second, str)):
        raise TournamentError(f"A saved game names its players as text, not {entry!r}.")
    return Game(first, second, None if result is None else check_result(result), bool(forfeit))


__all__ = ["DEFAULT_TIEBREAKS", "FORMATS", "ROUND_ROBIN", "SWISS", "PairingError", "Tournament"]
