"""Quick pairing: one click on a cell of the lobby's grid (a game and one of its common time controls, see
:mod:`~hive.web.lobby.pools`) accepts the oldest open seek of that pool by someone else whose ratings fit both ways,
or else opens a seek for the clicker, or, when the clicker's own seek waits there already, withdraws it.

Which it is is decided in one transaction, the pool's deciders one at a time on every process (see
:meth:`~hive.web.lobby.repository.SeekRepository.pair`): two players clicking the same cell at once get one game,
never two waiting seeks. A player who plays a real-time game in progress is not paired in a real-time pool (a click
is refused), and a click waits for a game its pool just started to be stored, so that clicks at once never pair a
player twice. What the transaction cannot ask (ratings, blocks) is asked before it, for the seeks the
pool held then; a seek opened meanwhile sends the click round again."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from ...sdk.messages import _, _n
from ...sdk.view import JSON
from ..play import clock
from ..play.newgame import new_game
from ..players import Signed
from ..shared.errors import BadRequest, Conflict
from ..views import on_page
from .asked import asked_game, rating_range
from .pools import GRID, cell_of, cells, lock_key
from .repository import StoredSeek
from .service import OPEN_SEEKS, Seeks

#: How often a click is sent round again when its pool changed while it looked, and the seconds it first waits.
TRIES, RETRY = 5, 0.02
#: The most seeks of a pool one click weighs (the oldest).
CANDIDATES = 50
#: The fields a click may carry.
FIELDS = frozenset(("game", "kind", "options", "time_control", "rated", "rating_range"))


def _control(value: object) -> JSON | None:
    try:
        return clock.control(value)
    except BadRequest:
        return None


class QuickPairing:
    """The lobby's quick pairing, on its seeks.

    :param seeks: the seeks (their storage, the ratings and blocks weighed, the games they start).
    """

    def __init__(self, seeks: Seeks) -> None:
        self.seeks = seeks

    def grid(self) -> JSON:
        """The grid's ``cells`` (see :func:`~hive.web.lobby.pools.cells`), and the ``games`` a click on them pairs
        for, by kind: the game and options a click without ``options`` asks for (a seek in a cell's pool counts there
        when it has them)."""
        games = {}
        for kind in on_page():
            made = new_game({"kind": kind, "mode": "online"})
            games[kind] = {"game": made.board.game_name, "options": made.record.options}
        return {"cells": cells(), "games": games}

    def _seek(self, signed: Signed, data: JSON) -> tuple[StoredSeek, Any]:
        """The seek a click would open, checked as a seek is, and its game."""
        unknown = sorted(set(data) - FIELDS)
        if unknown:
            fields, refused = ", ".join(sorted(FIELDS)), ", ".join(unknown)
            raise BadRequest(_("Quick pairing takes {fields}, not {unknown}.", fields=fields, unknown=refused))
        kind, options, rated = asked_game(data)
        control = data.get("time_control")
        if cell_of(control) is None:
            names = ", ".join(name for name, _ in GRID)
            raise BadRequest(_("Quick pairing's 'time_control' is one of the grid's ({names}).", names=names))
        low, high = rating_range(data.get("rating_range"))
        game = new_game({"kind": kind, "options": options, "mode": "online", "time_control": control})
        seek = StoredSeek(
            secrets.token_urlsafe(9), signed.account.id, signed.account.name, game.record.kind, game.record.options,
            control, rated, "random", low, high, 0.0,
        )  # fmt: skip
        return seek, game

    async def _fits(self, signed: Signed, mine: StoredSeek, rating: float, theirs: StoredSeek, game: Any) -> bool:
        """Whether ``theirs`` and the clicker's ``mine`` fit each other: each one's rating in the other's range,
        neither blocked by the other."""
        if (theirs.low is not None and rating < theirs.low) or (theirs.high is not None and rating > theirs.high):
            return False
        speed = clock.speed_of(game.record.clock)
        seeker = (await self.seeks.ratings.rating(theirs.account_id, game.board.game_name, speed)).rating
        if (mine.low is not None and seeker < mine.low) or (mine.high is not None and seeker > mine.high):
            return False
        blocks = self.seeks.blocks
        me = signed.account.id
        return not (await blocks.blocked(me, by=theirs.account_id) or await blocks.blocked(theirs.account_id, by=me))

    async def pair(self, signed: Signed, data: JSON) -> tuple[str, Any]:
        """A click on a cell: ``game`` (or ``kind`` and ``options``, as for a seek), ``time_control`` (one of the
        grid's), ``rated`` (default true) and ``rating_range`` (``[low, high]``, the clicker's opponents'). Returns
        ``("started", (session, game))`` (a seek was accepted: the game in memory, and what was dealt),
        ``("waiting", seek)`` (a seek was opened, described as the lobby shows it) or ``("cancelled", seek_id)``
        (the clicker's own seek of the pool was withdrawn).

        :raises BadRequest: naming the field at fault.
        :raises Conflict: when the account has too many seeks open, or the pool kept changing.
        """
        mine, game = self._seek(signed, data)
        control = clock.control(mine.time_control)

        def same(seek: StoredSeek) -> bool:
            return seek.options == mine.options and _control(seek.time_control) == control

        speed = clock.speed_of(game.record.clock)
        rating = (await self.seeks.ratings.rating(mine.account_id, game.board.game_name, speed)).rating
        lock = lock_key(mine.kind, mine.options, control, mine.rated)
        repository = self.seeks.repository
        for _attempt in range(TRIES):
            pool = [seek for seek in await repository.pool(mine.kind, mine.rated) if same(seek)]
            dealt = {}
            for seek in [seek for seek in pool if seek.account_id != mine.account_id][:CANDIDATES]:
                if await self._fits(signed, mine, rating, seek, game):
                    dealt[seek.id] = self.seeks.deal(seek)
            takes = {seek_id: made.record.id for seek_id, (made, _) in dealt.items()}
            known = {seek.id for seek in pool}
            real_time = control is not None and "days" not in control
            done, found = await repository.pair(mine, lock, same, known, takes, OPEN_SEEKS, real_time)
            if done == "changed":
                await asyncio.sleep(RETRY * (_attempt + 1))
                continue
            if done == "playing":
                raise Conflict(_("You are playing a game: finish it before pairing again."))
            if done == "full":
                raise Conflict(
                    _n(
                        "You have {count} seek open: cancel it first.",
                        "You have {count} seeks open: cancel one first.",
                        OPEN_SEEKS,
                    )
                )
            assert found is not None
            if done == "cancelled":
                await self.seeks.announce_change(found, "cancelled", by=signed.account.name)
                return "cancelled", found.id
            if done == "opened":
                described = await self.seeks.describe(found)
                await self.seeks.announce_change(found, "opened", seek=described)
                return "waiting", described
            made, seeker = dealt[found.id]
            return "started", await self.seeks.begin(signed, found, made, seeker)
        raise Conflict(_("Many players are pairing in this pool just now: click again."))


__all__ = ["QuickPairing"]
