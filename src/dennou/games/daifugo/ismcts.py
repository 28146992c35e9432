"""Daifugo ``ismcts``: belief-weighted determinized search with a learned playout policy.

The approach of the UECda champions (``docs/games/daifugo.md``, Bots):

- **Hidden hands by likelihood.** Candidate deals of the unseen cards are drawn consistently with
  the view (card counts, every card seen, the cards the seat gave, a tribute's rank cap), then
  weighted by how likely each opponent's plays and passes this game were under the policy model
  below (the hand a seat held at each decision is its sampled hand plus what it played since).
  Under ``auto_pass`` a pass says exactly whether the seat could play (the host passes for a seat
  that cannot); a gift received in the exchange says the giver holds few weaker cards. The
  determinizations are drawn from the candidates in proportion to their weights (importance
  resampling; ``belief`` tempers the weights, 0 is uniform). With ``mcmc`` each determinization
  then walks by Metropolis swaps of two cards between opponents under the same likelihood
  (:func:`.beliefs.move_deals`), which keeps the samples apart where resampling would repeat a
  few deals. Drawing and weighing: :mod:`.beliefs`.
- **Opponent models** (``model_opponents``): after each game of a set, every opponent that went
  out is judged by its decisions (its hands then are known), and its hand is weighed from then
  on by whichever of :data:`.policy.OPPONENT_MODELS` explains it best: the playout policy,
  that policy fitted to the weakest-first rule, or the rule itself
  (:func:`.policy.weakest_first`, the ``greedy`` bot's and UECda's sample client's). With
  ``model_playouts`` the seats the rule explains also play by it in the playouts.
- **UCB1 at the root** over the candidate plays (and, as 大富豪 / 富豪, over the cards to give
  back): each playout takes the next determinization of the arm and plays to the end of the
  game in the Numba simulator (:mod:`.sim`) with the policy; the reward is the title's points
  (:mod:`.search`).
- **The policy** (:mod:`.policy`) is a softmax over a few hand-built features of each play;
  its weights (``policy.json``) are fitted by ``bench/daifugo_policy.py`` to the choices of
  ``montecarlo`` bots in self-play. With ``net`` the playouts are played by a small policy
  network and positions judged by a value network instead (:mod:`.net`, ``net.npz``, fitted by
  ``bench/daifugo_net.py`` to ``ismcts`` self-play).
- **An exact solver when two players remain**: the seat then knows the other hand (every unseen
  card), and a win/loss search with a transposition table (:class:`.endgame.TwoPlayerSolver`)
  plays a winning move when there is one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Annotated, Any

import numpy as np
from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON, Event, Seat
from dennou.core.native import Native
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Discard, Give
from dennou.games.daifugo.beliefs import (
    EPS,
    GIFT,
    Arrays,
    Tracker,
    as_arrays,
    decision_rows,
    log_weights,
    move_deals,
)
from dennou.games.daifugo.endgame import TwoPlayerSolver
from dennou.games.daifugo.greedy import greedy_choice
from dennou.games.daifugo.net import shipped
from dennou.games.daifugo.policy import OPPONENT_MODELS, OPPONENT_RULES, VALUE, WEIGHTS
from dennou.games.daifugo.rules import DaifugoRules
from dennou.games.daifugo.search import (
    Context,
    best_arm,
    candidate_moves,
    exchange_arms,
    gift_options,
    search,
)


# --- the bot -------------------------------------------------------------------------------------
class IsmctsBot(Bot):
    """Belief-weighted determinized search: UCB1 at the root, policy playouts, exact endings.

    Args:
        playouts: Playouts per decision (used when ``ms`` is 0); the exchange search gets twice.
        ms: Time budget per decision in milliseconds, the drawing of the hands included (0:
            use ``playouts``; not reproducible).
        samples: Determinizations drawn per decision (the arms take them in turn).
        candidates: Candidate deals weighed per determinization (importance resampling).
        belief: Exponent of the likelihood weights of the deals (0: uniform sampling).
        explore: The UCB1 exploration constant (rewards are 0-1).
        solver_nodes: Positions the two-player solver may visit (0: no solver).
        exchange: Search the cards to give back as 大富豪 / 富豪 (else the weakest).
        seed: Mixed into the random stream (different bots with the same game seed).
        model_playouts: In the playouts, the opponents that :data:`OPPONENT_MODELS`' rule
            explains best play by that rule (with ``model_opponents``).
        mcmc: Metropolis swaps of two opponents' cards run on each drawn determinization,
            under the same likelihood (:func:`move_deals`; 0: none).
        model_opponents: Weigh each opponent's hidden hand by the model of
            :data:`OPPONENT_MODELS` that explains its decisions in the set's finished games best
            (else by the playout policy).
        blend: The value model's share of each playout's reward
            (:func:`~dennou.games.daifugo.policy.position_value`; experimental).
        net: Play the playouts by the shipped policy network (``net.npz``, :mod:`.net`)
            instead of the linear policy; the hidden hands are still weighed by the linear one.
        net_value: Judge positions (``blend``, ``cutoff``) by the shipped value network
            instead of the linear value model.
        cutoff: Stop each playout after this many moves and let the value model judge
            (experimental; 0: play to the end).
    """

    name = "ismcts"

    def __init__(
        self,
        playouts: Annotated[int, Meta(ge=1, le=1_000_000)] = 3000,
        ms: Annotated[float, Meta(ge=0, le=60_000)] = 0.0,
        samples: Annotated[int, Meta(ge=1, le=4096)] = 48,
        candidates: Annotated[int, Meta(ge=1, le=64)] = 4,
        belief: Annotated[float, Meta(ge=0, le=8)] = 1.0,
        explore: Annotated[float, Meta(ge=0, le=10)] = 0.6,
        solver_nodes: Annotated[int, Meta(ge=0, le=10_000_000)] = 5_000,
        exchange: bool = True,
        seed: Annotated[int, Meta(ge=0, le=2**31 - 1)] = 0,
        model_opponents: bool = True,
        mcmc: Annotated[int, Meta(ge=0, le=100_000)] = 200,
        model_playouts: bool = True,
        blend: Annotated[float, Meta(ge=0, le=1)] = 0.0,
        cutoff: Annotated[int, Meta(ge=0, le=1000)] = 0,
        net: bool = False,
        net_value: bool = False,
    ) -> None:
        self.playouts = playouts
        self.ms = ms
        self.samples = samples
        self.candidates = candidates
        self.belief = belief
        self.explore = explore
        self.solver_nodes = solver_nodes
        self.exchange = exchange
        self.seed = seed
        self.model_opponents = model_opponents
        self.mcmc = mcmc
        self.model_playouts = model_playouts
        self.seat = -1
        self.evidence = np.zeros((0, len(OPPONENT_MODELS)))
        self.template: np.ndarray | None = None
        self.blend = blend
        self.cutoff = cutoff
        self.net = net
        self.net_value = net_value
        self.value_weights = shipped().value if net_value else VALUE
        self.weights = WEIGHTS
        self.playout_weights = shipped().policy if net else WEIGHTS
        self.tracker = Tracker()
        self.rules: DaifugoRules | None = None

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """A new set: forget the last one."""
        self.tracker.reset()
        self.rules = rules if isinstance(rules, DaifugoRules) else None
        self.seat = seat
        self.evidence = np.zeros((len(players), len(OPPONENT_MODELS)))
        self.template = None

    def observe(self, events: Sequence[Event]) -> None:
        """Follow the game's public course (plays, passes, flushes)."""
        if self.rules is None:
            return
        for e in events:
            if e.kind == "game_end" and self.model_opponents:
                self._weigh_models()
            self.tracker.see(e, self.rules)

    def _weigh_models(self) -> None:
        """Add the game's evidence for each model of each opponent that went out.

        Once a seat is out, every card it held at each of its decisions is known: the cards it
        played then or later.
        """
        tr, rules, base = self.tracker, self.rules, self.template
        if rules is None or base is None:
            return
        fl = S.flags_of_rules(rules)
        n = len(self.evidence)
        for x in tr.out:
            if x == self.seat or x >= n:
                continue
            rows = decision_rows(tr, (x,))[::-1]  # oldest first
            if not rows:
                continue
            args = (np.zeros((1, n), dtype=np.int64), *as_arrays(rows), base, fl)
            for k, w in enumerate(OPPONENT_MODELS):
                rule = np.full(n, OPPONENT_RULES[k])
                self.evidence[x, k] += log_weights(*args, np.tile(w, (n, 1)), rule, EPS)[0]

    def opponent_models(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The model each seat's hidden hand is weighed by (:data:`OPPONENT_MODELS`).

        Returns:
            ``[seat, feature]`` policy weights and ``[seat]`` whether it is the rule instead.
        """
        w = np.tile(self.weights, (n, 1))
        rule = np.zeros(n, dtype=np.bool_)
        if not self.model_opponents or len(self.evidence) != n:
            return w, rule
        for x in range(n):
            ev = self.evidence[x]
            if ev.any():
                k = int(np.argmax(ev))
                w[x], rule[x] = OPPONENT_MODELS[k], OPPONENT_RULES[k]
        return w, rule

    def playout_rules(self, n: int) -> np.ndarray:
        """``[seat]`` the seats that play by the rule in the playouts (``model_playouts``)."""
        if not self.model_playouts:
            return np.zeros(n, dtype=np.bool_)
        return self.opponent_models(n)[1]

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose: exchange and follow-ups by rule or search, plays by search or the solver."""
        started = time.perf_counter()  # ``ms`` counts the whole decision, the hands' too
        seed = rng.randrange(2**31) ^ self.seed
        if not SEARCH.ready():  # compiling on a fresh install (dennou.core.native): play on
            return greedy_choice(view, legal)
        if view["phase"] == "exchange":
            return self._exchange(view, legal, seed, started)
        if view["phase"] != "play":
            return legal[0]
        if view["follow_up"] is not None:
            return _follow_up_choice(view)
        candidates = candidate_moves(view, legal)
        if len(candidates) == 1:
            return candidates[0][1]
        ctx = Context(view, self.weights)
        self.template = ctx.base
        solved = self._solve(view, ctx, candidates)
        if solved is not None:
            return solved
        hands = self.beliefs(view, ctx, seed)
        moves = np.array([m for m, _ in candidates], dtype=np.uint64)
        visits, totals = self._search(ctx, ctx.base, hands[None], moves, True, False, seed, started)
        return candidates[best_arm(visits, totals)][1]

    # the parts
    def beliefs(self, view: JSON, ctx: Context, seed: int) -> np.ndarray:
        """``[samples, seats]`` hidden hands drawn by their likelihood (see the module)."""
        want = self.samples
        pool = ctx.deals(want * (self.candidates if self.belief > 0 else 1), seed)
        if self.belief <= 0 or (self.candidates <= 1 and not self.mcmc):
            return pool[:want]
        obs = self._observations(view, ctx)
        if obs is None:
            return pool[:want]
        w, rule = self.opponent_models(pool.shape[1])
        if self.candidates <= 1:
            return self._moved(ctx, pool, obs, w, rule, seed)
        logw = log_weights(pool, *obs, ctx.base, ctx.fl, w, rule, EPS)
        logw *= self.belief
        p = np.exp(logw - logw.max())
        p /= p.sum()
        # systematic resampling: evenly spaced draws through the cumulative weights
        start = float(np.random.default_rng(seed).random()) / want
        points = start + np.arange(want) / want
        idx = np.searchsorted(np.cumsum(p), points, side="right")
        hands = pool[np.minimum(idx, len(pool) - 1)]
        return self._moved(ctx, hands, obs, w, rule, seed) if self.mcmc else hands

    def _moved(
        self,
        ctx: Context,
        hands: np.ndarray,
        obs: Arrays,
        w: np.ndarray,
        rule: np.ndarray,
        seed: int,
    ) -> np.ndarray:
        """The determinizations after :attr:`mcmc` swaps each (:func:`move_deals`)."""
        cards, _, fixed, cap = ctx.shares
        args = (*obs, ctx.base, ctx.fl, w, rule, EPS, self.belief, self.mcmc, seed)
        return move_deals(hands, cards, fixed, cap, *args)

    def _observations(self, view: JSON, ctx: Context) -> Arrays | None:
        tr = self.tracker
        me = view["seat"]
        counts = view["counts"]
        rows = decision_rows(tr, [x for x, count in enumerate(counts) if x != me and count])
        for x, mask in ctx.gifts.items():
            if counts[x]:
                everything = 0
                for _, y, cards in tr.played:
                    if y == x:
                        everything = C.add(everything, cards)
                rows.append((x, GIFT, (mask, 0, 0, 0, 0, 0, 0, 0), 0, everything))
        if not rows:
            return None
        return as_arrays(rows)

    def _search(
        self,
        ctx: Context,
        base: np.ndarray,
        hands: np.ndarray,
        moves: np.ndarray,
        use_first: bool,
        diamond3: bool,
        seed: int,
        started: float,
        scale: int = 1,
    ) -> tuple[np.ndarray, np.ndarray]:
        """UCB1 over the arms.

        ``playouts`` of them, or as many as ``ms`` leaves after ``started`` (at least a round).
        """
        arms = len(moves)
        visits = np.zeros(arms, dtype=np.int64)
        totals = np.zeros(arms)
        args = (
            base, hands, moves, int(use_first), int(diamond3), ctx.fl, self.playout_weights,
            self.playout_rules(len(ctx.view["players"])), self.value_weights,
            self.blend, self.cutoff,
        )  # fmt: skip
        if not self.ms:
            search(*args, ctx.value, ctx.seat, self.playouts * scale, self.explore, seed,
                   visits, totals)  # fmt: skip
            return visits, totals
        chunk = max(arms * 2, 64)
        i = 0
        while i == 0 or (time.perf_counter() - started) * 1000 < self.ms * 0.85 * scale:
            search(*args, ctx.value, ctx.seat, chunk, self.explore, seed + i, visits, totals)
            i += 1
        return visits, totals

    def _solve(
        self, view: JSON, ctx: Context, candidates: list[tuple[int, Action]]
    ) -> Action | None:
        if not self.solver_nodes or not ctx.two_left():
            return None
        rules = ctx.rules
        if rules.seven_pass or rules.ten_discard:
            return None
        st = ctx.known_position()
        if st is None:
            return None
        other = next(x for x, k in enumerate(view["counts"]) if k and x != ctx.seat)
        solver = TwoPlayerSolver(ctx.fl, ctx.seat, other, self.solver_nodes)
        plays = [m for m, _ in candidates if m != 0 or st[S.TOP] != 0]
        if not plays:
            return None
        got = solver.solve(st, plays)
        if got is None or not got[0]:
            return None
        return next(a for m, a in candidates if m == got[1])

    def _exchange(self, view: JSON, legal: Sequence[Action], seed: int, started: float) -> Action:
        step = next(st for st in view["exchange"] if not st["done"])
        hand = C.parse_cards(view["hand"]) or ()
        if step["kind"] == "tribute":
            return Give(tuple(C.cards_str(C.strongest(hand, step["count"]))))
        count = step["count"]
        weakest = C.weakest(hand, count)
        if not self.exchange or count == 0:
            return Give(tuple(C.cards_str(weakest)))
        options = gift_options(hand, count)
        if len(options) == 1:
            return Give(tuple(C.cards_str(options[0])))
        ctx = Context(view, self.weights)
        base, hands = exchange_arms(view, ctx, options, seed, self.samples)
        diamond3 = ctx.rules.first_lead == "diamond3"
        moves = np.zeros(len(options), dtype=np.uint64)
        visits, totals = self._search(ctx, base, hands, moves, False, diamond3, seed, started, 2)
        return Give(tuple(C.cards_str(options[best_arm(visits, totals)])))


def _follow_up_choice(view: JSON) -> Action:
    """7 pass / 10 discard: the weakest cards in the current order, jokers last."""
    due = view["follow_up"]
    hand = C.parse_cards(view["hand"]) or ()
    rev = bool(view["reverse"])

    def key(c: int) -> tuple[int, int]:
        r = C.rank_of(c)
        return (c == C.JOKER, 12 - r if rev else r)

    cards = tuple(C.cards_str(sorted(hand, key=key)[: due["count"]]))
    return Give(cards) if due["kind"] == "give" else Discard(cards)


def _build_search() -> None:
    """Run every search kernel once (:data:`SEARCH`'s build).

    A self-play game of small ``ismcts`` bots (search, sampling and the swaps of
    :func:`move_deals`, the two-player ending; the exchange searches with the same kernels)
    and a batch of ``montecarlo``'s playouts.
    """
    from dennou.games.daifugo.engine import DaifugoEngine
    from dennou.games.daifugo.views import DaifugoViews

    game = DaifugoEngine(views=DaifugoViews, bots={})
    rules = game.make_rules({"games": 1})
    players = [f"p{i}" for i in range(5)]
    bots = [IsmctsBot(playouts=10, samples=4, mcmc=2) for _ in players]
    for seat, bot in enumerate(bots):
        bot.reset(seat=seat, rules=rules, players=players)
    rng = random.Random(0)
    state = game.new(rules, players)
    playouts_left = True
    for _ in range(5_000):  # a game takes a few hundred steps
        acting = game.to_act(state)
        if not acting:
            break
        seat = min(acting)
        if seat < 0:
            state, events = game.apply(state, seat, game.sample_chance(state, rng))
        else:
            view = game.view(state, seat)
            action = bots[seat].act(view, game.legal_actions(state, seat), rng)
            state, events = game.apply(state, seat, action)
        for x, bot in enumerate(bots):
            bot.observe([e for e in events if e.visible_to(x)])
        if playouts_left and state.phase == "play" and state.follow_up is None:
            playouts_left = False
            sim = S.Sim(state)
            hands = np.array([list(state.hands)] * 2, dtype=np.int64)
            S.playouts(sim, hands, sim.legal_moves()[:2], seed=1)


SEARCH = Native("daifugo search", _build_search)
"""The compiled code of the ``montecarlo`` and ``ismcts`` bots (:mod:`dennou.core.native`)."""


__all__ = ["SEARCH", "IsmctsBot"]
