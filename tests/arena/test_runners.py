"""Backends: the same seed gives byte-identical standings with 1 worker, 2 workers and Ray."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dennou.arena.entrants import parse_entrants
from dennou.arena.runners import InlineRunner, ProcessRunner, RayRunner, Runner, chunk_size
from dennou.arena.schedule import TournamentConfig
from dennou.arena.tournament import Tournament, make_config
from dennou.core import record as records
from dennou.games import get

FILES = ("standings.json", "standings.csv", "ratings.json")


def swiss_numeron() -> TournamentConfig:
    game = get("numeron")
    return make_config(
        game,
        parse_entrants("solver,random,s2=solver,r2=random,r3=random"),
        fmt="swiss",
        rounds=3,
        seed=21,
        rules=game.make_rules({"digits": 3}),
    )


def daifugo_round() -> TournamentConfig:
    game = get("daifugo")
    return make_config(
        game,
        parse_entrants("greedy,random,g2=greedy,r2=random"),
        games=24,
        seed=8,
        duplicate=True,
        rules=game.make_rules({"games": 2}),
    )


def play(config: TournamentConfig, runner: Runner, out: Path) -> dict[str, bytes]:
    with runner, Tournament(config, out) as tour:
        tour.run(runner)
    recs = records.read(out / "records.jsonl")
    assert sorted(r.meta["tournament"]["match"] for r in recs) == list(range(tour.total))
    return {name: (out / name).read_bytes() for name in FILES}


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    if os.environ.get("DENNOU_REQUIRE_RAY") == "1":  # CI: the Ray backend must be tested
        import ray
    else:
        ray = pytest.importorskip("ray", reason="pip install 'dennou[ray]' (CI installs it)")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.parametrize("make", [daifugo_round, swiss_numeron], ids=["daifugo", "swiss"])
def test_one_worker_two_workers_and_ray_give_byte_identical_standings(
    tmp_path: Path, make: object, local_ray: None
) -> None:
    config = make()  # type: ignore[operator]
    inline = play(config, InlineRunner(), tmp_path / "one")
    two = play(config, ProcessRunner(2), tmp_path / "two")
    on_ray = play(config, RayRunner(), tmp_path / "ray")
    assert inline == two == on_ray


def test_chunks_grow_with_fast_matches_and_stay_shared_out() -> None:
    assert chunk_size(None, 1000, 2) == 1
    assert chunk_size(0.001, 1000, 2) == 50  # 50 ms of work
    assert chunk_size(0.001, 40, 2) == 5  # but every worker gets several chunks
    assert chunk_size(1.0, 1000, 2) == 1
    assert chunk_size(1e-7, 100_000, 2) == 64


def test_pool_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    """A worker of a killed host or tournament (SIGKILL) does not wait for ever on its queue."""
    script = tmp_path / "parent.py"
    script.write_text(
        "import concurrent.futures as cf, multiprocessing, os, time\n"
        "from dennou.arena.runners import exit_with_parent\n"
        "if __name__ == '__main__':\n"
        "    ctx = multiprocessing.get_context('spawn')\n"
        "    pool = cf.ProcessPoolExecutor(1, mp_context=ctx, initializer=exit_with_parent)\n"
        "    print(pool.submit(os.getpid).result(), flush=True)\n"
        "    time.sleep(60)\n",
        encoding="utf-8",
    )
    with subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=os.environ.copy()
    ) as parent:  # its pipe closed and the child reaped however the test ends
        try:
            assert parent.stdout is not None
            worker = int(parent.stdout.readline())
            parent.send_signal(signal.SIGKILL)
            parent.wait(10)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and _alive(worker):
                time.sleep(0.1)
            assert not _alive(worker), "the worker outlived its parent"
        finally:
            parent.kill()


def test_a_killed_tournament_leaves_no_fork_server_or_worker_behind(tmp_path: Path) -> None:
    """``kill -9`` of a local tournament: its pool (fork server and workers) ends with it."""
    script = tmp_path / "tournament.py"
    script.write_text(
        "import os, time\n"
        "from dennou.arena.runners import ProcessRunner\n"
        "if __name__ == '__main__':\n"
        "    runner = ProcessRunner(2)\n"
        "    workers = {runner.pool.submit(os.getpid).result() for _ in range(8)}\n"
        "    print(*workers, flush=True)\n"
        "    time.sleep(60)\n",
        encoding="utf-8",
    )
    with subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=os.environ.copy()
    ) as parent:
        try:
            assert parent.stdout is not None
            workers = [int(pid) for pid in parent.stdout.readline().split()]
            servers = {_parent_of(pid) for pid in workers} - {parent.pid}
            parent.send_signal(signal.SIGKILL)
            parent.wait(10)
            left = [*workers, *servers]
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and any(_alive(pid) for pid in left):
                time.sleep(0.1)
            assert not [pid for pid in left if _alive(pid)], "the pool outlived the tournament"
        finally:
            parent.kill()


def _parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat", encoding="ascii") as st:
        return int(st.read().rsplit(")", 1)[1].split()[1])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for our purpose
    with contextlib.suppress(FileNotFoundError), open(f"/proc/{pid}/stat", encoding="ascii") as st:
        return st.read().split()[2] != "Z"
    return True


def test_a_local_ray_started_without_an_address_binds_loopback_only(tmp_path: Path) -> None:
    """``--ray`` without ``RAY_ADDRESS`` starts a Ray on 127.0.0.1, not the machine's address."""
    if os.environ.get("DENNOU_REQUIRE_RAY") != "1":
        pytest.importorskip("ray", reason="pip install 'dennou[ray]' (CI installs it)")
    script = tmp_path / "local_ray.py"
    script.write_text(
        "import ray\n"
        "from dennou.arena.runners import RayRunner\n"
        "RayRunner(workers=1)\n"
        "print(ray.nodes()[0]['NodeManagerAddress'])\n"
        "print(ray.get_runtime_context().gcs_address)\n"
        "ray.shutdown()\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    node, gcs = done.stdout.split()[-2:]
    assert node == "127.0.0.1"
    assert gcs.startswith("127.0.0.1:")
