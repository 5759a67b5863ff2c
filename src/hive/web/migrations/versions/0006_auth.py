"""Sign-ins and API tokens: where each account signed in from before (``trusted``: its addresses and device cookies,
which a stranger's guesses do not lock out), each API token's scope, and names' keys folded to a fixed point. The
failed sign-ins move to the quotas (counted before a password is checked), so their table goes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-08
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# the keys as this revision folds them (hive.web.accounts.names.name_key, frozen here)
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_SINGLE = str.maketrans({"0": "o", "1": "l", "i": "l", "-": "_"})


def _key(name: str) -> str:
    key = name
    for _ in range(8):
        folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", key).casefold()).translate(_SINGLE)
        for pair, single in _PAIRS:
            folded = folded.replace(pair, single)
        if folded == key:
            break
        key = folded
    return key


def upgrade() -> None:
    op.create_table(
        "trusted",
        sa.Column("account_id", sa.Text, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_index("ix_trusted_seen", "trusted", ["seen"])
    op.add_column("api_tokens", sa.Column("scope", sa.Text, nullable=False, server_default="bot"))
    op.drop_table("sign_in_failures")
    accounts = sa.table("accounts", sa.column("id", sa.Text), sa.column("name", sa.Text), sa.column("key", sa.Text))
    connection = op.get_bind()
    rows = connection.execute(sa.select(accounts.c.id, accounts.c.name, accounts.c.key).order_by(sa.text("created")))
    taken: set[str] = set()
    changes = []
    for account_id, name, old in rows.all():
        key = _key(name)
        if key in taken:  # a look-alike the old keys let in: the first to sign up keeps the name
            key = f"{key}#{account_id}"
        taken.add(key)
        if key != old:
            changes.append((account_id, key))
    for account_id, _ in changes:  # through a placeholder, so that no key clashes half-way
        connection.execute(accounts.update().where(accounts.c.id == account_id).values(key=f"#{account_id}"))
    for account_id, key in changes:
        connection.execute(accounts.update().where(accounts.c.id == account_id).values(key=key))


def downgrade() -> None:
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_sign_in_failures_key", "sign_in_failures", ["key"])
    with op.batch_alter_table("api_tokens") as batch:
        batch.drop_column("scope")
    op.drop_table("trusted")
