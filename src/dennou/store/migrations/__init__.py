"""Alembic migrations of the store schema."""
