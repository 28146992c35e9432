"""A new database is created from the schema's metadata and stamped; an old one is migrated."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from dennou.server.testing import drop_postgres_database, fresh_postgres_database, postgres_url
from dennou.store import Store, database_url
from dennou.store.store import MIGRATIONS, newest_migration


@pytest.fixture(params=["sqlite", "postgresql"])
def two_urls(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two empty databases of one kind."""
    if request.param == "sqlite":
        yield database_url(None, tmp_path / "a"), database_url(None, tmp_path / "b")
        return
    url = postgres_url()
    if url is None:
        pytest.skip("no PostgreSQL (DENNOU_TEST_POSTGRES_URL)")
    made = [fresh_postgres_database(url) for _ in range(2)]
    try:
        yield database_url(made[0][0], "."), database_url(made[1][0], ".")
    finally:
        for _, name in made:
            drop_postgres_database(url, name)


def upgrade(url: str, revision: str) -> None:
    engine = sa.create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    engine.dispose()


def described(url: str) -> dict[str, Any]:
    """Every table's columns, keys, indexes and constraints as the database reports them."""
    engine = sa.create_engine(url)
    found: dict[str, Any] = {}
    with engine.connect() as conn:
        inspector = sa.inspect(conn)
        for name in sorted(inspector.get_table_names()):
            found[name] = (
                [
                    (c["name"], str(c["type"]), c["nullable"], str(c.get("default")))
                    for c in inspector.get_columns(name)
                ],
                sorted(
                    (i["name"], tuple(i["column_names"]), bool(i["unique"]))
                    for i in inspector.get_indexes(name)
                ),
                sorted(
                    (u["name"], tuple(u["column_names"]))
                    for u in inspector.get_unique_constraints(name)
                ),
                inspector.get_pk_constraint(name),
                sorted(
                    (f["name"], tuple(f["constrained_columns"]), f["referred_table"])
                    for f in inspector.get_foreign_keys(name)
                ),
                sorted((c["name"], c["sqltext"]) for c in inspector.get_check_constraints(name)),
            )
        found["alembic_version"] = conn.execute(
            sa.text("SELECT version_num FROM alembic_version")
        ).all()
    engine.dispose()
    return found


def test_a_new_database_is_created_as_the_migrations_make_it(two_urls: tuple[str, str]) -> None:
    migrated, created = two_urls
    upgrade(migrated, "head")
    Store(created).close()
    assert described(created) == described(migrated)
    assert described(created)["alembic_version"] == [(newest_migration(),)]


def test_an_old_database_still_upgrades_to_the_newest_migration(
    two_urls: tuple[str, str],
) -> None:
    old, created = two_urls
    upgrade(old, "0005")
    Store(old).close()
    Store(created).close()
    assert described(old) == described(created)


def test_a_new_database_is_created_without_the_migration_tool(tmp_path: Path) -> None:
    url = database_url(None, tmp_path)
    code = (
        f"import sys\nfrom dennou.store import Store\nStore({url!r}).close()\n"
        "print('alembic' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "False"
