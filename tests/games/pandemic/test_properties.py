"""Property tests: the contact table and whole ticks against a plain reference resolver.

Rules: docs/games/pandemic.md (Time; Contact outcomes).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.games.pandemic.actions import Check, Contact, Cure, Idle
from dennou.games.pandemic.state import contact_result
from tests.games.pandemic.helpers import start, tick

side = st.tuples(st.booleans(), st.integers(0, 5))


@given(side, side, st.booleans(), st.booleans())
def test_contact_table_is_symmetric_and_conserves_as_the_table_says(
    a: tuple[bool, int], b: tuple[bool, int], used: bool, transfer: bool
) -> None:
    a2, b2, gave = contact_result(a, b, used=used, transfer=transfer)
    b3, a3, gave2 = contact_result(b, a, used=used, transfer=transfer)
    assert (a2, b2, gave) == (a3, b3, gave2)
    before = a[1] + b[1]
    after = a2[1] + b2[1]
    if not a[0] and not b[0]:
        assert after - before == (0 if used else 2) and not (a2[0] or b2[0])
        assert gave == (not used)
    elif a[0] and b[0]:
        assert (a2, b2) == (a, b)
    else:
        normal = a if not a[0] else b
        if normal[1] == 0:
            assert after == before and a2[0] and b2[0]
        else:
            assert after - before == (0 if transfer else -1)
            assert a2[0] != b2[0]  # the normal one is infected, the infected one cured


def reference(
    infected: list[bool], vaccines: list[int], used: set[tuple[int, int]], orders: list[object]
) -> None:
    """The rules page read literally, one step at a time (mutates its arguments)."""
    for s, o in enumerate(orders):
        if isinstance(o, Cure) and infected[s] and vaccines[s] >= 1:
            infected[s] = False
            vaccines[s] -= 1
    pairs = []
    for s, o in enumerate(orders):
        if isinstance(o, Contact):
            t = o.player
            other = orders[t]
            if isinstance(other, Contact) and other.player == s and s < t:
                pairs.append((s, t))
    for a, b in pairs:
        ia, ib = infected[a], infected[b]
        if not ia and not ib:
            if (a, b) not in used:
                vaccines[a] += 1
                vaccines[b] += 1
                used.add((a, b))
        elif ia != ib:
            n, i = (a, b) if not ia else (b, a)
            if vaccines[n] == 0:
                infected[n] = True
            else:
                vaccines[n] -= 1
                infected[n] = True
                infected[i] = False


N = 5
order = st.one_of(
    st.just(Idle()), st.just(Check()), st.just(Cure()), st.integers(0, N - 1).map(Contact)
)


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.integers(0, N - 1), min_size=1, max_size=3),
    st.lists(st.lists(order, min_size=N, max_size=N), min_size=1, max_size=8),
)
def test_ticks_match_the_reference_resolver(
    start_infected: set[int], ticks: list[list[object]]
) -> None:
    state = start(tuple(sorted(start_infected)), n=N, rounds=1, ticks=len(ticks), qualifiers=None)
    infected = [s in start_infected for s in range(N)]
    vaccines = [0] * N
    used: set[tuple[int, int]] = set()
    for orders in ticks:
        orders = [
            Idle() if isinstance(o, Contact) and o.player == s else o for s, o in enumerate(orders)
        ]
        reference(infected, vaccines, used, orders)
        state, _ = tick(state, dict(enumerate(orders)))  # type: ignore[arg-type]
        assert list(state.infected) == infected
        assert list(state.vaccines) == vaccines
        assert set(state.used_pairs) == used
    assert state.phase == "over"
    assert state.qualified == tuple(s for s in range(N) if not infected[s])
