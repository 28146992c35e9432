"""The equilibrium bot's LP checked against independent methods, and its exploitability.

Support enumeration and fictitious play live here as oracles, written from their textbook
definitions and sharing nothing with ``equilibrium.py`` but the payoff matrix.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.arena import make_bot, play
from dennou.core.errors import ConfigError
from dennou.games.smuggling import GAME
from dennou.games.smuggling.actions import Doubt, Pass, Trunk
from dennou.games.smuggling.equilibrium import (
    amount_grid,
    doubt_grid,
    exploitability,
    full_exploitability,
    payoffs,
    solve,
    subgame,
)
from dennou.games.smuggling.settle import settle
from tests.games.smuggling.helpers import OKU, M, nominate_first, start, with_balances

UNIT = 10_000


def support_enumeration_value(a: np.ndarray) -> float:
    """Value of a zero-sum game from square supports solving the indifference equations."""
    scale = float(np.abs(a).max()) or 1.0
    return scale * _support_enumeration(a / scale)


def _support_enumeration(a: np.ndarray) -> float:
    m, n = a.shape
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                sub = a[np.ix_(rows, cols)]
                # x^T sub = v 1, sum x = 1  and  sub y = v 1, sum y = 1
                lhs_x = np.block([[sub.T, -np.ones((k, 1))], [np.ones((1, k)), np.zeros((1, 1))]])
                lhs_y = np.block([[sub, -np.ones((k, 1))], [np.ones((1, k)), np.zeros((1, 1))]])
                rhs = np.r_[np.zeros(k), 1.0]
                try:
                    sx = np.linalg.solve(lhs_x, rhs)
                    sy = np.linalg.solve(lhs_y, rhs)
                except np.linalg.LinAlgError:
                    continue
                x, v, y = sx[:k], sx[k], sy[:k]
                if (x < -1e-9).any() or (y < -1e-9).any() or abs(v - sy[k]) > 1e-9:
                    continue
                full_x, full_y = np.zeros(m), np.zeros(n)
                full_x[list(rows)], full_y[list(cols)] = x, y
                if (full_x @ a).min() >= v - 1e-9 and (a @ full_y).max() <= v + 1e-9:
                    return float(v)
    raise AssertionError("no equilibrium found on square supports")


def fictitious_play_bounds(a: np.ndarray, steps: int = 20_000) -> tuple[float, float]:
    """Brown's fictitious play: (lower, upper) bounds on the value from the empirical mixes."""
    m, n = a.shape
    rows, cols = np.zeros(m), np.zeros(n)
    row_payoff, col_payoff = np.zeros(m), np.zeros(n)
    i, j = 0, 0
    for _ in range(steps):
        rows[i] += 1
        cols[j] += 1
        row_payoff += a[:, j]
        col_payoff += a[i, :]
        i, j = int(row_payoff.argmax()), int(col_payoff.argmin())
    x, y = rows / rows.sum(), cols / cols.sum()
    return float((x @ a).min()), float((a @ y).max())


def test_payoff_matrix_is_the_settlement_rule() -> None:
    """Rules page step 5: every entry equals `settle` (the engine's rule) for that pair."""
    amounts = amount_grid(37 * M, UNIT, 9)
    doubts = doubt_grid(amounts, 23 * M)
    a = payoffs(amounts, doubts, UNIT, "team", "smuggler")
    for i, s in enumerate(amounts):
        for j, x in enumerate(doubts):
            r = settle(int(s), int(x), UNIT)
            assert a[i, j] == r.to_smuggler - r.to_inspector
    inspector = payoffs(amounts, doubts, UNIT, "self", "inspector", 3)
    r = settle(int(amounts[4]), int(doubts[2]), UNIT)
    assert inspector[4, 2] == pytest.approx(-(r.to_inspector - amounts[4] / 3))


@pytest.mark.parametrize(
    ("trunk_hi", "doubt_hi", "points"),
    [(OKU, 2 * OKU, 4), (OKU, 60 * M, 5), (40 * M, 70 * M, 5), (OKU, 130 * M, 4), (9 * M, 0, 3)],
)
def test_lp_value_matches_support_enumeration_on_small_grids(
    trunk_hi: int, doubt_hi: int, points: int
) -> None:
    """The LP's game value equals the value found by support enumeration."""
    game = subgame(trunk_hi, doubt_hi, UNIT, points)
    assert game.solution.value == pytest.approx(support_enumeration_value(game.matrix), rel=1e-7)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_lp_value_matches_support_enumeration_on_random_matrices(seed: int) -> None:
    """Generic (non-degenerate) small games: the LP and support enumeration agree."""
    a = np.random.default_rng(seed).normal(size=(3, 4))
    assert solve(a).value == pytest.approx(support_enumeration_value(a), abs=1e-7)


def test_lp_value_matches_fictitious_play() -> None:
    """Fictitious play's bounds close in on the LP's value (6 x 7 smuggling grid)."""
    game = subgame(OKU, 150 * M, UNIT, 6)
    scaled = game.matrix / OKU
    lower, upper = fictitious_play_bounds(scaled)
    value = game.solution.value / OKU
    assert lower - 1e-9 <= value <= upper + 1e-9
    assert upper - lower < 0.02


@pytest.mark.parametrize("seed", range(3))
def test_equilibrium_is_unexploitable_on_the_grid_and_on_the_whole_action_space(seed: int) -> None:
    """Exploitability (best-response gain) of the bot's mix: ~0 on its grid and off it.

    Reported in the docs: for the team objective the grid equilibrium is also an equilibrium
    of the whole 10,001 x 20,001 game (0 exploitability up to rounding).
    """
    rng = random.Random(seed)
    worst_grid = worst_full = 0.0
    for _ in range(8):
        trunk_hi, doubt_hi = rng.randrange(10_001) * UNIT, rng.randrange(20_001) * UNIT
        game = subgame(trunk_hi, doubt_hi, UNIT, 21)
        grid = exploitability(game.matrix, game.solution.row, game.solution.col)
        full = full_exploitability(game, UNIT, trunk_hi, doubt_hi)
        worst_grid, worst_full = max(worst_grid, grid), max(worst_full, full)
    print(f"exploitability (yen): grid {worst_grid:.3g}, whole action space {worst_full:.3g}")
    assert worst_grid < 1.0 and worst_full < 1.0


def test_the_default_subgame_mixes_an_empty_and_a_full_trunk() -> None:
    """Known value: with 300M home and 100M third, s in {0 (2/3), 100M (1/3)}, value 100M/3."""
    game = subgame(OKU, 2 * OKU, UNIT, 21)
    assert game.solution.value == pytest.approx(OKU / 3)
    mix = dict(zip(game.amounts.tolist(), game.solution.row.tolist(), strict=True))
    assert mix[0] == pytest.approx(2 / 3) and mix[OKU] == pytest.approx(1 / 3)
    doubts = dict(zip(game.doubts.tolist(), game.solution.col.tolist(), strict=True))
    assert doubts[0] == pytest.approx(2 / 3) and doubts[OKU] == pytest.approx(1 / 3)


def test_equilibrium_bot_samples_its_mix() -> None:
    """The bot's trunk and verdict frequencies follow the LP mix (2/3 empty, 1/3 full)."""
    bot = make_bot(GAME, "equilibrium")
    s = nominate_first(start(2))
    rng = random.Random(5)
    trunks = Counter(bot.act(GAME.view(s, 0), GAME.legal_actions(s, 0), rng) for _ in range(600))
    assert set(trunks) == {Trunk(0), Trunk(OKU)}
    assert trunks[Trunk(0)] / 600 == pytest.approx(2 / 3, abs=0.06)
    s, _ = GAME.apply(s, 0, Trunk(OKU))
    verdicts = Counter(bot.act(GAME.view(s, 2), GAME.legal_actions(s, 2), rng) for _ in range(600))
    assert set(verdicts) == {Pass(), Doubt(OKU)}
    assert verdicts[Pass()] / 600 == pytest.approx(2 / 3, abs=0.06)


def test_equilibrium_inspector_passes_when_its_limit_is_too_low() -> None:
    """With third 30M the doubt limit is 60M < a 100M trunk: doubting only pays compensation."""
    bot = make_bot(GAME, "equilibrium")
    s = nominate_first(start(2))
    s = with_balances(s, third=(OKU, OKU, 30 * M, OKU))
    assert bot.act(GAME.view(s, 0), GAME.legal_actions(s, 0), random.Random(1)) == Trunk(OKU)
    s, _ = GAME.apply(s, 0, Trunk(OKU))
    assert bot.act(GAME.view(s, 2), GAME.legal_actions(s, 2), random.Random(1)) == Pass()


def test_equilibrium_team_nominates_the_richest_and_self_nominates_itself() -> None:
    """Team objective: most home money smuggles, most third money inspects; self: itself."""
    s = start(3)
    s = with_balances(s, home=(50 * M, 3 * OKU, 3 * OKU, 3 * OKU, 3 * OKU, 3 * OKU))
    s = with_balances(s, third=(OKU, OKU, OKU, OKU, 2 * OKU, OKU))
    team, selfish = make_bot(GAME, "equilibrium"), make_bot(GAME, "equilibrium:objective=self")
    rng = random.Random(0)
    assert team.act(GAME.view(s, 0), GAME.legal_actions(s, 0), rng).seat == 1  # type: ignore[attr-defined]
    assert team.act(GAME.view(s, 3), GAME.legal_actions(s, 3), rng).seat == 4  # type: ignore[attr-defined]
    assert selfish.act(GAME.view(s, 2), GAME.legal_actions(s, 2), rng).seat == 2  # type: ignore[attr-defined]


def test_bots_play_whole_games_and_talk_in_the_room() -> None:
    """Every bot plays legal moves only (no defaults in the record); equilibrium talks."""
    rules = GAME.make_rules({"team_size": 2, "small_games": 6})
    bots = [
        make_bot(GAME, spec)
        for spec in ("equilibrium", "greedy", "random", "equilibrium:objective=self")
    ]
    record = play(GAME, rules, bots, seed=3)
    assert all(step.default is None for step in record.steps)
    room = [st.talk for st in record.steps if st.talk is not None and st.talk.channel == "room"]
    assert room and all(t.speaker in (0, 3) for t in room)
    assert record.outcome is not None and len(record.outcome["scores"]) == 4


def test_bad_bot_options_are_refused() -> None:
    """Bot options are checked."""
    with pytest.raises(ConfigError):
        make_bot(GAME, "equilibrium:objective=money")
    with pytest.raises(ConfigError):
        make_bot(GAME, "equilibrium:points=1")


def test_exploit_option_best_responds_to_a_predictable_team() -> None:
    """exploit=true: after greedy inspectors always doubted 100M, pack 0; after greedy
    smugglers always packed 100M, doubt 100M. Without history it plays the equilibrium."""
    from dennou.games.smuggling.state import Result

    bot = make_bot(GAME, "equilibrium:exploit=true")
    s = nominate_first(start(2))
    rng = random.Random(2)
    draws = {bot.act(GAME.view(s, 0), GAME.legal_actions(s, 0), rng) for _ in range(40)}
    assert draws == {Trunk(0), Trunk(OKU)}

    def past(smuggling: str, amount: int, doubt: int) -> Result:
        case = settle(amount, doubt, UNIT)
        return Result(
            1,
            smuggling,
            0,
            2,
            None,
            amount,
            "doubt" if doubt else "pass",
            doubt,
            case.case,
            case.compensation,
            case.to_smuggler,
            case.to_inspector,
        )

    history = tuple(past("north", OKU, OKU) for _ in range(3)) + tuple(
        past("south", OKU, OKU) for _ in range(3)
    )
    s = replace(s, results=history)
    view = GAME.view(s, 0)
    assert bot._best_response(view, "smuggler", bot.subgame(view, "smuggler")) is None  # type: ignore[attr-defined]
    s = replace(s, results=(*history, past("north", OKU, OKU), past("south", OKU, OKU)))
    assert {bot.act(GAME.view(s, 0), GAME.legal_actions(s, 0), rng) for _ in range(20)} == {
        Trunk(0)
    }
    s, _ = GAME.apply(s, 0, Trunk(OKU))
    verdicts = {bot.act(GAME.view(s, 2), GAME.legal_actions(s, 2), rng) for _ in range(20)}
    assert verdicts == {Doubt(OKU)}


@pytest.mark.parametrize("trunk_hi", [2 * UNIT, 10 * M, 37 * M + 2 * UNIT, OKU])
def test_closed_form_value_when_the_limit_covers_the_trunk(trunk_hi: int) -> None:
    """Closed form (a third independent check): with doubt limit >= M = trunk limit, the
    smuggler mixes 0 (2/3) and M (1/3), the inspector passes (2/3) or doubts M (1/3), and the
    value is M/3 when M/2 is a whole number of units (here: pass M vs doubt M's -M; 0 vs 2h = M).
    """
    game = subgame(trunk_hi, trunk_hi + 5 * M, UNIT, 11)
    assert game.solution.value == pytest.approx(trunk_hi / 3, rel=1e-9)
