"""Persistence for the host: SQLite by default, PostgreSQL by URL, one migrated schema."""

from __future__ import annotations

from dennou.store.store import AsyncStore, Store, TableRow, database_url, hash_token

__all__ = ["AsyncStore", "Store", "TableRow", "database_url", "hash_token"]
