"""The engine's bitmask play phase (``fast.py``) against the readable reference in ``cards.py``.

The public API lists plays from bitmask tables and tests forced passes on hand bits; the plain
functions :func:`cards.groups`, :func:`cards.follow_groups`, :func:`cards.can_beat`,
:func:`cards.beats` and :func:`cards.contains` stay the oracle (rules page, Plays and Passing).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.core.errors import IllegalActionError
from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME, DaifugoRules
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import fast as F
from dennou.games.daifugo.actions import Pass, Play
from dennou.games.daifugo.state import DaifugoState

hands = st.lists(st.sampled_from(C.DECK), max_size=16).map(lambda cs: tuple(sorted(cs)))


def _legal_hand(hand: tuple[int, ...]) -> tuple[int, ...]:
    # A hand holds each natural card at most once (jokers twice at most).
    naturals = sorted({c for c in hand if c != C.JOKER})
    return (*naturals, *[C.JOKER] * min(2, hand.count(C.JOKER)))


@settings(max_examples=400, deadline=None)
@given(hands, st.sampled_from([1, 2, 3, 4, 5, 6]))
def test_lead_groups_equal_reference_in_order(hand: tuple[int, ...], max_group: int) -> None:
    hand = _legal_hand(hand)
    assert F.lead_groups(hand, max_group) == C.groups(hand, max_group)


@settings(max_examples=600, deadline=None)
@given(
    hands,
    st.integers(1, 6),
    st.integers(0, 13),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from([4, 6]),
)
def test_follow_groups_and_can_beat_equal_reference(
    hand: tuple[int, ...],
    size: int,
    top_rank: int,
    revolution: bool,
    returned: bool,
    spade3: bool,
    max_group: int,
) -> None:
    hand = _legal_hand(hand)
    args = {"revolution": revolution, "returned": returned, "spade3_return": spade3}
    expect = C.follow_groups(hand, size, top_rank, max_group=max_group, **args)
    got = F.follow_groups(hand, size, top_rank, revolution, returned, spade3, max_group)
    assert got == expect
    fast = F.can_beat(hand, size, top_rank, revolution, returned, spade3, max_group)
    assert fast == C.can_beat(hand, size, top_rank, max_group=max_group, **args) == bool(expect)


def _reference_accepts(state: DaifugoState, seat: int, cards: tuple[str, ...]) -> bool:
    """The rules of Plays spelled out with the readable functions only."""
    group = C.parse_cards(cards)
    if group is None:
        return False
    rank = C.group_rank(group, state.rules.max_group)
    if rank is None or not C.contains(state.hands[seat], group):
        return False
    top = state.top
    return top is None or C.beats(
        group,
        rank,
        top.cards,
        top.rank,
        revolution=state.revolution,
        returned=top.returned,
        spade3_return=state.rules.spade3_return,
    )


def _reference_can_beat(state: DaifugoState, seat: int) -> bool:
    top = state.top
    assert top is not None
    return C.can_beat(
        state.hands[seat],
        len(top.cards),
        top.rank,
        revolution=state.revolution,
        returned=top.returned,
        spade3_return=state.rules.spade3_return,
        max_group=state.rules.max_group,
    )


def _candidates(state: DaifugoState, seat: int, rng: random.Random) -> list[tuple[str, ...]]:
    """Plays to probe: all groups of the hand, other spellings, duplicates, foreign cards."""
    hand = state.hands[seat]
    out = [tuple(C.cards_str(g)) for g in C.groups(hand, 6)]
    for _ in range(6):
        k = rng.randrange(1, 5)
        out.append(tuple(C.cards_str(rng.sample(C.DECK, k))))
    if hand:
        c = C.card_str(hand[0])
        out += [(c, c), (c.replace("10", "T").lower(),)]
    return out


def test_engine_plays_match_the_reference_on_random_games() -> None:
    """Every play-phase position of random games with varied rules: the listed plays are the
    reference groups in the reference order (then ``pass`` when the field is not empty);
    ``in legal`` and ``apply`` agree with the reference for probes of every kind; every forced
    pass is a seat that could not beat the top, and the seat to play can."""
    rng = random.Random(11)
    positions = 0
    for _ in range(40):
        n = rng.choice([2, 3, 4, 5, 6, 8])
        rules = DaifugoRules(
            games=2,
            revolution_size=rng.choice([4, 3]),
            max_group=rng.choice([6, 4, 2]),
            eight_cut=rng.random() < 0.8,
            spade3_return=rng.random() < 0.8,
            revolution=rng.random() < 0.8,
        )
        state = GAME.new(rules, [f"p{i}" for i in range(n)])
        while state.phase != "over":
            (seat,) = GAME.to_act(state)
            if seat == CHANCE:
                state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
                continue
            legal = GAME.legal_actions(state, seat)
            if state.phase != "play":
                state, _ = GAME.apply(state, seat, legal[rng.randrange(len(legal))])
                continue
            positions += 1
            top = state.top
            if top is None:
                ref = C.groups(state.hands[seat], rules.max_group)
            else:
                ref = C.follow_groups(
                    state.hands[seat],
                    len(top.cards),
                    top.rank,
                    revolution=state.revolution,
                    returned=top.returned,
                    spade3_return=rules.spade3_return,
                    max_group=rules.max_group,
                )
            expect: list[Play | Pass] = [Play(tuple(C.cards_str(g))) for g in ref]
            expect += [Pass()] if top is not None else []
            assert list(legal) == expect
            assert GAME.legal_groups(state, seat) == ref
            for cards in _candidates(state, seat, rng):
                ok = _reference_accepts(state, seat, cards)
                assert (Play(cards) in legal) == ok, cards
                try:
                    GAME.apply(state, seat, Play(cards))
                except IllegalActionError:
                    assert not ok, cards
                else:
                    assert ok, cards
            state, events = GAME.apply(state, seat, legal[rng.randrange(len(legal))])
            field = state.top
            if state.phase != "play" or field is None:
                continue  # the field flushed (or the game ended): passes were against it
            forced = [e.data["seat"] for e in events if e.kind == "pass" and e.data["auto"]]
            assert not any(_reference_can_beat(state, x) for x in forced)
            assert _reference_can_beat(state, state.turn)
    assert positions > 1000
