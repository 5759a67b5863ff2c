"""Chat in the games of a club's server: a room for the game's two players, and a room for its spectators, which
the players see only once the game is over (no help from the audience while it is played). Signed-in players
write; a message is plain text of at most :data:`LENGTH` characters (the page shows it as text, never as markup), an
account writes at most :data:`RATE` messages a minute, a blocked account's messages are hidden from the one who
blocked it, a message can be reported to the admins by those who may read its room, once each, and an account an
admin muted writes in no room."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ...sdk.view import JSON
from ..play.service import GameService
from ..players import Accounts, Signed, name_key
from ..shared.errors import BadRequest, Forbidden, NotFound, TooMany, shown
from ..shared.i18n import _
from ..shared.values import check_text, parse_id
from ..tournaments import Tournaments
from .events import LineSaid
from .repository import ChatRepository

#: The longest message, in characters.
LENGTH = 300
#: The messages an account may write in a minute.
RATE = 10
ROOMS = ("players", "spectators")
#: The lines shown on either side of a reported one.
CONTEXT = 4
MUTED = "Your account is muted: you may read the chat, not write in it."  # in messages-admin.po

#: Who hears of a message written in a game's room, once it is stored (the game's sockets that may read the room are
#: told, on every server process).
Said = Callable[[LineSaid], Awaitable[None]]


async def _unheard(event: LineSaid) -> None:
    """Nobody listens (a service used on its own)."""


class Chat:
    """The chat rooms of the games.

    :param repository: where the messages are kept.
    :param service: the games.
    :param accounts: the accounts.
    :param tournaments: the tournaments (each has a room for its organiser and players).
    :param said: who hears of a message written in a game's room (see :data:`Said`).
    """

    def __init__(
        self,
        repository: ChatRepository,
        service: GameService,
        accounts: Accounts,
        tournaments: Tournaments,
        said: Said = _unheard,
    ) -> None:
        self.repository = repository
        self.service = service
        self.accounts = accounts
        self.tournaments = tournaments
        self.said = said

    async def _room(self, game_id: str, room: object, signed: Signed | None, writing: bool) -> str:
        """The room asked for, checked against who asks."""
        if room not in ROOMS:
            raise BadRequest(f"A game's chat room is 'players' or 'spectators', not {shown(room)}.")
        record = (await self.service.session(game_id)).record
        playing = signed is not None and signed.account.id in record.accounts
        if room == "players" and not playing:
            raise Forbidden("The players' room is the game's two players'.")
        if room == "spectators" and playing and record.result is None:
            raise Forbidden("The players see the spectators' room once the game is over.")
        if writing and room == "spectators" and playing:
            raise Forbidden("The players write in the players' room.")
        return str(room)

    async def read(self, game_id: str, room: object, signed: Signed | None) -> JSON:
        """A room's messages, oldest first (those of the accounts the reader blocked left out)."""
        checked = await self._room(game_id, room, signed, writing=False)
        reader = signed.account.id if signed is not None else None
        messages = await self.repository.messages(game_id, checked, reader)
        return {"room": checked, "messages": messages, "length": LENGTH}

    async def say(self, signed: Signed, game_id: str, data: JSON) -> JSON:
        """Write ``text`` in ``room``.

        :raises BadRequest: for an empty or too long message, or one with control characters.
        :raises TooMany: past the rate.
        """
        room = await self._room(game_id, data.get("room", "players"), signed, writing=True)
        text = self._text(data)
        await self._unmuted(signed)
        message_id = self._within_rate(await self.repository.say(game_id, room, signed.account.id, text, rate=RATE))
        await self.said(LineSaid(game_id, room, message_id))
        return {"id": message_id, "room": room, "name": signed.account.name, "text": text}

    async def _unmuted(self, signed: Signed) -> None:
        """:raises Forbidden: for a muted account."""
        if await self.repository.muted(signed.account.id):
            raise Forbidden(_(MUTED))

    @staticmethod
    def _within_rate(message_id: int | None) -> int:
        """The id of a message stored (``None``: refused, the writer past the rate).

        :raises TooMany: past the rate.
        """
        if message_id is None:
            raise TooMany(f"At most {RATE} messages a minute: wait a little.")
        return message_id

    @staticmethod
    def _text(data: JSON) -> str:
        """A message's text, checked, its runs of white space as one space."""
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("A message is some text.")
        text = check_text(" ".join(text.split()), "A message", LENGTH)
        return text

    # ------------------------------------------------------------------ a tournament's room

    async def _member(self, tournament_id: str, signed: Signed | None) -> None:
        """Make sure ``signed`` is the tournament's organiser or one of its players (withdrawn ones too).

        :raises Forbidden: for anyone else.
        :raises NotFound: for an unknown tournament.
        """
        members = await self.tournaments.members(tournament_id)
        if signed is None or signed.account.id not in members:
            raise Forbidden("A tournament's room is its organiser's and its players'.")

    async def read_tournament(self, tournament_id: str, signed: Signed | None) -> JSON:
        """The tournament's room, for its organiser and players."""
        await self._member(tournament_id, signed)
        reader = signed.account.id if signed is not None else None
        messages = await self.repository.messages(None, "tournament", reader, tournament=tournament_id)
        return {"room": "tournament", "messages": messages}

    async def say_tournament(self, signed: Signed, tournament_id: str, data: JSON) -> JSON:
        """Write ``text`` in the tournament's room (its organiser and players)."""
        await self._member(tournament_id, signed)
        text = self._text(data)
        await self._unmuted(signed)
        said = await self.repository.say(None, "tournament", signed.account.id, text, tournament_id, RATE)
        message_id = self._within_rate(said)
        return {"id": message_id, "room": "tournament", "name": signed.account.name, "text": text}

    async def block(self, signed: Signed, data: JSON, on: bool) -> JSON:
        """Block the player named ``name`` (``on``), or no longer: their messages are hidden from the blocker, and
        their challenges refused.

        :raises NotFound: for an unknown player.
        """
        name = data.get("name")
        account = await self.accounts.by_key(name_key(name)) if isinstance(name, str) else None
        if account is None:
            raise NotFound(f"No account is named {shown(name)}.")
        if account.id == signed.account.id:
            raise BadRequest("A player does not block themselves.")
        await self.repository.block(signed.account.id, account.id, on)
        return {"name": account.name, "blocked": on}

    async def blocked(self, account_id: str, by: str) -> bool:
        """Whether the account ``by`` blocked ``account_id`` (its challenges are refused)."""
        return await self.repository.blocked(account_id, by=by)

    async def report(self, signed: Signed, message_id: str) -> JSON:
        """Report a message to the admins, for a reader of its room; once per reader (``already``: reported by them
        before, and stored once).

        :raises NotFound: for an unknown message, and for one in a room the reporter may not read (as if there were
            none: its id says nothing of what is there).
        """
        number = parse_id(message_id)
        found = None if number is None else await self.repository.message(number)
        if number is None or found is None or not await self._readable(found, signed):
            raise NotFound(f"No message {shown(message_id)}.")
        new = await self.repository.report(number, signed.account.id)
        return {"reported": found["id"], "already": not new}

    async def _readable(self, message: JSON, signed: Signed) -> bool:
        """Whether ``signed`` may read the room of ``message`` (see :meth:`read` and :meth:`read_tournament`)."""
        try:
            if message["tournament_id"] is not None:
                await self._member(message["tournament_id"], signed)
            else:
                await self._room(message["game_id"], message["room"], signed, writing=False)
        except (Forbidden, NotFound):
            return False
        return True

    @staticmethod
    def _admin(signed: Signed) -> None:
        if not signed.account.admin:
            raise Forbidden("Only an admin may do this.")

    async def reports(self, signed: Signed) -> JSON:
        """The messages reported, for an admin, the open ones first, newest first: each with who wrote it (``name``,
        whether they are ``banned`` or ``muted``), who reported it first (``reported_by``) and how many did, when
        it was ``handled`` (``None``: open), and its ``context``, the lines around it in its room.

        :raises Forbidden: for anyone else.
        """
        self._admin(signed)
        reports = await self.repository.reports()
        for report in reports:
            report["context"] = await self.repository.context(report["id"], CONTEXT)
        return {"reports": reports}

    async def handle(self, signed: Signed, message_id: str, handled: bool) -> JSON:
        """Mark a report handled (``handled``), or open again, for an admin; its message's writer (``name``).

        :raises Forbidden: for anyone else.
        :raises NotFound: for a message that is not reported.
        """
        self._admin(signed)
        number = parse_id(message_id)
        now = self.repository.now()
        writer = None if number is None else await self.repository.handle(number, now if handled else None)
        if number is None or writer is None:
            raise NotFound(_("No reported message {id}.", id=shown(message_id)))
        return {"id": number, "name": writer, "handled": now if handled else None}

    async def mute(self, signed: Signed, name: str, muted: bool) -> JSON:
        """Mute an account (it reads the chat, writes in no room), or no longer, for an admin; ``changed`` says
        whether this call did it (``False``: it was so already).

        :raises Forbidden: for anyone else, or the admin's own account.
        :raises NotFound: for an unknown name.
        """
        self._admin(signed)
        account = await self.accounts.find(name)
        if account.id == signed.account.id:
            raise Forbidden(_("An admin does not mute their own account."))
        changed = await self.repository.mute(account.id, muted)
        return {"name": account.name, "muted": muted, "changed": changed}

    async def muted(self, account_id: str) -> bool:
        """Whether the account is muted."""
        return await self.repository.muted(account_id)


__all__ = ["CONTEXT", "LENGTH", "MUTED", "RATE", "ROOMS", "Chat", "Said"]
