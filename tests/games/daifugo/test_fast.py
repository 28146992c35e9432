"""The fast layer (``fast.py``) against the readable rules (``cards.py``) and the slow reference.

Rules page ``docs/games/daifugo.md``, Plays, Sequences, Suit lock: the engine lists plays from
tables and tests forced passes on card sets; :func:`cards.combos` (the order) and
:mod:`.reference` (the meaning, enumerated another way) are the oracles.
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME, DaifugoRules
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import fast as F
from dennou.games.daifugo import held as H
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.state import STATE_FIELDS, Played

from . import reference as R
from .test_properties import OPTIONS as PROPERTY_OPTIONS

hands = st.builds(
    lambda naturals, jokers: C.card_set(naturals) | C.JOKER_BITS[jokers],
    st.sets(st.integers(0, 51), max_size=14),
    st.integers(0, 2),
)
options = st.fixed_dictionaries(
    {
        "max_group": st.integers(1, 6),
        "suit_lock": st.booleans(),
        "sequences": st.booleans(),
        "spade3_return": st.booleans(),
    }
)


def _flags(rules: DaifugoRules) -> dict[str, Any]:
    return {"max_group": rules.max_group, "suit_jokers": rules.suit_lock, "seqs": rules.sequences}


@settings(max_examples=300, deadline=None)
@given(hands, options)
def test_lead_plays_are_the_readable_combos_in_order_and_the_reference(
    hand: int, opts: dict[str, Any]
) -> None:
    """Rules page, Plays: a leader may play every group (and sequence) of the hand, once."""
    rules = DaifugoRules(**opts)
    combos, plays = F.lead_plays(hand, rules)
    flags = _flags(rules)
    readable = C.combos(hand, rules.max_group, suit_jokers=rules.suit_lock, seqs=rules.sequences)
    assert list(combos) == readable
    assert [p.cards for p in plays] == [c.strs() for c in combos]
    described = [R.describe(c) for c in combos]
    assert len(set(described)) == len(described)
    assert set(described) == R.all_plays(C.cards_in(hand), **flags)


@settings(max_examples=500, deadline=None)
@given(hands, hands, options, st.booleans(), st.booleans(), st.booleans(), st.data())
def test_follow_plays_and_can_follow_equal_filtering_with_beats_and_the_reference(
    hand: int,
    other: int,
    opts: dict[str, Any],
    reverse: bool,
    returned: bool,
    locked: bool,
    data: st.DataObject,
) -> None:
    """Rules page, Plays: a follow is of the same kind and size, stronger, of the locked suits."""
    rules = DaifugoRules(**opts)
    tops = C.combos(other, rules.max_group, suit_jokers=rules.suit_lock, seqs=rules.sequences)
    if not tops:
        return
    top = data.draw(st.sampled_from(tops))
    # A field is locked only under the suit lock rule (without it, jokers name no suit).
    lock = top.suits if locked and rules.suit_lock else 0
    played = Played(0, top, returned)
    args: dict[str, Any] = {"reverse": reverse, "returned": returned, "lock": lock}
    readable = C.combos(hand, rules.max_group, suit_jokers=rules.suit_lock, seqs=rules.sequences)
    expect = [c for c in readable if C.beats(c, top, spade3_return=rules.spade3_return, **args)]
    combos, _ = F.follow_plays(hand, played, reverse, lock, rules)
    assert list(combos) == expect
    reference = R.legal(
        C.cards_in(hand),
        R.describe(top),
        spade3_return=rules.spade3_return,
        **_flags(rules),
        **args,
    )
    assert {R.describe(c) for c in combos} == reference
    assert F.can_follow(hand, played, reverse, lock, rules) == bool(expect)


def test_groups_equal_every_sub_multiset_whose_naturals_share_a_rank() -> None:
    """Rules page, Plays: a group is cards whose naturals share one rank (brute force)."""
    rng = random.Random(4)
    for _ in range(1000):
        cards = tuple(sorted(rng.sample(C.DECK, rng.randrange(0, 11))))
        max_group = rng.choice([6, 6, 4, 2])
        got = [C.cards_in(g.cards) for g in C.groups(C.card_set(cards), max_group)]
        subsets = {
            combo
            for size in range(1, max_group + 1)
            for combo in combinations(cards, size)
            if R.rank_of_group(combo) is not None
        }
        assert len(got) == len(set(got)) and set(got) == subsets


def test_readings_cache_answers_as_the_readable_function() -> None:
    """The cached readings of a wire form are :func:`cards.combo_from`'s, rules filtered."""
    for texts in (("8s", "JK"), ("5s", "6s", "JK"), ("7s", "JK=7h"), ("x",), ("JK",) * 3):
        for suit_lock in (False, True):
            got = F.readings(texts, 6, suit_lock, True)
            want = C.combo_from(texts, suit_jokers=suit_lock, sequences=True)
            assert (None if want is None else tuple(want)) == got


def _fields(state: Any) -> dict[str, Any]:
    return {name: getattr(state, name) for name in STATE_FIELDS if name != "log_chain"}


def test_kernel_transitions_equal_the_readable_rules_under_every_option() -> None:
    """Rules page, every option: over random sets of random rule combinations, each action
    ``apply`` takes by the kernel (a play, a pass, a deal starting play, a game's end) gives
    the state, the events and then the legal actions the readable rules give (``apply_rules``
    and ``legal_actions_rules`` on a plain copy), listed in the same order, also where a hand
    has more plays than the kernel's vector keeps."""
    from tests.games.daifugo.test_sim import random_options

    rng = random.Random(11)
    seen = {"kernel": 0, "ends": 0, "many": 0}
    for _ in range(150):
        n = rng.choice([2, 3, 4, 5, 5, 6])
        rules = GAME.make_rules({**random_options(rng), "games": 3})
        state = GAME.new(rules, [f"p{i}" for i in range(n)])
        for _ in range(3000):
            acting = GAME.to_act(state)
            if not acting:
                break
            (seat,) = acting
            if seat == CHANCE:
                action = GAME.sample_chance(state, rng)
            else:
                legal = GAME.legal_actions(state, seat)
                plain = state.copy()
                assert list(legal) == list(GAME.legal_actions_rules(plain, seat))
                assert [legal[i] for i in range(-len(legal), len(legal))] == [*legal, *legal]
                seen["many"] += len(legal) > S.MREG
                action = legal[rng.randrange(len(legal))]
            new, events = GAME.apply(state, seat, action)
            ref, ref_events = GAME.apply_rules(state.copy(), seat, action)
            assert _fields(new) == _fields(ref)
            assert list(events) == ref_events
            seen["kernel"] += type(new) is H.KernelState
            seen["ends"] += type(state) is H.KernelState and new.phase != "play"
            state = new
    assert seen["kernel"] > 25_000 and seen["ends"] > 100 and seen["many"] > 10, seen


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 8), opts=PROPERTY_OPTIONS)
def test_events_of_the_fast_path_equal_the_readable_rules_events(
    seed: int, n: int, opts: dict[str, object]
) -> None:
    """Rules page, every option: the events ``apply`` gives for each action of a random set
    (built from the kernel's summary of the step where the kernel made the transition) equal,
    in order, the events the readable rules (``apply_rules`` on a plain copy) give."""
    rng = random.Random(seed)
    rules = GAME.make_rules({**opts, "games": 3})
    state = GAME.new(rules, [f"p{i}" for i in range(n)])
    kernel = 0
    for _ in range(5000):
        acting = GAME.to_act(state)
        if not acting:
            break
        (seat,) = acting
        if seat == CHANCE:
            action = GAME.sample_chance(state, rng)
        else:
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
        new, events = GAME.apply(state, seat, action)
        _, ref_events = GAME.apply_rules(state.copy(), seat, action)
        assert events == ref_events
        kernel += type(new) is H.KernelState
        state = new
    assert kernel > 0


def test_events_of_the_fast_path_serialise_with_their_items() -> None:
    """The events ``apply`` returns are a plain list: ``json`` and ``msgspec`` write every
    event (a list filled only when Python code reads it would be written empty)."""
    rng = random.Random(3)
    state = GAME.new(GAME.make_rules({"games": 1}), ["a", "b", "c"])
    state, events = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
    assert type(state) is H.KernelState and type(events) is list
    (seat,) = GAME.to_act(state)
    state, events = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert type(events) is list and events
    plain = [msgspec.to_builtins(e) for e in events]
    assert json.loads(json.dumps([msgspec.to_builtins(e) for e in events])) == plain
    assert msgspec.json.decode(msgspec.json.encode(events)) == plain
    assert list(state.log)[-len(events) :] == events
