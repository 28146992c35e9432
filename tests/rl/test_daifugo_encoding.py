"""Daifugo's encoding: every listed legal action has its number, under every rules option.

``tests/rl/test_encoding.py`` runs the leak and round-trip properties on the two presets of
``conftest.PRESETS``; here every legal action of thousands of random states round-trips under
the presets and with local rules on, both state forms (the kernel's and the readable rules')
give the same numbers and bytes, the numbering is pinned by golden numbers, and the corners
(a group whose jokers could read as a sequence, gives of three or more cards) are built by hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import dennou.rl as rl
from dennou.core.encoding import NotEncodable
from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Discard, Give, Pass, Play
from dennou.games.daifugo.encoding import DaifugoEncoding
from dennou.games.daifugo.held import KernelState
from dennou.games.daifugo.rules import LOCAL_RULES
from dennou.games.daifugo.state import DaifugoState, ExchangeStep, FollowUp, Played

CONFIGS: dict[str, tuple[int, dict[str, Any]]] = {
    "seed rules": (4, {"games": 3}),
    "uecda": (5, {"preset": "uecda", "games": 3}),
    "local rules": (
        4,
        {
            "games": 3,
            "sequences": True,
            "eleven_back": True,
            "five_skip": True,
            "seven_pass": True,
            "ten_discard": True,
            "lead_pass": True,
        },
    ),
    "local rules, suit lock, big exchanges": (
        5,
        {
            "games": 3,
            **LOCAL_RULES,
            "miyako_ochi": False,
            "daifugo_exchange": 3,
            "fugo_exchange": 2,
            "stalemate_passes": 12,
        },
    ),
}
"""Seats and rules options: both presets, and the local rules (two jokers, sequences without and
with the suit lock, 7 pass, 10 discard, 11-back, 5 skip, exchanges of three cards)."""

STATES = 2500
"""Random states per config (10,000 in all)."""


def _encoding(config: str) -> DaifugoEncoding:
    players, rules = CONFIGS[config]
    enc = rl.encoding_for("daifugo", rules, players)
    assert isinstance(enc, DaifugoEncoding)
    return enc


def _states(enc: DaifugoEncoding, count: int, seed: int) -> Iterator[tuple[DaifugoState, int]]:
    """``(state, seat)`` along random games, a sequence played whenever one is legal half the time.

    Uniform play almost never leads a sequence (a hand has hundreds of groups with jokers), so
    fields topped by a sequence would hardly be tested.
    """
    rng = random.Random(seed)
    sequence = next((b for b in enc.blocks if b.name == "sequence"), None)
    made = 0
    while True:
        state = GAME.new(enc.rules, [f"p{i}" for i in range(enc.players)])
        while GAME.to_act(state):
            (seat,) = GAME.to_act(state)
            if seat == CHANCE:
                state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
                continue
            yield state, seat
            made += 1
            if made >= count:
                return
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            if sequence is not None and rng.random() < 0.5:
                end = sequence.start + sequence.size
                runs = [i for i in enc.legal_indices(state, seat) if sequence.start <= i < end]
                if runs:
                    action = enc.action(state, seat, rng.choice(runs))
            state, _ = GAME.apply(state, seat, action)


def _kind(state: DaifugoState) -> str:
    """What a state asks of the seat to act (for coverage counts)."""
    if state.phase == "exchange":
        step = state.exchange_step()
        assert step is not None
        return f"{step.kind} {step.count}"
    if state.follow_up is not None:
        return f"{state.follow_up.kind} {state.follow_up.count}"
    top = state.top
    if top is None:
        return "lead"
    return "on a sequence" if top.combo.kind == C.SEQUENCE else "on a group"


def _abstracted(state: DaifugoState) -> bool:
    """Whether a give or discard of three or more cards is due (the numbering's abstraction)."""
    if state.phase == "exchange":
        step = state.exchange_step()
        return step is not None and step.count >= 3
    return state.follow_up is not None and state.follow_up.count >= 3


@pytest.mark.parametrize("config", list(CONFIGS))
def test_every_legal_action_round_trips_and_the_mask_is_the_listed_legal_set(config: str) -> None:
    enc = _encoding(config)
    _, rules = CONFIGS[config]
    kinds: Counter[str] = Counter()
    actions = 0
    for state, seat in _states(enc, STATES, seed=31):
        listed = list(GAME.legal_actions(state, seat))
        numbers = enc.legal_indices(state, seat)
        assert numbers == sorted(set(numbers))
        assert list(np.flatnonzero(enc.action_mask(state, seat))) == numbers
        decoded = [enc.action(state, seat, i) for i in numbers]
        assert len(set(decoded)) == len(decoded), "two numbers name one action"
        assert set(decoded) <= set(listed), "a masked number is not a listed legal action"
        for i, action in zip(numbers, decoded, strict=True):
            assert enc.index(state, seat, action) == i
        missed = []
        for action in listed:  # action -> number -> action, the number masked
            try:
                i = enc.index(state, seat, action)
            except NotEncodable:
                missed.append(action)
                continue
            assert enc.action(state, seat, i) == action
            assert i in numbers
        if _abstracted(state):
            assert enc.abstraction.startswith("gives and discards of 3+ cards")
            assert all(isinstance(a, Give | Discard) and len(a.cards) >= 3 for a in missed)
        else:
            assert not missed, f"{config}: no number for {missed[:3]}"
            assert len(numbers) == len(listed)
        kinds[_kind(state)] += 1
        actions += len(numbers)
    assert actions > 3 * STATES  # about 6 legal numbers a state under the seed rules
    expected = {"lead", "on a group", "gift 2"}
    if rules.get("preset") != "uecda":  # UECda's tributes are given automatically
        expected.add("tribute 2")
    if rules.get("sequences") or rules.get("preset") == "uecda":
        expected.add("on a sequence")
    if rules.get("seven_pass"):
        expected |= {"give 1", "discard 1", "give 2", "discard 2"}
    if rules.get("daifugo_exchange") == 3:
        expected |= {"tribute 3", "gift 3"}
    assert expected <= set(kinds), f"{config}: never saw {expected - set(kinds)}"


@pytest.mark.parametrize("config", list(CONFIGS))
def test_kernel_and_readable_states_give_the_same_numbers_and_bytes(config: str) -> None:
    """The kernel-held state is read from its vector; its plain copy from the readable fields."""
    enc = _encoding(config)
    players = enc.players
    held = 0
    for state, seat in _states(enc, 600, seed=41):
        plain = state.copy()
        assert type(plain) is DaifugoState
        held += type(state) is KernelState
        assert enc.legal_indices(state, seat) == enc.legal_indices(plain, seat)
        for observer in range(players):
            a, b = enc.observe(state, observer), enc.observe(plain, observer)
            assert a.tobytes() == b.tobytes()
            view = enc.encode_view(GAME.view(plain, observer))
            assert a.tobytes() == view.tobytes()
    assert held > 300, "random play should mostly reach kernel-held states"


@pytest.mark.parametrize("config", ["local rules", "local rules, suit lock, big exchanges"])
def test_local_rules_observations_do_not_leak(config: str) -> None:
    """Redrawing every hidden hand (the game's determinize) changes no seat's bytes."""
    enc = _encoding(config)
    players = enc.players
    rng = random.Random(5)
    differs = 0
    for state, seat in _states(enc, 400, seed=51):
        for observer in range(players):
            other = GAME.determinize(GAME.view(state, observer), observer, rng)
            differs += other.hands != state.hands
            assert enc.observe(state, observer).tobytes() == enc.observe(other, observer).tobytes()
        other = GAME.determinize(GAME.view(state, seat), seat, rng)
        assert enc.legal_indices(state, seat) == enc.legal_indices(other, seat)
    assert differs > 100


def test_numbers_are_stable_under_the_seed_rules() -> None:
    enc = rl.encoding_for("daifugo", {}, 5)
    assert isinstance(enc, DaifugoEncoding)
    assert [(b.name, b.start, b.size) for b in enc.blocks] == [
        ("pass", 0, 1),
        ("group", 1, 585),
        ("jokers", 586, 2),
        ("cards1", 588, 53),
        ("cards2", 641, 1379),
    ]
    assert enc.num_actions == 2020
    assert enc.abstraction == "cheating in the exchange (a give that is not an honest choice)"
    state = _playing(enc, {0: ["3s", "3h", "8s", "2c", "JK", "JK", "10d", "Jc"]})
    golden = {
        0: Pass(),
        1: Play(("3s",)),
        2: Play(("3h",)),
        5: Play(("3s", "3h")),  # rank 0: 4 singles, then the pairs
        236: Play(("8s", "JK")),  # 1 + 5 * 45 + 10: the pairs of naturals, then with a joker
        544: Play(("2c",)),  # 1 + 12 * 45 + 3
        586: Play(("JK",)),
        587: Play(("JK", "JK")),
    }
    for number, action in golden.items():
        assert enc.action(state, 0, number) == action
        assert enc.index(state, 0, action) == number
    assert enc.sizes == frozenset({1, 2})


def test_numbers_are_stable_under_the_uecda_rules() -> None:
    enc = rl.encoding_for("daifugo", {"preset": "uecda"}, 5)
    assert [(b.name, b.start, b.size) for b in enc.blocks] == [
        ("pass", 0, 1),
        ("group", 1, 572),
        ("jokers", 573, 1),
        ("sequence", 574, 2032),
        ("cards1", 2606, 53),
        ("cards2", 2659, 1378),
    ]
    assert enc.num_actions == 4037
    assert enc.abstraction == ""  # tributes are automatic, broken returns replaced
    state = _playing(enc, {0: ["3s", "4s", "5s", "6s", "8h", "8d", "JK"]})
    golden = {
        1: Play(("3s",)),
        11: Play(("3s", "JK=3h")),  # the pairs, then (suit lock) a joker naming each suit
        1 + 5 * 44 + 4 + 3: Play(("8h", "8d")),  # rank 5: 4 singles, then pairs (sh sd sc hd)
        # sequences of spades: 12 with the joker just below 3 first, then 3-4-5 ...
        586: Play(("3s", "4s", "5s")),
        587: Play(("JK=3s", "4s", "5s")),  # ... and the joker replacing each held card
        590: Play(("3s", "4s", "5s", "6s")),
        573: Play(("JK",)),
    }
    for number, action in golden.items():
        assert enc.action(state, 0, number) == action
        assert enc.index(state, 0, action) == number
    gift = _exchanging(enc, ["3s", "3h", "4c", "JK"], "gift", 2)
    assert enc.action(gift, 0, 2659) == Give(("3s", "3h"))  # the first pair
    assert enc.action(gift, 0, 2659 + 1326 + 7) == Give(("4c", "JK"))  # 4c is code 7
    assert enc.index(gift, 0, Give(("4c", "JK"))) == 2659 + 1326 + 7
    with pytest.raises(NotEncodable):  # 3c is not held
        enc.action(gift, 0, 2659 + 1326 + 3)
    with pytest.raises(NotEncodable):  # one card is not what this step asks
        enc.action(gift, 0, 2606)


def _playing(enc: Any, hands: dict[int, list[str]], **fields: Any) -> DaifugoState:
    """A play-phase state in which seat 0 holds ``hands[0]`` (others: the rest, dealt)."""
    n = enc.players
    state = GAME.new(enc.rules, [f"p{i}" for i in range(n)])
    deck = list(C.deck(enc.rules.jokers))
    held: list[int] = []
    for text in hands[0]:
        card = C.parse_card(text)
        assert card is not None
        deck.remove(card)
        held.append(card)
    rest = [deck[i :: n - 1] for i in range(n - 1)]
    state.hands = (C.card_set(held), *(C.card_set(r) for r in rest))
    state.order = tuple(range(n))
    state.phase = "play"
    state.turn = state.last = 0
    for name, value in fields.items():
        setattr(state, name, value)
    return state


def _exchanging(enc: Any, hand: list[str], kind: str, count: int) -> DaifugoState:
    """Seat 0 owes an exchange step of ``count`` cards to seat 1."""
    state = _playing(enc, {0: hand})
    state.phase = "exchange"
    state.turn = state.last = -1
    state.steps = (ExchangeStep(0, 1, count, kind),)  # type: ignore[arg-type]
    return state


def test_a_group_whose_jokers_could_read_as_a_sequence_has_no_number_on_a_sequence() -> None:
    """``8s JK JK`` is a group; on a sequence top the engine would read it as 8-9-10."""
    enc = rl.encoding_for("daifugo", {"sequences": True}, 4)
    assert isinstance(enc, DaifugoEncoding)
    seq = C.sequence_of([8, 12, 16], [])  # 5s 6s 7s
    assert seq is not None
    state = _playing(
        enc, {0: ["8s", "JK", "JK", "3h"]}, field=(Played(1, seq),), last=1, passed=frozenset()
    )
    group = enc.index(_playing(enc, {0: ["8s", "JK", "JK"]}), 0, Play(("8s", "JK", "JK")))
    with pytest.raises(NotEncodable):
        enc.action(state, 0, group)
    legal = GAME.legal_actions(state, 0)
    assert Play(("8s", "JK", "JK")) in legal  # the engine's own reading: a sequence
    number = enc.index(state, 0, Play(("8s", "JK", "JK")))
    assert enc.action(state, 0, number) == Play(("8s", "JK=9s", "JK=10s"))
    assert number in enc.legal_indices(state, 0) and group not in enc.legal_indices(state, 0)
    assert len(enc.legal_indices(state, 0)) == len(legal)


def _local() -> DaifugoEncoding:
    enc = _encoding("local rules")
    assert enc.sizes == frozenset(range(1, 7))  # up to four 7s (10s) and two jokers
    return enc


def test_discards_of_three_cards_are_a_chosen_pair_plus_the_weakest_other() -> None:
    enc = _local()
    hand = ["3s", "5h", "9d", "Qc", "JK"]
    state = _playing(enc, {0: hand}, follow_up=FollowUp("discard", 3))
    codes = sorted(c for c in (C.parse_card(t) for t in hand) if c is not None)
    reachable = set()
    for pair in C.all_subsets(codes, 2):
        rest = [c for c in codes if c not in pair]
        reachable.add(tuple(sorted((*pair, rest[0]))))
    numbers = enc.legal_indices(state, 0)
    decoded = {C.parse_cards(enc.action(state, 0, i).cards) for i in numbers}  # type: ignore[attr-defined]
    assert decoded == reachable and len(numbers) == len(reachable)
    assert Discard(("3s", "Qc", "JK")) in {enc.action(state, 0, i) for i in numbers}
    with pytest.raises(NotEncodable):  # 3s is the weakest: any pair of these would bring it
        enc.index(state, 0, Discard(("5h", "9d", "Qc")))
    listed = GAME.legal_actions(state, 0)
    assert len(listed) == 10 and Discard(("5h", "9d", "Qc")) in listed  # left out, documented
    first = enc.blocks[-1].start  # cards3+: the pair's number, as in cards2
    pair_block = enc.blocks[-2]
    assert pair_block.name == "cards2" and enc.blocks[-1].name == "cards3+"
    qc_jk = enc.index(
        _playing(enc, {0: hand}, follow_up=FollowUp("discard", 2)), 0, Discard(("Qc", "JK"))
    )
    assert enc.action(state, 0, first + qc_jk - pair_block.start) == Discard(("3s", "Qc", "JK"))


def test_a_tribute_of_three_is_a_pair_plus_the_strongest_other_and_cheating_has_no_number() -> None:
    enc = _encoding("local rules, suit lock, big exchanges")
    state = _exchanging(enc, ["3s", "4h", "9d", "Kc", "2s", "JK"], "tribute", 3)
    numbers = enc.legal_indices(state, 0)
    assert [enc.action(state, 0, i) for i in numbers] == [Give(("Kc", "2s", "JK"))]
    assert list(GAME.legal_actions(state, 0)) == [Give(("Kc", "2s", "JK"))]
    gift = _exchanging(enc, ["3s", "4h", "9d", "Kc", "2s", "JK"], "gift", 3)
    assert len(enc.legal_indices(gift, 0)) > 1
    two = _exchanging(enc, ["3s", "4h", "9d", "Kc", "2s", "JK"], "tribute", 2)
    cheat = enc.index(two, 0, Give(("3s", "4h")))  # a number exists for the pair...
    with pytest.raises(NotEncodable):  # ... but a dishonest tribute means nothing
        enc.action(two, 0, cheat)
    assert enc.legal_indices(two, 0) == [enc.index(two, 0, Give(("2s", "JK")))]


def test_numbers_outside_the_due_step_mean_nothing() -> None:
    enc = _local()
    state = _playing(enc, {0: ["3s", "5h", "9d"]})
    give = enc.blocks[-3]
    assert give.name == "cards1"
    with pytest.raises(NotEncodable):  # no give or discard is due in a play
        enc.action(state, 0, give.start)
    with pytest.raises(NotEncodable):
        enc.action(state, 0, enc.num_actions)
    assert enc.action(state, 0, 0) == Pass()


def test_score_rewards_pay_each_games_points_as_it_ends() -> None:
    env = rl.env("daifugo", players=4, games=3, seed=2)
    env.reset()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    checked = 0
    results = 0
    for k, agent in enumerate(env.agent_iter(max_iter=50_000)):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        state = env.table.state
        if len(state.results) > results:  # a game just ended: everyone was paid its points
            results = len(state.results)
            # rewards received, and those waiting for their agent's next turn
            pending = {a: env._cumulative_rewards[a] for a in env.possible_agents if a != agent}
            paid = [totals[a] + pending.get(a, 0.0) for a in env.possible_agents]
            assert paid == pytest.approx([float(p) for p in state.points])
            assert any(state.points)
            checked += 1
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[k % len(legal)]))
    assert env.table.over() and checked == 2
    final = [float(p) for p in env.table.state.points]
    assert [totals[a] for a in env.possible_agents] == pytest.approx(final)
