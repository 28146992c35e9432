"""Properties over random sets: cards accounted for, games end, sets count, points sum to 0."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME, DaifugoRules
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Give
from dennou.games.daifugo.state import STATE_FIELDS, DaifugoState

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
