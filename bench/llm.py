"""Language-model benchmark: an ``llm`` spec's win rate, tokens and latency against a bot.

The model (any OpenAI-compatible endpoint: ``OPENAI_BASE_URL``/``OPENAI_API_KEY``, or options in
the spec) plays seat 0..n-1 in rotation against ``--field`` at every other seat, one game per
seed. Printed: the win rate with its 95% Wilson interval, the share of its decisions that were
defaulted (no usable answer), tokens per decision, and request latency (median, 95th
percentile). Usage::

    PYTHONPATH=src python bench/llm.py GAME GAMES [SPEC] [--field BOT] [--clock SECONDS]
    PYTHONPATH=src python bench/llm.py numeron 20 llm:model=gpt-4o-mini --field solver
    PYTHONPATH=src python bench/llm.py smuggling 10 \\
        llm:base_url=http://127.0.0.1:8080/v1:model=tiny:schema_mode=json_object

A win is the seat's outcome ``win`` (a draw counts as half).
"""

from __future__ import annotations

import argparse
import statistics
import time

from dennou.arena.bots import make_bot
from dennou.arena.llm import LLMBot
from dennou.arena.match import proportion_ci
from dennou.arena.play import play
from dennou.games import get

SMALL = {"smuggling": {"team_size": 1, "small_games": 4}}
"""Rules that keep a benchmark game short (``--full`` plays the defaults)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("games", type=int)
    parser.add_argument("spec", nargs="?", default="llm")
    parser.add_argument("--field", default="random", help="the bot at every other seat")
    parser.add_argument("--clock", type=float, default=60.0, help="seconds per decision")
    parser.add_argument("--players", type=int, default=0, help="seats (default: the fewest)")
    parser.add_argument("--full", action="store_true", help="the game's default rules")
    args = parser.parse_args()

    game = get(args.game)
    rules = game.make_rules(None if args.full else SMALL.get(args.game))
    players = args.players or max(game.spec.min_players, 2)
    score = 0.0
    decisions = defaults = 0
    latencies: list[float] = []
    prompt_tokens = completion_tokens = 0
    started = time.monotonic()
    for seed in range(args.games):
        seat = seed % players
        model = make_bot(game, args.spec)
        assert isinstance(model, LLMBot), "the spec must be an llm bot"
        bots = [model if i == seat else make_bot(game, args.field) for i in range(players)]
        record = play(game, rules, bots, seed, time_limit=args.clock)
        assert record.outcome is not None
        ranks = record.outcome["ranks"]
        if ranks[seat] == 1:
            score += 1.0 if ranks.count(1) == 1 else 0.5
        mine = [s for s in record.steps if s.seat == seat and s.talk is None]
        decisions += len(mine)
        defaults += sum(1 for s in mine if s.default is not None)
        for exchange in model.stats.exchanges:
            latencies.append(exchange.ms)
            prompt_tokens += exchange.prompt_tokens
            completion_tokens += exchange.completion_tokens
    wall = time.monotonic() - started
    p = score / args.games
    low, high = proportion_ci(score, args.games)
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))] if latencies else 0.0
    median = statistics.median(latencies) if latencies else 0.0
    print(f"{args.spec} vs {args.field} at {args.game} ({players} seats), {args.games} games")
    print(f"  win rate        {p:.1%}  (95% CI {low:.1%}-{high:.1%})")
    print(f"  defaulted       {defaults}/{decisions} decisions")
    per = max(len(latencies), 1)
    print(
        f"  tokens/request  {prompt_tokens / per:.0f} prompt, {completion_tokens / per:.0f} reply"
    )
    print(f"  latency         median {median:.0f} ms, p95 {p95:.0f} ms ({len(latencies)} requests)")
    print(f"  wall            {wall:.1f} s")


if __name__ == "__main__":
    main()
