"""The posterior over targets (an interval minus missed checks) against brute force."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.games.hilo.knowledge import Belief, is_right

TOP = 40

result = st.one_of(
    st.tuples(
        st.sampled_from(["guess", "random_guess"]),
        st.integers(0, TOP),
        st.sampled_from(["high", "low"]),
    ),
    st.tuples(st.just("check"), st.integers(0, TOP), st.none()),
)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, TOP), st.lists(result, max_size=8))
def test_belief_is_exactly_the_consistent_targets(
    target: int, results: list[tuple[str, int, str | None]]
) -> None:
    """Every result a target gives keeps it; the belief equals the brute-force consistent set."""
    belief = Belief.full(TOP)
    consistent = set(range(TOP + 1))
    for kind, x, direction in results:
        if kind == "check":
            hit = x == target
            belief = belief.result(kind, x, None, hit)
            consistent = {t for t in consistent if (t == x) == hit}
        else:
            assert direction is not None
            right = is_right(kind, x, direction, target)
            belief = belief.result(kind, x, direction, right)
            consistent = {t for t in consistent if is_right(kind, x, direction, t) == right}
    assert {t for t in range(-2, TOP + 3) if t in belief} == consistent
    assert belief.count == len(consistent)
    ordered = sorted(consistent)
    assert [belief.candidate(k) for k in range(belief.count)] == ordered
    for x in range(-1, TOP + 2):
        assert belief.count_below(x) == sum(1 for t in ordered if t < x)
        assert belief.count_above(x) == sum(1 for t in ordered if t > x)
    assert target in belief
    assert belief.sample(random.Random(0)) in consistent
    if len(ordered) == 1:
        assert belief.known() == target


def test_is_right_equality_rules() -> None:
    """rules: 2.1/2.5/2.6 — X == target wrong; 2.2 — right."""
    for direction in ("high", "low"):
        assert not is_right("guess", 5, direction, 5)
        assert is_right("random_guess", 5, direction, 5)
    assert is_right("guess", 4, "high", 5) and is_right("guess", 6, "low", 5)
