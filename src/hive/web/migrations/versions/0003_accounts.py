"""Accounts for the club's server: the players' accounts, their signed-in sessions, the failed sign-ins that every
process's throttle counts, bots' API tokens; the lobby's seeks and challenges; the accounts playing a game, the
ratings, and each rated game's effect on them; tournaments and their games; chat, and who blocked whom.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("key", sa.Text, nullable=False, unique=True),
        sa.Column("password", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("admin", sa.Boolean, nullable=False),
        sa.Column("banned", sa.Boolean, nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "api_tokens",
        sa.Column("token", sa.Text, primary_key=True),
        sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_api_tokens_account_id", "api_tokens", ["account_id"])
    op.create_table(
        "sessions",
        sa.Column("token", sa.Text, primary_key=True),
        sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("csrf", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_sign_in_failures_key", "sign_in_failures", ["key"])
    # plain ALTER TABLE on both databases: a batch copy of the games table on SQLite would drop the old one, and
    # with it, by their foreign key's cascade, every game's moves
    op.add_column("games", sa.Column("account0", sa.Text))
    op.add_column("games", sa.Column("account1", sa.Text))
    op.add_column("games", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("speed", sa.Text, primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.Text, primary_key=True),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("speed", sa.Text, nullable=False),
        sa.Column("account0", sa.Text, nullable=False),
        sa.Column("account1", sa.Text, nullable=False),
        sa.Column("score0", sa.Float, nullable=False),
        sa.Column("before0", sa.Float, nullable=False),
        sa.Column("after0", sa.Float, nullable=False),
        sa.Column("before1", sa.Float, nullable=False),
        sa.Column("after1", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rated_games_account0", "rated_games", ["account0"])
    op.create_index("ix_rated_games_account1", "rated_games", ["account1"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("time_control", sa.Text),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("colour", sa.Text, nullable=False),
        sa.Column("low", sa.Float),
        sa.Column("high", sa.Float),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("game_id", sa.Text),
        sa.Column("target", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE")),
    )

    op.create_table(
        "tournaments",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("organiser", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("time_control", sa.Text),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column("invited", sa.Text),
        sa.Column("forfeit_after", sa.Float),
        sa.Column("starts", sa.Float),
    )
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.Text, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Text, nullable=False),
    )
    op.create_index("ix_tournament_games_game_id", "tournament_games", ["game_id"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE")),
        sa.Column("tournament_id", sa.Text, sa.ForeignKey("tournaments.id", ondelete="CASCADE")),
        sa.Column("room", sa.Text, nullable=False),
        sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("reported", sa.Text),
    )
    op.create_index("ix_chat_game_id", "chat", ["game_id"])
    op.create_index("ix_chat_tournament_id", "chat", ["tournament_id"])
    op.create_table(
        "blocks",
        sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("blocked", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("blocks")
    op.drop_table("chat")
    op.drop_table("tournament_games")
    op.drop_table("tournaments")
    op.drop_table("seeks")
    op.drop_table("rated_games")
    op.drop_table("ratings")
    op.drop_column("games", "rated")
    op.drop_column("games", "account1")
    op.drop_column("games", "account0")
    op.drop_table("sign_in_failures")
    op.drop_table("api_tokens")
    op.drop_table("sessions")
    op.drop_table("accounts")
