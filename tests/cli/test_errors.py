"""Every command answers a bad value with one line on stderr and a non-zero exit, never a
traceback or a box of usage text; and every command takes a server in the same forms
(``http(s)://``, ``ws(s)://``, ``HOST:PORT``: :mod:`dennou.client.urls`)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from dennou.client.urls import host_urls
from dennou.core.errors import ConfigError
from dennou.server.testing import free_port

from .run import dennou

NOWHERE = "127.0.0.1:NOWHERE"
"""A host nobody serves (its port is chosen when the test runs: ids stay the same everywhere)."""

BAD = [
    (["--bogus"], "No such option: --bogus"),
    (["match"], "Missing argument 'GAME'"),
    (["match", "chess", "--bots", "random"], "unknown game 'chess'"),
    (["match", "numeron", "--bots", "random", "--games", "x"], "Invalid value for '--games'"),
    (["match", "numeron", "--bots", "nobot"], "no bot 'nobot' for numeron"),
    (["match", "numeron", "--bots", "random", "--rules", "digits=9"], "invalid rules"),
    (["match", "numeron", "--bots", "random", "--rules", "nokey"], "key=value"),
    (["games", "chess"], "unknown game 'chess'"),
    (["replay", "/nonexistent/games.jsonl"], "does not exist"),
    (["play", "numeron", "--vs", "nobot"], "no bot 'nobot' for numeron"),
    (["odds", "stud10", "--players", "As"], "odds need 2 to 5 players"),
    (["tournament", "daifugo"], "--entrants is needed"),
    (["tournament", "daifugo", "--entrants", "greedy,random", "--server", "ftp://x"], "--server"),
    (
        [
            "tournament",
            "daifugo",
            "--entrants",
            "greedy,random",
            "--server",
            NOWHERE,
            "--token",
            "t",
        ],
        "cannot reach",
    ),
    (["leaderboard", "daifugo", "--server", "ftp://x"], "expected http(s)://"),
    (["leaderboard", "daifugo", "--server", NOWHERE], "cannot read"),
    (["serve", "--limit", "rate=x"], "Invalid value for --limit"),
    (["uecda-client", "--port", "x"], "Invalid value for '--port'"),
    (["bot", "run", "random"], "a token is needed"),
    (
        ["bot", "run", "random", "--join", "numeron", "--token", "t", "--server", "ftp://x"],
        "expected http(s)://",
    ),
    (
        ["bot", "run", "random", "--tournament", "u1", "--token", "t", "--server", NOWHERE],
        "cannot reach a dennou server",
    ),
]


@pytest.mark.parametrize(("args", "says"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_bad_value_is_one_line_on_stderr_and_a_failing_exit(args: list[str], says: str) -> None:
    nowhere = f"127.0.0.1:{free_port()}"
    done = dennou(*(a.replace(NOWHERE, nowhere) for a in args), timeout=60)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert says in lines[0]


def test_the_version_is_printed() -> None:
    from dennou import __version__

    done = dennou("--version")
    assert done.returncode == 0 and done.stdout == f"dennou {__version__}\n"


@pytest.mark.parametrize(
    ("given", "ws", "http"),
    [
        ("http://127.0.0.1:8000", "ws://127.0.0.1:8000/ws", "http://127.0.0.1:8000"),
        ("127.0.0.1:8000", "ws://127.0.0.1:8000/ws", "http://127.0.0.1:8000"),
        ("ws://127.0.0.1:8000/ws", "ws://127.0.0.1:8000/ws", "http://127.0.0.1:8000"),
        ("https://host.example/", "wss://host.example/ws", "https://host.example"),
        ("wss://host.example/ws", "wss://host.example/ws", "https://host.example"),
        ("http://[::1]:9/ws", "ws://[::1]:9/ws", "http://[::1]:9"),
    ],
)
def test_a_server_is_taken_in_every_form(given: str, ws: str, http: str) -> None:
    assert host_urls(given) == (ws, http)


@pytest.mark.parametrize("bad", ["", "ftp://host", "http://", "host:port", "http://u:p@h:1"])
def test_a_server_that_is_not_an_address_says_what_was_expected(bad: str) -> None:
    with pytest.raises(ConfigError, match=r"http\(s\)://HOST:PORT, ws\(s\)://HOST:PORT/ws"):
        host_urls(bad)


def test_serve_on_a_busy_port_is_one_line_before_any_banner(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = dennou("serve", "--port", str(port), "--no-warm", cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and done.stdout == "", "no 'serving' banner for a port not had"
    assert done.stderr == (
        f"error: cannot listen on 127.0.0.1:{port}: the port is in use "
        "(choose another with --port)\n"
    )
