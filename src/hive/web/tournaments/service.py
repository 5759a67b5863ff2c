"""Tournaments on a club's server: an organiser creates one, players join, and the server pairs each round with
:mod:`hive.tournament` and starts its games; when a round's last game ends, the next is paired, until the final
standings.

A tournament's state is :class:`hive.tournament.Tournament`'s JSON, its players named by account id, stored only over
the version it was read at: of two processes seeing a round's last game end, one pairs the next round. The games of a
round are stored with the tournament before they are started, so a process stopping between the two leaves games
that the next look at the tournament starts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from ...games import DEFAULT_GAME
from ...sdk.view import JSON
from ...tournament import FORMATS, Game, PairingError, Tournament, TournamentError
from ..play.newgame import NewGame, new_game, seats
from ..play.service import GameService, first_score
from ..players import Accounts, Signed, name_key
from ..shared.errors import BadRequest, Conflict, Forbidden, NotFound, shown
from ..shared.events import LobbyEvent
from ..shared.values import check_number, check_text
from ..views import game_options
from .events import STARTED, PlayerInvited, TournamentStarted
from .repository import Limits, StoredTournament, TournamentRepository
from .standings import shown_tournament

#: The longest tournament name.
NAME_LIMIT = 80
#: Tries at a change whose tournament another process changed first.
TRIES = 5
#: Minutes after which a player absent at a round's start (no first move) loses by forfeit, by default.
FORFEIT_AFTER = 10
#: The range of ``forfeit_after`` in minutes (a week at most), and of ``starts`` in seconds since the epoch (to 9999).
FORFEIT_RANGE, STARTS_RANGE = (0.01, 7 * 24 * 60), (0, 253_402_300_799)
#: The most rounds a Swiss tournament plays.
MAX_ROUNDS = 50
#: The tournaments one account may have open (not started) at once, and make in a day.
LIMITS = Limits(open=5, per_day=20)
#: The lobby's kind of change that tells a player of an invitation (sent to the invited player's lobby sockets).
INVITE = "invite"


#: Who hears of a change for the lobby once it is stored (:class:`PlayerInvited`, :class:`TournamentStarted`).
Announce = Callable[[LobbyEvent], Awaitable[None]]


async def _unheard(event: LobbyEvent) -> None:
    """Nobody listens (a service used on its own)."""


class Tournaments:
    """The tournaments of a server.

    :param repository: where they are kept.
    :param service: the games.
    :param accounts: the players' accounts.
    :param announce: who hears of an invitation or a start once it is stored (the lobby, the push notifications).
    """

    def __init__(
        self,
        repository: TournamentRepository,
        service: GameService,
        accounts: Accounts,
        announce: Announce = _unheard,
    ) -> None:
        self.repository = repository
        self.service = service
        self.accounts = accounts
        self.announce = announce

    async def _load(self, tournament_id: str) -> tuple[StoredTournament, Tournament]:
        stored = await self.repository.find(tournament_id)
        if stored is None:
            raise NotFound(f"No tournament {shown(tournament_id)}.")
        return stored, Tournament.from_json(stored.state)

    async def create(self, signed: Signed, data: JSON) -> JSON:
        """Create a tournament: ``name``, ``format`` (``swiss``, default, or ``round-robin``), ``rounds`` (a Swiss
        tournament's), ``double`` (a double round robin), ``game`` (a name; or ``kind`` and ``options``, as for a new
        game), ``time_control`` and ``rated`` (as a
        seek's; a rated tournament needs a clock), ``bots`` (whether bots may join; default true),
        ``invite_only`` (only the players the organiser invites may join; default false) and ``forfeit_after``
        (minutes after a round's start at which a player who has not made a first move loses by forfeit; default
        :data:`FORFEIT_AFTER`, ``null`` never; correspondence games are never forfeited so), and ``starts`` (when
        the server starts it by itself, seconds since the epoch; by default the organiser starts it). Each number
        is checked against its range (:data:`FORFEIT_RANGE`, :data:`STARTS_RANGE`, :data:`MAX_ROUNDS`) before
        anything is stored.

        :raises BadRequest: naming the field at fault.
        :raises TooMany: past :data:`LIMITS` (the organiser's tournaments open, and made today).
        """
        name = data.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > NAME_LIMIT:
            raise BadRequest(f"A tournament's name is 1 to {NAME_LIMIT} characters, not {shown(name)}.")
        check_text(name, "A tournament's name", NAME_LIMIT)
        if "kind" in data and "game" not in data:
            kind, options = data["kind"], data.get("options", {})
        else:
            view, options = game_options(data.get("game", DEFAULT_GAME))
            kind = view.kind
        rated = data.get("rated", True)
        if not isinstance(rated, bool):
            raise BadRequest(f"'rated' is true or false, not {shown(rated)}.")
        timing = data.get("time_control")
        # checked as a new game is: the kind, its options and the time control
        probe = new_game({"kind": kind, "options": options, "mode": "online", "time_control": timing})
        if rated and probe.record.clock is None:
            raise BadRequest("A rated tournament needs a time control.")
        forfeit = data.get("forfeit_after", FORFEIT_AFTER)
        if forfeit is not None:
            check_number(forfeit, "'forfeit_after' (minutes, or null)", *FORFEIT_RANGE)
        starts = data.get("starts")
        if starts is not None:
            check_number(starts, "'starts' (seconds since the epoch, or null)", *STARTS_RANGE)
        bots, invite_only = data.get("bots", True), data.get("invite_only", False)
        if not isinstance(bots, bool) or not isinstance(invite_only, bool):
            raise BadRequest("'bots' and 'invite_only' are true or false.")
        rounds, double = data.get("rounds", 0), data.get("double", False)
        check_number(rounds, "'rounds'", 0, MAX_ROUNDS, whole=True)
        if not isinstance(double, bool):
            raise BadRequest(f"'double' is true or false, not {shown(double)}.")
        fmt = data.get("format", "swiss")
        if fmt not in FORMATS:
            raise BadRequest(f"Unknown format {shown(fmt)}: 'format' is one of {', '.join(FORMATS)}.")
        try:
            state = Tournament(str(fmt), rounds=int(rounds), cycles=2 if double else 1)
        except TournamentError as err:
            raise BadRequest(str(err)) from None
        stored = StoredTournament(
            secrets.token_urlsafe(9), name.strip(), signed.account.id, probe.record.kind, probe.record.options,
            data.get("time_control"), rated, state.to_json(), "open", 0.0, 0, {}, bots,
            (signed.account.id,) if invite_only else None, None if forfeit is None else float(forfeit) * 60,
            None if starts is None else float(starts),
        )  # fmt: skip
        return await self.describe(await self.repository.create(stored, LIMITS))

    async def _change(self, tournament_id: str, change: Any) -> StoredTournament:
        """Apply ``change(stored, tournament)`` (which returns the new status and the round's new games) and store it,
        again from the stored state when another process changed it first; then start the new games."""
        for _ in range(TRIES):
            stored, tournament = await self._load(tournament_id)
            try:
                status, games = await change(stored, tournament)
            except TournamentError as err:
                raise Conflict(str(err)) from None
            ids = {place: game.record.id for place, game in games.items()}
            if await self.repository.save(tournament_id, stored.version, tournament.to_json(), status, ids):
                for game in games.values():
                    await self._start(game)
                return (await self.repository.find(tournament_id)) or stored
        raise Conflict("The tournament is changing too fast; try again.")

    async def join(self, signed: Signed, tournament_id: str) -> JSON:
        """Enter the tournament (a Swiss one also after its start).

        :raises Conflict: when it cannot be joined now.
        """

        async def change(stored: StoredTournament, tournament: Tournament) -> tuple[str, dict[Any, NewGame]]:
            if stored.status == "finished":
                raise TournamentError("The tournament is over.")
            if stored.invited is not None and signed.account.id not in stored.invited:
                raise Forbidden("This tournament is by invitation: its organiser invites its players.")
            if signed.account.bot and not stored.bots:
                raise Forbidden("This tournament is for players only: its organiser allows no bots.")
            tournament.join(signed.account.id)
            return stored.status, {}

        return await self.describe(await self._change(tournament_id, change))

    async def invite(self, signed: Signed, tournament_id: str, data: JSON) -> JSON:
        """Invite the player named ``name`` to an invite-only tournament (its organiser); the lobby tells them
        (an :data:`INVITE` change, to their lobby sockets).

        :raises Forbidden: for anyone but the organiser.
        :raises NotFound: for an unknown player.
        """
        stored, _ = await self._load(tournament_id)
        if stored.organiser != signed.account.id:
            raise Forbidden("Only the tournament's organiser invites its players.")
        name = data.get("name")
        account = await self.accounts.by_key(name_key(name)) if isinstance(name, str) else None
        if account is None:
            raise NotFound(f"No account is named {shown(name)}.")
        await self.repository.invite(tournament_id, account.id)
        invited = {"type": INVITE, "name": stored.name, "by": signed.account.name, "to": account.name}
        await self.announce(PlayerInvited(stored.id, (account.id,), invited))
        return await self.describe((await self.repository.find(tournament_id)) or stored)

    async def leave(self, signed: Signed, tournament_id: str) -> JSON:
        """Leave the tournament: before the start, off the list; after, no more pairings (a round robin's games to
        come lost by forfeit)."""

        async def change(stored: StoredTournament, tournament: Tournament) -> tuple[str, dict[Any, NewGame]]:
            tournament.withdraw(signed.account.id)
            return stored.status, {}

        return await self.describe(await self._change(tournament_id, change))

    async def start(self, signed: Signed, tournament_id: str) -> JSON:
        """Start the tournament (its organiser): the first round is paired and its games begin.

        :raises Forbidden: for anyone but the organiser.
        :raises Conflict: when it started already, or has fewer than two players.
        """
        stored, _ = await self._load(tournament_id)
        if stored.organiser != signed.account.id:
            raise Forbidden("Only the tournament's organiser starts it.")
        return await self.describe(await self._begin(tournament_id))

    async def _begin(self, tournament_id: str) -> StoredTournament:
        """Pair the first round and start its games; its players are told (:class:`TournamentStarted`)."""

        async def change(stored: StoredTournament, tournament: Tournament) -> tuple[str, dict[Any, NewGame]]:
            if stored.status != "open":
                raise TournamentError("The tournament has started already.")
            return "running", await self._pair(stored, tournament)

        stored = await self._change(tournament_id, change)
        started = {"type": STARTED, "name": stored.name}
        await self.announce(TournamentStarted(stored.id, tuple(Tournament.from_json(stored.state).active), started))
        return stored

    async def game_over(self, game_id: str) -> None:
        """A game ended: if it is a tournament's, record its result, and pair the next round once it was the round's
        last."""
        tournament_id = await self.repository.of_game(game_id)
        if tournament_id is not None:
            await self.advance(tournament_id)

    async def advance(self, tournament_id: str) -> None:
        """Record the results of the round's games that ended; pair the next round when the round is over, or finish
        the tournament after its last."""

        async def change(stored: StoredTournament, tournament: Tournament) -> tuple[str, dict[Any, NewGame]]:
            if stored.status != "running":
                return stored.status, {}
            number = len(tournament.paired)
            for board, game in enumerate(tournament.paired[-1], start=1):
                if game.bye or game.result is not None:
                    continue
                try:
                    session = await self._no_show(stored, stored.games[(number, board)])
                except NotFound:
                    continue  # being started by the look that paired the round
                if session.record.result is not None:
                    score = first_score(session.board.sides, session.record.result)
                    tournament.report(number, board, score, forfeit=not session.record.moves)
            if not tournament.round_done():
                return "running", {}
            if len(tournament.paired) >= tournament.total_rounds:
                return "finished", {}
            try:
                return "running", await self._pair(stored, tournament)
            except PairingError:
                return "finished", {}  # every pairing left would be a rematch: the tournament ends a round early

        stored = await self.repository.find(tournament_id)
        if stored is None or stored.status != "running":
            return
        await self._start_missing(stored)
        await self._change(tournament_id, change)

    async def _no_show(self, stored: StoredTournament, game_id: str) -> Any:
        """The round's game ``game_id``, ended first by forfeit if its first player has not moved in time."""
        session = await self.service.session(game_id)
        timed = session.record.clock is not None and "days" not in session.record.clock["control"]
        if stored.forfeit_after is None or not timed or session.record.moves or session.record.result:
            return session
        async with self.service.lock(game_id):
            session = await self.service.fresh(game_id)
            await self.service.no_show(session, stored.forfeit_after)
        return session

    async def look(self) -> None:
        """Look at every tournament under way (the server does every half minute): forfeits fall due, rounds end;
        and start those whose start time has come (one with fewer than two players then is over, unplayed)."""
        for tournament_id in await self.repository.running():
            stored, tournament = await self._load(tournament_id)
            if stored.status == "open":
                if len(tournament.active) >= 2:
                    with contextlib.suppress(Conflict):  # another process began it first
                        await self._begin(tournament_id)
                else:
                    await self.repository.save(tournament_id, stored.version, stored.state, "finished", {})
                continue
            await self.advance(tournament_id)

    async def _start_missing(self, stored: StoredTournament) -> None:
        """Start the games of a round stored with the tournament but never started (a process stopped between)."""
        missing = set(await self.service.missing(list(stored.games.values())))
        if not missing:
            return
        tournament = Tournament.from_json(stored.state)
        names = await self._names(tournament.players)
        for (number, board), game_id in stored.games.items():
            if game_id in missing:
                game = self._game(stored, tournament.paired[number - 1][board - 1], game_id, names)
                await self._start(game)

    async def _start(self, game: NewGame) -> None:
        """Start a round's game, unless another look at the tournament (in this process or another) just did."""
        try:
            await self.service.start(game)
        except Exception:
            if await self.service.missing([game.record.id]):
                raise

    async def _pair(self, stored: StoredTournament, tournament: Tournament) -> dict[tuple[int, int], NewGame]:
        """Pair the next round; its games, made but not stored, by round and board."""
        games = tournament.pair_round()
        number = len(tournament.paired)
        names = await self._names(tournament.players)
        made = {}
        for board, game in enumerate(games, start=1):
            if not game.bye:
                made[(number, board)] = self._game(stored, game, None, names)
        return made

    def _game(self, stored: StoredTournament, pairing: Game, game_id: str | None, names: dict[str, str]) -> NewGame:
        """The game of a pairing: its first player in the first seat, both seats held by their accounts."""
        first_seat = next(name for name, seat in seats().items() if seat == 0)
        data = {"kind": stored.kind, "options": stored.options, "mode": "online", "time_control": stored.time_control}
        game = new_game({**data, "colour": first_seat})
        second = pairing.second or ""
        record = dataclasses.replace(
            game.record,
            id=game_id or game.record.id,
            accounts=(pairing.first, second),
            names=(names.get(pairing.first), names.get(second)),
            rated=stored.rated,
        )
        return dataclasses.replace(game, record=record)

    async def _names(self, ids: list[str]) -> dict[str, str]:
        names = {}
        for account_id in ids:
            account = await self.accounts.by_id(account_id)
            names[account_id] = account.name if account is not None else "(deleted)"
        return names

    async def describe(self, stored: StoredTournament) -> JSON:
        """The tournament as its page shows it: settings, the players invited (``invited``, an invite-only one's, its
        organiser left out) and those playing, every round's games with their results, and the standings with their
        tie-breaks."""
        tournament = Tournament.from_json(stored.state)
        invited = [account for account in stored.invited or () if account != stored.organiser]
        names = await self._names([stored.organiser, *tournament.players, *invited])
        return shown_tournament(stored, tournament, invited, names)

    async def get(self, tournament_id: str) -> JSON:
        """One tournament (see :meth:`describe`). A running one is brought up to date first: a round left unstarted,
        or a round over but not paired, by a process that stopped in between, is started or paired now.

        :raises NotFound: for an unknown tournament.
        """
        stored, _ = await self._load(tournament_id)
        if stored.status == "running":
            await self.advance(tournament_id)
            stored, _ = await self._load(tournament_id)
        return await self.describe(stored)

    async def members(self, tournament_id: str) -> set[str]:
        """The accounts of the tournament's organiser and its players (withdrawn ones too).

        :raises NotFound: for an unknown tournament.
        """
        stored, tournament = await self._load(tournament_id)
        return {stored.organiser, *tournament.players}

    async def place_of(self, game_id: str) -> tuple[str, str, int, int] | None:
        """A game's place in a tournament: the tournament's id and name, the round and the board (``None``: none)."""
        return await self.repository.place_of(game_id)

    async def listed(self) -> JSON:
        """The tournaments, newest first."""
        return {"tournaments": await self.repository.listed()}

    async def records(self, tournament_id: str) -> str:
        """Every game of the tournament, in its game's record format, one after another in round order.

        :raises NotFound: for an unknown tournament.
        """
        stored, _ = await self._load(tournament_id)
        texts = []
        for place in sorted(stored.games):
            board = (await self.service.session(stored.games[place])).board
            texts.append(board.record().rstrip("\n"))
        separator = "\n\n" if any("\n" in text for text in texts) else "\n"
        return separator.join(texts) + ("\n" if texts else "")


__all__ = ["INVITE", "Tournaments"]
