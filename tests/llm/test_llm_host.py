"""A host seats the language models its operator declared (``dennou serve --llm``)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dennou.server.testing import ServerProcess

from .fakeserver import FakeEndpoint

SECRET = "sk-test-never-leaves-the-host"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def endpoint() -> Iterator[FakeEndpoint]:
    fake = FakeEndpoint("first", json_schema=False)
    yield fake
    fake.close()


def model_host(tmp_path: Path, url: str, monkeypatch: pytest.MonkeyPatch) -> ServerProcess:
    monkeypatch.setenv("TINY_KEY", SECRET)
    return ServerProcess(
        tmp_path / "data",
        limits={"model_seats_per_account": 2},
        args=[
            "--llm",
            f"tiny={url},model=fake,key_env=TINY_KEY",
            "--llm-log",
            str(tmp_path / "llm.log"),
        ],
    )


def finished_record(server: ServerProcess, table: str, timeout: float = 300) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = httpx.get(f"{server.http}/api/tables/{table}", timeout=10).json()
        if info["status"] in ("finished", "aborted"):
            reply = httpx.get(f"{server.http}/api/tables/{table}/record", timeout=10)
            assert reply.status_code == 200, reply.text
            return reply.text
        time.sleep(0.2)
    raise AssertionError(f"table {table} did not finish")


def play_on_host(server: ServerProcess, token: str, seats: list[str]) -> tuple[str, str]:
    made = httpx.post(
        f"{server.http}/api/tables",
        json={"game": "numeron", "seats": seats, "options": {"time_limit": 60}},
        headers=auth(token),
        timeout=30,
    )
    assert made.status_code == 201, made.text
    table = str(made.json()["id"])
    return table, finished_record(server, table)


def test_a_declared_model_plays_a_host_table_and_its_key_and_replies_stay_with_the_operator(
    tmp_path: Path, endpoint: FakeEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = model_host(tmp_path, endpoint.base_url, monkeypatch)
    server.start()
    try:
        games = httpx.get(f"{server.http}/api/games", timeout=10).json()
        numeron = next(g for g in games if g["name"] == "numeron")
        assert "tiny" in numeron["bots"]
        token = server.register("ann")
        # against the solver: a short game
        _, record = play_on_host(server, token, ["bot:tiny", "bot:solver"])
        lines = [json.loads(line) for line in record.splitlines()]
        steps = [line for line in lines if line.get("seat") == 0 and "action" in line]
        assert steps, lines[:3]
        assert endpoint.requests, "the model was never asked"
        # the public record holds the actions, never the endpoint, its key or raw replies
        assert SECRET not in record and endpoint.base_url not in record
        assert '"reply"' not in record
        log = (tmp_path / "llm.log").read_text()
        assert SECRET not in log and '"reply"' in log
        assert all(SECRET not in json.dumps(r) for r in endpoint.requests)
        # an undeclared endpoint is refused
        refused = httpx.post(
            f"{server.http}/api/tables",
            json={"game": "numeron", "seats": ["bot:llm:base_url=http://10.0.0.1/v1", "open"]},
            headers=auth(token),
            timeout=30,
        )
        assert refused.status_code == 400 and refused.json()["code"] == "config", refused.text
    finally:
        server.stop()


def test_model_seats_per_account_bounds_an_accounts_open_model_seats(
    tmp_path: Path, endpoint: FakeEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = model_host(tmp_path, endpoint.base_url, monkeypatch)
    server.start()
    try:
        token = server.register("bob")

        def create(seats: list[str]) -> Any:
            return httpx.post(
                f"{server.http}/api/tables",
                json={"game": "numeron", "seats": seats},
                headers=auth(token),
                timeout=30,
            )

        # waiting tables (an open seat) keep their model seats counted
        assert create(["bot:tiny", "open"]).status_code == 201
        assert create(["bot:tiny", "open"]).status_code == 201
        over = create(["bot:tiny", "open"])
        assert over.json()["code"] == "limit_reached" and "the limit is 2" in over.text, over.text
        assert create(["bot:random", "open"]).status_code == 201  # other bots are not counted
    finally:
        server.stop()
