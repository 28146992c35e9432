"""Tournaments, their matches, and the leaderboards (ratings and rated tables).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the tournament and rating tables."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_matches",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("match", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("preset", sa.String(255), primary_key=True),
        sa.Column("player", sa.String(96), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rated_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(255), nullable=False),
        sa.Column("rated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    for name in ("rated_tables", "ratings", "tournament_matches", "tournaments"):
        op.drop_table(name)
