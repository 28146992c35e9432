"""10-card stud's golden session: three hands in which players go broke and sit out.

Rules: docs/games/stud10.md (a session with stacks of 2 and an ante of 1). The shared runner
(``tests/test_golden.py``) replays it to its stored expectation; here, what it must contain.
"""

from __future__ import annotations

from dennou.core.record import replay
from dennou.games.stud10 import GAME
from tests.goldens import record_of, stored_expectation


def test_golden_session_deals_the_broke_players_out() -> None:
    record = record_of("stud10_session")
    expected = stored_expectation("stud10_session")
    frames = list(replay(record, GAME))
    deals = [f for f in frames if f.step and f.step.action and f.step.action["type"] == "deal"]
    assert len(deals) == 3
    # Third hand: only the players who still had a chip were dealt in.
    assert deals[2].state.in_hand == (1, 3)
    # The engine logs no odds (views compute them when asked); the final view's are the result.
    kinds = [e["kind"] for e in expected["final_view"]["log"]]
    assert "odds" not in kinds and kinds.count("showdown") == 3
    assert expected["final_view"]["odds"]["method"] == "exact"
