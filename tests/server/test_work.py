"""Where the host runs engine work (``dennou.server.work.Work``): cheap work on the event loop,
anything that was recently slow off it (docs/architecture.md, `work.py`)."""

from __future__ import annotations

import asyncio
import gc
import time
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.server.work import SAMPLE, Work, sample_indices


def _burn(seconds: float) -> float:
    """Spend ``seconds`` of this thread's CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass
    return seconds


def _runs(work: Work, kind: tuple[str, str], costs: list[float]) -> None:
    async def go() -> None:
        for cost in costs:
            assert await work.run(kind, _burn, cost) == cost

    asyncio.run(go())


def test_cheap_work_runs_on_the_loop() -> None:
    work = Work()
    _runs(work, ("numeron", "apply"), [0.0] * 5)
    assert work.where[("numeron", "apply")] == {"inline": 4, "thread": 1, "process": 0}


def test_one_slow_run_keeps_a_kind_off_the_loop_while_cheap_runs_follow() -> None:
    """A view of a new position costs its odds; views of cached positions cost nothing. The
    cheap ones must not bring the kind back onto the loop, where the next new position would
    stall every table."""
    work = Work()
    _runs(work, ("stud10", "view"), [0.03] + [0.0] * 60)
    assert work.where[("stud10", "view")]["inline"] == 0
    # the peak fades: after enough cheap runs the kind is cheap again
    _runs(work, ("stud10", "view"), [0.0] * 400)
    assert work.where[("stud10", "view")]["inline"] > 0


def test_a_garbage_collection_during_work_is_not_its_cost() -> None:
    """A collection stops every thread wherever it runs: landing in a cheap kind's run, it
    must not send that kind off the loop for hundreds of runs."""
    work = Work()
    kind = ("numeron", "turn")
    _runs(work, kind, [0.0])  # measured once (on a thread): cheap
    heap = [[i] for i in range(300_000)]  # what the collections scan
    started = time.thread_time()

    async def go() -> None:
        for _ in range(3):
            await work.run(kind, gc.collect)  # work whose whole cost is a full collection

    asyncio.run(go())
    assert time.thread_time() - started > 3 * Work.INLINE  # the collections were not cheap
    assert heap
    assert work.where[kind]["inline"] == 3
    assert work.peak[kind] < Work.INLINE


def test_waiting_is_not_cost() -> None:
    """Work that waits (here: sleeps) costs the loop nothing: thread CPU time is what counts."""

    work = Work()

    async def go() -> None:
        for _ in range(3):
            await work.run(("hilo", "apply"), time.sleep, 0.03)

    asyncio.run(go())
    assert work.where[("hilo", "apply")]["inline"] == 2
    work.close()


def test_work_said_to_be_heavy_never_runs_on_the_loop() -> None:
    """10-card stud's views compute odds for each new position: cheap runs say nothing of the
    next one (``GameSpec.heavy_views``)."""
    from dennou.games import get

    assert get("stud10").spec.heavy_views and not get("numeron").spec.heavy_views
    work = Work()

    async def go() -> None:
        for _ in range(5):
            await work.run(("stud10", "view"), _burn, 0.0, inline=False)

    asyncio.run(go())
    assert work.where[("stud10", "view")] == {"inline": 0, "thread": 5, "process": 0}


@given(
    count=st.integers(min_value=1, max_value=200_000),
    version=st.integers(min_value=0, max_value=10**9),
    seat=st.integers(min_value=0, max_value=30),
)
@settings(max_examples=300, deadline=None)
def test_a_turns_legal_sample_is_distinct_ordered_spread_and_repeatable(
    count: int, version: int, seat: int
) -> None:
    """docs/protocol.md: a turn with more legal actions than it lists carries 20 of them."""
    picks = sample_indices(count, version, seat)
    assert len(picks) == min(SAMPLE, count)
    assert picks == sorted(set(picks)) and picks[0] >= 0 and picks[-1] < count
    k = len(picks)
    assert all(i * count // k <= p < (i + 1) * count // k for i, p in enumerate(picks))
    assert picks == sample_indices(count, version, seat)


def test_the_legal_sample_changes_from_turn_to_turn() -> None:
    samples = {tuple(sample_indices(5040, version, 0)) for version in range(200)}
    assert len(samples) == 200
    hits = Counter(p for version in range(2000) for p in sample_indices(720, version, 1))
    assert len(hits) == 720  # every action turns up in some sample
