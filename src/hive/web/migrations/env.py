"""Alembic's entry point: the migrations run on the connection the caller gives (see the package's ``upgrade``)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through hive.web.migrations.upgrade, which gives a connection")
context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
