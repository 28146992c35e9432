"""The one database schema (SQLite and PostgreSQL alike), as SQLAlchemy Core tables.

The alembic migrations under ``migrations/versions`` create exactly these tables; a test checks
that the migrated schema and this metadata agree.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("name_key", sa.String(64), nullable=False),
    sa.Column("skeleton", sa.String(256), nullable=False),
    sa.Column("skeleton_cased", sa.String(256), nullable=False),
    sa.Column("password_hash", sa.String(256), nullable=True),
    sa.Index("ix_accounts_name_key", "name_key", unique=True),
    sa.Index("ix_accounts_skeleton", "skeleton"),
    sa.Index("ix_accounts_skeleton_cased", "skeleton_cased"),
)
"""Players: a name, its case-folded key (unique: ``ALICE`` and ``alice`` are one name), its
confusable skeletons (``dennou.server.text.name_skeletons``: a new name may share neither with a
taken one) and, once one is set, the argon2 hash of its password (null: sign in by token only)."""

api_tokens = sa.Table(
    "api_tokens",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account", sa.String(64), nullable=False, index=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("last_used_at", sa.Float, nullable=True),
)
"""An account's API tokens, for its programs: a name, the SHA-256 of the token (the token itself
is shown once), when it was made and last used. Revoking one deletes its row."""

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account", sa.String(64), nullable=False, index=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)
"""Browser sessions (the web app's cookie), apart from API tokens: the SHA-256 of the cookie's
secret and when it expires. Signing out deletes the row."""

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("players", sa.JSON, nullable=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("created_by", sa.String(64), nullable=True, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("started_at", sa.Float, nullable=True),
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("outcome", sa.JSON, nullable=True),
)
"""Tables (game instances): status ``waiting`` -> ``playing`` -> ``finished`` (or ``aborted``).
``seed`` is null for tables whose deals come from fresh server-side randomness."""

steps = sa.Table(
    "steps",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("step", sa.JSON, nullable=False),
)
"""Every accepted step of every table, in order: ``idx`` 0 is the first step (version 1)."""

results = sa.Table(
    "results",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account", sa.String(64), nullable=False, index=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("result", sa.String(8), nullable=False),
    sa.Column("score", sa.Float, nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=False),
)
"""Per-player history: one row per account per finished game."""

game_accounts = sa.Table(
    "game_accounts",
    metadata,
    sa.Column("account", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.JSON, nullable=False),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("updated_at", sa.Float, nullable=False),
)
"""Per-game accounts that persist across games (Star Hi-Lo's series accounts, 口座)."""

aborts = sa.Table(
    "aborts",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("account", sa.String(64), nullable=False, index=True),
    sa.Column("aborted_at", sa.Float, nullable=False),
)
"""Every game a player aborted (one per table): an account's public info counts them."""

leases = sa.Table(
    "cluster_leases",
    metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("owner", sa.String(64), nullable=False, index=True),
    sa.Column("expires_at", sa.Float, nullable=False, index=True),
)
"""Who owns what in a cluster of host processes (``dennou serve --broker``): a table by its id,
or a role such as ``tournaments``. An owner renews its leases; one that expired may be taken."""
