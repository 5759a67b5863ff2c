"""Tournaments on the server, as every process shares them: a tournament's state is stored only over the version it
was read at, so of two processes pairing the same round, one does."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ..shared.database import Repository
from ..shared.errors import TooMany
from ..shared.quotas import take_in
from .tables import tournament_games, tournaments

DAY = 86_400.0


@dataclass(frozen=True)
class Limits:
    """How many tournaments one organiser may have open (not yet started) at once, and make in a day."""

    open: int
    per_day: int


@dataclass(frozen=True)
class StoredTournament:
    """A tournament's row: its settings, its state (JSON of :class:`hive.tournament.Tournament`, players by account
    id), its status (``open``, ``running``, ``finished``), the version its state was read at, and its games by round
    and board."""

    id: str
    name: str
    organiser: str
    kind: str
    options: dict[str, Any]
    time_control: Any
    rated: bool
    state: str
    status: str
    created: float
    version: int
    games: dict[tuple[int, int], str]
    bots: bool = True
    invited: tuple[str, ...] | None = None
    forfeit_after: float | None = None
    starts: float | None = None


class TournamentRepository(Repository):
    """The tournaments of a server."""

    async def create(self, tournament: StoredTournament, limits: Limits | None = None) -> StoredTournament:
        """Store a new tournament (its ``created`` set now, version 0), within its organiser's ``limits`` when given.

        :raises TooMany: when the organiser has as many tournaments open as the limits allow, or made as many today.
        """
        return await self.database.run(self._create, tournament, limits)

    def _create(self, t: StoredTournament, limits: Limits | None) -> StoredTournament:
        row = {
            "id": t.id, "name": t.name, "organiser": t.organiser, "kind": t.kind, "options": json.dumps(t.options),
            "time_control": None if t.time_control is None else json.dumps(t.time_control), "rated": t.rated,
            "state": t.state, "status": t.status, "created": self.now(), "version": 0, "bots": t.bots,
            "invited": None if t.invited is None else json.dumps(list(t.invited)), "forfeit_after": t.forfeit_after,
            "starts": t.starts,
        }  # fmt: skip
        with self.database.engine.begin() as connection:
            if limits is not None:
                self._within(connection, t.organiser, limits)
            connection.execute(tournaments.insert().values(row))
        return StoredTournament(**{**t.__dict__, "created": row["created"], "version": 0})

    def _within(self, connection: sa.Connection, organiser: str, limits: Limits) -> None:
        """Count a tournament made by ``organiser`` today, under the quota row's lock, which holds until the
        transaction ends: concurrent creations of one organiser, on any process, count their open tournaments one
        after another. A refusal rolls the count back."""
        taken = take_in(connection, f"tournaments:{organiser}", limits.per_day, DAY, self.now())
        if not taken.allowed:
            hours = max(1, round(taken.retry_after / 3600))
            raise TooMany(f"At most {limits.per_day} new tournaments a day: try again in about {hours} h.")
        query = sa.select(sa.func.count()).where(tournaments.c.organiser == organiser, tournaments.c.status == "open")
        if connection.execute(query).scalar_one() >= limits.open:
            raise TooMany(f"You have {limits.open} tournaments open already: start one, or wait for one to start.")

    async def find(self, tournament_id: str) -> StoredTournament | None:
        """The tournament ``tournament_id`` as stored now."""
        return await self.database.run(self._find, tournament_id)

    def _find(self, tournament_id: str) -> StoredTournament | None:
        with self.database.reading() as connection:
            row = connection.execute(sa.select(tournaments).where(tournaments.c.id == tournament_id)).first()
            if row is None:
                return None
            played = connection.execute(
                sa.select(tournament_games).where(tournament_games.c.tournament_id == tournament_id)
            ).all()
        return StoredTournament(
            row.id, row.name, row.organiser, row.kind, json.loads(row.options),
            None if row.time_control is None else json.loads(row.time_control), bool(row.rated), row.state,
            row.status, float(row.created), int(row.version), {(g.round, g.board): g.game_id for g in played},
            bool(row.bots), None if row.invited is None else tuple(json.loads(row.invited)), row.forfeit_after,
            row.starts,
        )  # fmt: skip

    async def listed(self, limit: int = 100) -> list[dict[str, Any]]:
        """The tournaments, newest first: id, name, status, created."""
        return await self.database.run(self._listed, limit)

    def _listed(self, limit: int) -> list[dict[str, Any]]:
        query = sa.select(tournaments.c.id, tournaments.c.name, tournaments.c.status, tournaments.c.created)
        with self.database.single() as connection:
            rows = connection.execute(query.order_by(tournaments.c.created.desc()).limit(limit)).all()
        return [{"id": r.id, "name": r.name, "status": r.status, "created": r.created} for r in rows]

    async def save(
        self, tournament_id: str, version: int, state: str, status: str, new_games: dict[tuple[int, int], str]
    ) -> bool:
        """Store a tournament's new state and status, and the games of a round paired, if it is still at
        ``version``: whether it was (``False``: another change came first, and nothing is stored)."""
        return await self.database.run(self._save, tournament_id, version, state, status, new_games)

    def _save(
        self, tournament_id: str, version: int, state: str, status: str, new_games: dict[tuple[int, int], str]
    ) -> bool:
        with self.database.engine.begin() as connection:
            done = connection.execute(
                tournaments.update()
                .where(tournaments.c.id == tournament_id, tournaments.c.version == version)
                .values(state=state, status=status, version=version + 1)
            ).rowcount
            if done != 1:
                return False
            if new_games:
                connection.execute(
                    tournament_games.insert(),
                    [
                        {"tournament_id": tournament_id, "round": r, "board": b, "game_id": g}
                        for (r, b), g in new_games.items()
                    ],
                )
        return True

    async def invite(self, tournament_id: str, account_id: str) -> None:
        """Add an account to an invite-only tournament's invited players."""
        await self.database.run(self._invite, tournament_id, account_id)

    def _invite(self, tournament_id: str, account_id: str) -> None:
        query = sa.select(tournaments.c.invited).where(tournaments.c.id == tournament_id)
        if not self.database.sqlite:
            query = query.with_for_update()
        with self.database.engine.begin() as connection:
            invited = json.loads(connection.execute(query).scalar_one() or "[]")
            if account_id not in invited:
                invited.append(account_id)
            connection.execute(
                tournaments.update().where(tournaments.c.id == tournament_id).values(invited=json.dumps(invited))
            )

    async def running(self) -> list[str]:
        """The ids of the tournaments under way, and of those whose start time has come."""
        return await self.database.run(self._running)

    def _running(self) -> list[str]:
        due = sa.and_(tournaments.c.status == "open", tournaments.c.starts <= self.now())
        query = sa.select(tournaments.c.id).where(sa.or_(tournaments.c.status == "running", due))
        with self.database.single() as connection:
            return [str(row[0]) for row in connection.execute(query)]

    async def of_game(self, game_id: str) -> str | None:
        """The tournament a game belongs to."""
        return await self.database.run(self._of_game, game_id)

    def _of_game(self, game_id: str) -> str | None:
        query = sa.select(tournament_games.c.tournament_id).where(tournament_games.c.game_id == game_id)
        with self.database.single() as connection:
            found = connection.execute(query).first()
        return None if found is None else str(found[0])

    async def of_games(self, game_ids: Sequence[str]) -> dict[str, str]:
        """The tournaments that games of ``game_ids`` belong to, by game id (a game of none is left out); one
        query."""
        return await self.database.run(self._of_games, list(game_ids)) if game_ids else {}

    def _of_games(self, game_ids: list[str]) -> dict[str, str]:
        query = sa.select(tournament_games.c.game_id, tournament_games.c.tournament_id).where(
            tournament_games.c.game_id.in_(game_ids)
        )
        with self.database.single() as connection:
            return {str(game): str(tournament) for game, tournament in connection.execute(query)}

    async def place_of(self, game_id: str) -> tuple[str, str, int, int] | None:
        """Where a game is played in a tournament: the tournament's id and name, the round and the board (``None``:
        it is no tournament's)."""
        return await self.database.run(self._place_of, game_id)

    def _place_of(self, game_id: str) -> tuple[str, str, int, int] | None:
        query = (
            sa.select(tournaments.c.id, tournaments.c.name, tournament_games.c.round, tournament_games.c.board)
            .join(tournaments, tournaments.c.id == tournament_games.c.tournament_id)
            .where(tournament_games.c.game_id == game_id)
        )
        with self.database.single() as connection:
            found = connection.execute(query).first()
        return None if found is None else (str(found[0]), str(found[1]), int(found[2]), int(found[3]))


__all__ = ["Limits", "StoredTournament", "TournamentRepository"]
