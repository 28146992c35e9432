"""Alembic environment: migrations run on the connection the store hands over."""

from __future__ import annotations

from alembic import context

from dennou.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the store always passes its connection
    raise RuntimeError("dennou migrations run through dennou.store.Store.migrate()")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
