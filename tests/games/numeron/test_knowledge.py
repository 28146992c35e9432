"""The candidate tracker equals brute force over the true history (docs/games/numeron.md)."""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

from dennou.core.game import CHANCE
from dennou.games.numeron import GAME, NumeronRules, judge
from dennou.games.numeron.knowledge import knowledge
from dennou.games.numeron.state import all_numbers, digit_class


def successors(n: str, d: dict[str, Any]) -> set[str]:
    """Every number a defence item can turn ``n`` into, given what it announced."""
    if d["item"] == "shuffle":
        return {"".join(p) for p in permutations(n)}
    if d["item"] == "change":
        p = d["position"]
        if digit_class(int(n[p])) != d["class"]:
            return set()
        return {
            n[:p] + str(x) + n[p + 1 :]
            for x in range(10)
            if str(x) not in n and digit_class(x) == d["class"]
        }
    i, j = d["source"], d["target"]
    out = set()
    for k in range(1, 10):
        a, b = int(n[i]) - k, int(n[j]) + k
        if a >= 0 and b <= 9:
            m = list(n)
            m[i], m[j] = str(a), str(b)
            if len(set(m)) == len(m):
                out.add("".join(m))
    return out


def brute(log: list[dict[str, Any]], digits: int, owner: int) -> set[str]:
    """Numbers consistent with the events, by trying every history of the owner's number."""
    possible = set(all_numbers(digits))
    for e in log:
        d = e["data"]
        kind = e["kind"]
        if kind == "call" and d["seat"] != owner:
            possible = {n for n in possible if judge(n, d["number"]) == (d["eat"], d["bite"])}
        elif kind == "item_result" and d["seat"] != owner:
            if d["item"] == "high_low":
                possible = {n for n in possible if [digit_class(int(c)) for c in n] == d["result"]}
            elif d["item"] == "target":
                pos = d["position"]
                dig = str(d["digit"])
                possible = {n for n in possible if (n.find(dig) if dig in n else None) == pos}
            elif d["item"] == "slash":
                possible = {n for n in possible if int(max(n)) - int(min(n)) == d["result"]}
        elif kind == "revealed" and d["owner"] == owner:
            possible = {n for n in possible if n[d["position"]] == str(d["digit"])}
        elif kind == "item" and d["seat"] == owner and d["item"] in ("shuffle", "change", "move"):
            possible = {m for n in possible for m in successors(n, d)}
    return possible


def test_candidates_match_brute_force_and_contain_the_truth() -> None:
    """Knowledge after judgments, item results, reveals and defence items (4 digits)."""
    rng = random.Random(5)
    checked = 0
    for game_no in range(6):
        state = GAME.new(NumeronRules(digits=4), ["a", "b"])
        steps = 0
        while not GAME.is_over(state) and steps < 40:
            seat = min(GAME.to_act(state))
            action = (
                GAME.sample_chance(state, rng)
                if seat == CHANCE
                else GAME.conformance_action(state, seat, GAME.legal_actions(state, seat), rng)
            )
            state, _ = GAME.apply(state, seat, action)
            steps += 1
            if state.numbers[1] is None or steps % 4:
                continue
            view = GAME.view(state, 0)
            fast = set(knowledge(view["log"], 4, 1).numbers())
            slow = brute(view["log"], 4, 1)
            assert fast == slow, f"game {game_no} step {steps}"
            assert state.numbers[1] in fast
            checked += 1
    assert checked > 10
