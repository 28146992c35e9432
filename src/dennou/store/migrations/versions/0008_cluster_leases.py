"""Cluster leases: which host process owns each table (``dennou serve --broker``).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``cluster_leases``."""
    op.create_table(
        "cluster_leases",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_cluster_leases_owner", "cluster_leases", ["owner"])
    op.create_index("ix_cluster_leases_expires_at", "cluster_leases", ["expires_at"])


def downgrade() -> None:
    """Drop ``cluster_leases``."""
    op.drop_index("ix_cluster_leases_expires_at", table_name="cluster_leases")
    op.drop_index("ix_cluster_leases_owner", table_name="cluster_leases")
    op.drop_table("cluster_leases")
