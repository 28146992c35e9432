from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from dennou.store import Store, database_url


def postgres_url() -> str | None:
    url = os.environ.get("DENNOU_TEST_POSTGRES_URL")
    if not url:
        if os.environ.get("DENNOU_REQUIRE_POSTGRES") == "1":
            pytest.fail("DENNOU_REQUIRE_POSTGRES=1 but DENNOU_TEST_POSTGRES_URL is not set")
        pytest.skip("no PostgreSQL (source scripts/ci-services.sh to get one)")
    return url


def fresh_postgres_database(url: str) -> tuple[str, str]:
    """Create an empty database next to the one in ``url``; returns (its url, its name)."""
    import sqlalchemy as sa

    name = "dennou_test_" + secrets.token_hex(4)
    admin = sa.create_engine(database_url(url, "."), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    base = url.rsplit("/", 1)[0]
    return f"{base}/{name}", name


def drop_postgres_database(url: str, name: str) -> None:
    import sqlalchemy as sa

    admin = sa.create_engine(database_url(url, "."), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield database_url(None, tmp_path / "data")
        return
    url = postgres_url()
    assert url is not None
    fresh, name = fresh_postgres_database(url)
    yield database_url(fresh, ".")
    drop_postgres_database(url, name)


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = Store(store_url)
    yield s
    s.close()
