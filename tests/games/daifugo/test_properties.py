"""Properties over random sets: cards accounted for, games end, sets count, points sum to 0;
legal plays equal the slow reference over random states of random rule combinations."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.core.errors import IllegalActionError
from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME, DaifugoRules
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Give, Pass, Play
from dennou.games.daifugo.state import STATE_FIELDS, DaifugoState

from . import reference as R

FULL = Counter(C.DECK)


def accounted(s: DaifugoState) -> Counter[int]:
    cards: Counter[int] = Counter(C.cards_in(s.discards))
    for h in s.hands:
        cards.update(C.cards_in(h))
    for p in s.field:
        cards.update(C.cards_in(p.combo.cards))
    return cards


def run_set(seed: int, n: int, games: int, cheat: float) -> tuple[DaifugoState, int]:
    rng = random.Random(seed)
    s = GAME.new(DaifugoRules(games=games), [f"p{i}" for i in range(n)])
    steps = 0
    while GAME.to_act(s):
        (seat,) = GAME.to_act(s)
        if seat == CHANCE:
            s, _ = GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
        elif s.phase == "exchange" and rng.random() < cheat:
            s, _ = GAME.apply(s, seat, Give(("JK", "JK", "JK")))
        elif rng.random() < 0.05:
            s, _ = GAME.apply_default(s, seat)
        else:
            legal = GAME.legal_actions(s, seat)
            s, _ = GAME.apply(s, seat, legal[rng.randrange(len(legal))])
        steps += 1
        assert steps < 20_000, "a set did not end"
        if s.phase in ("exchange", "play"):
            assert accounted(s) == FULL
    return s, steps


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    n=st.integers(2, 8),
    games=st.integers(1, 4),
    cheat=st.sampled_from([0.0, 0.0, 0.3]),
)
def test_cards_accounted_games_end_sets_count(seed: int, n: int, games: int, cheat: float) -> None:
    """54 cards always in hands + field + discards; the set ends with `games` counted games."""
    s, _ = run_set(seed, n, games, cheat)
    assert s.phase == "over" and len(s.results) == games
    assert [r.number for r in s.results] == list(range(1, games + 1))
    assert s.points == tuple(sum(r.points[i] for r in s.results) for i in range(n))
    for r in s.results:
        if not r.cheaters:
            assert sum(r.points) == 0
            assert sorted(r.finish) == list(range(n))
        assert sorted(set(r.finish) | set(r.cheaters)) == list(range(n))


def test_full_sets_have_ten_counted_games_and_zero_sum_without_cheating() -> None:
    """Every set has 10 counted games; per-game points sum to 0 when nobody cheated."""
    for seed, n in ((1, 5), (2, 3), (3, 8)):
        s, _ = run_set(seed, n, 10, 0.0)
        assert len(s.results) == 10 and sum(s.points) == 0
        assert all(sum(r.points) == 0 for r in s.results)


def test_cheating_sets_still_count_ten_games() -> None:
    """With frequent cheating (void games included) a set still has 10 counted games."""
    voids = 0
    for seed, n in ((4, 2), (5, 4), (6, 2)):
        s, _ = run_set(seed, n, 10, 0.5)
        assert len(s.results) == 10
        voids += s.void_games
    assert voids > 0


def test_state_copy_copies_every_field() -> None:
    """``DaifugoState.copy`` lists the fields by hand: it must not forget one."""
    s, _ = run_set(7, 4, 1, 0.0)
    copied = s.copy()
    assert copied == s and copied is not s
    assert {name for name in STATE_FIELDS if getattr(copied, name) is getattr(s, name)} == set(
        STATE_FIELDS
    )


OPTIONS = st.fixed_dictionaries(
    {
        "jokers": st.integers(0, 2),
        "max_group": st.integers(2, 6),
        "sequences": st.booleans(),
        "suit_lock": st.booleans(),
        "revolution_size": st.integers(2, 6),
        "eight_cut": st.booleans(),
        "spade3_return": st.booleans(),
        "spade3_flush": st.booleans(),
        "eleven_back": st.booleans(),
        "five_skip": st.booleans(),
        "seven_pass": st.booleans(),
        "ten_discard": st.booleans(),
        "miyako_ochi": st.booleans(),
        "first_lead": st.sampled_from(["order", "diamond3"]),
        "turn_order": st.sampled_from(["finish", "seats"]),
        "lead_pass": st.booleans(),
        "flush_on": st.sampled_from(["others_passed", "all_passed"]),
        "auto_pass": st.booleans(),
        "stalemate_passes": st.sampled_from([0, 6, 20]),
        "auto_tribute": st.booleans(),
        "cheating": st.sampled_from(["penalty", "reject", "strongest"]),
    }
)


def _probes(hand: tuple[int, ...], rng: random.Random) -> list[tuple[str, ...]]:
    """Plays to try: parts of the hand, jokers with and without squares, foreign cards."""
    out: list[tuple[str, ...]] = []
    for _ in range(10):
        k = rng.randrange(1, 6)
        cards = rng.sample(hand, min(k, len(hand))) if rng.random() < 0.8 else rng.sample(C.DECK, k)
        texts = []
        for c in cards:
            if c == C.JOKER and rng.random() < 0.6:
                texts.append("JK=" + C.square_str(rng.randrange(-4, 56)))
            else:
                texts.append(C.card_str(c))
        rng.shuffle(texts)
        out.append(tuple(texts))
    return out


def _check_plays(s: DaifugoState, seat: int, rng: random.Random) -> None:
    rules = s.rules
    flags: dict[str, Any] = {
        "max_group": rules.max_group,
        "suit_jokers": rules.suit_lock,
        "seqs": rules.sequences,
    }
    top = s.top
    field: dict[str, Any] = {
        "reverse": s.reverse,
        "returned": bool(top and top.returned),
        "lock": s.lock,
        "spade3_return": rules.spade3_return,
    }
    hand = s.hand(seat)
    combos = GAME.legal_combos(s, seat)
    described = [R.describe(c) for c in combos]
    assert len(set(described)) == len(described)
    reference = R.legal(hand, R.describe(top.combo) if top else None, **flags, **field)
    assert set(described) == reference
    legal = GAME.legal_actions(s, seat)
    may_pass = bool(top) or rules.lead_pass
    assert list(legal) == [Play(c.strs()) for c in combos] + ([Pass()] if may_pass else [])
    for texts in _probes(hand, rng):
        ok = R.accepts(hand, texts, R.describe(top.combo) if top else None, **flags, **field)
        assert (Play(texts) in legal) == ok, texts
        try:
            GAME.apply(s, seat, Play(texts))
        except IllegalActionError:
            assert not ok, texts
        else:
            assert ok, texts


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), opts=OPTIONS)
def test_legal_plays_equal_the_reference_and_no_illegal_play_is_accepted(
    seed: int, n: int, opts: dict[str, object]
) -> None:
    """Rules page, Plays and every option: over random states of random rule combinations, the
    engine lists exactly the reference's plays (tests/games/daifugo/reference.py, written from
    the rules page) and accepts a play exactly when the reference does."""
    rules = GAME.make_rules({**opts, "games": 2})
    rng = random.Random(seed)
    s = GAME.new(rules, [f"p{i}" for i in range(n)])
    checked = 0
    for _ in range(3000):
        acting = GAME.to_act(s)
        if not acting:
            break
        (seat,) = acting
        if seat == CHANCE:
            s, _ = GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
            continue
        if s.phase == "play" and s.follow_up is None and checked < 120:
            _check_plays(s, seat, rng)
            checked += 1
        legal = GAME.legal_actions(s, seat)
        s, _ = GAME.apply(s, seat, legal[rng.randrange(len(legal))])
        if s.phase in ("exchange", "play"):
            assert accounted(s) == Counter(C.deck(rules.jokers))
    assert checked > 0
