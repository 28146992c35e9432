"""The Pandemic ``adaptive`` bot: its model of the others, learnt from what they did
(../shared/rules/pandemic.md; docs/games/pandemic.md, "How strong are the bots")."""

from __future__ import annotations

from typing import Any

from dennou.games.pandemic import GAME, PandemicRules
from dennou.games.pandemic.actions import Contact
from dennou.games.pandemic.adaptive import AdaptiveBot, channel_of, learn_acceptance
from tests.games.bot_checks import check_bots

from .helpers import start, tick


def say(state: Any, seat: int, other: int, text: str) -> Any:
    state, _ = GAME.talk(state, seat, channel_of(seat, other), text)
    return state


def test_acceptance_is_learnt_per_player_and_situation() -> None:
    """p0 asked p1 twice without talk (p1 answered both), p2 twice (never answered), and once
    p3 after p3's own offer (kept)."""
    state = start((4,), n=6, rounds=1, ticks=6)
    state, _ = tick(state, {0: Contact(1), 1: Contact(0)})
    state, _ = tick(state, {0: Contact(2)})
    state, _ = tick(state, {0: Contact(1), 1: Contact(0)})
    state, _ = tick(state, {0: Contact(2)})
    state = say(state, 3, 0, "contact 1.5")
    state, _ = tick(state, {0: Contact(3), 3: Contact(0)})
    seen = learn_acceptance(GAME.view(state, 0))
    assert (seen["plain"][1].hits, seen["plain"][1].misses) == (2, 0)
    assert (seen["plain"][2].hits, seen["plain"][2].misses) == (0, 2)
    assert (seen["theirs"][3].hits, seen["theirs"][3].misses) == (1, 0)
    accept = AdaptiveBot().accept(GAME.view(state, 0))
    assert accept[1] > 0.5 > accept[2]
    assert accept[0] == 0.0


def test_an_offer_not_kept_counts_against_the_offers() -> None:
    state = start((4,), n=6, rounds=1, ticks=6)
    for t in range(1, 4):
        state = say(state, 5, 0, f"contact 1.{t}")
        state, _ = tick(state, {0: Contact(5)})  # p5 offers and then does not ask back
    state = say(state, 5, 0, "contact 1.4")
    accept = AdaptiveBot().accept(GAME.view(state, 0))
    fresh = say(start((4,), n=6, rounds=1, ticks=6), 5, 0, "contact 1.1")
    trusted = AdaptiveBot().accept(GAME.view(fresh, 0))
    assert trusted[5] > 0.9  # an offer, before any evidence: the belief bot's 0.95
    assert accept[5] < 0.5  # after three broken offers


def test_adaptive_keeps_the_contract() -> None:
    rules = PandemicRules(rounds=2, ticks=3)
    specs = ("adaptive", "belief", "adaptive", "random", "belief", "adaptive")
    tally = check_bots(GAME, rules, specs, seeds=[4], every=4)
    assert tally.twin_checks >= 5 and tally.hidden_differs >= 1


def _offers(lines: Any, me: int) -> dict[int, str]:
    """Who each pair-channel line of ``me`` goes to, and what it says."""
    out = {}
    for channel, text in lines:
        if channel.startswith("pair:"):
            a, b = (int(x) for x in channel[5:].split("-"))
            out[b if a == me else a] = text
    return out


def test_decoy_offers_go_only_to_players_who_have_not_sealed() -> None:
    """Talk binds nobody (rules: Time): besides the offer it means, ``decoys`` offers go to
    players still to seal this tick, never to a sealed one, nor twice to anyone."""
    import random

    state = start((4,), n=8, rounds=1, ticks=4)
    for s in (6, 7):  # p6 and p7 seal first
        state, _ = GAME.apply(state, s, Contact(0))
    channels = GAME.talk_channels(state, 1)
    plain = _offers(AdaptiveBot(decoys=0).chat(GAME.view(state, 1), channels, random.Random(0)), 1)
    bot = AdaptiveBot(decoys=3)
    lines = bot.chat(GAME.view(state, 1), channels, random.Random(0))
    decoyed = _offers(lines, 1)
    assert len(plain) <= 1 and set(plain) <= set(decoyed)
    assert set(decoyed) - set(plain) <= {0, 2, 3, 4, 5}  # unsealed, not itself
    assert len(decoyed) == len(plain) + 3
    assert set(decoyed.values()) == {"contact 1.1"}
    many = AdaptiveBot(decoys=23).chat(GAME.view(state, 1), channels, random.Random(0))
    assert set(_offers(many, 1)) == {0, 2, 3, 4, 5}  # everyone who may still answer, once
