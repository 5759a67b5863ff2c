"""The lobby's seeks: a signed-in player offers a game (any game the server plays, its time control, rated or
casual, a colour, the ratings an opponent may have); another accepts it, and the game starts for both, each account
holding its seat. A challenge is a seek for one player; the rematch of a game between accounts is a challenge to the
opponent (the same game, options, time control and rating, the colours swapped), which they accept or decline.

A seek or challenge is for a player who is there: it ends (cancelled, or withdrawn, with ``why``) when its seeker has
had no page open (no lobby socket, which every page of a signed-in player holds) and no bot event stream open for a
while (:meth:`Seeks.expire`; each server process says which accounts it holds, :meth:`Seeks.hold`), signs out, or
starts another game from a seek or a challenge. A correspondence one (days per move) waits for its seeker: it ends only
when they sign out."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from ...ratings import Rating
from ...sdk.view import JSON
from ..chat import Chat
from ..play import clock
from ..play.newgame import new_game, seats
from ..play.service import GameService
from ..play.session import Session
from ..players import Accounts, Signed, name_key
from ..ratings import Ratings
from ..shared.errors import BadRequest, Conflict, Forbidden, NotFound, shown
from ..shared.events import LobbyEvent
from ..shared.model import GameRecord
from ..shared.values import check_text
from ..tournaments import Tournaments
from .asked import asked_game, rating_range
from .events import SeekClosed, SeekOpened, SeekTaken
from .pools import cell_of
from .repository import SeekRepository, StoredSeek

#: Seeks one account may have open at once.
OPEN_SEEKS = 5
#: The longest name looked up.
NAME_TEXT = 200

#: Why a seek or challenge ended without its seeker cancelling it (the change's ``why``): nobody was there for it, its
#: seeker signed out, or started another game.
GONE, SIGNED_OUT, PLAYING = "gone", "signed out", "playing"

#: Who hears of each change of the lobby once it is stored (the lobby's sockets, on every server process): a
#: :class:`~hive.web.lobby.events.SeekOpened`, :class:`~hive.web.lobby.events.SeekTaken` or
#: :class:`~hive.web.lobby.events.SeekClosed` (see :mod:`~hive.web.lobby.sockets`).
Announce = Callable[[LobbyEvent], Awaitable[None]]


async def _unheard(event: LobbyEvent) -> None:
    """Nobody listens (a service used on its own)."""


class Seeks:
    """The open seeks, and the games they start.

    :param repository: where the seeks are kept.
    :param ratings: the players' ratings (a seek's range is checked against the accepting player's).
    :param service: the games.
    :param accounts: the accounts (the seekers, the players challenged).
    :param blocks: the chat, which keeps who blocked whom (a blocked account's challenges are refused).
    :param tournaments: the tournaments (their games have no rematch).
    :param announce: who hears of each change once it is stored (see :data:`Announce`).
    """

    def __init__(
        self,
        repository: SeekRepository,
        ratings: Ratings,
        service: GameService,
        accounts: Accounts,
        blocks: Chat,
        tournaments: Tournaments,
        announce: Announce = _unheard,
    ) -> None:
        self.repository = repository
        self.ratings = ratings
        self.service = service
        self.accounts = accounts
        self.blocks = blocks
        self.tournaments = tournaments
        self.announce = announce

    async def announce_change(self, stored: StoredSeek, change: str, **more: Any) -> None:
        """Tell the lobby of a change of ``stored`` (``opened``, ``accepted``, or how it closed)."""
        target = await self.accounts.by_id(stored.target) if stored.target is not None else None
        kind = {"opened": SeekOpened, "accepted": SeekTaken}.get(change, SeekClosed)
        await self.announce(kind(
            stored.id, (stored.account_id, *([stored.target] if stored.target is not None else [])), more,
            player=stored.name, to=target.name if target is not None else None, rematch_of=stored.rematch_of,
            change=change,
        ))  # fmt: skip

    def _game(self, seek: StoredSeek, colour: str) -> Any:
        """The game a seek asks for, checked as a new game is (``colour``: the seeker's)."""
        data = {"kind": seek.kind, "options": seek.options, "mode": "online", "time_control": seek.time_control}
        return new_game({**data, "colour": colour})

    async def _rating(self, account: str, seek: StoredSeek, game: Any) -> Rating:
        return await self.ratings.rating(account, game.board.game_name, clock.speed_of(game.record.clock))

    async def challenge(self, signed: Signed, data: JSON) -> JSON:
        """Challenge the player named ``to`` to the game a seek would offer (see :meth:`open`; no rating range).

        :raises NotFound: for an unknown player.
        :raises BadRequest: for oneself, or a banned player.
        """
        to = data.get("to")
        if not isinstance(to, str):
            raise BadRequest(f"'to' is the challenged player's name, not {shown(to)}.")
        check_text(to, "'to'", NAME_TEXT)
        target = await self.accounts.by_key(name_key(to))
        if target is None:
            raise NotFound(f"No account is named {shown(to)}.")
        if target.id == signed.account.id:
            raise BadRequest("A player does not challenge themselves.")
        if target.banned or await self.blocks.blocked(signed.account.id, by=target.id):
            raise BadRequest(f"{target.name} cannot be challenged.")
        return await self.open(signed, {key: value for key, value in data.items() if key != "to"}, target.id)

    async def rematch(self, signed: Signed, game_id: str) -> Session | JSON:
        """Ask for the rematch of a finished game between accounts, as one of its players: an offer to the opponent
        (a challenge to the same game, options, time control and rating, the colours swapped; answered
        ``{"offered": challenge}``), which they accept or decline. Asked by both, the rematch starts: asking while
        the opponent's offer is open accepts it. Returns the rematch once it is started (the asker then gets their
        own seat's token, never the opponent's).

        :raises Forbidden: for anyone but the game's two players.
        :raises Conflict: while the game goes on, and for a tournament's game (the tournament pairs its rounds).
        :raises BadRequest: when the opponent cannot be challenged (banned, or they blocked the asker).
        """
        record = (await self.service.session(game_id)).record
        if signed.account.id not in record.accounts:
            raise Forbidden("Only the game's two players ask for its rematch.")
        if record.result is None:
            raise Conflict("A rematch follows a finished game: finish or resign this one first.")
        if await self.tournaments.place_of(game_id) is not None:
            raise Conflict("A tournament's game has no rematch: the tournament pairs its rounds.")
        if record.rematch is not None:
            return await self.service.session(record.rematch)
        offers = await self.repository.rematch_offers(game_id)
        theirs = [offer for offer in offers if offer.target == signed.account.id]
        if theirs:
            session, _ = await self.accept(signed, theirs[0].id)
            assert isinstance(session, Session)
            return session
        if offers:
            return {"offered": await self.describe(offers[0])}
        seat = record.accounts.index(signed.account.id)
        opponent = await self.accounts.by_id(record.accounts[1 - seat] or "")
        if opponent is None or opponent.banned or await self.blocks.blocked(signed.account.id, by=opponent.id):
            raise BadRequest(f"{record.names[1 - seat] or 'Your opponent'} cannot be challenged.")
        colour = next(name for name, side in seats().items() if side == 1 - seat)
        data = {
            "kind": record.kind, "options": record.options, "time_control": clock.asked(record.clock),
            "rated": record.rated, "colour": colour,
        }  # fmt: skip
        return {"offered": await self.open(signed, data, opponent.id, rematch_of=game_id)}

    async def open(self, signed: Signed, data: JSON, target: str | None = None, rematch_of: str | None = None) -> JSON:
        """Open a seek: ``game`` (a name, e.g. ``Base+MLP`` or ``HiveQueen``; or ``kind`` and ``options`` as for a
        new game), ``time_control`` (as for a new game; a rated game needs a clock), ``rated`` (default true),
        ``colour`` (the seeker's side, or ``random``, the default) and ``rating_range`` (``[low, high]``).

        :raises BadRequest: naming the field at fault.
        :raises Conflict: when the account has too many seeks open.
        """
        kind, options, rated = asked_game(data)
        colour = data.get("colour", "random")
        low, high = rating_range(data.get("rating_range"))
        # checked as a new game is: the kind, options, time control and colour
        request = {"kind": kind, "options": options, "mode": "online", "time_control": data.get("time_control")}
        game = new_game({**request, "colour": colour})
        assert isinstance(colour, str)
        seek = StoredSeek(
            secrets.token_urlsafe(9), signed.account.id, signed.account.name, game.record.kind, game.record.options,
            data.get("time_control"), rated, colour, low, high, 0.0, None, target, rematch_of,
        )  # fmt: skip
        if rated and game.record.clock is None:
            raise BadRequest("A rated game needs a time control (bullet, blitz, rapid, classical, or days per move).")
        stored = await self.repository.open(seek, OPEN_SEEKS)  # counted and stored at once: a burst cannot race it
        if stored is None:
            raise Conflict(f"You have {OPEN_SEEKS} seeks open already: cancel one first.")
        described = await self.describe(stored)
        await self.announce_change(seek, "opened", **{"seek" if target is None else "challenge": described})
        return described

    async def describe(self, seek: StoredSeek) -> JSON:
        """A seek as the lobby shows it, with the seeker's rating in its game and speed (and, for a challenge, the
        challenged player's name in ``to``; for a rematch offer, the finished game in ``rematch_of``)."""
        game = self._game(seek, seek.colour)
        rating = await self._rating(seek.account_id, seek, game)
        seeker = await self.accounts.by_id(seek.account_id)
        target = await self.accounts.by_id(seek.target) if seek.target is not None else None
        return {
            "id": seek.id,
            "player": seek.name,
            "bot": bool(seeker and seeker.bot),
            "to": target.name if target is not None else None,
            "rating": round(rating.rating),
            "provisional": rating.provisional,
            "game": game.board.game_name,
            "kind": seek.kind,
            "options": seek.options,
            "time_control": clock.label(clock.control(seek.time_control)),
            "speed": clock.speed_of(game.record.clock),
            "rated": seek.rated,
            "colour": seek.colour,
            "rating_range": [seek.low, seek.high],
            "created": seek.created,
            "game_id": seek.game_id,
            "rematch_of": seek.rematch_of,
            "pool": cell_of(seek.time_control) if seek.target is None and seek.rematch_of is None else None,
        }

    async def listed(self) -> JSON:
        """The open seeks, newest first."""
        return {"seeks": [await self.describe(seek) for seek in await self.repository.listed()]}

    async def get(self, seek_id: str) -> JSON:
        """One seek (``game_id``: the game it started, once accepted).

        :raises NotFound: for an unknown seek.
        """
        seek = await self.repository.find(seek_id)
        if seek is None:
            raise NotFound(f"No seek {shown(seek_id)}: it was cancelled, or never was.")
        return await self.describe(seek)

    async def accept(self, signed: Signed, seek_id: str) -> tuple[Any, Any]:
        """Accept a seek: the game starts, each account holding its seat. Returns the game in memory and what was
        dealt (the accepting player's token is ``token``).

        :raises NotFound: for a seek that is gone.
        :raises Forbidden: for one's own seek, or a rating out of the seek's range.
        :raises Conflict: when another player accepted it first.
        """
        seek = await self.repository.find(seek_id)
        if seek is None or seek.game_id is not None:
            raise NotFound(f"No open seek {shown(seek_id)}: it was accepted, cancelled, or never was.")
        if seek.account_id == signed.account.id:
            raise Forbidden("This is your own seek: another player accepts it.")
        if seek.target is not None and seek.target != signed.account.id:
            raise Forbidden("This challenge is for another player.")
        if seek.rematch_of is not None and (await self.service.session(seek.rematch_of)).record.rematch is not None:
            await self.repository.cancel(seek_id)
            raise Conflict("The rematch was started already.")
        game, seeker = self.deal(seek)
        rating = await self._rating(signed.account.id, seek, game)
        if (seek.low is not None and rating.rating < seek.low) or (seek.high is not None and rating.rating > seek.high):
            raise Forbidden(
                f"Your rating {rating} is out of this seek's range ({seek.low or '-'} to {seek.high or '-'})."
            )
        if not await self.repository.take(seek_id, game.record.id):
            if await self.repository.find(seek_id) is None:
                raise NotFound(f"No open seek {shown(seek_id)}: it was cancelled.")
            raise Conflict("Another player accepted this seek first.")
        return await self.begin(signed, seek, game, seeker)

    def deal(self, seek: StoredSeek) -> tuple[Any, int]:
        """The game that accepting ``seek`` starts, made by the acceptor in the seat the seeker left, and the
        seeker's seat."""
        named = seats()
        seeker = named[seek.colour] if seek.colour in named else secrets.randbelow(2)
        return self._game(seek, next(name for name, seat in named.items() if seat == 1 - seeker)), seeker

    async def begin(self, signed: Signed, seek: StoredSeek, game: Any, seeker: int) -> tuple[Any, Any]:
        """Start the game ``game`` (see :meth:`deal`) of a seek just taken by ``signed``; as :meth:`accept`."""
        accounts: list[str | None] = [None, None]
        names: list[str | None] = [None, None]
        accounts[seeker], accounts[1 - seeker] = seek.account_id, signed.account.id
        names[seeker], names[1 - seeker] = seek.name, signed.account.name
        record = dataclasses.replace(
            game.record, accounts=(accounts[0], accounts[1]), names=(names[0], names[1]), rated=seek.rated
        )
        game = dataclasses.replace(game, record=record)
        session = await self.service.start(game)
        if seek.rematch_of is not None:
            await self._follows(seek.rematch_of, game.record.id, signed.account.id)
        await self.announce_change(seek, "accepted", game_id=game.record.id, by=signed.account.name)
        if not _correspondence(seek):  # each player sits at this game now: their other ones end
            for account in (seek.account_id, signed.account.id):
                await self.withdraw_all(account, PLAYING, correspondence=False)
        return session, game

    async def _follows(self, game_id: str, rematch: str, account: str) -> None:
        """Store that ``rematch`` follows the game ``game_id`` (its offer accepted by ``account``): both players'
        pages then offer to go to it."""
        async with self.service.lock(game_id):
            session = await self.service.fresh(game_id)
            if session.record.rematch is None and account in session.record.accounts:
                seat = session.record.accounts.index(account)
                await self.service.commit(session, "rematch", seat, rematch=rematch)

    async def rematch_offer(self, record: GameRecord) -> JSON | None:
        """The open offer of a finished game's rematch (``id``: the challenge's, ``by``: the offering seat)."""
        if record.rematch is None:
            for seek in await self.repository.rematch_offers(record.id):
                if seek.account_id in record.accounts:
                    return {"id": seek.id, "by": record.accounts.index(seek.account_id)}
        return None

    async def challenges(self, signed: Signed) -> JSON:
        """The open challenges to the account (``incoming``) and from it (``outgoing``)."""
        found = await self.repository.challenges(signed.account.id)
        incoming = [await self.describe(s) for s in found if s.target == signed.account.id]
        outgoing = [await self.describe(s) for s in found if s.account_id == signed.account.id]
        return {"incoming": incoming, "outgoing": outgoing}

    async def cancel(self, signed: Signed, seek_id: str) -> JSON:
        """Withdraw one's own open seek or challenge, or decline a challenge to oneself.

        :raises NotFound: for a seek that is not open.
        :raises Forbidden: for another player's.
        """
        seek = await self.repository.find(seek_id)
        if seek is None or seek.game_id is not None:
            raise NotFound(f"No open seek {shown(seek_id)}.")
        if signed.account.id not in (seek.account_id, seek.target):
            raise Forbidden("Only the player who opened a seek cancels it.")
        await self.repository.cancel(seek_id)
        if seek.target is None:
            change = "cancelled"
        else:
            change = "withdrawn" if signed.account.id == seek.account_id else "declined"
        await self.announce_change(seek, change, by=signed.account.name)
        return {"cancelled": seek_id}

    # ------------------------------------------------------------------ seeks that end by themselves

    async def _end(self, seek: StoredSeek, why: str) -> bool:
        """End an open seek or challenge its seeker left (``why``: :data:`GONE`, ...), and announce it as cancelled
        (a seek) or withdrawn (a challenge): whether this call ended it."""
        if not await self.repository.cancel(seek.id):
            return False  # accepted or ended meanwhile
        await self.announce_change(seek, "cancelled" if seek.target is None else "withdrawn", by=seek.name, why=why)
        return True

    async def hold(self, account_ids: Collection[str]) -> None:
        """The accounts whose seeks this process holds now: those with a page (a lobby socket) or a bot event stream
        open here."""
        await self.repository.hold(account_ids)

    async def expire(self, grace: float) -> list[str]:
        """End the open seeks and challenges (but correspondence ones) that no process has held (see :meth:`hold`)
        for ``grace`` seconds: their seeker left. Returns their ids."""
        ended = []
        for seek in await self.repository.unheld(self.repository.now() - grace):
            if not _correspondence(seek) and await self._end(seek, GONE):
                ended.append(seek.id)
        return ended

    async def withdraw_all(self, account_id: str, why: str, correspondence: bool = True) -> list[str]:
        """End the account's open seeks and the challenges it made (``correspondence``: those too); returns their
        ids."""
        ended = []
        for seek in await self.repository.mine(account_id):
            if (correspondence or not _correspondence(seek)) and await self._end(seek, why):
                ended.append(seek.id)
        return ended


def _correspondence(seek: StoredSeek) -> bool:
    """Whether the seek is for a correspondence game (days per move), which waits for its seeker."""
    try:
        control = clock.control(seek.time_control)
    except BadRequest:
        return False
    return control is not None and "days" in control


__all__ = ["GONE", "OPEN_SEEKS", "PLAYING", "SIGNED_OUT", "Announce", "Seeks", "rating_range"]
