"""Players' profiles: their games (filtered by opponent, result, game and speed, with the W/D/L they add up to, so
head-to-head too), every game as a record, the games where it is their turn, and the games in progress between
accounts to watch (a profile's ratings, their history and the leaderboards are :mod:`hive.web.ratings`').

A game counts as a win, a draw or a loss once both sides have moved, as a rated game moves the ratings only then: one
that ended before (aborted, or a forfeit for a first move never made) is listed as ``aborted`` and counts as none."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from ...ratings import SPEEDS, Rating
from ...sdk.view import JSON
from ..play import clock
from ..play.aborts import ABORTED
from ..play.service import GameService, first_score
from ..shared.errors import BadRequest, NotFound, shown
from ..shared.model import GameRecord
from ..views import spec_of, view_for
from .names import name_key
from .repository import AccountRepository, StoredAccount
from .service import Signed

#: The most games a profile lists.
GAMES = 500
RESULTS = ("win", "draw", "loss", "aborted", "ongoing")


class Profiles:
    """What anyone may see of a player, and a player's own turn list.

    :param accounts: the accounts.
    :param service: the games.
    :param rating: an account's rating in a game and speed (the ratings', see
        :meth:`hive.web.ratings.service.Ratings.rating`).
    """

    def __init__(
        self, accounts: AccountRepository, service: GameService, rating: Callable[[str, str, str], Awaitable[Rating]]
    ) -> None:
        self.accounts = accounts
        self.service = service
        self.rating = rating

    async def _account(self, name: str) -> StoredAccount:
        account = await self.accounts.find(name_key(name))
        if account is None:
            raise NotFound(f"No account is named {shown(name)}.")
        return account

    @staticmethod
    def _entry(record: GameRecord, seat: int, moves: int) -> JSON:
        """One of a player's games, from the player's side (``moves``: how many were played; a listed game's record
        holds none)."""
        if record.result is None:
            result = "ongoing"
        elif record.result == ABORTED or moves < 2:  # not played: neither won nor lost, as no rating moved
            result = "aborted"
        else:
            score = first_score(spec_of(record.kind).sides, record.result)
            score = score if seat == 0 else 1.0 - score
            result = {1.0: "win", 0.5: "draw", 0.0: "loss"}[score]
        return {
            "id": record.id,
            "opponent": record.names[1 - seat],
            "seat": seat,
            "game": view_for(record.kind).new_board(record.options).game_name,
            "speed": clock.speed_of(record.clock),
            "rated": record.rated,
            "result": result,
            "reason": record.reason,
            "moves": moves,
            "updated": record.updated,
        }

    async def _games(self, name: str, query: Mapping[str, str]) -> list[JSON]:
        account = await self._account(name)
        wanted = {key: query[key] for key in ("opponent", "result", "game", "speed") if query.get(key)}
        if "result" in wanted and wanted["result"] not in RESULTS:
            raise BadRequest(f"'result' is one of {', '.join(RESULTS)}, not {shown(wanted['result'])}.")
        if "speed" in wanted and wanted["speed"] not in SPEEDS:
            raise BadRequest(f"'speed' is one of {', '.join(SPEEDS)}, not {shown(wanted['speed'])}.")
        found = []
        for item in await self.service.store.games.games(GAMES, account.id):
            if item.damaged is not None:
                continue
            record = item.record
            entry = self._entry(record, record.accounts.index(account.id), item.length)
            if "opponent" in wanted and name_key(entry["opponent"] or "") != name_key(wanted["opponent"]):
                continue
            if any(entry[key].lower() != value.lower() for key, value in wanted.items() if key != "opponent"):
                continue
            found.append(entry)
        return found

    async def games(self, name: str, query: Mapping[str, str]) -> JSON:
        """The player's games, newest first (in progress first), as filtered by ``opponent``, ``result`` (``win``,
        ``draw``, ``loss``, ``aborted``, ``ongoing``), ``game`` and ``speed``; and the W/D/L of those played (an
        aborted game counts as none).

        :raises NotFound: for an unknown player.
        :raises BadRequest: for a filter's bad value.
        """
        found = await self._games(name, query)
        totals = {result: sum(1 for g in found if g["result"] == result) for result in ("win", "draw", "loss")}
        return {"games": found, "wins": totals["win"], "draws": totals["draw"], "losses": totals["loss"]}

    async def records(self, name: str, query: Mapping[str, str]) -> str:
        """Every finished game of the player's (filtered as :meth:`games`), each in its game's record format.

        :raises NotFound: for an unknown player.
        """
        texts = []
        for entry in await self._games(name, query):
            if entry["result"] not in ("ongoing", "aborted"):
                texts.append((await self.service.session(entry["id"])).board.record().rstrip("\n"))
        separator = "\n\n" if any("\n" in text for text in texts) else "\n"
        return separator.join(texts) + ("\n" if texts else "")

    async def turns(self, signed: Signed) -> JSON:
        """The signed-in player's games in progress where it is their turn (correspondence ones first to come)."""
        waiting = []
        for game_id, seat, _ in await self.service.ongoing(signed.account.id):
            session = await self.service.session(game_id)
            if session.record.result is None and session.board.turn == seat:
                entry = self._entry(session.record, seat, len(session.record.moves))
                waiting.append({**entry, "clock": clock.report(session.record.clock, self.service.now())})
        return {"games": waiting}

    async def live(self) -> JSON:
        """The games in progress between accounts, strongest first (by the mean of the two players' ratings in the
        game's game and speed), to watch."""
        found: list[tuple[float, JSON]] = []
        for item in await self.service.store.games.games(200, live=True):
            if item.damaged is not None:
                continue
            record = item.record
            game = view_for(record.kind).new_board(record.options).game_name
            speed = clock.speed_of(record.clock)
            ratings = [await self.rating(a, game, speed) for a in record.accounts if a is not None]
            strength = sum(r.rating for r in ratings) / len(ratings)
            found.append((strength, {
                "id": record.id, "names": list(record.names), "game": game, "speed": speed, "rated": record.rated,
                "ratings": [round(r.rating) for r in ratings], "strength": round(strength), "moves": item.length,
            }))  # fmt: skip
        found.sort(key=lambda pair: -pair[0])
        return {"games": [entry for _, entry in found]}


__all__ = ["Profiles"]
