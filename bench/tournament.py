"""Tournament benchmark: a 5-entrant Daifugo round of N sets with the built-in bots.

Rows, all in this run on this machine:

- ``dennou match``: ``run_match`` for as many sets with the same five bots (seats rotated), its
  records written to a file as ``dennou match --out`` does: the peer figure;
- ``play loop``: exactly the tournament's sets (same seeds, same seatings) played one after
  another with ``dennou.arena.play`` and written to a file: the baseline of the overhead;
- ``tournament, 1 worker``: the tournament layer in this process, with its durable directory
  (records, result lines, standings rewritten every 2 s, ratings);
- ``tournament, 2 workers`` and ``tournament, Ray local``: the same tournament in two local
  worker processes and as Ray tasks on a local Ray of 2 CPUs.

The overhead is the tournament's time over the play loop's for the same games (target: under
5%); the two are run alternately ``--repeats`` times and the fastest of each kept, because the
machine is shared. The three tournament runs must give byte-identical standings.

    PYTHONPATH=src python bench/tournament.py --sets 1000
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from dennou.arena.entrants import make_entrant_bot, parse_entrants
from dennou.arena.match import run_match
from dennou.arena.play import play
from dennou.arena.runners import InlineRunner, ProcessRunner, RayRunner, Runner
from dennou.arena.tournament import Tournament, make_config
from dennou.core import record as records
from dennou.games import get

ENTRANTS = "random,greedy,mc=montecarlo:playouts=32:samples=8,g2=greedy,r2=random"


def games_in(recs: list[records.Record]) -> int:
    return sum(len(r.outcome["detail"]["games"]) for r in recs if r.outcome)


def bench_match(game: Any, rules: Any, specs: list[str], sets: int, out: Path) -> dict[str, Any]:
    path = out / "match.jsonl"
    path.write_text("")
    started, cpu = time.perf_counter(), time.process_time()
    played = run_match(
        game,
        rules,
        specs,
        sets,
        1,
        on_game=lambda i, rec: records.write(path, [rec], append=True),
    )
    return {
        "seconds": time.perf_counter() - started,
        "cpu": time.process_time() - cpu,
        "sets": sets,
        "games": games_in(played),
    }


def bench_play_loop(tour: Tournament, out: Path) -> dict[str, Any]:
    """The tournament's own sets, played and written without the tournament layer."""
    game = tour.game
    rules = game.make_rules(tour.config.rules)
    path = out / "loop.jsonl"
    started, cpu = time.perf_counter(), time.process_time()
    games = 0
    with path.open("w", encoding="utf-8") as fh:
        for match in tour.pending():
            job = tour.job(match)
            bots = [make_entrant_bot(game, spec) for spec in job.specs]
            rec = play(game, rules, bots, match.seed, players=job.players, meta=job.meta)
            fh.write(rec.dumps())
            fh.flush()
            games += len(rec.outcome["detail"]["games"]) if rec.outcome else 0
    return {
        "seconds": time.perf_counter() - started,
        "cpu": time.process_time() - cpu,
        "sets": len(tour.pending()),
        "games": games,
    }


def bench_tournament(config: Any, runner: Runner, out: Path) -> dict[str, Any]:
    if out.exists():
        shutil.rmtree(out)
    started, cpu = time.perf_counter(), time.process_time()
    with runner, Tournament(config, out) as tour:
        tour.run(runner)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    recs = records.read(out / "records.jsonl")
    return {
        "seconds": seconds,
        "cpu": cpu,
        "sets": len(recs),
        "games": games_in(recs),
        "standings": (out / "standings.json").read_bytes(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", type=int, default=1000, help="sets in the round")
    parser.add_argument("--entrants", default=ENTRANTS)
    parser.add_argument("--repeats", type=int, default=2, help="runs of the overhead pair")
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray row")
    args = parser.parse_args()

    game = get("daifugo")
    rules = game.make_rules()
    entrants = parse_entrants(args.entrants)
    config = make_config(game, entrants, games=args.sets, seed=1, rules=rules)
    tmp = Path(tempfile.mkdtemp(prefix="dennou-bench-"))
    rows: list[tuple[str, dict[str, Any]]] = []
    try:
        # warm up: numba compiles the Monte Carlo bot's playouts once (cached on disk)
        warm = make_config(game, entrants, games=5, seed=99, rules=game.make_rules({"games": 1}))
        Tournament(warm).run(InlineRunner())

        rows.append(
            ("dennou match", bench_match(game, rules, [e.spec for e in entrants], args.sets, tmp))
        )
        loops, ones = [], []
        for _ in range(args.repeats):
            loops.append(bench_play_loop(Tournament(config), tmp))
            ones.append(bench_tournament(config, InlineRunner(), tmp / "one"))
        loop = min(loops, key=lambda r: r["cpu"])
        one = min(ones, key=lambda r: r["cpu"])
        rows.append(("play loop (same sets)", loop))
        rows.append(("tournament, 1 worker", one))
        two = bench_tournament(config, ProcessRunner(2), tmp / "two")
        rows.append(("tournament, 2 workers", two))
        if not args.no_ray:
            import ray

            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
            try:
                on_ray = bench_tournament(config, RayRunner(), tmp / "ray")
            finally:
                ray.shutdown()
            rows.append(("tournament, Ray local (2 CPUs)", on_ray))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"daifugo, 5 entrants ({args.entrants}), {args.sets} sets of 10 games")
    print("wall: elapsed seconds; CPU: this process's CPU seconds (worker processes and Ray")
    print("tasks not included), immune to other load on a shared machine")
    head = f"| {'run':<30} | {'sets':>5} | {'games':>6} | {'wall s':>7} | {'CPU s':>7} |"
    print(head + f" {'sets/s':>7} | {'games/s':>8} |")
    print(f"|{'-' * 32}|{'-' * 7}|{'-' * 8}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 10}|")
    for label, row in rows:
        s = row["seconds"]
        print(
            f"| {label:<30} | {row['sets']:>5} | {row['games']:>6} | {s:>7.1f} "
            f"| {row['cpu']:>7.1f} | {row['sets'] / s:>7.1f} | {row['games'] / s:>8.1f} |"
        )
    print(
        f"tournament layer over the play loop (same sets, fastest of {args.repeats}): "
        f"CPU {(one['cpu'] / loop['cpu'] - 1) * 100:+.1f}%, "
        f"wall {(one['seconds'] / loop['seconds'] - 1) * 100:+.1f}% (target < 5%)"
    )
    match = rows[0][1]
    print(
        f"tournament, 1 worker over dennou match ({args.sets} sets each, other seeds): "
        f"CPU {(one['cpu'] / match['cpu'] - 1) * 100:+.1f}%"
    )
    tours = [r for label, r in rows if label.startswith("tournament")]
    same = all(r["standings"] == tours[0]["standings"] for r in tours)
    print(f"standings byte-identical across 1 worker, 2 workers, Ray: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
