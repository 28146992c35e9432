"""A real llama.cpp server on loopback with a tiny random model the suite writes itself.

Without ``llama-cpp-python[server]`` and ``gguf`` the tests that need it skip, unless
``DENNOU_REQUIRE_LLM=1`` (CI), where they fail.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from dennou.server.testing import free_port

from .tinymodel import LlamaServer, write_tiny_model

REQUIRED = os.environ.get("DENNOU_REQUIRE_LLM") == "1"


def _missing() -> str | None:
    for module in ("llama_cpp", "gguf", "openai", "uvicorn", "fastapi", "sse_starlette"):
        if importlib.util.find_spec(module) is None:
            return module
    return None


@pytest.fixture(scope="session")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """A ``python -m llama_cpp.server`` serving the tiny model, shared by the session."""
    missing = _missing()
    if missing is not None:
        if REQUIRED:
            pytest.fail(f"{missing} is needed (DENNOU_REQUIRE_LLM=1): pip install -e '.[dev]'")
        pytest.skip(f"{missing} is not installed (pip install -e '.[dev]')")
    folder = tmp_path_factory.mktemp("llama")
    model = write_tiny_model(folder / "tiny.gguf")
    server = LlamaServer(model, free_port(), folder / "server.log")
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


@pytest.fixture
def model_file(tmp_path: Path) -> Path:
    """A freshly written tiny model (to check its size and format)."""
    return write_tiny_model(tmp_path / "tiny.gguf")
