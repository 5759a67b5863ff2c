"""The list of stored games and what it offers beside resuming one: the rematch with the colours swapped (of a guest's
game: between accounts it is an offer, :mod:`~hive.web.lobby.service`), and deleting a game (by one of its
players)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from ...sdk.view import JSON
from ..shared.errors import Conflict, Forbidden, GameError
from ..shared.model import GameRecord, Summary
from ..views import view_for
from .newgame import rematch
from .service import GameService, damage, summary
from .session import Session

log = logging.getLogger("hive.web")


def _seat(record: GameRecord, account: str | None, tokens: frozenset[str]) -> int | None:
    """The seat of ``record`` its asker plays: by account, else by a token held (the first, on one screen)."""
    for seat in (0, 1):
        if account is not None and record.accounts[seat] == account:
            return seat
    return next((seat for seat in (0, 1) if record.tokens[seat] in tokens), None)


class GameList:
    """The games as a list, their rematches and their deletion.

    :param service: the games.
    """

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def games(self, limit: int = 200, *, account: str | None = None, tokens: Sequence[str] | None = None) -> JSON:
        """The stored games, those in progress first, then the finished ones, the latest first in each. A game whose
        stored record cannot be read is listed as ``damaged`` (with why), and logged; the others are listed as usual.

        With ``tokens`` (a server with accounts), only the asker's games: those ``account`` plays and those a seat of
        which one of ``tokens`` holds; each says which ``seat`` is the asker's and which ``tournament`` it is a round
        of (``None``: none; a tournament's game has no rematch). Without, every game (``hive play``, whose games are
        all its user's), ``seat`` and ``tournament`` left out.

        :raises Unavailable: when the database cannot be read.
        """
        held = None if tokens is None else frozenset(tokens)
        found = await self.service.store.games.games(limit, account=account, tokens=tokens)
        paired: dict[str, str] = {}
        if held is not None:  # only a game between two accounts may be a tournament's
            between = [item.record.id for item in found if None not in item.record.accounts]
            paired = await self.service.store.tournaments.of_games(between)
        listed = []
        for item in found:
            entry = self._entry(item)
            if held is not None:
                entry["seat"] = _seat(item.record, account, held)
                entry["tournament"] = paired.get(item.record.id)
            listed.append(entry)
        return {"games": listed}

    def _entry(self, item: Summary) -> JSON:
        record = item.record
        if item.damaged is None:
            live = self.service.sessions.get(record.id)
            if live is not None and live.record.version == record.version:
                return {**summary(live.record, live.view, item.length), "thinking": live.ai_due}
            found = damage(record)
            if found is None:
                try:
                    return {**summary(record, view_for(record.kind), item.length), "thinking": False}
                except (GameError, ValueError, KeyError, TypeError) as err:
                    found = f"Game {record.id} cannot be listed: {err}"
            damaged = found
        else:
            damaged = item.damaged
        log.warning("%s", damaged)
        return {"id": record.id, "damaged": damaged, "created": record.created, "updated": record.updated}

    async def rematch(self, game_id: str, token: str | None, client: str = "") -> tuple[Session, Session, str]:
        """The rematch of a finished game for the holder of ``token``: started by the first player to ask, joined by
        the other; returns the finished game, the rematch and the asker's token in it (the seat of the other colour).

        Between accounts a rematch is an offer instead (see :meth:`~hive.web.lobby.service.Seeks.rematch`): a seat's
        token goes to its own account alone.

        :raises Forbidden: when the token holds no seat of the game, or the game is between accounts.
        :raises Conflict: when the game is not over.
        """
        async with self.service.lock(game_id):
            session = await self.service.fresh(game_id)
            held = await self.service.holder(session, token)
            if any(session.record.accounts):
                raise Forbidden("A rematch between accounts is offered to the opponent: ask for it signed in.")
            seat = min(held)
            if not session.over:
                raise Conflict("A rematch follows a finished game: finish or resign this one first.")
            if session.record.rematch is None:
                game = rematch(session.record, seat)
                following = await self.service.start(game, client)
                await self.service.commit(session, "rematch", seat, client=client, rematch=game.record.id)
                return session, following, game.token
            following_id = session.record.rematch
        following = await self.service.session(following_id)
        mine = following.record.tokens[1 - seat]
        if mine is None:
            raise Conflict("The rematch has no seat for you.")
        return session, following, mine

    async def delete(self, game_id: str, token: str | None) -> Session:
        """Delete the game, for one of its players; returns it as it was. A game between accounts stays: it is
        part of both players' records (and their ratings).

        :raises Forbidden: when the token holds no seat of the game, or the game is between accounts.
        """
        async with self.service.lock(game_id):
            session = await self.service.fresh(game_id)
            held = await self.service.holder(session, token)
            if any(session.record.accounts):
                raise Forbidden("A game between accounts stays: it is part of both players' records.")
            await self.service.forget(session, min(held))
            return session


__all__ = ["GameList"]
