"""The Musical Chairs ``adaptive`` bot: its model of each rival's first chair, learnt from the
races (../shared/rules/chairs.md; docs/games/chairs.md)."""

from __future__ import annotations

from dennou.games.chairs import GAME
from dennou.games.chairs.adaptive import AdaptiveBot
from tests.games.bot_checks import check_bots

# Eight chairs on a line east of the totem and a ring of others: distance ranks are clear.
POSITIONS = [(100 * (i + 1), 0) for i in range(8)]
CHAIRS = list(range(1, 9))


def observe(bot: AdaptiveBot, who: int, chosen: int, times: int) -> None:
    runners = [0, 1, 2]
    last: list[int | None] = [None, None, None]
    for _ in range(times):
        bot.observe_choice(who, chosen, CHAIRS, POSITIONS, runners, last, 1000, 5.0)


def first(bot: AdaptiveBot, who: int) -> dict[int, float]:
    return bot.first_choice(who, CHAIRS, POSITIONS, [0, 1, 2], [None, None, None], 1000, 5.0)


def test_a_rival_who_always_takes_the_nearest_chair_is_learnt() -> None:
    bot = AdaptiveBot()
    before = first(bot, 1)[1]
    observe(bot, 1, 1, 8)
    after = first(bot, 1)
    assert after[1] > 0.7 > before
    assert abs(sum(after.values()) - 1.0) < 1e-9


def test_a_rival_who_runs_far_is_learnt_too() -> None:
    bot = AdaptiveBot()
    observe(bot, 2, 8, 8)
    far = first(bot, 2)
    # Chairs ranked 5th and beyond share one bucket (6, 7 and 8 here), so the mass learnt for
    # "far" is split between them.
    assert far[8] > 4 * far[1] and far[6] + far[7] + far[8] > 0.8


def test_models_are_per_rival() -> None:
    bot = AdaptiveBot()
    observe(bot, 1, 1, 6)
    observe(bot, 2, 8, 6)
    assert first(bot, 1)[1] > first(bot, 2)[1]
    assert first(bot, 2)[8] > first(bot, 1)[8]


def test_adaptive_keeps_the_contract() -> None:
    rules = GAME.make_rules({"chairs": 7})
    specs = ("adaptive", "heuristic", "adaptive", "random", "heuristic", "adaptive")
    tally = check_bots(GAME, rules, specs, seeds=[2, 3], every=3)
    assert tally.twin_checks >= 5 and tally.hidden_differs >= 1
    assert tally.seen.get("Order", 0) > 0
