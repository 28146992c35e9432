from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dennou.server.testing import drop_postgres_database, fresh_postgres_database, postgres_url
from dennou.store import Store, database_url


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
