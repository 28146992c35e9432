"""The arena: bots see views only, every decision is timed, a bad bot never crashes a game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

import pytest

from dennou.arena import make_bot, parse_bot_spec, play
from dennou.arena.match import mean_ci, run_match, summarize, wilson
from dennou.core import record as records
from dennou.core.actions import Action
from dennou.core.bot import Bot, RandomBot
from dennou.core.errors import ConfigError
from dennou.core.game import JSON
from dennou.games import get
from dennou.games.numeron.actions import Call
from tests.core.toygame import Toy


class Crasher(Bot):
    name = "crasher"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        raise RuntimeError("boom")


class Cheater(Bot):
    name = "cheater"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        return Call("99")


class NotAnAction(Bot):
    name = "weird"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        return "banana"  # type: ignore[return-value]


class Spy(Bot):
    """Checks it only ever receives views (dicts), never states."""

    name = "spy"
    seen: ClassVar[list[object]] = []

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        Spy.seen.append(view)
        return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("bad", [Crasher(), Cheater(), NotAnAction()])
def test_bad_bots_get_the_default_and_the_game_finishes(bad: Bot) -> None:
    game = get("numeron")
    rec = play(game, game.make_rules({"forfeit_after": "3"}), [bad, RandomBot()], seed=1)
    assert rec.outcome is not None
    defaults = [s for s in rec.steps if s.default is not None]
    assert defaults and all(s.seat == 0 for s in defaults)
    assert defaults[0].note
    final = records.final_state(rec, game)
    assert game.is_over(final) and final.winner == 1


def test_bots_see_views_not_states_and_decisions_are_timed() -> None:
    Spy.seen.clear()
    rec = play(Toy(), None, [Spy(), Spy()], seed=3)
    assert Spy.seen and all(isinstance(v, dict) for v in Spy.seen)
    assert all(s.ms is not None for s in rec.steps if s.seat is not None and s.seat >= 0)


def test_play_is_reproducible_from_its_seed() -> None:
    game = get("numeron")
    a = play(game, None, [RandomBot(), RandomBot()], seed=11)
    b = play(game, None, [RandomBot(), RandomBot()], seed=11)
    assert [(s.seat, s.action, s.default) for s in a.steps] == [
        (s.seat, s.action, s.default) for s in b.steps
    ]


def test_time_limit_turns_slow_decisions_into_timeouts() -> None:
    class Slow(Bot):
        def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
            import time

            time.sleep(0.02)
            return legal[0]

    rec = play(Toy(), None, [Slow(), RandomBot()], seed=1, time_limit=0.001)
    assert any(s.default == "timeout" for s in rec.steps)


def test_bot_specs() -> None:
    game = get("numeron")
    assert parse_bot_spec("montecarlo:ms=500:x=1") == ("montecarlo", {"ms": "500", "x": "1"})
    assert isinstance(make_bot(game, "random"), RandomBot)
    with pytest.raises(ConfigError, match="no bot 'nope'"):
        make_bot(game, "nope")
    with pytest.raises(ConfigError, match="has no option"):
        make_bot(game, "random:depth=3")
    with pytest.raises(ConfigError, match="key=value"):
        parse_bot_spec("random:depth")


def test_match_rotates_seats_and_summarises() -> None:
    recs = run_match(Toy(), None, ["random", "random"], 10, seed=0)
    stats = summarize(recs)
    assert len(stats) == 1 and stats[0].games == 20
    assert stats[0].wins + stats[0].losses + stats[0].draws == 20
    assert [r.meta["bot_specs"] for r in recs[:2]] == [["random", "random"]] * 2


def test_intervals() -> None:
    mean, half = mean_ci([0.0, 1.0] * 50)
    assert mean == 0.5 and 0.09 < half < 0.11
    lo, hi = wilson(0.5, 100)
    assert lo < 0.5 < hi and round(hi - lo, 2) == 0.19


def test_wilson_interval_holds_its_proportion_at_the_ends() -> None:
    for n in (1, 4, 7, 50, 1000):
        assert wilson(1.0, n)[1] == 1.0 and wilson(0.0, n)[0] == 0.0
        lo, hi = wilson(1.0, n)
        assert lo <= 1.0 <= hi
