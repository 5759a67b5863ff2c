"""What several server processes sharing one database need: a version per game that every change is stored over
(and, on each move, the version that wrote it, so that a process brings its copy up to date by reading only what
changed), when each running clock's flag falls, the AI's error, the AI's moves as a shared queue, and the processes
with the sockets each has open.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-27
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _deadline(clock: str | None) -> float | None:
    """When a stored clock's flag falls, if it runs (a clock held while the server was stopped has no moment yet)."""
    if not clock:
        return None
    try:
        data = json.loads(clock)
        running, since = data.get("running"), data.get("since")
        if running is None or since is None or data.get("paused"):
            return None
        return float(since) + float(data["remaining"][running]) / 1000
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None  # a damaged clock: its game says so when it is loaded


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="0"))
        games.add_column(sa.Column("stored", sa.Integer, nullable=False, server_default="0"))
        games.add_column(sa.Column("deadline", sa.Float))
        games.add_column(sa.Column("ai_error", sa.Text))
    with op.batch_alter_table("moves") as moves:
        moves.add_column(sa.Column("written", sa.Integer, nullable=False, server_default="0"))
    op.execute("UPDATE games SET stored = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id)")
    op.create_index("games_deadline", "games", ["deadline"])
    op.create_index("games_listed", "games", ["updated"])
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, clock FROM games WHERE clock IS NOT NULL AND result IS NULL")).all()
    for game_id, clock in rows:
        deadline = _deadline(clock)
        if deadline is not None:
            bind.execute(sa.text("UPDATE games SET deadline = :d WHERE id = :id"), {"d": deadline, "id": game_id})
    op.create_table(
        "ai_jobs",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("client", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("owner", sa.Text),
        sa.Column("lease", sa.Float),
        sa.Column("tries", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "processes",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("host", sa.Text, nullable=False),
        sa.Column("pid", sa.Integer, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("beat", sa.Float, nullable=False),
    )
    op.create_table(
        "watchers",
        sa.Column("process", sa.Text, sa.ForeignKey("processes.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("sockets", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("watchers")
    op.drop_table("processes")
    op.drop_table("ai_jobs")
    op.drop_index("games_listed", "games")
    op.drop_index("games_deadline", "games")
    with op.batch_alter_table("moves") as moves:
        moves.drop_column("written")
    with op.batch_alter_table("games") as games:
        games.drop_column("ai_error")
        games.drop_column("deadline")
        games.drop_column("stored")
        games.drop_column("version")
