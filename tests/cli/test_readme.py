"""Every example in the README (and the JS client's README) runs as written.

The commands run for real: ``dennou`` subprocesses in a temporary directory, against the host the
README's own set-up command starts (on a free port instead of 8000), Node for the JavaScript
client, Python for the Python example. ``tests/cli/readme.py`` says how output is compared.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from dennou import games
from dennou.server.testing import free_port
from tests.cli.readme import Block, Shell, blocks, commands, match_output, pattern
from tests.cli.run import ROOT, environment, served
from tests.services import JS_CLIENT, missing, require_node

README = ROOT / "README.md"
JS_README = JS_CLIENT / "README.md"

SETUP = "Set up"
HOST = "The host (`dennou serve`)"
MATCHES = "Matches, replays and play in the terminal"
RL = "Learning environments (`dennou.rl`)"


def section(path: Path, name: str, lang: str = "console") -> list[Block]:
    return [b for b in blocks(path) if b.section == name and b.lang == lang and b.skip is None]


def serve_command() -> str:
    """The ``dennou serve`` part of the README's first set-up command."""
    first = section(README, SETUP, "bash")[0]
    return first.text.split("&&", 1)[1].strip()


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A directory like a fresh clone's, as far as the examples reach (``examples/``)."""
    shutil.copytree(
        ROOT / "examples", tmp_path / "examples", ignore=shutil.ignore_patterns("node_modules")
    )
    return tmp_path


def test_every_example_is_run_by_a_test() -> None:
    """A new README example gets a test, or says why it has none."""
    covered = {
        (README, SETUP, "bash"),
        (README, HOST, "console"),
        (README, MATCHES, "console"),
        (README, MATCHES, "python"),
        (README, RL, "python"),
        (JS_README, "A dennou client in JavaScript", "console"),
        # tests/llm/test_llama_server.py runs it against the tiny local model
        (README, "Language-model players (言語モデル)", "bash"),
    }
    for path in (README, JS_README):
        for block in blocks(path):
            if block.skip is not None:
                assert block.skip.strip(" ()"), f"{path.name}:{block.line}: say why it is skipped"
                continue
            assert (path, block.section, block.lang) in covered, (
                f"{path.name}:{block.line} ({block.section}, {block.lang}) is run by no test"
            )


def test_setup_is_two_commands_that_ci_runs_as_written() -> None:
    setup = [b for b in blocks(README) if b.section == SETUP]
    assert [b.lang for b in setup] == ["bash", "bash"], "the README's set-up is two commands"
    lines = [b.text.strip() for b in setup]
    assert all("\n" not in line for line in lines), lines
    assert re.fullmatch(r"pip install -e '\.\[server\]' && dennou serve", lines[0]), lines[0]
    assert re.fullmatch(r"pip install -e '\.\[dev\]' && pytest -n auto", lines[1]), lines[1]
    ci = (ROOT / ".ci" / "run").read_text()
    # the first runs as written (only `.[server]` installed yet), the second is CI's test command
    assert ci.index("bash scripts/readme-setup-check.sh") < ci.index("-e '.[dev]'")
    assert lines[1] in ci.splitlines()


def test_the_setup_serve_command_starts_the_host(tmp_path: Path) -> None:
    with served(serve_command(), cwd=tmp_path) as server:
        games = httpx.get(f"{server.http}/api/games", timeout=10).json()
        assert {g["name"] for g in games} >= {"numeron", "daifugo", "pandemic"}
    assert (tmp_path / "data").is_dir()  # the README: on SQLite in ./data


def test_host_tour(workdir: Path) -> None:
    """Accounts and tables over HTTP, ``dennou bot run`` and the JavaScript client."""
    require_node(packages=False)  # the tour installs ws itself
    [block] = section(README, HOST)
    with served(serve_command(), cwd=workdir) as server:
        shell = Shell(workdir, server.http)
        for command in commands(block):
            shell.run(command)
        # the tour's tables are unrated: stored and listed, in no one's history
        over = httpx.get(f"{server.http}/api/games-over", timeout=10).json()["games"]
        assert {g["game"] for g in over if g["status"] == "finished"} == {"daifugo", "numeron"}


def test_js_client_readme(workdir: Path) -> None:
    require_node(packages=False)
    [block] = section(JS_README, "A dennou client in JavaScript")
    here = workdir / "examples" / "js-client"
    with served(serve_command(), cwd=workdir) as server:
        shell = Shell(here, server.http)
        for command in commands(block):
            shell.run(command)
    assert (here / "node_modules" / "ws").is_dir()


def test_matches_tour(tmp_path: Path) -> None:
    """``games``, ``match``, ``replay``, ``play`` (given no input: it says bye) and ``odds``."""
    [block] = section(README, MATCHES)
    shell = Shell(tmp_path)
    outputs = [shell.run(command) for command in commands(block)]
    assert (tmp_path / "games.jsonl").exists()
    plays = [o for c, o in zip(commands(block), outputs, strict=True) if "dennou play" in c.text]
    assert plays and all("bye" in o for o in plays)


def test_python_example(tmp_path: Path) -> None:
    """4-digit random Numeron: thousands of steps, each view built incrementally."""
    [block] = section(README, MATCHES, "python")
    script = tmp_path / "example.py"
    script.write_text(block.text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "'scores'" in done.stdout and "'ranks'" in done.stdout


def test_rl_example(tmp_path: Path) -> None:
    """The environments the README names are made as written."""
    [block] = section(README, RL, "python")
    script = tmp_path / "example.py"
    script.write_text(block.text + "\nprint(type(env).__name__, gym.spec.id)\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "dennou/Pandemic-v0" in done.stdout


def test_the_games_table_names_every_registered_bot() -> None:
    """The README's "Games" table lists each game's bots as the registry has them."""
    rows = re.findall(
        r"^\| `(\w+)` [^|]*\| \[docs/games/[^|]*\| ([^|]*) \|$", README.read_text(), re.M
    )
    assert len(rows) == len(games.REGISTRY)
    for name, bots in rows:
        listed = re.findall(r"`(\w+)`", bots)
        assert listed == list(games.get(name).bots()), name


def test_output_matching_rules() -> None:
    """What the README's expected output may abbreviate, and what it may not."""
    values = match_output(
        ['{"name":"ann","token":"Zg…H6I"}', "rank 3 of 5, score -1 (record: x/t…/record)"],
        'noise\n{"name":"ann","token":"abc-DEF_9"}\nrank 1 of 5, score 2 (record: x/t9f/record)',
    )
    assert values == {"Zg…H6I": "abc-DEF_9", "t…": "t9f"}
    regex, _ = pattern("┏━━┳━━━┓ {...}  1.5")
    assert regex.fullmatch("┏━━━━━┳━┓ {anything}     22.25")
    with pytest.raises(AssertionError, match="not found"):
        match_output(["seats: 0 solver#0"], "seats: 0 random#0")
    with pytest.raises(AssertionError, match="not found"):  # order matters
        match_output(["b", "a"], "a\nb")


# --- the services some tests need ---------------------------------------------------------


def test_readme_names_every_test_that_skips_without_a_service() -> None:
    text = README.read_text(encoding="utf-8")
    tests = ROOT / "tests"
    needing = {
        path.relative_to(ROOT).as_posix()
        for path in tests.rglob("*.py")
        if re.search(r"\b(postgres_url|require_node)\(", path.read_text(encoding="utf-8"))
        and path.name not in ("services.py",)
    }
    assert needing, "no test needs a service?"
    for rel in sorted(needing):
        parent = str(Path(rel).parent) + "/"
        assert rel in text or parent in text, f"README's Tests section does not name {rel}"
    assert "source scripts/ci-services.sh" in text
    assert "scripts/ci-services.sh --stop" in text


@pytest.fixture
def own_ports() -> Iterator[dict[str, str]]:
    """Ports of the services this test starts and stops: never the caller's (CI's) own."""
    if not any(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        missing("PostgreSQL is not installed (scripts/ci-services.sh installs it)")
    ports = {"DENNOU_PG_PORT": str(free_port()), "DENNOU_REDIS_PORT": str(free_port())}
    yield ports
    # in case the test failed half-way: stop the services this test started, by its own script
    subprocess.run(
        ["bash", "scripts/ci-services.sh", "--stop"],
        cwd=ROOT,
        env=environment(ports),
        capture_output=True,
        timeout=60,
        check=False,
    )
    shutil.rmtree(f"/tmp/dennou-pg-{ports['DENNOU_PG_PORT']}", ignore_errors=True)
    shutil.rmtree(f"/tmp/dennou-redis-{ports['DENNOU_REDIS_PORT']}", ignore_errors=True)


def test_ci_services_postgres_stops_with_one_command(own_ports: dict[str, str]) -> None:
    pg_port = int(own_ports["DENNOU_PG_PORT"])
    env = environment({**own_ports, "DENNOU_CI_NPM": "0"})
    assert "DENNOU_PG_DIR" not in env, "the caller's cluster is never this test's"
    probe = (
        f"{sys.executable} -c 'import socket; socket.create_connection((\"127.0.0.1\", {pg_port}))'"
    )

    def bash(script: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-c", script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    started = bash(f'source scripts/ci-services.sh && echo "$DENNOU_TEST_POSTGRES_URL" && {probe}')
    assert started.returncode == 0, started.stderr
    assert f"127.0.0.1:{pg_port}/postgres" in started.stdout
    stopped = bash(f"source scripts/ci-services.sh --stop && {probe}")
    assert "stopped the PostgreSQL" in stopped.stdout, stopped.stdout + stopped.stderr
    assert stopped.returncode != 0 and "ConnectionRefusedError" in stopped.stderr


def test_install_commands_work_from_a_clone_until_the_package_is_published() -> None:
    # `pip install 'dennou[ray]'` looks for dennou on PyPI, where it is not (yet)
    pages = [README, *sorted((ROOT / "docs").rglob("*.md")), *(ROOT / "examples").rglob("*.md")]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        found = re.findall(r"pip install ['\"]?dennou\b", text)
        assert not found, f"{page.relative_to(ROOT)}: {found}; use pip install -e '.[EXTRA]'"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
