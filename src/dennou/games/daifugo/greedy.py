"""The greedy policy: the ``greedy`` bot's rule, and the search bots' fallback.

It plays its weakest group or sequence and keeps its jokers, strongest rank and 8s for when
they take the field; in the exchange it gives the strongest cards it must and its weakest
otherwise. It needs no compiled code, so the search bots (``montecarlo``, ``ismcts``) decide by
it while theirs is still compiling on a fresh install (:mod:`dennou.core.native`).
"""

from __future__ import annotations

from collections.abc import Sequence

from dennou.core.actions import Action
from dennou.core.game import JSON
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Discard, Give, Pass, Play


def _strength(rank: int, reverse: bool) -> int:
    if rank == C.JOKER_RANK:
        return 100
    return 12 - rank if reverse else rank


def exchange_choice(view: JSON) -> Action:
    """The exchange by rule: the strongest cards for a tribute, the weakest for a gift."""
    step = next(st for st in view["exchange"] if not st["done"])
    hand = C.parse_cards(view["hand"]) or ()
    pick = C.strongest if step["kind"] == "tribute" else C.weakest
    return Give(tuple(C.cards_str(pick(hand, step["count"]))))


def follow_up_choice(view: JSON) -> Action:
    """7 pass / 10 discard: the weakest cards in the current order, jokers last."""
    due = view["follow_up"]
    hand = C.parse_cards(view["hand"]) or ()
    order = sorted(hand, key=lambda c: (c == C.JOKER, _strength(C.rank_of(c), view["reverse"])))
    cards = tuple(C.cards_str(order[: due["count"]]))
    return Give(cards) if due["kind"] == "give" else Discard(cards)


def reading(view: JSON, play: Play) -> C.Combo:
    """The combination a listed play makes under the view's rules."""
    rules = view["rules"]
    readings = C.combo_from(
        play.cards,
        suit_jokers=rules.get("suit_lock", False),
        sequences=rules.get("sequences", False),
    )
    assert readings, play
    return readings[0]


def greedy_choice(view: JSON, legal: Sequence[Action]) -> Action:
    """The greedy policy on a view (exchange: strongest tribute, weakest gift)."""
    if view["phase"] == "exchange":
        return exchange_choice(view)
    if view.get("follow_up") is not None:
        return follow_up_choice(view)
    rev = bool(view.get("reverse", view["revolution"]))
    hand = C.parse_cards(view["hand"]) or ()
    lead = view["layout"] is None
    plays = [a for a in legal if isinstance(a, Play)]
    can_pass = any(isinstance(a, Pass) for a in legal)
    seen = set(C.parse_cards(view["discards"]) or ())
    top_rank = 12 if not rev else 0
    combos = {a: reading(view, a) for a in plays}

    def key(a: Play) -> tuple[int, int, int, int]:
        combo = combos[a]
        jokers = C.jokers_in(combo.cards)
        if combo.kind == C.SEQUENCE:
            # A sequence sheds several ranks at once: judged by its weakest end.
            rank = combo.high if rev else combo.rank
            precious = jokers > 0 or combo.count(top_rank) > 0 or combo.count(C.EIGHT) > 0
            return (int(precious), _strength(max(rank, 0), rev), 0, -combo.size if lead else 0)
        rank = combo.rank
        precious = rank in (C.JOKER_RANK, top_rank) or (rank == C.EIGHT) or jokers > 0
        natural_left = sum(1 for c in hand if c != C.JOKER and c >> 2 == rank) - (
            combo.size - jokers
        )
        # Weakest first; on a lead, the biggest group of the rank; avoid splitting a rank.
        return (int(precious), _strength(rank, rev), natural_left, -combo.size if lead else 0)

    plays.sort(key=key)
    if not plays:
        return Pass()
    best = plays[0]
    combo = combos[best]
    rank = combo.rank
    precious = key(best)[0]
    if not precious or lead or not can_pass:
        return best
    # Only precious plays remain: an 8 cuts (takes the field); a joker-only play or the top rank
    # wins the field when nothing can beat it; otherwise keep them unless the hand is short.
    if combo.count(C.EIGHT):
        return best
    if rank == C.JOKER_RANK and (combo.size > 1 or C.SPADE3 in seen or C.SPADE3 in hand):
        return best
    if len(hand) <= combo.size + 2:
        return best
    if combo.kind == C.GROUP and rank == top_rank and not C.jokers_in(combo.cards):
        return best
    return Pass()


__all__ = ["exchange_choice", "follow_up_choice", "greedy_choice", "reading"]
