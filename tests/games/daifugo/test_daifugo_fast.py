"""The fast layer (``fast.py``) against the readable rules (``cards.py``) and the slow reference.

Rules page ``docs/games/daifugo.md``, Plays and Passing: the engine lists plays from tables and
tests forced passes on card sets; :func:`cards.groups` (the order) and :mod:`.reference` (the
meaning, by brute force) are the oracles.
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

from . import reference as R

hands = st.builds(
    lambda naturals, jokers: C.card_set(naturals) | C.JOKER_BITS[jokers],
    st.sets(st.integers(0, 51), max_size=16),
    st.integers(0, 2),
)


@settings(max_examples=400, deadline=None)
@given(hands, st.sampled_from([1, 2, 3, 4, 5, 6]))
def test_lead_plays_are_the_readable_groups_in_order(hand: int, max_group: int) -> None:
    combos, plays = F.lead_plays(hand, max_group)
    assert list(combos) == C.groups(hand, max_group)
    assert [p.cards for p in plays] == [c.strs() for c in combos]
    reference = R.legal(C.cards_in(hand), None, max_group=max_group)
    assert {C.cards_in(c.cards) for c in combos} == reference


@settings(max_examples=600, deadline=None)
@given(hands, st.integers(1, 6), st.integers(0, 13), st.booleans(), st.booleans(), st.booleans())
def test_follow_plays_and_can_follow_equal_filtering_the_groups(
    hand: int, size: int, top_rank: int, reverse: bool, returned: bool, spade3: bool
) -> None:
    if top_rank == 13:
        size = min(size, 2)  # there are two jokers
    top = C.group_of((), size) if top_rank == 13 else C.Combo(C.GROUP, top_rank, size, 0, 0)
    assert top is not None
    for max_group in (4, 6):
        args = {"reverse": reverse, "returned": returned, "spade3_return": spade3}
        expect = [g for g in C.groups(hand, max_group) if C.beats(g, top, **args)]
        combos, _ = F.follow_plays(hand, top, reverse, returned, spade3, max_group)
        assert list(combos) == expect
        fast = F.can_follow(hand, top, reverse, returned, spade3, max_group)
        assert fast == bool(expect)


def test_groups_equal_the_brute_force_reference() -> None:
    """Every sub-multiset of random hands whose naturals share a rank, nothing else, no twice."""
    rng = random.Random(4)
    for _ in range(1500):
        cards = tuple(sorted(rng.sample(C.DECK, rng.randrange(0, 12))))
        max_group = rng.choice([6, 6, 4, 2])
        got = [C.cards_in(g.cards) for g in C.groups(C.card_set(cards), max_group)]
        assert len(got) == len(set(got))
        assert set(got) == R.all_groups(cards, max_group) == R.groups_by_rank(cards, max_group)


def _reference_accepts(state: DaifugoState, seat: int, cards: tuple[str, ...]) -> bool:
    """The rules of Plays spelled out with the reference only."""
    play = C.parse_cards(cards)
    if play is None or not C.contains(state.hand(seat), play):
        return False
    if R.group_rank(play) is None or len(play) > state.rules.max_group:
        return False
    top = state.top
    return top is None or R.beats(
        play,
        C.cards_in(top.combo.cards),
        revolution=state.revolution,
        returned=top.returned,
        spade3_return=state.rules.spade3_return,
    )


def _probes(state: DaifugoState, seat: int, rng: random.Random) -> list[tuple[str, ...]]:
    """Plays to probe: all groups of the hand, other spellings, duplicates, foreign cards."""
    out = [g.strs() for g in C.groups(state.hands[seat], 6)]
    for _ in range(6):
        out.append(tuple(C.cards_str(rng.sample(C.DECK, rng.randrange(1, 5)))))
    cards = state.hand(seat)
    if cards:
        c = C.card_str(cards[0])
        out += [(c, c), (c.replace("10", "T").lower(),)]
    return out


def test_engine_plays_match_the_reference_on_random_games() -> None:
    """Every play-phase position of random games with varied rules: the listed plays are the
    readable groups in their order (then ``pass`` when the field is not empty) and the reference
    set; ``in legal`` and ``apply`` agree with the reference for probes of every kind; every
    forced pass is a seat that could not beat the top, and the seat to play can."""
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
            ref = C.groups(state.hands[seat], rules.max_group)
            if top is not None:
                args = {"reverse": state.revolution, "returned": top.returned}
                ref = [
                    g
                    for g in ref
                    if C.beats(g, top.combo, spade3_return=rules.spade3_return, **args)
                ]
            expect = [Play(g.strs()) for g in ref] + ([Pass()] if top is not None else [])
            assert list(legal) == expect
            assert GAME.legal_combos(state, seat) == ref
            for cards in _probes(state, seat, rng):
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
            hands = {x: state.hand(x) for x in range(n)}
            on = C.cards_in(field.combo.cards)
            args2 = {
                "max_group": rules.max_group,
                "revolution": state.revolution,
                "returned": field.returned,
                "spade3_return": rules.spade3_return,
            }
            assert not any(R.legal(hands[x], on, **args2) for x in forced)
            assert R.legal(hands[state.turn], on, **args2)
    assert positions > 1000
