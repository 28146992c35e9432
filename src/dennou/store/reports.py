"""Reports of talk lines to the host's operators, in the store.

One table (created by migration ``0007``; ``tests/store`` checks it matches this metadata):
``talk_reports``, one row per line a person reported, with the words as the reporter read them
(so an operator sees what was reported even after the table is gone), until an operator
resolves it.
"""

from __future__ import annotations

import time

import msgspec
import sqlalchemy as sa

from dennou.core.errors import StoreError
from dennou.store.schema import metadata
from dennou.store.store import Store

talk_reports = sa.Table(
    "talk_reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("reporter", sa.String(64), nullable=False, index=True),
    sa.Column("talker", sa.String(96), nullable=False),
    sa.Column("channel", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("resolved_by", sa.String(64), nullable=True),
    sa.Column("resolved_at", sa.Float, nullable=True),
    sa.Column("resolution", sa.String(32), nullable=True),
    sa.UniqueConstraint("table_id", "version", "reporter", name="uq_talk_reports_line_reporter"),
)
"""Talk lines reported to the operators (one report per line and reporter)."""


class ReportRow(msgspec.Struct, kw_only=True):
    """A stored report (see :data:`talk_reports`)."""

    id: int
    table_id: str
    version: int
    reporter: str
    talker: str
    channel: str
    text: str
    reason: str
    created_at: float
    resolved_by: str | None = None
    resolved_at: float | None = None
    resolution: str | None = None


class ReportStore:
    """Report queries on a :class:`~dennou.store.Store` (called through its ``AsyncStore``).

    Args:
        store: The store.
    """

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def add(
        self,
        table_id: str,
        version: int,
        reporter: str,
        talker: str,
        channel: str,
        text: str,
        reason: str,
    ) -> ReportRow | None:
        """Store a report; ``None`` when this reporter already reported this line."""
        values = {
            "table_id": table_id,
            "version": version,
            "reporter": reporter,
            "talker": talker,
            "channel": channel,
            "text": text,
            "reason": reason,
            "created_at": time.time(),
        }
        try:
            with self.engine.begin() as conn:
                new_id = conn.execute(talk_reports.insert().values(**values)).inserted_primary_key
        except sa.exc.IntegrityError:
            return None
        assert new_id is not None
        return ReportRow(id=int(new_id[0]), **values)  # type: ignore[arg-type]

    def open_count(self, reporter: str) -> int:
        """How many of this account's reports no operator has resolved yet."""
        r = talk_reports
        query = (
            sa.select(sa.func.count())
            .select_from(r)
            .where((r.c.reporter == reporter) & r.c.resolved_at.is_(None))
        )
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def listing(self, resolved: bool, limit: int) -> list[ReportRow]:
        """Open reports oldest first (``resolved``: resolved ones, newest first)."""
        r = talk_reports
        if resolved:
            query = sa.select(r).where(r.c.resolved_at.is_not(None)).order_by(r.c.id.desc())
        else:
            query = sa.select(r).where(r.c.resolved_at.is_(None)).order_by(r.c.id)
        with self.engine.connect() as conn:
            return [ReportRow(**row._asdict()) for row in conn.execute(query.limit(limit))]

    def resolve(self, report_id: int, operator: str, resolution: str) -> ReportRow:
        """Mark a report resolved by ``operator``.

        Raises:
            StoreError: No such report.
        """
        r = talk_reports
        with self.engine.begin() as conn:
            conn.execute(
                r.update()
                .where((r.c.id == report_id) & r.c.resolved_at.is_(None))
                .values(resolved_by=operator, resolved_at=time.time(), resolution=resolution)
            )
            row = conn.execute(sa.select(r).where(r.c.id == report_id)).first()
        if row is None:
            raise StoreError(f"no report {report_id}")
        return ReportRow(**row._asdict())


__all__ = ["ReportRow", "ReportStore", "talk_reports"]
