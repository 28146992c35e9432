"""The ``ismcts`` bot: the bot contract, the two-player solver against brute force, and the
likelihood weights of hidden hands on hand-built cases (docs/games/daifugo.md, Bots)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from dennou.arena.bots import make_bot
from dennou.arena.play import play as arena_play
from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON, Event
from dennou.games.daifugo import GAME
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Pass, Play
from dennou.games.daifugo.beliefs import AUTO_PASS, GIFT, PASS, PLAY, Tracker, log_weights
from dennou.games.daifugo.endgame import TwoPlayerSolver
from dennou.games.daifugo.greedy import greedy_choice, reading
from dennou.games.daifugo.ismcts import IsmctsBot
from dennou.games.daifugo.policy import (
    MOVE_CARDS,
    MOVE_SEQ,
    NV,
    VALUE,
    VALUE_FEATURES,
    WEIGHTS,
    load_value,
    position_value,
    value_features,
    weakest_first,
)
from dennou.games.daifugo.search import Context
from dennou.games.daifugo.state import DaifugoState
from tests.games.bot_checks import check_bots
from tests.games.daifugo.helpers import dealt, play

FAST = "ismcts:playouts=120:samples=12:solver_nodes=3000"


def test_registered_with_declared_options() -> None:
    bot = make_bot(GAME, "ismcts:playouts=50:samples=8:belief=0.5")
    assert isinstance(bot, IsmctsBot) and bot.playouts == 50 and bot.belief == 0.5
    assert GAME.bots()["ismcts"] is IsmctsBot


@pytest.mark.parametrize(
    "options",
    [{"games": 3}, {"preset": "uecda", "games": 2}],
    ids=["seed-rules", "uecda"],
)
def test_keeps_the_bot_contract(options: dict[str, Any]) -> None:
    """Legal actions only, the same game for the same seed, blind to hidden state."""
    rules = GAME.make_rules(options)
    modelled = FAST + ":seed=7:model_opponents=true:mcmc=20:model_playouts=true"
    specs = (FAST, "greedy", modelled, "montecarlo:playouts=40:samples=4", "random")
    tally = check_bots(GAME, rules, specs, seeds=[4], every=2)
    assert tally.twin_checks >= 20 and tally.hidden_differs >= 20
    assert tally.seen.get("Play", 0) > 20 and tally.seen.get("Give", 0) >= 2


def test_the_same_seed_gives_the_same_choice() -> None:
    state = dealt({0: "3s 3h 5d 7c 9s JK Qh", 1: "4s 6h 8d 10c Ks"}, n=2, lead=0, games=1)
    view = GAME.view(state, 0)
    legal = GAME.legal_actions(state, 0)
    choices = {
        str(IsmctsBot(playouts=200, samples=16).act(view, legal, random.Random(9)))
        for _ in range(3)
    }
    assert len(choices) == 1


# --- the two-player solver ------------------------------------------------------------------------
def brute_wins(state: DaifugoState, me: int) -> bool:
    """Whether ``me`` wins (goes out first) by the readable rules, every move tried.

    Passes on an empty field are left out, as in the solver.
    """
    if state.phase != "play":
        return state.results[-1].finish[0] == me
    seat = state.turn
    results = []
    for action in GAME.legal_actions(state, seat):
        if isinstance(action, Pass) and not state.field:
            continue
        new, _ = GAME.apply_rules(state, seat, action)
        results.append(brute_wins(new, me))
    return any(results) if seat == me else all(results)


def random_position(rng: random.Random, options: dict[str, Any]) -> DaifugoState:
    rules = GAME.make_rules(options)
    deck = list(C.deck(rules.jokers))
    rng.shuffle(deck)
    sizes = rng.randint(1, 4), rng.randint(1, 4)
    hands = {0: deck[: sizes[0]], 1: deck[sizes[0] : sizes[0] + sizes[1]]}
    spec = {s: " ".join(C.cards_str(sorted(h))) for s, h in hands.items()}
    state = dealt(spec, n=2, lead=rng.randrange(2), **options)
    if rng.random() < 0.3:
        state.revolution = True
    if rng.random() < 0.5:  # somebody plays first, so that some positions start on a field
        legal = [a for a in GAME.legal_actions(state, state.turn) if isinstance(a, Play)]
        if legal:
            state, _ = GAME.apply_rules(state, state.turn, rng.choice(legal))
    return state


@pytest.mark.parametrize(
    "options",
    [{"games": 1}, {"preset": "uecda", "games": 1, "stalemate_passes": 0}],
    ids=["seed-rules", "uecda"],
)
def test_solver_agrees_with_brute_force(options: dict[str, Any]) -> None:
    rng = random.Random(17)
    checked = wins = 0
    for _ in range(300):
        state = random_position(rng, options)
        if state.phase != "play":
            continue
        fl = S.flags_of_rules(state.rules)
        for me in (0, 1):
            solver = TwoPlayerSolver(fl, me, 1 - me, 10**6)
            brute = brute_wins(state, me)
            assert solver.wins(S.pack(state)) == brute, (state.hands, me)
            checked += 1
            wins += brute
    assert checked > 400 and 0.2 * checked < wins < 0.8 * checked


def test_solver_finds_the_winning_lead() -> None:
    """3s 4h JK against a pair of 2s: a single natural wins (the joker answers a 2, then the
    last card goes out); leading the joker or a pair loses."""
    state = dealt({0: "3s 4h JK", 1: "2s 2h"}, n=2, lead=0, games=1)
    fl = S.flags_of_rules(state.rules)
    moves = [int(m) for m in S.Sim(state).legal_moves()]
    got = TwoPlayerSolver(fl, 0, 1, 10**5).solve(S.pack(state), moves)
    assert got is not None and got[0]
    assert S.combo_of(got[1]).strs() in (("3s",), ("4h",))
    assert brute_wins(play(state, 0, "3s"), 0) and brute_wins(play(state, 0, "4h"), 0)
    assert not brute_wins(play(state, 0, "JK"), 0)
    assert not brute_wins(play(state, 0, "3s JK=3h"), 0)


def test_bot_plays_the_solver_s_winning_move() -> None:
    state = dealt({0: "3s 4h JK", 1: "2s 2h"}, n=2, lead=0, games=1)
    action = IsmctsBot(playouts=5, samples=2).act(
        GAME.view(state, 0), GAME.legal_actions(state, 0), random.Random(0)
    )
    assert action in (Play(("3s",)), Play(("4h",)))


def test_solver_gives_up_past_its_budget() -> None:
    state = dealt({0: "3s 4h 5d 6c 9d", 1: "3h 4d 7h 9c 10s"}, n=2, lead=0, games=1)
    moves = [int(m) for m in S.Sim(state).legal_moves()]
    fl = S.flags_of_rules(state.rules)
    assert TwoPlayerSolver(fl, 0, 1, 5).solve(S.pack(state), moves) is None
    assert TwoPlayerSolver(fl, 0, 1, 10**6).solve(S.pack(state), moves) is not None


# --- likelihood weights ---------------------------------------------------------------------------
def context_of(state: DaifugoState) -> tuple[int, ...]:
    tracker = Tracker()
    tracker.top = S.move_of(state.top.combo) if state.top else 0
    tracker.revolution = int(state.revolution)
    return tracker._context()


def weigh(
    state: DaifugoState, deals: list[dict[int, str]], obs: list[tuple[int, int, int, str]]
) -> np.ndarray:
    """Log weights of ``deals`` (seat -> cards) given ``(seat, kind, move, later cards)``."""
    n = len(state.players)
    rows = np.array(
        [[C.card_set(C.parse_cards(d.get(x, "").split()) or ()) for x in range(n)] for d in deals],
        dtype=np.int64,
    )
    ctx = context_of(state)
    fl = S.flags_of_rules(state.rules)
    return log_weights(
        rows,
        np.array([o[0] for o in obs], dtype=np.int64),
        np.array([o[1] for o in obs], dtype=np.int64),
        np.array([ctx for _ in obs], dtype=np.int64),
        np.array([o[2] for o in obs], dtype=np.uint64),
        np.array([C.card_set(C.parse_cards(o[3].split()) or ()) for o in obs], dtype=np.int64),
        S.pack(state),
        fl,
        np.tile(WEIGHTS, (n, 1)),
        np.zeros(n, dtype=np.bool_),
        0.05,
    )


def test_a_forced_pass_rules_out_hands_that_could_have_played() -> None:
    """Seed rules (auto_pass): the host passed for seat 1 on a single K: no A, 2 or joker then."""
    state = play(dealt({0: "Ks 3h", 1: "4s", 2: "2h"}, n=3, lead=0), 0, "Ks")
    assert state.top is not None and state.turn == 2
    deals = [{1: "4s 5h 9c"}, {1: "4s 5h As"}, {1: "4s 5h JK"}, {1: "4s 5h Qc"}]
    logw = weigh(state, deals, [(1, AUTO_PASS, 0, "")])
    assert logw[0] == logw[3] == 0.0
    assert logw[1] < -8 and logw[2] < -8


def test_a_chosen_pass_under_auto_pass_says_the_seat_could_play() -> None:
    state = play(dealt({0: "Ks 3h", 1: "4s", 2: "2h"}, n=3, lead=0), 0, "Ks")
    deals = [{1: "4s 5h 9c"}, {1: "4s 5h 2c"}]
    logw = weigh(state, deals, [(1, PASS, 0, "")])
    assert logw[0] < -8 < logw[1]


def test_a_play_is_likelier_from_hands_where_it_was_the_natural_choice() -> None:
    """Seat 1 led a single 9: likelier when it held nothing weaker than when it held 3s."""
    state = dealt({0: "Ks 3h", 1: "9s"}, n=3, lead=1)
    nine = S.move_of(C.combo_from(["9s"])[0])  # type: ignore[index]
    # now (after the lead) seat 1 holds the rest; the 9 is added back as played since
    deals = [{1: "Qh Kd As"}, {1: "3d 4c As"}]
    logw = weigh(state, deals, [(1, PLAY, nine, "9s")])
    assert logw[0] > logw[1] + 1.0


def test_a_gift_received_makes_weak_cards_with_the_giver_less_likely() -> None:
    state = dealt({0: "Ks 3h", 1: "4s"}, n=3, lead=0)
    below_six = sum(15 << (4 * r) for r in range(3))  # the ranks 3, 4, 5
    rows = np.array([[0, C.card_set((40, 44)), 0], [0, C.card_set((1, 5)), 0]], dtype=np.int64)
    logw = log_weights(
        rows,
        np.array([1], dtype=np.int64),
        np.array([GIFT], dtype=np.int64),
        np.array([[below_six, 0, 0, 0, 0, 0, 0, 0]], dtype=np.int64),
        np.array([0], dtype=np.uint64),
        np.array([0], dtype=np.int64),
        S.pack(state),
        S.flags_of_rules(state.rules),
        np.tile(WEIGHTS, (3, 1)),
        np.zeros(3, dtype=np.bool_),
        0.05,
    )
    assert logw[0] == 0.0 and logw[1] < -1.5


def test_the_tracker_reads_plays_passes_and_flushes_from_events() -> None:
    state = dealt({0: "Ks 3h", 1: "4s 5d", 2: "As 6c"}, n=3, lead=0)
    bot = IsmctsBot()
    bot.reset(seat=0, rules=state.rules, players=state.players)
    events: list[Event] = []
    state, ev = GAME.apply(state, 0, Play(("Ks",)))
    events += ev
    state, ev = GAME.apply(state, 2, Pass())  # seat 1 was passed for (no play beats a K)
    events += ev
    bot.observe([e for e in events if e.visible_to(0)])
    kinds = [(x, k) for x, k, _, _ in bot.tracker.decisions]
    assert kinds == [(0, PLAY), (1, AUTO_PASS), (2, PASS)]
    king = S.move_of(C.combo_from(["Ks"])[0])  # type: ignore[index]
    assert bot.tracker.decisions[1][2][0] == king
    assert bot.tracker.top == 0  # everybody passed: the field flushed
    assert bot.tracker.played == [(0, 0, C.card_set([C.parse_card("Ks") or 0]))]


def test_beliefs_keep_a_forced_passer_without_strong_singles() -> None:
    """End to end: the sampled hands follow the forced pass the bot observed."""
    state = dealt(
        {0: "Ks 3h 4h 5h 6h", 1: "3s 4s 5s 6s 7s 8d", 2: "3c 4c 5c 6c As 2s"}, n=3, lead=0
    )
    bot = IsmctsBot(samples=40, candidates=8)
    bot.reset(seat=0, rules=state.rules, players=state.players)
    state, ev = GAME.apply(state, 0, Play(("Ks",)))
    bot.observe([e for e in ev if e.visible_to(0)])
    assert [k for _, k, _, _ in bot.tracker.decisions] == [PLAY, AUTO_PASS]
    view0 = GAME.view(state, 0)  # seat 2 is to act; this is what seat 0 believes
    assert view0["turn"] == 2
    ctx = Context(view0, WEIGHTS)
    weighted = bot.beliefs(view0, ctx, seed=3)
    plain = IsmctsBot(samples=40, belief=0).beliefs(view0, ctx, seed=3)
    strong = C.card_set(c for c in range(44, 52)) | C.card_set([C.JOKER, C.JOKER])

    def strong_with_1(rows: np.ndarray) -> int:
        return sum(1 for row in rows if int(row[1]) & strong)

    assert strong_with_1(weighted) == 0 < strong_with_1(plain)


def test_swaps_move_deals_off_hands_a_forced_pass_rules_out_keeping_every_card() -> None:
    """docs/games/daifugo.md, Bots (``mcmc``): the chains keep the counts and the cards and
    leave the strong singles a forced pass said seat 1 lacks to the other seat."""
    state = dealt(
        {0: "Ks 3h 4h 5h 6h", 1: "3s 4s 5s 6s 7s 8d", 2: "3c 4c 5c 6c As 2s"}, n=3, lead=0
    )
    bot = IsmctsBot(samples=40, candidates=1, mcmc=200)
    bot.reset(seat=0, rules=state.rules, players=state.players)
    state, ev = GAME.apply(state, 0, Play(("Ks",)))
    bot.observe([e for e in ev if e.visible_to(0)])
    view0 = GAME.view(state, 0)
    ctx = Context(view0, WEIGHTS)
    start = IsmctsBot(samples=40, candidates=1, mcmc=0).beliefs(view0, ctx, seed=3)
    moved = bot.beliefs(view0, ctx, seed=3)
    strong = C.card_set(c for c in range(44, 52)) | C.card_set([C.JOKER, C.JOKER])
    assert sum(1 for row in start if int(row[1]) & strong) > 10
    assert sum(1 for row in moved if int(row[1]) & strong) == 0
    for before, after in zip(start, moved, strict=True):
        assert after[0] == before[0]  # the bot's own hand never moves
        assert [C.size(int(h)) for h in after] == [C.size(int(h)) for h in before]
        assert C.add(int(after[1]), int(after[2])) == C.add(int(before[1]), int(before[2]))
    assert len({tuple(row) for row in moved.tolist()}) > 10  # the chains keep apart


def _set_against(field: str, **options: Any) -> IsmctsBot:
    """An ``ismcts`` bot (seat 0) after a set of 2 games against 4 ``field`` bots."""
    bot = IsmctsBot(playouts=200, samples=8, **{"model_opponents": True, **options})
    bots = [bot, *(make_bot(GAME, field) for _ in range(4))]
    arena_play(GAME, GAME.make_rules({"games": 2}), bots, 1000)
    return bot


def test_opponents_that_play_weakest_first_are_weighed_by_that_rule() -> None:
    """docs/games/daifugo.md, Bots: each opponent that went out is judged by its decisions;
    ``greedy`` follows the weakest-first rule, which explains it better than any policy."""
    bot = _set_against("greedy")
    judged = [x for x in range(1, 5) if bot.evidence[x].any()]
    assert len(judged) >= 3 and not bot.evidence[0].any()  # never the bot itself
    for x in judged:
        assert bot.evidence[x, 1] > bot.evidence[x, 0] + 2.0  # the fitted policy comes next
        assert bot.evidence[x, 2] > bot.evidence[x, 1] + 2.0
    weights, rule = bot.opponent_models(5)
    assert np.array_equal(weights[0], WEIGHTS) and not rule[0]
    for x in judged:
        assert rule[x]


def test_opponents_that_follow_the_rule_play_by_it_in_the_playouts_when_asked() -> None:
    """``model_playouts``: the seats the rule explains play by it in the playouts; off, none."""
    bot = _set_against("greedy", model_playouts=True)
    rules = bot.playout_rules(5)
    assert not rules[0] and rules.sum() >= 3
    assert (rules == bot.opponent_models(5)[1]).all()
    bot.model_playouts = False
    assert not bot.playout_rules(5).any()


def test_the_weakest_first_rule_gives_the_greedy_bot_s_choices() -> None:
    """:func:`ismcts.weakest_first` against :func:`greedy.greedy_choice` itself, at every
    decision of greedy games: the bot's choice has all the probability but where the rule
    hangs on whether the 3 of spades was seen (then the lone joker and the pass share it)."""
    shares: list[float] = []

    class Checked(Bot):
        name = "checked"

        def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
            action = greedy_choice(view, legal)
            if view["phase"] == "play" and view["follow_up"] is None:
                shares.append(_rule_share(view, action))
            return action

    for seed in range(4):
        arena_play(GAME, GAME.make_rules({"games": 3}), [Checked() for _ in range(5)], seed)
    assert len(shares) > 300
    assert all(p == 1.0 or p == 0.5 for p in shares)
    assert sum(1 for p in shares if p == 1.0) > 0.9 * len(shares)


def _rule_share(view: JSON, action: Action) -> float:
    """The probability :func:`ismcts.weakest_first` gives ``action`` in ``view``."""
    ctx = Context(view, WEIGHTS)
    hand = np.uint64(C.card_set(C.parse_cards(view["hand"]) or ()))
    buf = np.zeros(S.MAXMOVES, dtype=np.uint64)
    probs = np.zeros(S.MAXMOVES + 1)
    k, _ = weakest_first(ctx.base, ctx.fl, hand, buf, probs)
    if isinstance(action, Pass):
        return float(probs[k])
    assert isinstance(action, Play)
    move = np.uint64(S.move_of(reading(view, action)))
    same = [i for i in range(k) if (buf[i] ^ move) & (MOVE_CARDS | MOVE_SEQ) == 0]
    return float(sum(probs[i] for i in same))


def test_opponents_that_do_not_play_weakest_first_keep_the_search_model() -> None:
    bot = _set_against("random")
    judged = [x for x in range(1, 5) if bot.evidence[x].any()]
    assert judged
    for x in judged:
        assert bot.evidence[x, 0] > bot.evidence[x, 1]
        assert np.array_equal(bot.opponent_models(5)[0][x], WEIGHTS)


def test_without_opponent_models_every_seat_is_weighed_by_the_playout_policy() -> None:
    """On by default (with the swaps and the rule in the playouts); off, the bot weighs every
    hand as before the option existed."""
    default = IsmctsBot()
    assert default.model_opponents and default.model_playouts and default.mcmc == 200
    bot = _set_against("greedy", model_opponents=False)
    assert not bot.evidence.any()
    assert (bot.opponent_models(5)[0] == WEIGHTS).all()
    assert not bot.opponent_models(5)[1].any() and not bot.playout_rules(5).any()


def test_a_new_set_forgets_the_opponents() -> None:
    bot = _set_against("greedy")
    bot.reset(seat=2, rules=GAME.make_rules({"games": 2}), players=[f"p{i}" for i in range(5)])
    assert not bot.evidence.any()


def test_exchange_gift_is_searched_and_legal() -> None:
    """As 大富豪 the bot gives back two of its weakest cards (searched among them)."""
    rules = GAME.make_rules({"games": 3})
    from dennou.arena.play import play as play_set

    bots = [IsmctsBot(playouts=60, samples=8) for _ in range(4)]
    record = play_set(GAME, rules, bots, 2)
    gifts = [s for s in record.steps if s.action and s.action.get("type") == "give"]
    assert len(gifts) >= 4
    assert not [s for s in record.steps if s.default is not None]


# --- the value model ------------------------------------------------------------------------------
def test_value_features_of_a_hand_built_position() -> None:
    """Seat 0 to lead with JK 2s 2h 8c 3d 4d 4s against 5 and 2 cards (seed rules, 8-cut)."""
    state = dealt({0: "JK 2s 2h 8c 3d 4d 4s", 1: "5c 6c 7c 9c 2d", 2: "Ks Kh"}, n=5, lead=0)
    fl = S.flags_of_rules(state.rules)
    out = np.zeros(NV)
    value_features(S.pack(state), fl, 0, out)
    got = dict(zip(VALUE_FEATURES, out, strict=True))
    assert got["bias"] == 1.0
    assert got["cards"] == pytest.approx(7 / 13)
    assert got["ranks"] == pytest.approx(4 / 13)  # 3, 4, 8, 2
    assert got["jokers"] == 1.0
    assert got["top_rank"] == pytest.approx(2 / 4)
    assert got["eights"] == pytest.approx(1 / 4)
    assert got["weak_singles"] == pytest.approx(2 / 5)  # the 3 and the 8 (the 4s are a pair)
    assert got["strength"] == pytest.approx((0 + 1 + 1 + 5 + 12 + 12) / 12 / 6)
    assert got["fewest_other"] == pytest.approx(2 / 13)
    assert got["mean_other"] == pytest.approx(3.5 / 13)
    assert got["controls_other"] == pytest.approx(1 / 8)  # seat 1's 2
    assert got["most_controls_other"] == pytest.approx(1 / 4)
    assert got["players"] == pytest.approx(3 / 5)
    assert (got["my_lead"], got["my_follow"], got["shortest"]) == (1.0, 0.0, 0.0)
    assert (got["first_out_taken"], got["finished"]) == (0.0, 0.0)
    # from seat 2's side: it holds the fewest, and it is not its turn
    value_features(S.pack(state), fl, 2, out)
    got = dict(zip(VALUE_FEATURES, out, strict=True))
    assert (got["shortest"], got["my_lead"]) == (1.0, 0.0)
    assert got["cards"] == pytest.approx(2 / 13)


def test_the_value_model_loads_and_judges_in_0_1(tmp_path: Any) -> None:
    assert VALUE.shape == (NV,)
    stale = tmp_path / "value.json"
    stale.write_text('{"features": ["bias"], "weights": [1.0]}', encoding="utf-8")
    assert not load_value(stale).any()  # stale features: no model (a value of 0.5)
    state = dealt({0: "JK 2s 3d", 1: "5c 6c 7c", 2: "Ks Kh 4c"}, n=3, lead=0)
    v = position_value(S.pack(state), S.flags_of_rules(state.rules), 0, VALUE, np.zeros(NV))
    assert 0.0 < v < 1.0


def test_the_value_model_s_options_keep_the_bot_contract() -> None:
    """``blend`` and ``cutoff``: legal actions only, reproducible, blind to hidden state."""
    rules = GAME.make_rules({"games": 2})
    specs = (FAST + ":blend=0.3", "greedy", FAST + ":cutoff=10", "greedy", "random")
    tally = check_bots(GAME, rules, specs, seeds=[5], every=2)
    assert tally.twin_checks >= 10 and tally.hidden_differs >= 10
