"""A replay keeps only checkpoints, yet every window is the states the record rebuilds in order."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from dennou.arena.bots import resolve_bot
from dennou.arena.play import play
from dennou.core import record as rec
from dennou.core.game import TalkLine
from dennou.core.jsondata import to_json
from dennou.games import REGISTRY
from dennou.web.replay import CHECKPOINT_EVERY, Replay, ReplayCache


def _record(name: str, seed: int, rules: dict[str, Any]) -> rec.Record:
    game = REGISTRY[name]
    seats = game.spec.min_players
    bots = []
    for _seat in range(seats):
        factory, kwargs = resolve_bot(game, "random")
        bots.append(factory(**kwargs))
    return play(game, game.make_rules(rules), bots, seed)


@pytest.mark.parametrize(("name", "rules"), [("numeron", {}), ("daifugo", {"games": 2})])
def test_every_window_is_the_full_replay_of_the_record(name: str, rules: dict[str, Any]) -> None:
    record = _record(name, 7, rules)
    game = REGISTRY[name]
    full = list(rec.replay(record, game))
    replay = Replay(record, game)
    n = len(record.steps)
    assert n > 2 * CHECKPOINT_EVERY
    for start in sorted({0, 1, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, n}):
        frames = replay.frames(start, 40)
        want = full[start : start + 40]
        assert [f.index for f in frames] == [f.index for f in want]
        for got, exp in zip(frames, want, strict=True):
            assert got.step == exp.step
            # iterated: an engine's events may be a lazy list (daifugo)
            assert [to_json(e) for e in got.events] == [to_json(e) for e in exp.events]
            assert to_json(game.view(got.state, 0)) == to_json(game.view(exp.state, 0))
    window: dict[str, Any] = replay.window(None, n + 10, 5)
    assert window["steps"] == n and [f["version"] for f in window["frames"]] == [n]


def test_the_cache_is_bounded_in_bytes() -> None:
    game = REGISTRY["numeron"]
    steps = [rec.Step(0, talk=TalkLine(0, "a", "public", f"hello {i}")) for i in range(300)]
    records = [
        rec.Record("numeron", game.spec.version, {}, ["a", f"b{i}"], steps) for i in range(6)
    ]
    one = Replay(records[0], game).nbytes
    cache = ReplayCache(REGISTRY, max_bytes=int(one * 3.5))
    for i, record in enumerate(records):
        cache.get(f"k{i}", functools.partial(lambda r: r, record))
    assert cache.nbytes <= cache.max_bytes
    assert sorted(cache._items) == ["k3", "k4", "k5"]
    small = ReplayCache(REGISTRY, max_bytes=one // 2)
    assert small.get("big", lambda: records[0]).steps == 300  # answered, not kept
    assert small.nbytes == 0 and not small._items
