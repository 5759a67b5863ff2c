"""Players finding each other: a search of the names (by prefix, compared as names are, look-alikes and case folded:
see :mod:`~hive.web.players.names`), and the players an account follows, each shown online or not, and playing now
(a game in progress to watch) or not."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from ...sdk.view import JSON
from ..play import GameService
from ..shared.errors import BadRequest, Conflict, NotFound, shown
from ..shared.i18n import _, _n
from ..shared.values import check_text
from .follow_repository import FollowRepository
from .names import LENGTH, name_key
from .repository import StoredAccount
from .service import ONLINE_SECONDS, Accounts, Signed

#: The most players an account follows (counted in the database under the account's lock).
MAX_FOLLOWS = 200
#: The most names a search answers.
SEARCH_LIMIT = 20
_PREFIX = re.compile(r"[A-Za-z0-9_-]+")


def check_prefix(value: object) -> str:
    """The start of a name to search for: 1 to 20 of the characters a name may have, after NFKC.

    :raises BadRequest: saying what it may be.
    """
    text = unicodedata.normalize("NFKC", check_text(value, "'prefix'", 100)).strip()
    if not 1 <= len(text) <= LENGTH[1] or not _PREFIX.fullmatch(text):
        raise BadRequest(
            _(
                "'prefix' is the start of a name: 1 to {most} letters (a-z, A-Z), digits, _ or -, not {value}.",
                most=LENGTH[1],
                value=shown(value),
            )
        )
    return text


class Follows:
    """The search for players, and the players each account follows.

    :param accounts: the accounts (a name found, who is online).
    :param repository: the follows.
    :param games: the games (who is playing now).
    """

    def __init__(self, accounts: Accounts, repository: FollowRepository, games: GameService) -> None:
        self.accounts = accounts
        self.repository = repository
        self.games = games

    async def search(self, query: Mapping[str, str]) -> JSON:
        """The names that start with ``query["prefix"]`` (as names are compared), shortest first, at most
        :data:`SEARCH_LIMIT`."""
        prefix = check_prefix(query.get("prefix"))
        found = await self.repository.search(name_key(prefix), prefix.lower(), SEARCH_LIMIT)
        return {"players": [{"name": name, "bot": bot} for name, bot in found], "limit": SEARCH_LIMIT}

    async def _other(self, signed: Signed, name: object) -> StoredAccount:
        """The account of another player named ``name``.

        :raises BadRequest: for what is no name, or the asker's own.
        :raises NotFound: for an unknown name.
        """
        account = await self.accounts.find(check_text(name, "'name'", 100))
        if account.id == signed.account.id:
            raise BadRequest(_("You cannot follow yourself."))
        return account

    async def follow(self, signed: Signed, name: object) -> JSON:
        """``signed`` follows the player ``name`` (once; again is no change).

        :raises NotFound: for an unknown name.
        :raises Conflict: when it follows :data:`MAX_FOLLOWS` players already.
        """
        account = await self._other(signed, name)
        done = await self.repository.follow(signed.account.id, account.id, MAX_FOLLOWS)
        if done == "full":
            raise Conflict(
                _n(
                    "You follow {count} player already: unfollow them first.",
                    "You follow {count} players already: unfollow one first.",
                    MAX_FOLLOWS,
                )
            )
        return {"name": account.name, "following": True, "already": done == "already"}

    async def unfollow(self, signed: Signed, name: str) -> JSON:
        """``signed`` no longer follows ``name``.

        :raises NotFound: for an unknown name, or one it does not follow.
        """
        account = await self._other(signed, name)
        if not await self.repository.unfollow(signed.account.id, account.id):
            raise NotFound(_("You do not follow {name}.", name=shown(name)))
        return {"name": account.name, "following": False}

    async def followed(self, signed: Signed) -> JSON:
        """The players ``signed`` follows, by name: each one's ``name``, ``bot``, ``online`` (seen in the last
        :data:`~hive.web.players.service.ONLINE_SECONDS`), ``seen`` and ``playing`` (the id of a game of theirs in
        progress, the newest, to watch; ``null``: none), online ones first."""
        players = []
        since = self.accounts.now() - ONLINE_SECONDS
        for one in await self.repository.followed(signed.account.id, since):
            games = await self.games.ongoing(one.id) if one.seen is not None else []
            playing = games[-1][0] if games else None
            players.append({"name": one.name, "bot": one.bot, "online": one.seen is not None, "seen": one.seen,
                            "playing": playing})  # fmt: skip
        players.sort(key=lambda p: (not p["online"], p["playing"] is None))
        return {"players": players, "limit": MAX_FOLLOWS}


__all__ = ["MAX_FOLLOWS", "SEARCH_LIMIT", "Follows", "check_prefix"]
