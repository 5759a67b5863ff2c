"""The schema's history as Alembic migrations, for SQLite and PostgreSQL alike.

:func:`upgrade` brings a database to the newest revision (a file written by a release before migrations is adopted
by the first one, which adds only what it lacks); :func:`current` and :func:`head` tell whether it is there.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

HERE = Path(__file__).parent


def config(connection: sa.Connection | None = None) -> Config:
    """Alembic's configuration for these migrations, run on ``connection``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision."""
    revision = ScriptDirectory.from_config(config()).get_current_head()
    assert revision is not None
    return revision


def current(connection: sa.Connection) -> str | None:
    """The revision the database is at (``None``: none yet)."""
    return MigrationContext.configure(connection).get_current_revision()


#: The PostgreSQL advisory lock that upgrades take, so that two started at once run one after the other.
UPGRADE_LOCK = 0x48495645


def upgrade(connection: sa.Connection, revision: str = "head") -> None:
    """Bring the database on ``connection`` to ``revision``, in the connection's transaction (on PostgreSQL, one
    upgrade at a time: a second one started meanwhile waits, then finds nothing left to do)."""
    if connection.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": UPGRADE_LOCK})
    command.upgrade(config(connection), revision)


__all__ = ["UPGRADE_LOCK", "config", "current", "head", "upgrade"]
