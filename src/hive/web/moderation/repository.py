"""The audit list of the admins' actions, as every server process shares it."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from ..shared.database import Repository
from .tables import audit


class AuditRepository(Repository):
    """The audit list of a server."""

    async def record(self, admin: str, action: str, target: str, detail: str = "") -> int:
        """Store an admin's action done now; its row's id."""
        return await self.database.run(self._record, admin, action, target, detail)

    def _record(self, admin: str, action: str, target: str, detail: str) -> int:
        row = {"at": self.now(), "admin": admin, "action": action, "target": target, "detail": detail}
        with self.database.engine.begin() as connection:
            return int(connection.execute(audit.insert().values(row).returning(audit.c.id)).scalar_one())

    async def rows(self, before: int | None, limit: int) -> list[dict[str, Any]]:
        """The actions, newest first, at most ``limit``, those older than the row ``before`` when given."""
        return await self.database.run(self._rows, before, limit)

    def _rows(self, before: int | None, limit: int) -> list[dict[str, Any]]:
        query = sa.select(audit).order_by(audit.c.id.desc()).limit(limit)
        if before is not None:
            query = query.where(audit.c.id < before)
        with self.database.single() as connection:
            return [dict(row._mapping) for row in connection.execute(query)]


__all__ = ["AuditRepository"]
