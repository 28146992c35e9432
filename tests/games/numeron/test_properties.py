"""Property tests of judge (hypothesis): docs/games/numeron.md, Judging."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dennou.games.numeron import judge
from dennou.games.numeron.knowledge import judge_all
from dennou.games.numeron.state import all_numbers


@st.composite
def pair(draw: st.DrawFn) -> tuple[str, str]:
    digits = draw(st.integers(3, 5))
    a = draw(st.permutations("0123456789"))[:digits]
    b = draw(st.permutations("0123456789"))[:digits]
    return "".join(a), "".join(b)


@given(pair())
def test_eat_plus_bite_is_the_shared_digits(p: tuple[str, str]) -> None:
    a, b = p
    eat, bite = judge(a, b)
    assert eat + bite == len(set(a) & set(b))
    assert 0 <= eat <= len(a) and bite >= 0


@given(pair())
def test_judge_is_symmetric(p: tuple[str, str]) -> None:
    a, b = p
    assert judge(a, b) == judge(b, a)


@given(pair())
def test_all_eat_exactly_when_equal(p: tuple[str, str]) -> None:
    a, b = p
    assert (judge(a, b)[0] == len(a)) == (a == b)
    assert judge(a, a) == (len(a), 0)


@given(pair())
def test_vectorised_judge_agrees_with_judge(p: tuple[str, str]) -> None:
    a, b = p
    eat, bite = judge_all(len(a), b)
    i = all_numbers(len(a)).index(a)
    assert (int(eat[i]), int(bite[i])) == judge(a, b)


def test_number_counts() -> None:
    assert [len(all_numbers(d)) for d in (3, 4, 5)] == [720, 5040, 30240]
