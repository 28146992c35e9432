"""Reports of talk lines to the host's operators.

- ``talk_reports``: one row per talk line a person reported (the words as they read them, the
  reason), until an operator resolves it.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``talk_reports``."""
    op.create_table(
        "talk_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("reporter", sa.String(64), nullable=False),
        sa.Column("talker", sa.String(96), nullable=False),
        sa.Column("channel", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("resolved_by", sa.String(64), nullable=True),
        sa.Column("resolved_at", sa.Float, nullable=True),
        sa.Column("resolution", sa.String(32), nullable=True),
        sa.UniqueConstraint(
            "table_id", "version", "reporter", name="uq_talk_reports_line_reporter"
        ),
    )
    op.create_index("ix_talk_reports_reporter", "talk_reports", ["reporter"])


def downgrade() -> None:
    """Drop ``talk_reports``."""
    op.drop_index("ix_talk_reports_reporter", table_name="talk_reports")
    op.drop_table("talk_reports")
