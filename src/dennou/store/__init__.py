"""Persistence for the host: SQLite by default, PostgreSQL by URL, one migrated schema."""

from __future__ import annotations

from dennou.store.store import AsyncStore, Store, TableRow, database_url, hash_token

# Their tables join the schema's metadata, from which a new database is created (Store.migrate).
from dennou.store import reports, tournaments  # isort: skip

__all__ = [
    "AsyncStore",
    "Store",
    "TableRow",
    "database_url",
    "hash_token",
    "reports",
    "tournaments",
]
