"""A player's rating over time.

- ``rating_history``: each player's rating (μ, σ, games) just after each table that moved it,
  written in the same transaction as the move; earlier moves were not kept, so a chart starts
  at this migration.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``rating_history``."""
    op.create_table(
        "rating_history",
        sa.Column("player", sa.String(96), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(255), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("rated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_rated_at", "rating_history", ["rated_at"])


def downgrade() -> None:
    """Drop ``rating_history``."""
    op.drop_index("ix_rating_history_rated_at", table_name="rating_history")
    op.drop_table("rating_history")
