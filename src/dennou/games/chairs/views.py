"""Musical Chairs views (what each person may know), determinization, and the text map.

Everyone sees the island and the chairs in play, who is a player and who is gaya, who has ended
the free phase or sealed their go or cast a vote (not what), and the public record of every
period: blocks, each runner's race (the chairs they were seen to reach), eliminations, vote
totals (never ballots), the parent and the removed chair. A person also sees their own medals,
the gifts they made or received (all gifts with ``public_gifts``), their own sealed submissions
and the talk addressed to them (``public`` and their ``pair:`` channels). Spectators see the
public part. Once the game is over, medals, gifts and talk are shown to all; ballots and order
lists are never kept, so they are never shown. Views carry the most recent lines of talk a person
may read (``dennou.core.talk.RECENT_TALK``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import msgspec

from dennou.core.actions import Action, LazyActions
from dennou.core.game import JSON, Seat, TalkLine
from dennou.core.immutable import Log
from dennou.core.jsondata import to_json
from dennou.core.talk import hears, recent
from dennou.core.views import Views
from dennou.games.chairs.actions import CODEC, Abstain, Order, Vote
from dennou.games.chairs.engine import block_space
from dennou.games.chairs.rules import ChairsRules
from dennou.games.chairs.spaces import order_space
from dennou.games.chairs.state import ChairsState, GiftNote, PeriodLog


class ChairsViews(Views[ChairsState]):
    """Musical Chairs' views, determinization and terminal text (see the module docstring)."""

    def view(self, state: ChairsState, seat: Seat | None) -> JSON:
        """The view of ``seat`` (``None``: a spectator)."""
        return view(self.header(state, seat), state, seat)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> ChairsState:
        """A state that gives ``view`` to ``seat``: see :func:`determinize`."""
        return determinize(view, seat, rng)

    def render(self, view: JSON) -> str:
        """The island as a small text map, then the state of play."""
        return render(view)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """Group the actions by kind (``block_chair {1,2,5}``); big spaces say how to type them."""
        if len(legal) <= 12:
            return super().describe_legal(legal)
        kinds: dict[str, list[str] | None] = {}
        for part in getattr(legal, "parts", (legal,)):
            if isinstance(part, LazyActions):
                if len(part):
                    kinds[str(part[0]).split()[0]] = None
                continue
            for action in part:
                tag, *args = str(action).split()
                group = kinds.setdefault(tag, [])
                if group is not None and args:
                    group.append(" ".join(args))
        hints = {
            "order": "order <chair> <chair> ... (first choice first; allowed: see the view)",
            "gift": "gift <to seat> <name seat> <count>",
        }
        shown = []
        for tag, found in kinds.items():
            if found is None:
                shown.append(hints.get(tag, tag))
            else:
                shown.append(f"{tag} {{{','.join(found)}}}" if found else tag)
        return "  |  ".join(shown)


def view(header: JSON, state: ChairsState, seat: Seat | None) -> JSON:
    """The view of ``seat`` (``None``: a spectator), after the common ``header``."""
    over = state.phase == "over"
    n = state.n
    out: JSON = {
        **header,
        "period": state.period,
        "periods": state.rules.n_periods(n),
        "island": {"radius": state.rules.island_radius, "totem": [0, 0]},
        "positions": [list(p) for p in state.positions],
        "in_play": sorted(state.in_play),
        "playing": list(state.playing),
        "last_chair": list(state.last_chair),
        "ready": [s in state.ready for s in range(n)],
        "sealed_order": [o is not None for o in state.orders],
        "sealed_block": [b is not None for b in state.blocks],
        "voted": [v is not None for v in state.votes],
        "history": to_json(state.history),
        "gifts": to_json(
            state.gifts
            if over or state.rules.public_gifts
            else [g for g in state.gifts if g.giver == seat or g.to == seat]
        ),
        "talk": to_json(recent([t for t in state.talk if over or hears(t.channel, seat)])),
        "winner": state.winner,
        "end": state.end,
    }
    if seat is not None:
        order, block, vote = state.orders[seat], state.blocks[seat], state.votes[seat]
        out["medals"] = list(state.holdings[seat])
        out["gifts_made"] = state.gifts_made[seat]
        out["my_order"] = None if order is None else list(order.chairs)
        out["my_block"] = None if block is None else CODEC.dump(block)
        out["my_vote"] = None if vote is None else CODEC.dump(vote)
    if over:
        out["holdings"] = [list(r) for r in state.holdings]
    return out


def determinize(view: JSON, seat: Seat | None, rng: random.Random) -> ChairsState:
    """A full state that gives ``view`` to ``seat``; what it cannot see is sampled.

    Others' sealed orders, blocks and ballots are drawn uniformly from what they could have
    submitted. Others' medals are rebuilt from the gifts the seat saw: where someone gave the seat
    medals they did not start with, they are given to them by someone who could have held them
    (chosen at random), so every name's medals still add up.
    """
    rules = msgspec.convert(view["rules"], ChairsRules)
    players = tuple(view["players"])
    n = len(players)
    gifts = tuple(msgspec.convert(g, GiftNote) for g in view["gifts"])
    if "holdings" in view:
        holdings = tuple(tuple(r) for r in view["holdings"])
    else:
        holdings = _holdings(rules.n_medals(n), n, gifts, seat, rng)
    period = view["period"]
    made = [sum(1 for g in gifts if g.giver == p and g.period == period) for p in range(n)]
    if seat is not None:
        made[seat] = view["gifts_made"]
    state = ChairsState(
        rules=rules,
        players=players,
        phase=view["phase"],
        period=period,
        positions=tuple((p[0], p[1]) for p in view["positions"]),
        in_play=frozenset(view["in_play"]),
        playing=tuple(view["playing"]),
        last_chair=tuple(view["last_chair"]),
        holdings=holdings,
        gifts=gifts,
        gifts_made=tuple(min(m, rules.gifts_per_phase) for m in made),
        ready=frozenset(s for s in range(n) if view["ready"][s]),
        orders=(None,) * n,
        blocks=(None,) * n,
        votes=(None,) * n,
        history=tuple(msgspec.convert(h, PeriodLog) for h in view["history"]),
        winner=view["winner"],
        end=view["end"],
        talk=Log(msgspec.convert(t, TalkLine) for t in view["talk"]),
    )
    orders: list[Order | None] = [None] * n
    blocks: list[Action | None] = [None] * n
    votes: list[Action | None] = [None] * n
    for p in range(n):
        if p == seat:
            mine = view["my_order"]
            orders[p] = None if mine is None else Order(tuple(mine))
            blocks[p] = None if view["my_block"] is None else CODEC.parse(view["my_block"])
            votes[p] = None if view["my_vote"] is None else CODEC.parse(view["my_vote"])
            continue
        if view["sealed_order"][p]:
            space = order_space(state.allowed_chairs(p), rules.max_choices)
            drawn = space[rng.randrange(len(space))]
            assert isinstance(drawn, Order)
            orders[p] = drawn
        if view["sealed_block"][p]:
            options = block_space(state, p)
            blocks[p] = options[rng.randrange(len(options))]
        if view["voted"][p]:
            ballots: list[Action] = [Abstain(), *(Vote(c) for c in state.remaining())]
            votes[p] = ballots[rng.randrange(len(ballots))]
    return replace(state, orders=tuple(orders), blocks=tuple(blocks), votes=tuple(votes))


def _holdings(
    medals: int, n: int, gifts: tuple[GiftNote, ...], seat: Seat | None, rng: random.Random
) -> tuple[tuple[int, ...], ...]:
    rows = [[medals if q == p else 0 for q in range(n)] for p in range(n)]
    for g in gifts:
        short = g.count - rows[g.giver][g.name]
        if short > 0:
            # The giver must have been given these medals unseen: take them from others.
            sources = [q for q in range(n) if q not in (seat, g.giver) and rows[q][g.name] > 0]
            rng.shuffle(sources)
            for q in sources:
                take = min(short, rows[q][g.name])
                rows[q][g.name] -= take
                rows[g.giver][g.name] += take
                short -= take
                if not short:
                    break
        rows[g.giver][g.name] -= g.count
        rows[g.to][g.name] += g.count
    return tuple(tuple(r) for r in rows)


# --- the text map -----------------------------------------------------------------------------
MAP_COLS = 21
MAP_ROWS = 13


def island_map(view: JSON) -> list[str]:
    """The island as text: ``.`` land, ``T`` the totem, chair numbers (``*``: taken last race)."""
    radius = view["island"]["radius"]
    cw, ch = 2 * radius / MAP_COLS, 2 * radius / MAP_ROWS
    grid: list[list[str]] = []
    for r in range(MAP_ROWS):
        row = []
        for c in range(MAP_COLS):
            x = -radius + (c + 0.5) * cw
            y = radius - (r + 0.5) * ch
            row.append(" . " if x * x + y * y <= radius * radius else "   ")
        grid.append(row)

    def cell(x: float, y: float) -> tuple[int, int]:
        c = min(MAP_COLS - 1, max(0, int((x + radius) / cw)))
        r = min(MAP_ROWS - 1, max(0, int((radius - y) / ch)))
        return r, c

    tr, tc = cell(0, 0)
    grid[tr][tc] = " T "
    taken = {c for c, p in zip(view["last_chair"], view["playing"], strict=True) if c and p}
    for k in view["in_play"]:
        x, y = view["positions"][k - 1]
        r, c = cell(x, y)
        grid[r][c] = (
            "## "
            if grid[r][c].strip() not in (".", "")
            else f"{k:>2}" + ("*" if k in taken else " ")
        )
    return ["".join(row).rstrip() for row in grid]


def render(view: JSON) -> str:
    """A view as text for the terminal: the map, the players, the last period, one's medals."""
    players: list[str] = view["players"]
    lines: list[str] = []
    if view["positions"]:
        lines.extend(island_map(view))
    lines.append(
        f"period {view['period']}/{view['periods']} — {view['phase']} — chairs in play: "
        + " ".join(map(str, view["in_play"]))
    )
    status = []
    for s, name in enumerate(players):
        if view["playing"][s]:
            last = view["last_chair"][s]
            status.append(f"{name}" + (f"@{last}" if last else ""))
    lines.append("players: " + ", ".join(status))
    gaya = [name for s, name in enumerate(players) if not view["playing"][s]]
    if gaya:
        lines.append("gaya: " + ", ".join(gaya))
    if view["history"]:
        lines.extend(_period_lines(view["history"][-1], players))
    seat = view["seat"]
    if seat is not None:
        held = [f"{players[q]}×{m}" for q, m in enumerate(view["medals"]) if m]
        lines.append(f"you are {players[seat]}; your medals: " + (", ".join(held) or "none"))
        for key in ("my_order", "my_block", "my_vote"):
            if view.get(key) is not None:
                lines.append(f"{key[3:]}: {_short(view[key])}")
    for t in view["talk"][-5:]:
        lines.append(f"  [{t['channel']}] {t['name']}: {t['text']}")
    if view["phase"] == "over":
        who = players[view["winner"]] if view["winner"] is not None else "nobody"
        lines.append(f"game over ({view['end']}): {who} wins")
    return "\n".join(lines)


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(str(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(map(str, value)) or "(none)"
    return str(value)


def _period_lines(log: JSON, players: list[str]) -> list[str]:
    out = [f"period {log['period']}:"]
    blocks = [
        f"{players[b['by']]}>"
        + (f"chair {b['chair']}" if b.get("chair") is not None else players[b["player"]])
        for b in log["blocks"]
    ]
    if blocks:
        out.append("  blocks: " + ", ".join(blocks))
    for run in log["race"]:
        path = " ".join(
            f"{leg['chair']}{'' if leg['result'] == 'seated' else 'x'}" for leg in run["legs"]
        )
        result = f"sat on {run['chair']}" if run["chair"] is not None else "ELIMINATED"
        out.append(f"  {players[run['seat']]}: {path or '-'} -> {result}")
    if log["votes"] is not None:
        shown = ", ".join(f"{players[p]} {v}" for p, v in enumerate(log["votes"]) if v)
        out.append(f"  votes: {shown or 'none'}; abstained {log['abstained']}")
    if log["parent"] is not None:
        out.append(f"  parent: {players[log['parent']]}")
    if log["removed"] is not None:
        out.append(f"  removed chair {log['removed']}")
    return out
