from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dennou.server.testing import WS, LiveServer, ServerProcess

__all__ = ["WS", "LiveServer", "ServerProcess"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data")
    proc.start()
    yield proc
    proc.stop()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "data", rate=1000.0, burst=2000.0)
    yield server
    server.stop()
