"""Services some tests need (PostgreSQL, Node): skip without them, fail in CI.

``DENNOU_REQUIRE_POSTGRES=1`` (set by CI after ``source scripts/ci-services.sh``) turns every
such skip into a failure. PostgreSQL is found by ``dennou.server.testing.postgres_url``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
JS_CLIENT = ROOT / "examples" / "js-client"


def required() -> bool:
    """Whether services must be there (CI): a missing one fails the test instead of skipping."""
    return os.environ.get("DENNOU_REQUIRE_POSTGRES") == "1"


def missing(reason: str) -> None:
    """Skip the test for a missing service (fail it where services are required)."""
    if required():
        pytest.fail(reason)
    pytest.skip(reason)


def require_node(*, packages: bool = True) -> None:
    """Node (and npm), and with ``packages`` the JS client's ``ws`` installed."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        missing("node and npm are not installed")
    elif packages and not (JS_CLIENT / "node_modules" / "ws").is_dir():
        missing("run scripts/ci-services.sh (npm install in examples/js-client)")
