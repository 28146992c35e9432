"""Bots: they play legal actions through the arena, and greedy beats random."""

from __future__ import annotations

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.core.bot import RandomBot
from dennou.games.daifugo import GAME, DaifugoRules
from dennou.games.daifugo.bots import GreedyBot, MonteCarloBot
from dennou.games.daifugo.rules import LOCAL_RULES


def test_bots_by_spec() -> None:
    assert isinstance(make_bot(GAME, "greedy"), GreedyBot)
    bot = make_bot(GAME, "montecarlo:playouts=50:samples=8")
    assert isinstance(bot, MonteCarloBot) and bot.playouts == 50


def test_bots_never_fall_back_to_defaults() -> None:
    rules = DaifugoRules(games=2)
    bots = [MonteCarloBot(playouts=60, samples=6), GreedyBot(), RandomBot(), GreedyBot()]
    record = play(GAME, rules, bots, 5)
    assert record.outcome is not None
    assert not [s for s in record.steps if s.default is not None]


def test_montecarlo_time_budget() -> None:
    rules = DaifugoRules(games=1)
    record = play(GAME, rules, [MonteCarloBot(ms=20), GreedyBot(), GreedyBot()], 9)
    assert record.outcome is not None
    assert max(s.ms or 0 for s in record.steps if s.seat == 0) < 2000


def test_greedy_beats_random_over_a_few_sets() -> None:
    rules = DaifugoRules(games=5)
    total = 0.0
    for seed in range(6):
        bots = [GreedyBot(), RandomBot(), RandomBot(), RandomBot(), RandomBot()]
        record = play(GAME, rules, bots, seed)
        assert record.outcome is not None
        total += record.outcome["scores"][0]
    assert total > 0


def test_bots_play_the_uecda_rules_and_every_local_rule_without_defaults() -> None:
    """Rules page, Bots: random, greedy and montecarlo handle every option."""
    for options in (
        {"preset": "uecda", "games": 2},
        {
            "games": 2,
            **LOCAL_RULES,
            "lead_pass": True,
            "stalemate_passes": 10,
        },
    ):
        rules = GAME.make_rules(options)
        bots = [MonteCarloBot(playouts=40, samples=4), GreedyBot(), RandomBot(), GreedyBot()]
        record = play(GAME, rules, bots, 3)
        assert record.outcome is not None
        assert not [s for s in record.steps if s.default is not None]
