"""Hardening: case-insensitive account names, unseeded tables, tables by creator.

- ``accounts.name_key``: the name's case-folded form, unique, so ``ALICE`` and ``alice`` cannot
  both exist (the name itself is kept as registered and matched exactly).
- ``tables.seed`` may be null: a table without a seed draws every deal from fresh server-side
  randomness (only practice tables and the operator's tables carry a seed).
- ``tables.created_by`` is indexed: the host counts each account's open tables.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the name key (filled from the names), relax the seed, index the creator."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_key", sa.String(64), nullable=True))
    accounts = sa.table("accounts", sa.column("id"), sa.column("name"), sa.column("name_key"))
    conn = op.get_bind()
    for row_id, name in conn.execute(sa.select(accounts.c.id, accounts.c.name)).all():
        conn.execute(
            accounts.update().where(accounts.c.id == row_id).values(name_key=name.casefold())
        )
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("name_key", existing_type=sa.String(64), nullable=False)
        batch.create_index("ix_accounts_name_key", ["name_key"], unique=True)
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("seed", existing_type=sa.BigInteger, nullable=True)
        batch.create_index("ix_tables_created_by", ["created_by"])


def downgrade() -> None:
    """Drop what :func:`upgrade` added (unseeded tables get seed 0)."""
    op.execute("UPDATE tables SET seed = 0 WHERE seed IS NULL")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_created_by")
        batch.alter_column("seed", existing_type=sa.BigInteger, nullable=False)
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ix_accounts_name_key")
        batch.drop_column("name_key")
