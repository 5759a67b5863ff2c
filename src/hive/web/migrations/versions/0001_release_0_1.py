"""The games, their moves, analysis lines and engine reviews, as release 0.1 kept them.

A games file written by release 0.1 (or an earlier one) has these tables, or some of them, and no revision: this
migration adopts it, creating only the tables it lacks and adding only the columns its games table lacks, so that no
game is lost.

Revision ID: 0001
Revises:
Create Date: 2026-11-27
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def later_columns() -> dict[str, sa.Column[Any]]:
    """The games table's columns added by releases before 0.1, with what an older row gets."""
    return {
        "name0": sa.Column("name0", sa.Text),
        "name1": sa.Column("name1", sa.Text),
        "help0": sa.Column("help0", sa.Integer),
        "help1": sa.Column("help1", sa.Integer),
        "joined": sa.Column("joined", sa.Integer, nullable=False, server_default="0"),
        "rematch": sa.Column("rematch", sa.Text),
        "clock": sa.Column("clock", sa.Text),
        "start": sa.Column("start", sa.Text),
    }


def _games() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("mode", sa.Text, nullable=False),
        sa.Column("ai_level", sa.Text),
        sa.Column("ai_seat", sa.Integer),
        sa.Column("token0", sa.Text),
        sa.Column("token1", sa.Text),
        sa.Column("length", sa.Integer, nullable=False, server_default="0"),
        sa.Column("result", sa.Text),
        sa.Column("reason", sa.Text),
        sa.Column("offer", sa.Text),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        *later_columns().values(),
    )


def _moves() -> None:
    op.create_table(
        "moves",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("move", sa.Text, nullable=False),
    )


def _reviews() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("level", sa.Text, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("positions", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("updated", sa.Float, nullable=False),
    )


def _lines() -> None:
    op.create_table(
        "lines",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("line", sa.Integer, primary_key=True),
        sa.Column("parent", sa.Integer),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    present = set(inspector.get_table_names())
    if "games" not in present:
        _games()
    else:
        columns = {column["name"] for column in inspector.get_columns("games")}
        later = later_columns()
        missing = [name for name in later if name not in columns]
        for name in missing:
            op.add_column("games", later[name])
        if "joined" in missing:  # games stored before seats were tracked: opened by both once a move was played
            op.execute("UPDATE games SET joined = 3 WHERE length > 0")
    for table, create in (("moves", _moves), ("reviews", _reviews), ("lines", _lines)):
        if table not in present:
            create()


def downgrade() -> None:
    for table in ("lines", "reviews", "moves", "games"):
        op.drop_table(table)
