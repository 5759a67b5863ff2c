"""The metadata every domain's tables are declared on (one schema, one Alembic history: see
:mod:`~hive.web.migrations`), and the tables of what is shared."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

#: Quotas counted atomically (see :mod:`~hive.web.shared.quotas`): each key's window start and the uses in it.
quotas = sa.Table(
    "quotas",
    metadata,
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("start", sa.Float, nullable=False, index=True),
    sa.Column("used", sa.Integer, nullable=False),
)

__all__ = ["metadata", "quotas"]
