"""Numeron's observations and views, kept as the log grows, equal those built from the whole log.

The encoding keeps what each seat's events say about each number per log
(:class:`~dennou.games.numeron.knowledge.LogKnowledge`), so a step of the learning env costs
the same late in a long game as early. The references are built from scratch: the events the
seat may see (all once the game is over) read by ``knowledge`` from the first, then encoded
field by field; and the view with its log converted anew. Random long games (4 digits: every
item, defence items widening what is known), with old states observed again and lines forked
from them as a search does.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.core.encoding import Obs, one_hot
from dennou.core.jsondata import encode, to_json
from dennou.core.views import LogJSON
from dennou.games.numeron import GAME
from dennou.games.numeron.actions import Call
from dennou.games.numeron.encoding import PHASES, NumeronEncoding
from dennou.games.numeron.knowledge import knowledge
from dennou.games.numeron.rules import ALL_ITEMS
from dennou.games.numeron.state import NumeronState
from dennou.games.numeron.views import view
from dennou.rl.table import Table


def reference_observe(enc: NumeronEncoding, state: NumeronState, seat: int) -> Obs:
    """The observation from scratch: every visible event read again, fields encoded."""
    over = state.phase == "over"
    log = [{"kind": e.kind, "data": e.data} for e in state.log if over or e.visible_to(seat)]
    out = enc.new_obs()
    opp = 1 - seat
    one_hot(out, enc.f_me, seat, 2)
    one_hot(out, enc.f_phase, PHASES.index(state.phase), len(PHASES))
    out[enc.f_roles : enc.f_roles + 4] = (
        float(state.attacker == seat and state.turn > 0),
        float(state.first == seat),
        state.calls_left / 2,
        float(state.last_turn),
    )
    out[enc.f_turn] = state.turn / 50
    for k, owner in enumerate((seat, opp)):
        for item in state.items[owner]:
            out[enc.f_items + k * len(ALL_ITEMS) + ALL_ITEMS.index(item)] += 1 / 3
    out[enc.f_strikes : enc.f_strikes + 2] = (state.strikes[seat] / 3, state.strikes[opp] / 3)
    mine = state.numbers[seat]
    if mine is not None:
        for p, c in enumerate(mine):
            out[enc.f_mine + p * 10 + int(c)] = 1.0
    theirs = knowledge(log, enc.rules.digits, opp)
    known = knowledge(log, enc.rules.digits, seat)
    total = math.log(len(enc.pool))
    out[enc.f_known] = math.log(max(1, theirs.count)) / total
    out[enc.f_known + 1] = math.log(max(1, known.count)) / total
    out[enc.f_cands : enc.f_cands + len(enc.pool)] = theirs.mask
    return enc.clip(out)


def reference_view(state: NumeronState, seat: int | None) -> Any:
    """The view with its log converted from scratch (every event the seat may see)."""
    over = state.phase == "over"
    log = to_json([e for e in state.log if over or e.visible_to(seat)])
    return view(GAME.views.header(state, seat), state, seat, log)


def _same(enc: NumeronEncoding, state: NumeronState) -> None:
    for seat in (0, 1):
        got = enc.observe(state, seat)
        want = reference_observe(enc, state, seat)
        assert got.tobytes() == want.tobytes(), (seat, len(state.log), np.nonzero(got != want))
    for who in (0, 1, None):
        shown = GAME.view(state, who)
        assert shown == reference_view(state, who), (who, len(state.log))
        log = shown["log"]
        assert isinstance(log, LogJSON) and log.encoded() == encode(list(log))


def _choose(table: Table, seat: int, rng: random.Random, hit: float) -> int:
    """A random legal number: in a call, the opponent's number with probability ``hit``, else
    one that misses (long games)."""
    legal = table.legal(seat)
    state = table.state
    enc = table.encoding
    target = state.numbers[1 - seat]
    if state.phase == "call" and target is not None and rng.random() < hit:
        return enc.index(state, seat, Call(target))
    while True:
        index = legal[rng.randrange(len(legal))]
        action: Any = enc.action(state, seat, index)
        if not (isinstance(action, Call) and action.number == target):
            return index


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    digits=st.sampled_from([3, 4]),
    steps=st.integers(100, 350),
)
def test_observations_and_views_kept_as_the_log_grows_equal_those_from_the_whole_log(
    seed: int, digits: int, steps: int
) -> None:
    table = Table("numeron", rules={"digits": digits}, seed=seed)
    enc = table.encoding
    assert isinstance(enc, NumeronEncoding)
    rng = random.Random(seed)
    past: list[NumeronState] = []
    for _ in range(steps):
        if table.done():
            _same(enc, table.state)  # over: every event shown
            table.reset(None)
        state = table.state
        past.append(state)
        _same(enc, state)
        roll = rng.random()
        if roll < 0.1:  # an old state again (a search looking back)
            _same(enc, past[rng.randrange(len(past))])
        elif roll < 0.2:  # a line forked from an old state
            old = past[rng.randrange(len(past))]
            for _ in range(rng.randrange(1, 6)):
                acting = [s for s in GAME.to_act(old) if s >= 0]
                if not acting or old.phase == "over":
                    break
                legal = GAME.legal_actions(old, acting[0])
                old, _ = GAME.apply(old, acting[0], legal[rng.randrange(len(legal))])
                _same(enc, old)
        seat = table.acting()[0]
        table.step(seat, _choose(table, seat, rng, hit=0.01))
