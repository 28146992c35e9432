"""Train and measure the model zoo (``dennou.rl.zoo``): behaviour cloning of a built-in bot.

    python examples/rl/zoo.py train hilo             # writes src/dennou/rl/zoo/hilo.npz
    python examples/rl/zoo.py measure hilo --against random --games 200
    python examples/rl/zoo.py train all              # every game (minutes on one core)

**Training** (NumPy only, no PyTorch): the teacher (the game's strongest built-in bot that is
cheap enough to imitate) plays whole games, its seats mixed with ``random`` ones (each seat is
the teacher with probability ``--teacher-share``; at least one is), for ``--games`` games or
``--seconds`` of wall clock, whichever ends first. Every teacher decision is recorded as the
seat's observation (the encoding of a state redrawn from its view, exactly what the ``policy``
bot computes when it plays), its legal action numbers and the number of the teacher's action.
A tanh MLP (one hidden layer of ``--hidden`` units) is then fitted to those decisions by
masked softmax cross-entropy (Adam, ``--epochs`` passes, minibatches of 256); 10% of the
games are held out to report how often the network agrees with its teacher. The file and its
entry in ``zoo.json`` (rules, seat count, teacher, command, seeds, accuracy) are written.

**Measuring**: ``dennou match``'s machinery (``run_match``, seats rotated) with the zoo's bot
in one seat and ``--against`` in every other; it prints and records the zoo seat's win rate
(95% Wilson interval) and mean score (95% normal interval) in ``zoo.json``'s ``strength``.

Deal and game seeds: training game ``i`` uses seed ``--seed + i``; measurements use
``--seed`` (default 1,000,000) upward, seeds no training game used.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import pickle
import random
import shlex
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dennou.arena.bots import make_bot
from dennou.arena.match import rotated, run_match, summarize
from dennou.arena.play import play
from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.encoding import Encoding, NotEncodable
from dennou.core.game import JSON, Seat
from dennou.games import get
from dennou.rl.policy import save_policy
from dennou.rl.table import encoding_for
from dennou.rl.zoo import HERE, MANIFEST

VERSION = 1
"""The zoo's format and training recipe version (each entry records it)."""


@dataclass(frozen=True)
class Config:
    """How one game's entry is trained and measured."""

    teacher: str
    strongest: str
    rules: dict[str, Any] = field(default_factory=dict)
    players: int | None = None
    games: int = 200
    seconds: float = 240.0
    hidden: int = 64
    epochs: int = 12
    teacher_share: float = 0.7
    note: str = ""


CONFIGS: dict[str, Config] = {
    "daifugo": Config(
        teacher="greedy",
        strongest="ismcts",
        rules={"games": 1},
        note="greedy is the teacher: ismcts and montecarlo cost 0.1-1 s a decision",
    ),
    "numeron": Config(teacher="solver", strongest="optimal", games=150),
    "stud10": Config(
        teacher="random",
        strongest="random",
        games=4,
        epochs=1,
        hidden=4,
        note="no decisions: the one action is wait, so the policy is trivially exact",
    ),
    "hilo": Config(teacher="bayes", strongest="bayes", games=150),
    "smuggling": Config(
        teacher="planner",
        strongest="planner",
        rules={"team_size": 1, "small_games": 10},
        players=2,
        games=120,
    ),
    "pandemic": Config(teacher="belief", strongest="adaptive", games=20),
    "chairs": Config(teacher="heuristic", strongest="adaptive", games=20),
}


class Recorder(Bot):
    """Plays as its teacher and records each decision as (observation, legal numbers, number)."""

    name = "recorder"

    def __init__(self, teacher: Bot, encoding: Encoding[Any, Any], out: list[Any]) -> None:
        self.teacher = teacher
        self.encoding = encoding
        self.out = out
        self.seat: Seat = 0
        self.redraw = random.Random(0)

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """Reset the teacher."""
        self.seat = seat
        self.redraw = random.Random(seat)
        self.teacher.reset(seat=seat, rules=rules, players=players)

    def observe(self, events: Any) -> None:
        """Pass events to the teacher."""
        self.teacher.observe(events)

    def chat(self, view: JSON, channels: frozenset[str], rng: random.Random) -> Any:
        """The teacher talks."""
        return self.teacher.chat(view, channels, rng)

    def end(self, outcome: JSON | None) -> None:
        """End the teacher's game."""
        self.teacher.end(outcome)

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """The teacher's action; its encoding is recorded on the way."""
        action = self.teacher.act(view, legal, rng)
        enc = self.encoding
        seat = view["seat"]
        state = enc.game.determinize(view, seat, self.redraw)
        numbers = enc.legal_indices(state, seat)
        try:
            chosen = enc.index(state, seat, action)
        except NotEncodable:
            return action  # outside the abstraction: the policy can't imitate it
        if chosen in numbers and len(numbers) > 1:
            self.out.append((enc.observe(state, seat), np.asarray(numbers, np.int32), chosen))
        return action


def generate(name: str, cfg: Config, seed: int, games: int, seconds: float) -> list[Any]:
    """Teacher decisions from up to ``games`` games (or ``seconds``), game i on seed + i."""
    game = get(name)
    rules = game.make_rules(cfg.rules)
    n = cfg.players or game.default_players(rules)
    enc = encoding_for(name, rules, n)
    data: list[Any] = []
    mix = random.Random(seed)
    started = time.monotonic()
    for i in range(games):
        if time.monotonic() - started > seconds:
            print(f"  stopped at {i} games ({seconds:.0f} s)", file=sys.stderr)
            break
        teach = [mix.random() < cfg.teacher_share for _ in range(n)]
        teach[mix.randrange(n)] = True
        first = len(data)
        bots: list[Bot] = []
        for s in range(n):
            bot = make_bot(game, cfg.teacher if teach[s] else "random")
            bots.append(Recorder(bot, enc, data) if teach[s] else bot)
        play(game, rules, bots, seed + i, players=[f"p{s}" for s in range(n)])
        for k in range(first, len(data)):
            data[k] = (*data[k], i)
    return data


def fit(
    data: list[Any], size: int, actions: int, hidden: int, epochs: int, seed: int
) -> tuple[list[tuple[Any, Any]], dict[str, float]]:
    """A tanh MLP fitted to the decisions by masked cross-entropy; held-out agreement."""
    rng = np.random.default_rng(seed)
    games = sorted({d[3] for d in data})
    held = set(games[::10]) if len(games) >= 2 else set()
    train = [d for d in data if d[3] not in held] or data
    test = [d for d in data if d[3] in held]
    x = np.stack([d[0] for d in train]).astype(np.float32)
    y = np.array([d[2] for d in train], np.int64)
    mask = np.zeros((len(train), actions), bool)
    for k, d in enumerate(train):
        mask[k, d[1]] = True
    w0 = rng.normal(0, 1 / np.sqrt(size), (hidden, size)).astype(np.float32)
    b0 = np.zeros(hidden, np.float32)
    w1 = rng.normal(0, 0.01, (actions, hidden)).astype(np.float32)
    b1 = np.zeros(actions, np.float32)
    params = [w0, b0, w1, b1]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, beta1, beta2, t = 3e-3, 0.9, 0.999, 0
    for _ in range(epochs):
        order = rng.permutation(len(train))
        for start in range(0, len(order), 256):
            idx = order[start : start + 256]
            xb, yb, mb = x[idx], y[idx], mask[idx]
            h = np.tanh(xb @ w0.T + b0)
            z = h @ w1.T + b1
            z = np.where(mb, z, -1e9)
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z) * mb
            p /= p.sum(axis=1, keepdims=True)
            g = p
            g[np.arange(len(idx)), yb] -= 1
            g /= len(idx)
            gw1 = g.T @ h
            gb1 = g.sum(0)
            gh = (g @ w1) * (1 - h * h)
            gw0 = gh.T @ xb
            gb0 = gh.sum(0)
            t += 1
            for k, grad in enumerate((gw0, gb0, gw1, gb1)):
                m[k] = beta1 * m[k] + (1 - beta1) * grad
                v[k] = beta2 * v[k] + (1 - beta2) * grad * grad
                mh = m[k] / (1 - beta1**t)
                vh = v[k] / (1 - beta2**t)
                params[k] -= lr * mh / (np.sqrt(vh) + 1e-8)

    def agreement(rows: list[Any]) -> float:
        if not rows:
            return float("nan")
        hits = 0
        for obs, numbers, chosen, _ in rows:
            logits = w1 @ np.tanh(w0 @ obs + b0) + b1
            hits += int(numbers[int(np.argmax(logits[numbers]))] == chosen)
        return hits / len(rows)

    stats = {"train_agreement": agreement(train), "heldout_agreement": agreement(test)}
    return [(w0, b0), (w1, b1)], stats


@contextlib.contextmanager
def locked() -> Iterator[None]:
    """Hold the manifest's lock (several trainings may run at once)."""
    with open(Path(tempfile.gettempdir()) / "dennou-zoo.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def load_manifest() -> dict[str, Any]:
    """The zoo's manifest (an empty one if there is none yet)."""
    if MANIFEST.exists():
        data: dict[str, Any] = json.loads(MANIFEST.read_text(encoding="utf-8"))
        return data
    return {"version": VERSION, "entries": {}}


def save_manifest(data: dict[str, Any]) -> None:
    """Write the manifest, sorted and indented (reviewable diffs)."""
    MANIFEST.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def train(name: str, args: argparse.Namespace) -> None:
    """Generate the teacher's decisions, fit the network, write the file and its entry."""
    cfg = CONFIGS[name]
    game = get(name)
    rules = game.make_rules(cfg.rules)
    n = cfg.players or game.default_players(rules)
    enc = encoding_for(name, rules, n)
    games = args.games or cfg.games
    seconds = args.seconds or cfg.seconds
    started = time.monotonic()
    cached = (
        Path(args.data) / f"{name}-{args.seed}-{games}-{seconds:g}.pickle" if args.data else None
    )
    if cached is not None and cached.exists():
        data = pickle.loads(cached.read_bytes())
    else:
        data = generate(name, cfg, args.seed, games, seconds)
        if cached is not None:
            cached.write_bytes(pickle.dumps(data))
    played = len({d[3] for d in data})
    generated = time.monotonic() - started
    print(f"{name}: {len(data)} decisions from {played} games in {generated:.0f} s")
    if not data:  # no decisions (10-card stud): the one action, wait, is the whole policy
        layers = [
            (np.zeros((cfg.hidden, enc.size), np.float32), np.zeros(cfg.hidden, np.float32)),
            (np.zeros((enc.num_actions, cfg.hidden), np.float32), np.zeros(enc.num_actions)),
        ]
        stats = {"train_agreement": 1.0, "heldout_agreement": 1.0}
    else:
        layers, stats = fit(data, enc.size, enc.num_actions, cfg.hidden, cfg.epochs, args.seed)
    fitted = time.monotonic() - started - generated
    file = f"{name}.npz"
    # the games actually played, without a clock: the same decisions on any machine
    command = "python examples/rl/zoo.py train " + shlex.join(
        [name, "--seed", str(args.seed), "--games", str(max(played, 1)), "--seconds", "1e9"]
    )
    meta = {
        "game": name,
        "version": VERSION,
        "rules": cfg.rules,
        "players": n,
        "method": "behaviour cloning" if data else "none (no decisions)",
        "teacher": cfg.teacher,
        "teacher_share": cfg.teacher_share,
        "hidden": [cfg.hidden],
        "epochs": cfg.epochs,
        "command": command,
        "seeds": {"games": [args.seed, args.seed + max(played, 1) - 1], "init": args.seed},
        "decisions": len(data),
        "games_played": played,
        "train_seconds": round(generated + fitted),
        **{k: None if v != v else round(v, 4) for k, v in stats.items()},  # NaN: none held out
        "note": cfg.note,
    }
    save_policy(HERE / file, name, enc, layers)
    with locked():
        manifest = load_manifest()
        old = manifest["entries"].get(name, {})
        manifest["entries"][name] = {**meta, "file": file, "strength": {}}
        if old.get("strength") and old.get("decisions") == meta["decisions"]:
            manifest["entries"][name]["strength"] = old["strength"]
        save_manifest(manifest)
    print(json.dumps(meta, indent=1))


def measure(name: str, args: argparse.Namespace) -> None:
    """Play the zoo's bot against ``--against`` (rotated seats) and record the result."""
    manifest = load_manifest()
    entry = manifest["entries"][name]
    game = get(name)
    rules = game.make_rules(entry["rules"])
    n = int(entry["players"])
    against = args.against or CONFIGS[name].strongest
    specs = ["zoo"] + [against] * (n - 1)
    started = time.monotonic()
    records = []
    for i in range(args.games):
        if args.seconds and time.monotonic() - started > args.seconds:
            break
        records += run_match(
            game, rules, rotated(game, rules, specs, i), 1, args.seed + i, rotate=False
        )
    took = time.monotonic() - started
    stats = {s.spec: s for s in summarize(records)}
    zoo = stats["zoo"]
    rate, low, high = zoo.win_interval()
    mean, half = zoo.score_interval()
    result = {
        "games": len(records),
        "seats": n,
        "win_rate": round(rate, 4),
        "win_rate_ci95": [round(low, 4), round(high, 4)],
        "fair_share": round(1 / n, 4),
        "score_mean": round(mean, 4),
        "score_ci95": [round(mean - half, 4), round(mean + half, 4)],
        "seconds": round(took),
        "command": "python examples/rl/zoo.py measure "
        + shlex.join(
            [name, "--against", against, "--games", str(len(records)), "--seed", str(args.seed)]
        ),
    }
    if against in stats:
        other_mean, _ = stats[against].score_interval()
        result["opponent_score_mean"] = round(other_mean, 4)
    print(name, against, json.dumps(result))
    with locked():
        manifest = load_manifest()
        manifest["entries"][name].setdefault("strength", {})[against] = result
        save_manifest(manifest)


def write_docs() -> None:
    """Write the zoo's table and commands into docs/rl.md (between its zoo markers)."""
    from dennou.rl import zoo

    doc = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
    text = doc.read_text(encoding="utf-8")
    head, rest = text.split(DOC_BEGIN + "\n", 1)
    _, tail = rest.split(DOC_END, 1)
    zoo.entries.cache_clear()
    doc.write_text(head + DOC_BEGIN + "\n" + zoo.markdown() + DOC_END + tail, encoding="utf-8")


DOC_BEGIN, DOC_END = "<!-- zoo:begin -->", "<!-- zoo:end -->"


def main() -> None:
    """Parse the command line and run it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train one game's entry (or all)")
    t.add_argument("game", choices=[*CONFIGS, "all"])
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--games", type=int, default=0, help="most games (default: the game's)")
    t.add_argument("--seconds", type=float, default=0, help="wall-clock bound for the games")
    t.add_argument("--data", default="", help="a folder that keeps the teacher's decisions")
    m = sub.add_parser("measure", help="play one entry against a built-in bot")
    m.add_argument("game", choices=list(CONFIGS))
    m.add_argument("--against", default="", help="bot spec (default: the strongest built-in)")
    m.add_argument("--games", type=int, default=100)
    m.add_argument("--seed", type=int, default=1_000_000)
    m.add_argument("--seconds", type=float, default=0, help="wall-clock bound (0: none)")
    sub.add_parser("docs", help="write the zoo's table into docs/rl.md")
    args = parser.parse_args()
    if args.command == "docs":
        write_docs()
    elif args.command == "train":
        for name in CONFIGS if args.game == "all" else [args.game]:
            train(name, args)
    else:
        measure(args.game, args)


if __name__ == "__main__":
    main()
