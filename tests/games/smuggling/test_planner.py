"""The whole-game planner: its abstraction solved backwards, checked against independent
methods and hand solutions; its exploitability; the bot's contract and its choices.
Rules: ``../shared/rules/smuggling.md``."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np
import pytest

from dennou.games.smuggling import GAME
from dennou.games.smuggling.actions import Doubt, Pass, Trunk
from dennou.games.smuggling.planner import (
    PlannerBot,
    build,
    delta,
    exploitability,
    load,
    model_values,
    save,
    shipped,
)
from dennou.games.smuggling.settle import settle
from tests.games.bot_checks import check_bots

from .helpers import OKU, M, start
from .test_equilibrium import support_enumeration_value


def test_delta_is_the_settlement_in_steps() -> None:
    """Rules page step 5, for the smuggling team's total minus the inspecting team's."""
    step = 10 * M
    move = delta(10)
    for s in range(11):
        for x in range(11):
            r = settle(s * step, x * step, 10_000)
            assert move[s, x] * step == r.to_smuggler - r.to_inspector


def test_one_small_game_with_one_level_is_solved_by_hand() -> None:
    """Trunk 0 or 1 step, pass or doubt 1 step, level score, last small game:
    M = [[1/2, 1], [1, 0]] (draw, empty trunk doubted, passed, caught): value 2/3."""
    plan = build(1, levels=1)
    assert plan.w(1, 0.0) == pytest.approx(2 / 3)
    assert plan.w(1, 5.0) == 1.0 and plan.w(1, -5.0) == 0.0


@cache
def oracle(k: int, d: int, levels: int) -> float:
    """W(k, d) by support enumeration on every stage (a method sharing nothing with the LP)."""
    if k == 0:
        return 1.0 if d > 0 else 0.0 if d < 0 else 0.5
    if abs(d) > (2 * levels - 1) * k:
        return 1.0 if d > 0 else 0.0
    move = delta(levels)
    a = np.array([[1.0 - oracle(k - 1, -(d + int(m)), levels) for m in row] for row in move])
    return support_enumeration_value(a)


@pytest.mark.parametrize(("k", "levels"), [(2, 2), (3, 2), (2, 3)])
def test_backward_induction_matches_support_enumeration(k: int, levels: int) -> None:
    plan = build(k, levels=levels)
    for d in (-3, 0, 2):
        assert plan.w(k, float(d)) == pytest.approx(oracle(k, d, levels), abs=1e-7)


def test_exploitability_of_a_small_plan_is_nil() -> None:
    plan = build(4, levels=3)
    value, br_smuggler, br_inspector = exploitability(plan)
    assert br_smuggler - value == pytest.approx(0.0, abs=1e-7)
    assert value - br_inspector == pytest.approx(0.0, abs=1e-7)


def test_shipped_plan_round_trips_and_covers_the_default_game() -> None:
    plan = shipped()
    assert plan.games >= 50 and plan.levels == 10
    again = load(save(plan))
    assert again.w(50, 3.5) == plan.w(50, 3.5)
    # Symmetry of a zero-sum race: ahead by d with k left mirrors behind by d with the roles
    # swapped one small game later, and more lead is never worse.
    assert plan.w(10, 4.0) >= plan.w(10, 0.0) >= plan.w(10, -4.0)


def test_best_response_to_a_team_that_always_passes_smuggles_the_most() -> None:
    passes = np.zeros(11)
    passes[0] = 1.0
    values = model_values(1, True, passes, passes)
    r = (len(values[1]) - 1) // 2
    assert values[1][r] == 1.0  # at a level score, the last smuggle wins for sure
    # ... and against the stage equilibrium's fixed mix, the whole-game best response wins
    # more than half the games (the fixed mix ignores the score).
    mix = np.zeros(11)
    mix[0], mix[10] = 2 / 3, 1 / 3
    v = model_values(50, True, mix, mix)[-1]
    assert v[(len(v) - 1) // 2] > 0.6


def test_planner_keeps_the_contract() -> None:
    rules = GAME.make_rules({"team_size": 2, "small_games": 6})
    for specs in (("planner",) * 2 + ("greedy",) * 2, ("equilibrium",) * 2 + ("planner",) * 2):
        tally = check_bots(GAME, rules, specs, seeds=[3], every=2)
        assert tally.twin_checks >= 5 and tally.hidden_differs >= 1


def _view_with(results: list[tuple[str, int, int]], small_game: int, seat: int) -> dict[str, Any]:
    state = start(team_size=1, small_games=12)
    view = GAME.view(state, seat)
    view = dict(view)
    view["results"] = [
        {"game": i + 1, "smuggling": who, "amount": a, "doubt": x}
        for i, (who, a, x) in enumerate(results)
    ]
    view["small_game"] = small_game
    return view


def test_planner_exploits_a_team_that_always_doubts_everything() -> None:
    """South always doubted 100M when North smuggled: North's planner packs nothing (an empty
    trunk doubted earns the 50M compensation, twice over in the team difference)."""
    state = start(team_size=1, small_games=12)
    bot = PlannerBot()
    history = []
    for g in range(1, 9):
        history.append(("north" if g % 2 else "south", OKU if g % 2 == 0 else 0, OKU))
    view = GAME.view(state, 0)
    view = dict(view)
    view["results"] = [
        {"game": i + 1, "smuggling": w, "amount": a, "doubt": x if w == "north" else 0}
        for i, (w, a, x) in enumerate(history)
    ]
    view["small_game"] = 9
    view["phase"] = "trunk"
    view["smuggler"], view["inspector"] = 0, 1
    picks = {bot._decide(view, "smuggler", random.Random(i)) for i in range(20)}
    assert picks == {Trunk(0)}


def test_planner_plays_the_equilibrium_against_a_mixed_team() -> None:
    state = start(team_size=1, small_games=12)
    view = dict(GAME.view(state, 1))
    view["phase"] = "room"
    view["smuggler"], view["inspector"] = 0, 1
    rng = random.Random(0)
    picks = [PlannerBot()._decide(view, "inspector", rng) for _ in range(300)]
    doubts = sum(isinstance(p, Doubt) for p in picks)
    passes = sum(isinstance(p, Pass) for p in picks)
    assert doubts > 30 and passes > 30  # a mix, not a pure reply
