"""``dennou serve`` answers its pages while the host starts, and reads its options as Typer does."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from dennou.server.cli import click_command, serve_command_line
from dennou.server.plainoptions import plain_values
from dennou.server.testing import SRC, free_port
from dennou.store import Store, database_url


def start(data: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "dennou", "serve", "--port", str(port), "--no-warm"]
    return subprocess.Popen(
        [*command, "--data-dir", str(data)],
        env={"PYTHONPATH": SRC, "PATH": ""},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def first_answer(url: str, process: subprocess.Popen[bytes]) -> httpx.Response:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        try:
            return httpx.get(url, timeout=5)
        except httpx.TransportError:
            time.sleep(0.05)
    raise AssertionError(f"{url} did not answer")


def test_the_web_page_answers_while_the_store_cannot_open_and_the_api_once_it_opens(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    Store(database_url(None, data)).close()
    lock = sqlite3.connect(data / "dennou.sqlite3")
    # In WAL mode only a connection in exclusive locking mode keeps readers out too: the
    # host's store waits (its busy timeout) until this connection closes.
    lock.execute("PRAGMA locking_mode=EXCLUSIVE")
    lock.execute("BEGIN EXCLUSIVE")
    port = free_port()
    process = start(data, port)
    try:
        page = first_answer(f"http://127.0.0.1:{port}/", process)
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert "content-security-policy" in page.headers
        try:  # the API waits for the store
            early = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1.0)
        except httpx.ReadTimeout:
            early = None
        assert early is None, (
            f"answered while the store was locked: {early.status_code} " + (early.text[:200])
        )
        lock.close()
        games = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=60)
        assert games.status_code == 200 and "numeron" in games.text
    finally:
        lock.close()
        process.terminate()
        process.communicate(timeout=30)


def test_a_host_whose_store_cannot_open_exits_with_the_start_up_failure_code(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "dennou.sqlite3").write_bytes(b"not a database at all" * 100)
    process = start(data, free_port())
    _, err = process.communicate(timeout=120)
    assert process.returncode == 3
    assert b"file is not a database" in err and b"Application startup failed. Exiting." in err


ARGUMENTS = [
    [],
    ["--port", "0", "--data-dir", "/tmp/x"],
    ["--port", "65535", "--host", "::1", "--rate", "2.5", "--burst", "7"],
    ["--limit", "rate=3", "--limit", "burst=4", "--operator", "ann,bob", "--operator", "cy"],
    ["--uecda-port", "0", "--uecda-games", "3", "--uecda-fill-after", "0", "--no-warm"],
    ["--llm", "m=http://127.0.0.1:9/v1", "--llm-log", "x.jsonl", "--secure-cookies"],
    ["--db", "postgresql://a@b/c", "--broker", "redis://r:1/0", "--site", "s"],
    ["--port", "65536"],
    ["--port", "-1"],
    ["--port", "0x10"],
    ["--port", "1_000"],
    ["--port", " 80"],
    ["--rate", "1e3"],
    ["--rate", "nan"],
    ["--rate", "2."],
    ["--uecda-fill-after", "-1"],
    ["--uecda-games", "0"],
    ["--port"],
    ["--nope"],
]


def read(arguments: list[str], plain: bool) -> Any:
    """What the serve command line makes of ``arguments``: its values, or its error."""
    root = click_command(serve_command_line())
    if plain:
        plain_values(root)
        plain_values(root.commands["serve"])
    try:
        parent = root.make_context("dennou", ["serve"])
        ctx = root.commands["serve"].make_context("serve", list(arguments), parent=parent)
    except Exception as exc:
        return type(exc).__name__, exc.format_message()  # type: ignore[attr-defined]
    return {name: repr(value) for name, value in ctx.params.items()}  # repr: nan equals nan


@pytest.mark.parametrize("arguments", ARGUMENTS, ids=" ".join)
def test_serve_reads_its_options_without_pydantic_as_typer_does(arguments: list[str]) -> None:
    assert read(arguments, plain=True) == read(arguments, plain=False)


def test_dennou_serve_reads_a_plain_command_line_without_pydantic() -> None:
    code = (
        "import sys\n"
        "from dennou.server.cli import click_command, serve_command_line\n"
        "from dennou.server.plainoptions import plain_values\n"
        "root = click_command(serve_command_line())\n"
        "plain_values(root)\n"
        "plain_values(root.commands['serve'])\n"
        "parent = root.make_context('dennou', ['serve'])\n"
        "root.commands['serve'].make_context('serve', ['--port', '0'], parent=parent)\n"
        "print('pydantic' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "False"


def test_serve_without_models_loads_no_game_before_the_host() -> None:
    # The games (Daifugo's bots import Numba) load with the host's app, behind the pages.
    code = (
        "import sys\n"
        "from dennou.server.cli import _declare_models\n"
        "assert _declare_models([], None) == []\n"
        "print(sorted(m for m in ('dennou.games', 'dennou.arena.bots', 'numba')"
        " if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"
