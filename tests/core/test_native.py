"""Compiled code made ready in the background (``dennou.core.native``: a cold start).

In ``wait`` mode a bot's search waits for its build; in ``play-on`` mode (the host's bot workers)
it waits at most the budget and otherwise the bot decides by its fallback.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from dennou.core import native
from dennou.core.errors import ConfigError
from dennou.core.native import Native


@pytest.fixture
def mode(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The mode restored after the test; the Natives it makes kept out of the process's list."""
    monkeypatch.setattr(native, "_ALL", [])
    before = native.mode()
    yield
    native.set_mode(before)


class Gate:
    """A build that runs only once the test opens the gate; counts its runs."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.runs = 0

    def __call__(self) -> None:
        self.runs += 1
        assert self.open.wait(30), "the test never opened the gate"


def test_wait_mode_never_holds_a_decision_back(mode: None) -> None:
    """``wait``: the code compiles where it is first used (Numba's way); no build runs."""
    native.set_mode("wait")
    gate = Gate()
    code = Native("test", gate, budget=0.0)
    assert code.ready()
    assert gate.runs == 0
    assert not code.built


def test_play_on_builds_once(mode: None) -> None:
    native.set_mode("play-on")
    built: list[int] = []
    code = Native("test", lambda: built.append(1), budget=10.0)
    assert not code.built
    assert code.ready()
    assert code.ready()
    assert built == [1]
    assert code.built


def test_play_on_answers_false_while_the_build_runs_then_true(mode: None) -> None:
    native.set_mode("play-on")
    gate = Gate()
    code = Native("test", gate, budget=0.05)
    started = time.perf_counter()
    assert not code.ready()
    assert not code.ready()
    assert time.perf_counter() - started < 5  # bounded by the budget, not the build
    gate.open.set()
    for _ in range(600):
        if code.ready():
            break
    else:
        raise AssertionError("the build never finished")
    assert gate.runs == 1


def test_play_on_reports_each_build_a_decision_could_not_wait_for_once(mode: None) -> None:
    """``dennou bot run`` says the bot plays its fallback while its code compiles."""
    native.set_mode("play-on")
    reported: list[str] = []
    native.on_fallback(lambda code: reported.append(code.name))
    try:
        slow, quick = Gate(), Native("quick", lambda: None, budget=10.0)
        code = Native("slow", slow, budget=0.05)
        assert quick.ready()
        assert not code.ready() and not code.ready()
        assert reported == ["slow"]
        slow.open.set()
        code.build()
        assert code.ready() and reported == ["slow"]
    finally:
        native.on_fallback(None)


def test_play_on_uses_a_build_that_finishes_within_the_budget(mode: None) -> None:
    """Loading a cache takes a fraction of a second: the first decision is at full strength."""
    native.set_mode("play-on")
    code = Native("test", lambda: None, budget=10.0)
    assert code.ready()


def test_prepare_builds_now_in_wait_mode_and_starts_the_build_in_play_on(mode: None) -> None:
    """A bot's ``reset`` prepares: outside any timed decision in ``wait`` mode, as before."""
    native.set_mode("wait")
    built: list[int] = []
    code = Native("test", lambda: built.append(1))
    code.prepare()
    assert built == [1] and code.built
    native.set_mode("play-on")
    gate = Gate()
    code = Native("test", gate, budget=0.0)
    code.prepare()
    assert not code.ready()
    gate.open.set()
    code.build()
    assert code.ready() and gate.runs == 1


def test_build_all_builds_every_native_made(mode: None) -> None:
    """``dennou warm`` builds what the bots' later decisions use, not only their first."""
    native.set_mode("wait")
    built: list[str] = []
    first = Native("first", lambda: built.append("first"))
    second = Native("second", lambda: built.append("second"))
    native.build_all()
    assert first.built and second.built
    assert built == ["first", "second"]


def test_a_failed_build_is_reported_to_whoever_asks(mode: None) -> None:
    def broken() -> None:
        raise ValueError("no compiler")

    native.set_mode("play-on")
    code = Native("test", broken, budget=10.0)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="building the test code failed") as info:
            code.ready()
        assert isinstance(info.value.__cause__, ValueError)


def test_the_build_itself_may_use_the_code_it_builds(mode: None) -> None:
    """The build runs the bots once; their own ``ready`` must not wait for the build."""
    native.set_mode("play-on")
    seen: list[bool] = []
    code: Native

    def build() -> None:
        seen.append(code.ready())

    code = Native("test", build, budget=10.0)
    assert code.ready()
    assert seen == [True]


def python(code: str, mode: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a new Python process whose environment sets the mode to ``mode``."""
    env = {**os.environ, native.ENV: mode}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )


def test_an_unknown_mode_is_refused(mode: None) -> None:
    with pytest.raises(ConfigError, match="'wait' or 'play-on'"):
        native.set_mode("sometimes")
    done = python("import dennou.core.native", "sometimes")
    assert done.returncode != 0
    assert "DENNOU_WHILE_COMPILING must be 'wait' or 'play-on'" in done.stderr


def test_the_mode_comes_from_the_environment() -> None:
    done = python("from dennou.core import native; print(native.mode())", "play-on")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "play-on"
