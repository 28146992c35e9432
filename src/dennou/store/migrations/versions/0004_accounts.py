"""Real accounts: passwords, named API tokens, browser sessions, confusable-checked names.

- ``accounts.password_hash``: an argon2 hash (null: the account signs in by token only).
- ``accounts.skeleton`` and ``skeleton_cased``: the name's confusable skeletons (indexed; a new
  name may share neither with a taken one), filled from the names.
- ``api_tokens``: each account's tokens, named; the token each account was registered with
  moves there (``accounts.token_hash`` is dropped) and keeps working.
- ``sessions``: browser sessions, apart from the tokens.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the token and session tables, move the tokens, add the new account columns."""
    from dennou.store.names import name_skeletons

    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_api_tokens_account", "api_tokens", ["account"])
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account"])
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("skeleton", sa.String(256), nullable=True))
        batch.add_column(sa.Column("skeleton_cased", sa.String(256), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(256), nullable=True))
    accounts = sa.table(
        "accounts",
        sa.column("id"),
        sa.column("name"),
        sa.column("token_hash"),
        sa.column("created_at"),
        sa.column("skeleton"),
        sa.column("skeleton_cased"),
    )
    tokens = sa.table(
        "api_tokens",
        sa.column("account"),
        sa.column("name"),
        sa.column("token_hash"),
        sa.column("created_at"),
    )
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(accounts.c.id, accounts.c.name, accounts.c.token_hash, accounts.c.created_at)
    ).all()
    for row_id, name, token_hash, created_at in rows:
        folded, cased = name_skeletons(name)
        conn.execute(
            accounts.update()
            .where(accounts.c.id == row_id)
            .values(skeleton=folded, skeleton_cased=cased)
        )
        conn.execute(
            tokens.insert().values(
                account=name, name="first token", token_hash=token_hash, created_at=created_at
            )
        )
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("skeleton", existing_type=sa.String(256), nullable=False)
        batch.alter_column("skeleton_cased", existing_type=sa.String(256), nullable=False)
        batch.create_index("ix_accounts_skeleton", ["skeleton"])
        batch.create_index("ix_accounts_skeleton_cased", ["skeleton_cased"])
        batch.drop_column("token_hash")


def downgrade() -> None:
    """Put each account's oldest token back on the account; drop the rest.

    Accounts without a token get an unusable random hash (the column is required there).
    """
    import secrets

    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
    conn = op.get_bind()
    accounts = sa.table("accounts", sa.column("id"), sa.column("name"), sa.column("token_hash"))
    tokens = sa.table("api_tokens", sa.column("account"), sa.column("token_hash"))
    oldest: dict[str, str] = {}
    for account, token_hash in conn.execute(
        sa.select(tokens.c.account, tokens.c.token_hash).order_by(sa.text("id"))
    ).all():
        oldest.setdefault(account, token_hash)
    for row_id, name in conn.execute(sa.select(accounts.c.id, accounts.c.name)).all():
        value = oldest.get(name) or f"revoked-{secrets.token_hex(16)}-{time.time():.0f}"[:64]
        conn.execute(accounts.update().where(accounts.c.id == row_id).values(token_hash=value))
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("token_hash", existing_type=sa.String(64), nullable=False)
        batch.create_unique_constraint("uq_accounts_token_hash", ["token_hash"])
        batch.drop_index("ix_accounts_skeleton_cased")
        batch.drop_index("ix_accounts_skeleton")
        batch.drop_column("password_hash")
        batch.drop_column("skeleton_cased")
        batch.drop_column("skeleton")
    op.drop_table("sessions")
    op.drop_table("api_tokens")
