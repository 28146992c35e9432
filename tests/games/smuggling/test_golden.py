"""The Smuggling Game's scripted golden playthrough, its money checked by hand.

The shared runner (``tests/test_golden.py``) replays every golden record to its stored
expectation; ``scripts/golden`` rewrites the expectations after a deliberate change.
"""

from __future__ import annotations

from dennou.core.record import final_state
from dennou.games.smuggling import GAME
from tests.goldens import record_of


def test_scripted_golden_has_every_case_with_hand_checked_money() -> None:
    """Rules page step 5 and End, checked by hand (docs/games/smuggling.md walks through it).

    1: akiyama packs 0, nao doubts 50M: empty, 25M compensation.  2: nao packs 60M, akiyama
    doubts 60M: caught.  3: akiyama packs 100M, nao doubts 30.01M: through, 15.005M rounds down
    to 15M.  4: nao packs 40M, akiyama times out: pass.  5: akiyama packs 10,000: pass.
    """
    state = final_state(record_of("smuggling_scripted"), GAME)
    cases = [(r.case, r.to_smuggler, r.to_inspector) for r in state.results]
    assert cases == [
        ("empty", 25_000_000, -25_000_000),
        ("caught", 0, 60_000_000),
        ("through", 115_000_000, -15_000_000),
        ("pass", 40_000_000, 0),
        ("pass", 10_000, 0),
    ]
    assert state.third == (300_010_000, 100_000_000)
    assert state.home == (199_990_000, 200_000_000)
    out = GAME.outcome(state)
    assert out.teams == {"north": 1.0, "south": 0.0}
    assert out.scores == (100_010_000.0, -100_010_000.0)
    assert out.detail["debts"] == [0, 100_010_000]
