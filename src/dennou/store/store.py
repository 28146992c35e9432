"""The store: accounts, tables, every step, results and per-game accounts, in SQL.

SQLite (a file in the data directory, no set-up) by default, PostgreSQL by URL; one schema for
both, created and upgraded by alembic migrations when the store opens. The server never writes
from its event loop: :class:`AsyncStore` runs every call on one writer thread, in order, and
groups consecutive step appends into one transaction (group commit), so a step is durable before
the table broadcasts it without making every table wait for its own fsync. Every database
failure reaches the caller as a :class:`~dennou.core.errors.StoreError` (protocol code
``store``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import queue
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import sqlalchemy as sa

from dennou.core.errors import StoreError
from dennou.core.jsondata import encode
from dennou.core.record import Record, Step
from dennou.store import schema

T = TypeVar("T")

MIGRATIONS = Path(__file__).with_name("migrations")


def hash_token(token: str) -> str:
    """SHA-256 of a token (tokens are 256-bit random, so a fast hash is the right one)."""
    return hashlib.sha256(token.encode()).hexdigest()


def database_url(db: str | None, data_dir: str | Path) -> str:
    """The SQLAlchemy URL for ``--db`` (``None``: SQLite in ``data_dir``).

    ``postgresql://`` URLs are given the psycopg 3 driver.
    """
    if db is None:
        path = Path(data_dir)
        path.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(path / 'dennou.sqlite3').resolve()}"
    if db.startswith("postgresql://") or db.startswith("postgres://"):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    return db


@functools.cache
def newest_migration() -> str | None:
    """The revision of the newest migration, read from the migration files.

    ``None`` when there is not exactly one (alembic then sorts it out). Read here rather than by
    alembic, whose import takes longer than the host's start without it.
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        revision = re.search(r"^revision\b[^=\n]*=\s*[\"']([^\"']+)[\"']", text, re.M)
        if revision is None:
            continue
        revisions.add(revision.group(1))
        down = re.search(r"^down_revision\b[^=\n]*=(.*)$", text, re.M)
        if down is not None:
            parents.update(re.findall(r"[\"']([^\"']+)[\"']", down.group(1)))
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


class TableRow(msgspec.Struct):
    """A stored table (see :data:`dennou.store.schema.tables`)."""

    id: str
    game: str
    version: int
    rules: dict[str, Any]
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    players: list[str] | None
    status: str
    seed: int | None
    created_by: str | None
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None
    outcome: dict[str, Any] | None = None


class Store:
    """Synchronous access to the database (used from one thread at a time by the server).

    Args:
        url: A SQLAlchemy URL (see :func:`database_url`).
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        self.engine = sa.create_engine(url, **kwargs)
        self._writer: sa.Connection | None = None
        self._insert_step: str | None = None
        if self.sqlite:
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self.migrate()

    def migrate(self) -> None:
        """Bring the schema to the newest migration (creates it in an empty database).

        A database already at the newest migration is only read, and an empty one is given the
        newest schema (:data:`dennou.store.schema.metadata`, which a test holds equal to what the
        migrations make) and stamped with the newest migration: alembic, slow to import and to
        run every migration, is loaded only for a database behind the newest migration.
        """
        try:
            state = self._schema_state()
            if state == "newest":
                return
            newest = newest_migration()
            if state == "empty" and newest is not None:
                self._create_newest(newest)
                return
            from alembic import command
            from alembic.config import Config

            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS))
            with self.engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except sa.exc.SQLAlchemyError as exc:
            raise StoreError(f"cannot migrate the database at {self.url}: {exc}") from exc

    def _schema_state(self) -> str:
        """``newest`` (at the newest migration), ``empty`` (no tables) or ``behind``."""
        newest = newest_migration()
        with self.engine.connect() as conn:
            names = sa.inspect(conn).get_table_names()
            if not names:
                return "empty"
            if newest is None or "alembic_version" not in names:
                return "behind"
            rows = conn.execute(sa.text("SELECT version_num FROM alembic_version")).all()
        return "newest" if [row[0] for row in rows] == [newest] else "behind"

    def _create_newest(self, newest: str) -> None:
        """Create the newest schema in an empty database and stamp it as alembic would."""
        with self.engine.begin() as conn:
            schema.metadata.create_all(conn)
            conn.execute(
                sa.text(
                    "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
                    "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))"
                )
            )
            conn.execute(
                sa.text("INSERT INTO alembic_version (version_num) VALUES (:v)"), {"v": newest}
            )

    def close(self) -> None:
        """Release every connection."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self.engine.dispose()

    # --- accounts -------------------------------------------------------------------------
    def create_account(
        self,
        name: str,
        password_hash: str | None = None,
        *,
        token_name: str | None = "first token",
    ) -> str | None:
        """Register ``name`` and return its first API token (shown once; only its hash is kept).

        Names are unique without regard to case (``name.casefold()``) and by look: a name that
        shares a confusable skeleton (:func:`dennou.server.text.name_skeletons`) with a taken
        one is taken too. The name is kept as given.

        Args:
            name: The account's name (already checked: :func:`dennou.server.text.account_name`).
            password_hash: The password's hash, if the account has one.
            token_name: The first API token's name; ``None``: no token (``None`` returned).

        Raises:
            StoreError: The name is taken (in any case, or by a name that looks the same).
        """
        from dennou.store.names import name_key, name_skeletons

        folded, cased = name_skeletons(name)
        a = schema.accounts
        now = time.time()
        token = None if token_name is None else secrets.token_urlsafe(32)
        try:
            with self.engine.begin() as conn:
                looks = (
                    a.c.skeleton.in_((folded, cased))
                    | a.c.skeleton_cased.in_((folded, cased))
                    | (a.c.name_key == name_key(name))
                )
                twin = conn.execute(sa.select(a.c.name).where(looks).limit(1)).first()
                if twin is not None:
                    raise StoreError(f"the name {name!r} is taken (it looks like {twin[0]!r})")
                conn.execute(
                    a.insert().values(
                        name=name,
                        name_key=name_key(name),
                        skeleton=folded,
                        skeleton_cased=cased,
                        password_hash=password_hash,
                        created_at=now,
                    )
                )
                if token is not None and token_name is not None:
                    self._insert_token(conn, name, token_name, token, now)
        except sa.exc.IntegrityError:
            raise StoreError(f"the name {name!r} is taken") from None
        return token

    @staticmethod
    def _insert_token(
        conn: sa.Connection, account: str, token_name: str, token: str, now: float
    ) -> int:
        done = conn.execute(
            schema.api_tokens.insert().values(
                account=account, name=token_name, token_hash=hash_token(token), created_at=now
            )
        )
        key = done.inserted_primary_key
        assert key is not None
        return int(key[0])

    def account_for_token(self, token: str, *, touch_after: float = 60.0) -> str | None:
        """The account an API token belongs to, or ``None``.

        The token's ``last_used_at`` is brought up to date when it is older than
        ``touch_after`` seconds (one write a minute at most, not one per use).
        """
        t = schema.api_tokens
        digest = hash_token(token)
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(t.c.account, t.c.last_used_at).where(t.c.token_hash == digest)
            ).first()
        if row is None:
            return None
        now = time.time()
        if row.last_used_at is None or now - row.last_used_at > touch_after:
            with self.engine.begin() as conn:
                conn.execute(t.update().where(t.c.token_hash == digest).values(last_used_at=now))
        return str(row.account)

    def account_exists(self, name: str) -> bool:
        """Whether an account called ``name`` exists."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(schema.accounts.c.id).where(schema.accounts.c.name == name)
            ).first()
        return row is not None

    def account_by_key(self, key: str) -> tuple[str, str | None] | None:
        """The account whose case-folded name is ``key``: its name and password hash."""
        a = schema.accounts
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(a.c.name, a.c.password_hash).where(a.c.name_key == key)
            ).first()
        return None if row is None else (str(row.name), row.password_hash)

    def set_password(self, account: str, password_hash: str) -> None:
        """Set an account's password hash."""
        a = schema.accounts
        with self.engine.begin() as conn:
            conn.execute(a.update().where(a.c.name == account).values(password_hash=password_hash))

    # --- API tokens and sessions ------------------------------------------------------------
    def create_api_token(self, account: str, token_name: str, most: int) -> tuple[int, str, float]:
        """A new API token of ``account``: its id, the token (shown once) and when it was made.

        Raises:
            StoreError: ``account`` already has ``most`` tokens.
        """
        t = schema.api_tokens
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self.engine.begin() as conn:
            count = conn.execute(
                sa.select(sa.func.count()).select_from(t).where(t.c.account == account)
            ).scalar_one()
            if count >= most:
                raise StoreError(f"an account has at most {most} API tokens: revoke one first")
            token_id = self._insert_token(conn, account, token_name, token, now)
        return token_id, token, now

    def api_tokens(self, account: str) -> list[dict[str, Any]]:
        """``account``'s API tokens, oldest first: ``id, name, created_at, last_used_at``."""
        t = schema.api_tokens
        query = (
            sa.select(t.c.id, t.c.name, t.c.created_at, t.c.last_used_at)
            .where(t.c.account == account)
            .order_by(t.c.id)
        )
        with self.engine.connect() as conn:
            return [{str(k): v for k, v in row._asdict().items()} for row in conn.execute(query)]

    def revoke_api_token(self, account: str, token_id: int) -> str | None:
        """Delete ``account``'s token ``token_id``; returns its hash.

        ``None``: ``account`` has no such token (another account's token is never touched).
        """
        t = schema.api_tokens
        mine = (t.c.id == token_id) & (t.c.account == account)
        with self.engine.begin() as conn:
            row = conn.execute(sa.select(t.c.token_hash).where(mine)).first()
            if row is None:
                return None
            conn.execute(t.delete().where(mine))
        return str(row[0])

    def create_session(self, account: str, lifetime: float, most: int) -> str:
        """A new browser session of ``account`` for ``lifetime`` seconds; its secret.

        The account's expired sessions are deleted, and its oldest ones while it has ``most``.
        """
        s = schema.sessions
        secret = secrets.token_urlsafe(32)
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(s.delete().where((s.c.account == account) & (s.c.expires_at <= now)))
            ids = conn.execute(
                sa.select(s.c.id).where(s.c.account == account).order_by(s.c.id.desc())
            ).all()
            stale = [row[0] for row in ids[max(0, most - 1) :]]
            if stale:
                conn.execute(s.delete().where(s.c.id.in_(stale)))
            conn.execute(
                s.insert().values(
                    account=account,
                    token_hash=hash_token(secret),
                    created_at=now,
                    expires_at=now + lifetime,
                )
            )
        return secret

    def account_for_session(self, secret: str) -> str | None:
        """The account of a session that has not expired, or ``None``."""
        s = schema.sessions
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(s.c.account).where(
                    (s.c.token_hash == hash_token(secret)) & (s.c.expires_at > time.time())
                )
            ).first()
        return None if row is None else str(row[0])

    def end_session(self, secret: str) -> None:
        """Delete a session (sign out); an unknown one is already gone."""
        s = schema.sessions
        with self.engine.begin() as conn:
            conn.execute(s.delete().where(s.c.token_hash == hash_token(secret)))

    def end_sessions(self, account: str, keep: str | None = None) -> int:
        """Delete ``account``'s sessions but ``keep`` (a secret); how many were deleted."""
        s = schema.sessions
        where = s.c.account == account
        if keep is not None:
            where &= s.c.token_hash != hash_token(keep)
        with self.engine.begin() as conn:
            return int(conn.execute(s.delete().where(where)).rowcount)

    # --- tables ---------------------------------------------------------------------------
    def create_table(self, row: TableRow) -> None:
        """Insert a new table."""
        with self.engine.begin() as conn:
            conn.execute(schema.tables.insert().values(**msgspec.structs.asdict(row)))

    def update_table(self, table_id: str, **fields: Any) -> None:
        """Update some columns of a table."""
        with self.engine.begin() as conn:
            conn.execute(
                schema.tables.update().where(schema.tables.c.id == table_id).values(**fields)
            )

    def get_table(self, table_id: str) -> TableRow | None:
        """A table by id, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(schema.tables).where(schema.tables.c.id == table_id)
            ).first()
        if row is None:
            return None
        try:
            return _table_row(row)
        except (msgspec.ValidationError, TypeError, ValueError) as exc:
            raise StoreError(f"table {table_id} cannot be read: {exc}") from None

    def tables(
        self,
        statuses: Sequence[str] | None = None,
        limit: int = 200,
        *,
        bad: list[tuple[str, str]] | None = None,
    ) -> list[TableRow]:
        """Tables, newest first, optionally only those with the given statuses.

        A row that cannot be read (a column of the wrong shape) is left out, never fatal: its id
        and the reason go to ``bad`` when given.
        """
        query = sa.select(schema.tables).order_by(schema.tables.c.created_at.desc()).limit(limit)
        if statuses is not None:
            query = query.where(schema.tables.c.status.in_(list(statuses)))
        out = []
        with self.engine.connect() as conn:
            for r in conn.execute(query):
                try:
                    out.append(_table_row(r))
                except (msgspec.ValidationError, TypeError, ValueError) as exc:
                    if bad is not None:
                        bad.append((str(r._asdict().get("id")), str(exc)))
        return out

    def append_steps(self, rows: Iterable[tuple[str, int, Step]]) -> None:
        """Append steps ``(table_id, idx, step)`` in one transaction.

        The hot path of a busy host (every action of every table): the statement is compiled
        once, each step encoded once (the JSON column's text), and the writer keeps its own
        connection between transactions; a failed transaction gives that connection up.

        Raises:
            StoreError: A step index is already taken (a bug: steps are never rewritten), or the
                database failed (the next call opens a new connection).
        """
        if self._insert_step is None:
            self._insert_step = str(schema.steps.insert().compile(dialect=self.engine.dialect))
        if self.engine.dialect.positional:
            values: list[Any] = [(t, i, _encode_text(s)) for t, i, s in rows]
        else:
            values = [{"table_id": t, "idx": i, "step": _encode_text(s)} for t, i, s in rows]
        if not values:
            return
        try:
            if self._writer is None:
                self._writer = self.engine.connect()
            with self._writer.begin():
                self._writer.exec_driver_sql(self._insert_step, values)
        except sa.exc.SQLAlchemyError as exc:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
            if isinstance(exc, sa.exc.IntegrityError):
                raise StoreError(f"step already stored: {exc}") from None
            raise _as_store_error(exc) from exc

    def steps(self, table_id: str) -> list[Step]:
        """Every stored step of a table, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(schema.steps.c.idx, schema.steps.c.step)
                .where(schema.steps.c.table_id == table_id)
                .order_by(schema.steps.c.idx)
            ).all()
        out = []
        for expected, (idx, data) in enumerate(rows):
            if idx != expected:
                raise StoreError(f"table {table_id}: step {expected} is missing")
            out.append(msgspec.convert(data, Step))
        return out

    def record(self, table_id: str) -> Record | None:
        """The record of a table that has started (``None``: no such table or not started)."""
        row = self.get_table(table_id)
        if row is None or row.players is None:
            return None
        return Record(
            game=row.game,
            version=row.version,
            rules=row.rules,
            players=row.players,
            steps=self.steps(table_id),
            seed=row.seed,
            outcome=row.outcome,
            meta={
                "table": row.id,
                "seats": row.seats,
                "started_at": row.started_at,
                "finished_at": row.finished_at,
            },
        )

    def finish_table(
        self,
        table_id: str,
        outcome: dict[str, Any] | None,
        results: Sequence[dict[str, Any]],
        accounts: Sequence[tuple[str, str, str, Any]],
        *,
        status: str = "finished",
        aborted_by: str | None = None,
    ) -> None:
        """Mark a table over, with its players' results and account updates, atomically.

        Args:
            table_id: The table.
            outcome: The outcome JSON (``None`` for an aborted game).
            results: Rows for :data:`~dennou.store.schema.results`.
            accounts: ``(account, game, key, value)`` to set in the per-game accounts.
            status: ``finished``, or ``aborted`` (no outcome, no results).
            aborted_by: The account that aborted the game, if a player did (it is counted).
        """
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                schema.tables.update()
                .where(schema.tables.c.id == table_id)
                .values(status=status, outcome=outcome, finished_at=now)
            )
            conn.execute(schema.results.delete().where(schema.results.c.table_id == table_id))
            if results:
                conn.execute(
                    schema.results.insert(),
                    [{**r, "table_id": table_id, "finished_at": now} for r in results],
                )
            for account, game, key, value in accounts:
                self._set_account(conn, account, game, key, value, table_id, now)
            if aborted_by is not None:
                conn.execute(schema.aborts.delete().where(schema.aborts.c.table_id == table_id))
                conn.execute(
                    schema.aborts.insert().values(
                        table_id=table_id, account=aborted_by, aborted_at=now
                    )
                )

    # --- cluster leases ---------------------------------------------------------------------
    def take_lease(self, name: str, owner: str, ttl: float, now: float | None = None) -> str:
        """Take or renew the lease ``name`` for ``owner`` unless another owner holds it.

        One statement decides (an update of a lease that is ``owner``'s or expired, else an
        insert that fails if someone inserted first): two processes never both get it.

        Returns:
            The owner now: ``owner`` when it got the lease, else who holds it.
        """
        now = time.time() if now is None else now
        leases = schema.leases
        with self.engine.begin() as conn:
            taken = conn.execute(
                leases.update()
                .where(leases.c.name == name)
                .where(sa.or_(leases.c.owner == owner, leases.c.expires_at < now))
                .values(owner=owner, expires_at=now + ttl)
            ).rowcount
            if taken:
                return owner
            held = conn.execute(
                sa.select(leases.c.owner).where(leases.c.name == name)
            ).scalar_one_or_none()
        if held is not None:
            return str(held)
        try:
            with self.engine.begin() as conn:
                conn.execute(leases.insert().values(name=name, owner=owner, expires_at=now + ttl))
            return owner
        except sa.exc.IntegrityError:
            return self.lease_owner(name, now) or self.take_lease(name, owner, ttl, now)

    def lease_owner(self, name: str, now: float | None = None) -> str | None:
        """Who holds the lease ``name`` now (``None``: nobody, or it expired)."""
        now = time.time() if now is None else now
        leases = schema.leases
        with self.engine.connect() as conn:
            held = conn.execute(
                sa.select(leases.c.owner)
                .where(leases.c.name == name)
                .where(leases.c.expires_at >= now)
            ).scalar_one_or_none()
        return None if held is None else str(held)

    def renew_leases(self, owner: str, ttl: float, now: float | None = None) -> set[str]:
        """Extend every lease ``owner`` holds; returns their names (the ones it still has)."""
        now = time.time() if now is None else now
        leases = schema.leases
        with self.engine.begin() as conn:
            conn.execute(
                leases.update().where(leases.c.owner == owner).values(expires_at=now + ttl)
            )
            names = conn.execute(sa.select(leases.c.name).where(leases.c.owner == owner)).all()
        return {str(n) for (n,) in names}

    def release_leases(self, owner: str, names: Sequence[str] | None = None) -> None:
        """Give up ``owner``'s leases (``names``; ``None``: all of them)."""
        leases = schema.leases
        query = leases.delete().where(leases.c.owner == owner)
        if names is not None:
            query = query.where(leases.c.name.in_(list(names)))
        with self.engine.begin() as conn:
            conn.execute(query)

    def unowned_tables(self, limit: int, now: float | None = None) -> list[str]:
        """Waiting or playing tables whose lease is missing or expired, oldest first."""
        now = time.time() if now is None else now
        tables, leases = schema.tables, schema.leases
        query = (
            sa.select(tables.c.id)
            .select_from(tables.outerjoin(leases, leases.c.name == tables.c.id))
            .where(tables.c.status.in_(["waiting", "playing"]))
            .where(sa.or_(leases.c.name.is_(None), leases.c.expires_at < now))
            .order_by(tables.c.created_at)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [str(t) for (t,) in conn.execute(query).all()]

    def open_tables_by(self, account: str) -> int:
        """Waiting or playing tables ``account`` created."""
        tables = schema.tables
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    sa.select(sa.func.count())
                    .select_from(tables)
                    .where(tables.c.created_by == account)
                    .where(tables.c.status.in_(["waiting", "playing"]))
                ).scalar_one()
            )

    def aborts(self, account: str) -> int:
        """How many games ``account`` has aborted."""
        with self.engine.connect() as conn:
            count = conn.execute(
                sa.select(sa.func.count())
                .select_from(schema.aborts)
                .where(schema.aborts.c.account == account)
            ).scalar()
        return int(count or 0)

    def _set_account(
        self,
        conn: sa.Connection,
        account: str,
        game: str,
        key: str,
        value: Any,
        table_id: str | None,
        now: float,
    ) -> None:
        ga = schema.game_accounts
        where = (ga.c.account == account) & (ga.c.game == game) & (ga.c.key == key)
        done = conn.execute(
            ga.update().where(where).values(value=value, table_id=table_id, updated_at=now)
        )
        if done.rowcount == 0:
            conn.execute(
                ga.insert().values(
                    account=account,
                    game=game,
                    key=key,
                    value=value,
                    table_id=table_id,
                    updated_at=now,
                )
            )

    def set_game_account(self, account: str, game: str, key: str, value: Any) -> None:
        """Set one entry of a player's per-game account (admin use and tests)."""
        with self.engine.begin() as conn:
            self._set_account(conn, account, game, key, value, None, time.time())

    def game_accounts(self, account: str, game: str | None = None) -> dict[str, dict[str, Any]]:
        """A player's per-game accounts: ``{game: {key: value}}``."""
        ga = schema.game_accounts
        query = sa.select(ga.c.game, ga.c.key, ga.c.value).where(ga.c.account == account)
        if game is not None:
            query = query.where(ga.c.game == game)
        out: dict[str, dict[str, Any]] = {}
        with self.engine.connect() as conn:
            for g, k, v in conn.execute(query):
                out.setdefault(g, {})[k] = v
        return out

    def games_over(
        self, game: str | None = None, limit: int = 30, offset: int = 0
    ) -> list[dict[str, Any]]:
        """Games that are over (finished or aborted), newest first: the web app's lobby.

        Each: ``id, game, status, players, outcome, finished_at``.
        """
        t = schema.tables
        query = (
            sa.select(t.c.id, t.c.game, t.c.status, t.c.players, t.c.outcome, t.c.finished_at)
            .where(t.c.status.in_(("finished", "aborted")))
            .order_by(t.c.finished_at.desc().nulls_last(), t.c.id)
            .limit(limit)
            .offset(offset)
        )
        if game is not None:
            query = query.where(t.c.game == game)
        with self.engine.connect() as conn:
            return [dict(row._asdict()) for row in conn.execute(query)]

    def results_by_account(self, game: str, limit: int = 500) -> list[dict[str, Any]]:
        """Per account, its results at ``game``, most wins first, then the best mean score.

        Each: ``name, games, wins, draws, mean_score, mean_rank``.
        """
        r = schema.results
        wins = sa.func.sum(sa.case((r.c.result == "win", 1), else_=0))
        draws = sa.func.sum(sa.case((r.c.result == "draw", 1), else_=0))
        query = (
            sa.select(
                r.c.account,
                sa.func.count().label("games"),
                wins.label("wins"),
                draws.label("draws"),
                sa.func.avg(r.c.score).label("mean_score"),
                sa.func.avg(r.c.rank).label("mean_rank"),
            )
            .where(r.c.game == game)
            .group_by(r.c.account)
            .order_by(wins.desc(), sa.func.avg(r.c.score).desc(), r.c.account)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [
                {
                    "name": row.account,
                    "games": int(row.games),
                    "wins": int(row.wins or 0),
                    "draws": int(row.draws or 0),
                    "mean_score": float(row.mean_score),
                    "mean_rank": float(row.mean_rank),
                }
                for row in conn.execute(query)
            ]

    def history(self, account: str, limit: int = 100) -> list[dict[str, Any]]:
        """A player's finished games, newest first."""
        r = schema.results
        query = (
            sa.select(r.c.table_id, r.c.game, r.c.seat, r.c.result, r.c.score, r.c.rank)
            .add_columns(r.c.finished_at)
            .where(r.c.account == account)
            .order_by(r.c.finished_at.desc(), r.c.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [{str(k): v for k, v in row._asdict().items()} for row in conn.execute(query)]


def _table_row(row: Any) -> TableRow:
    """A stored row as a :class:`TableRow`, every column checked (a bad row raises)."""
    return msgspec.convert({str(k): v for k, v in row._asdict().items()}, TableRow)


def _as_store_error(exc: BaseException) -> BaseException:
    """A database failure as a :class:`StoreError` (other exceptions are passed through)."""
    if isinstance(exc, sa.exc.SQLAlchemyError):
        error = StoreError(f"the database failed: {type(exc).__name__}: {str(exc)[:300]}")
        error.__cause__ = exc
        return error
    return exc


def _encode_text(value: Any) -> str:
    """A JSON column's text, as :mod:`json` would read it back."""
    return encode(value).decode()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL + synchronous=NORMAL: a committed transaction survives the process being killed
    # (SIGKILL); only a power loss may drop the last commits. Readers never block the writer.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class _Job:
    __slots__ = ("args", "fn", "future", "step")

    def __init__(
        self,
        fn: Callable[..., Any] | None,
        args: tuple[Any, ...],
        step: Any,
        future: asyncio.Future[Any],
    ) -> None:
        self.fn = fn
        self.args = args
        self.step = step
        self.future = future


_Outcome = tuple["asyncio.Future[Any]", bool, Any]
"""A job's future, whether it succeeded, and its result or exception."""


class AsyncStore:
    """A :class:`Store` driven from asyncio, calls in order, step appends group-committed.

    The calls made while the event loop runs what is ready now go to the writer thread
    together; step appends waiting together are committed in one transaction, and the loop is
    woken once per flush to resume every caller whose work is done (each ``await`` returns once
    its step is committed). The work runs on one writer thread, so that a slow write (a
    checkpoint, an fsync, a network round trip) never stalls the event loop; a benchmark may run
    it inline on the loop instead (``threaded=False``). An exception from the database reaches
    the caller as a :class:`StoreError`.

    Args:
        store: The synchronous store.
        threaded: The writer thread on (default) or off (work runs on the loop).
    """

    def __init__(self, store: Store, *, threaded: bool | None = None) -> None:
        self.store = store
        self.threaded = True if threaded is None else threaded
        self._queue: queue.SimpleQueue[tuple[asyncio.AbstractEventLoop, list[_Job]] | None] = (
            queue.SimpleQueue()
        )
        self._pending: list[_Job] = []
        self._scheduled = False
        self._thread: threading.Thread | None = None
        if self.threaded:
            self._thread = threading.Thread(target=self._run, name="dennou-store", daemon=True)
            self._thread.start()
        self.commits = 0
        self.steps_written = 0
        self.busy = 0.0
        """Seconds the loop spent writing (inline mode)."""
        self.slowest = 0.0
        """The longest single flush, in seconds (inline mode)."""

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn(*args, **kwargs)`` (a method of the store) after everything queued before."""
        if kwargs:
            fn = functools.partial(fn, **kwargs)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._submit(_Job(fn, args, None, future))
        return await future

    async def append_step(self, table_id: str, idx: int, step: Step) -> None:
        """Durably append one step (group-committed with others waiting)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._submit(_Job(None, (), (table_id, idx, step), future))
        await future

    def _submit(self, job: _Job) -> None:
        self._pending.append(job)
        if not self._scheduled:
            # hand over once the loop has run everything ready now: that is the group
            self._scheduled = True
            job.future.get_loop().call_soon(self._hand_over)

    def _hand_over(self) -> None:
        jobs, self._pending, self._scheduled = self._pending, [], False
        if not jobs:
            return
        if self.threaded:
            self._queue.put((jobs[0].future.get_loop(), jobs))
            return
        started = time.perf_counter()
        _settle(self._flush(jobs))
        spent = time.perf_counter() - started
        self.busy += spent
        self.slowest = max(self.slowest, spent)

    def close(self) -> None:
        """Finish queued work and stop the writer thread."""
        if self._pending:
            jobs, self._pending = self._pending, []
            if self._thread is not None:
                self._queue.put((jobs[0].future.get_loop(), jobs))
            else:
                self._flush(jobs)  # written; nobody is left to resume
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)
        self.store.close()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batches = [item]
            stop = False
            while True:  # everything waiting goes in this flush
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batches.append(more)
            for loop, jobs in _by_loop(batches):
                outcomes = self._flush(jobs)
                with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits
                    loop.call_soon_threadsafe(_settle, outcomes)
            if stop:
                return

    def _flush(self, jobs: list[_Job]) -> list[_Outcome]:
        outcomes: list[_Outcome] = []
        batch: list[_Job] = []
        for job in jobs:
            if job.fn is None:
                batch.append(job)
                continue
            self._commit(batch, outcomes)
            batch = []
            try:
                outcomes.append((job.future, True, job.fn(*job.args)))
            except BaseException as exc:  # handed to the awaiting caller
                outcomes.append((job.future, False, _as_store_error(exc)))
        self._commit(batch, outcomes)
        return outcomes

    def _commit(self, batch: list[_Job], outcomes: list[_Outcome]) -> None:
        if not batch:
            return
        try:
            self.store.append_steps(job.step for job in batch)
        except BaseException as exc:
            if len(batch) == 1:
                outcomes.append((batch[0].future, False, _as_store_error(exc)))
                return
            for job in batch:  # find the faulty one; the others still go in
                self._commit([job], outcomes)
            return
        self.commits += 1
        self.steps_written += len(batch)
        outcomes.extend((job.future, True, None) for job in batch)


def _by_loop(
    batches: list[tuple[asyncio.AbstractEventLoop, list[_Job]]],
) -> list[tuple[asyncio.AbstractEventLoop, list[_Job]]]:
    """Consecutive batches of one event loop joined: one flush, one wake-up."""
    out: list[tuple[asyncio.AbstractEventLoop, list[_Job]]] = []
    for loop, jobs in batches:
        if out and out[-1][0] is loop:
            out[-1][1].extend(jobs)
        else:
            out.append((loop, list(jobs)))
    return out


def _settle(outcomes: list[_Outcome]) -> None:
    """Resume the callers of a flush (on their event loop)."""
    for future, ok, value in outcomes:
        if future.cancelled():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)
