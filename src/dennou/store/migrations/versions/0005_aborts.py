"""Fair play: aborts are counted, and only counted tables keep results.

- ``aborts``: one row per game a player aborted (the account that asked); an account's public
  info shows how many.
- ``results`` keeps only the games that count (a table created ``rated``, or a tournament's;
  never a practice table, whose creator chose the deals): rows of other tables are removed.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``aborts``; drop the results of tables that do not count."""
    op.create_table(
        "aborts",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("aborted_at", sa.Float, nullable=False),
    )
    op.create_index("ix_aborts_account", "aborts", ["account"])
    tables = sa.table("tables", sa.column("id"), sa.column("options", sa.JSON))
    results = sa.table("results", sa.column("table_id"))
    conn = op.get_bind()
    scored = sa.select(results.c.table_id).distinct()
    uncounted = [
        table_id
        for table_id, options in conn.execute(
            sa.select(tables.c.id, tables.c.options).where(tables.c.id.in_(scored))
        ).all()
        if not isinstance(options, dict)
        or options.get("practice")
        or not (options.get("rated") or options.get("tournament"))
    ]
    for start in range(0, len(uncounted), 500):
        chunk = uncounted[start : start + 500]
        conn.execute(results.delete().where(results.c.table_id.in_(chunk)))


def downgrade() -> None:
    """Drop ``aborts`` (removed results stay removed)."""
    op.drop_index("ix_aborts_account", table_name="aborts")
    op.drop_table("aborts")
