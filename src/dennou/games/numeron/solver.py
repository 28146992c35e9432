"""The Numeron ``solver`` bot: tracks every number the opponent may hold and calls to split them.

Rules: ``docs/games/numeron.md``. The bot acts only on its view (``Bot.act(view, legal,
rng)``). Each decision it rebuilds, with :func:`~dennou.games.numeron.knowledge.knowledge`, the
set of numbers consistent with the public log as this seat saw it: judgments, its own attack
items' results, the digits the opponent revealed for its DOUBLE, and the opponent's defence items
(SHUFFLE, CHANGE, MOVE widen the set). Then:

* **Calls** minimise the expected information left: the score of a call is
  ``sum_r c_r log c_r`` over the sizes ``c_r`` of the candidates giving each judgment ``r`` (the
  all-EAT judgment costs nothing), so a candidate wins ties. The best ``lookahead`` calls are
  re-scored one level deeper with a fitted estimate of the calls still needed after each reply.
  With 3 or 4 digits every judgment comes from a precomputed ``N x N`` table (5040 x 5040 bytes
  for 4 digits); with 5 digits judgments are computed on the fly and, when the sets are large,
  calls and candidates are sampled.
* **Attack items** are used when they lower the estimated calls still needed by more than what
  the item is worth kept for later (DOUBLE is charged for the digit it reveals).
* **Defence items** are used when the opponent, seen through the same knowledge module from its
  side, is close: few candidates for this seat's number. The bot picks the item and announcement
  that leave the opponent the most candidates, and a new number the opponent did not expect.
* **DOUBLE's reveal** (the opponent used DOUBLE): the position of the opponent's number that
  splits this seat's candidates for it the most.

The fast paths are Numba kernels behind :func:`score_calls` (a batch of calls against a set of
candidates); ``tests/games/numeron/test_solver.py`` keeps a plain-Python oracle for them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt
from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON, Seat
from dennou.core.native import Native
from dennou.games.numeron.actions import (
    Call,
    Change,
    Decline,
    Double,
    HighLow,
    Move,
    NoItem,
    Reveal,
    SetNumber,
    Shuffle,
    Slash,
    Target,
)
from dennou.games.numeron.knowledge import digit_matrix, digit_sets, index_of, knowledge
from dennou.games.numeron.plain import (
    SEARCHING,
    best_reveal,
    hit_code,
    item_partition,
    new_number,
    play_on,
    relabel_rank,
)
from dennou.games.numeron.state import all_numbers

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

TABLE_DIGITS = 4
"""Up to this many digits, judgments come from a precomputed table."""

# Fitted by least squares on the solver's own trees (total calls ~ n (a + b ln n) for a set of
# n candidates); used only to compare the subtrees of the lookahead.
_FIT = {3: (0.746, 0.649), 4: (0.731, 0.5305), 5: (0.72, 0.45)}


# --- judging (the kernels: dennou.games.numeron.kernels, imported when first used) ------
@cache
def _arrays(digits: int) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    return digit_matrix(digits).astype(np.int8), digit_sets(digits).astype(np.int64)


@cache
def judge_table(digits: int) -> npt.NDArray[np.uint8]:
    """Judgment codes ``EAT * (digits + 1) + BITE`` of every call (row) on every number (column).

    Only for 3 and 4 digits (4 digits: 5040 x 5040 bytes).
    """
    if digits > TABLE_DIGITS:
        raise ValueError(f"no judgment table for {digits} digits (too large); judge on the fly")
    from dennou.games.numeron.kernels import codes_table

    t, m = _arrays(digits)
    out: npt.NDArray[np.uint8] = codes_table(t, m)
    return out


def judgment_codes(digits: int, call: int, cands: IntArray) -> npt.NDArray[np.uint8]:
    """The judgment code of the call with index ``call`` on each number in ``cands``."""
    out: npt.NDArray[np.uint8]
    if digits <= TABLE_DIGITS:
        out = judge_table(digits)[call][cands]
        return out
    from dennou.games.numeron.kernels import codes_fly

    t, m = _arrays(digits)
    out = codes_fly(t, m, call, cands)
    return out


@cache
def _weights(digits: int, kind: str) -> FloatArray:
    n = len(all_numbers(digits))
    c = np.arange(n + 1, dtype=np.float64)
    if kind == "entropy":
        h = c * np.log(np.maximum(c, 1.0))
    else:  # "calls": estimated total calls to finish a set of c candidates
        a, b = _FIT[digits]
        h = c * (a + b * np.log(np.maximum(c, 1.0)))
        h[1], h[2] = 1.0, 3.0
    h[0] = 0.0
    return h


def score_calls(digits: int, calls: IntArray, cands: IntArray, kind: str = "entropy") -> FloatArray:
    """Batch score of each call in ``calls`` (indices) against the candidates ``cands``.

    The score is ``sum_r w(c_r)`` over the judgments ``r`` other than all-EAT, where ``c_r`` is
    how many candidates give judgment ``r``; ``kind`` picks ``w``: ``"entropy"`` (``c ln c``) or
    ``"calls"`` (the fitted number of calls a set of ``c`` still needs). Lower is better.
    """
    h = _weights(digits, kind)
    hit, nresp = hit_code(digits), (digits + 1) ** 2
    calls = np.ascontiguousarray(calls, dtype=np.int64)
    cands = np.ascontiguousarray(cands, dtype=np.int64)
    from dennou.games.numeron.kernels import scores

    t, m = _arrays(digits)
    out: FloatArray = scores(_table_or_dummy(digits), t, m, calls, cands, h, hit, nresp)
    return out


def lookahead_values(digits: int, tops: IntArray, cands: IntArray, pool: IntArray) -> FloatArray:
    """Batch one-level lookahead: the estimated total calls to finish ``cands`` per call.

    For each call in ``tops``: the calls if it is made now and every part it leaves then gets
    its best call from ``pool`` (scored by the fitted estimate of calls still needed).
    """
    from dennou.games.numeron.kernels import deeper

    t, m = _arrays(digits)
    out: FloatArray = deeper(
        _table_or_dummy(digits),
        t,
        m,
        np.ascontiguousarray(tops, dtype=np.int64),
        np.ascontiguousarray(cands, dtype=np.int64),
        np.ascontiguousarray(pool, dtype=np.int64),
        _weights(digits, "calls"),
        hit_code(digits),
        (digits + 1) ** 2,
    )
    return out


def _table_or_dummy(digits: int) -> npt.NDArray[np.uint8]:
    if digits <= TABLE_DIGITS:
        return judge_table(digits)
    return np.zeros((1, 1), dtype=np.uint8)


# --- choosing calls -----------------------------------------------------------------------
def _partition(digits: int, call: int, cands: IntArray) -> list[IntArray]:
    codes = judgment_codes(digits, call, cands)
    hit = hit_code(digits)
    return [cands[codes == r] for r in np.unique(codes) if r != hit]


class CallChooser:
    """Chooses the call that splits a candidate set best (see the module docstring).

    Args:
        digits: Length of the numbers.
        lookahead: How many of the best calls to re-score one level deeper (0: none).
        lookahead_max: Re-score only when at most this many candidates remain (time bound).
        sample: Score against at most this many candidates (a uniform sample beyond).
        calls: With 5 digits, score at most this many calls (candidates first, then others).
        rank: Tie-break order of the numbers (lower first); default: increasing order.
    """

    def __init__(
        self,
        digits: int,
        *,
        lookahead: int = 8,
        lookahead_max: int | None = None,
        sample: int = 2000,
        calls: int = 3000,
        rank: IntArray | None = None,
    ) -> None:
        self.digits = digits
        self.size = len(all_numbers(digits))
        self.lookahead = lookahead
        self.lookahead_max = (
            lookahead_max if lookahead_max is not None else {3: 720, 4: 120, 5: 200}[digits]
        )
        self.sample = sample
        self.calls = calls
        self.rank: IntArray = rank if rank is not None else np.arange(self.size, dtype=np.int64)
        self._all: IntArray = np.arange(self.size, dtype=np.int64)

    def _call_pool(self, cands: IntArray, rng: random.Random) -> IntArray:
        if self.digits <= TABLE_DIGITS or self.size <= self.calls:
            return self._all
        # Candidates first (they can win at once), then a random spread of other numbers.
        gen = np.random.default_rng(rng.getrandbits(64))
        k = min(len(cands), self.calls // 2)
        own = cands if len(cands) == k else gen.choice(cands, k, replace=False)
        others = gen.choice(self.size, self.calls - k, replace=False)
        return np.unique(np.concatenate([own, others]))

    def _sampled(self, cands: IntArray, rng: random.Random) -> IntArray:
        if len(cands) <= self.sample:
            return cands
        gen = np.random.default_rng(rng.getrandbits(64))
        return np.sort(gen.choice(cands, self.sample, replace=False))

    def _best(self, scores: FloatArray, pool: IntArray, incand: npt.NDArray[np.bool_]) -> int:
        # Prefer candidates, then the tie-break rank; exact float ties are common.
        best = scores.min()
        tied = pool[scores <= best + 1e-9 * max(1.0, abs(best))]
        in_tied = tied[incand[tied]]
        if len(in_tied):
            tied = in_tied
        return int(tied[np.argmin(self.rank[tied])])

    def choose(self, mask: npt.NDArray[np.bool_], rng: random.Random | None = None) -> int:
        """The index (into ``all_numbers(digits)``) of the call to make.

        Args:
            mask: Which numbers are still possible.
            rng: For sampling (5 digits, or sets larger than ``sample``); default: seeded 0.
        """
        rng = rng if rng is not None else random.Random(0)
        cands = np.flatnonzero(mask).astype(np.int64)
        n = len(cands)
        if n == 0:
            return int(np.argmin(self.rank))
        if n <= 2:
            return int(cands[np.argmin(self.rank[cands])])
        if n == self.size:
            # Every first call is the same up to relabelling digits and positions.
            return int(np.argmin(self.rank))
        incand = mask
        scored = self._sampled(cands, rng)
        pool = self._call_pool(cands, rng)
        scores = score_calls(self.digits, pool, scored) - incand[pool] * 1e-6
        if self.lookahead <= 0 or n > self.lookahead_max or len(scored) < n:
            return self._best(scores, pool, incand)
        top = pool[np.argsort(scores, kind="stable")[: self.lookahead]]
        values = lookahead_values(self.digits, top, cands, pool) - incand[top] * 1e-6
        return self._best(values, top, incand)


def estimated_calls(digits: int, n: int) -> float:
    """Fitted estimate of the calls needed to hit a secret among ``n`` candidates."""
    if n <= 1:
        return float(n)
    return float(_weights(digits, "calls")[n]) / n


# --- the bot --------------------------------------------------------------------------------
class SolverBot(Bot):
    """Candidate-tracking Numeron bot (see the module docstring).

    Args:
        lookahead: Best calls re-scored one level deeper (0: greedy entropy only).
        sample: Candidates scored at most (uniform sample beyond).
        calls: With 5 digits, calls scored at most per decision.
        items: Whether to use items at all.
        defend: Use a defence item when the opponent has at most this many candidates for this
            seat's number (0: never).
        relabel: Break ties by a random relabelling of digits drawn each game, so the bot's
            calls are not predictable (its strength is the same for every relabelling).
    """

    name = "solver"

    def __init__(
        self,
        lookahead: Annotated[int, Meta(ge=0, le=64)] = 8,
        sample: Annotated[int, Meta(ge=1, le=30_240)] = 2000,
        calls: Annotated[int, Meta(ge=1, le=30_240)] = 3000,
        items: bool = True,
        defend: Annotated[int, Meta(ge=0, le=30_240)] = 12,
        relabel: bool = True,
    ) -> None:
        self.lookahead = lookahead
        self.sample = sample
        self.calls = calls
        self.items = items
        self.defend = defend
        self.relabel = relabel
        self.seat: Seat | None = None
        self._chooser: CallChooser | None = None

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """Start a new game (the relabelling is drawn at the first decision).

        The kernels and the judgment table load now (``wait`` mode) or on a background thread
        (``play-on``, :mod:`dennou.core.native`); this module imports no Numba itself.
        """
        self.seat = seat
        self._chooser = None
        digits = getattr(rules, "digits", None)
        if isinstance(digits, int) and 3 <= digits <= 5:
            native(digits).prepare()

    # -- helpers --
    def chooser(self, digits: int, rng: random.Random) -> CallChooser:
        """This game's call chooser (built at the first decision)."""
        if self._chooser is None or self._chooser.digits != digits:
            rank = relabel_rank(digits, rng) if self.relabel else None
            self._chooser = CallChooser(
                digits,
                lookahead=self.lookahead,
                sample=self.sample,
                calls=self.calls,
                rank=rank,
            )
        return self._chooser

    @staticmethod
    def searches(view: JSON) -> bool:
        """Whether this decision runs compiled code.

        Not a call with every number possible: every call splits them alike, and the chooser's
        tie-break picks one without scoring.
        """
        if view["phase"] != "call":
            return True
        theirs = knowledge(view["log"], view["rules"]["digits"], 1 - view["seat"])
        return 0 < theirs.count < len(theirs.mask)

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Decide from the view alone."""
        seat = view["seat"]
        digits = view["rules"]["digits"]
        phase = view["phase"]
        if phase in SEARCHING and self.searches(view) and not native(digits).ready():
            return play_on(view, legal, rng)  # compiling on a fresh install: play on
        chooser = self.chooser(digits, rng)
        if phase == "setup":
            pool = all_numbers(digits)
            return SetNumber(pool[rng.randrange(len(pool))])
        opponent = 1 - seat
        if phase == "call":
            theirs = knowledge(view["log"], digits, opponent)
            mask = theirs.mask if theirs.count else np.ones_like(theirs.mask)
            return Call(all_numbers(digits)[chooser.choose(mask, rng)])
        if phase == "reveal":
            theirs = knowledge(view["log"], digits, opponent)
            return Reveal(best_reveal(theirs))
        if phase == "attack_item":
            if not self.items:
                return NoItem()
            action = choose_attack_item(view, legal, chooser, rng)
            return action if action in legal else NoItem()
        if phase == "defence":
            if not self.items or self.defend <= 0:
                return Decline()
            action = choose_defence(view, legal, self.defend, rng)
            return action if action in legal else Decline()
        return legal[rng.randrange(len(legal))]


@cache
def native(digits: int) -> Native:
    """The ``solver`` bot's compiled code for ``digits`` (:func:`warm_up` builds it)."""
    return Native(f"numeron solver ({digits} digits)", lambda: warm_up(digits))


@cache
def warm_up(digits: int) -> None:
    """Compile the Numba kernels and build the judgment table for ``digits`` (once)."""
    few = np.arange(6, dtype=np.int64)
    score_calls(digits, few, few)
    score_calls(digits, few, few, "calls")
    lookahead_values(digits, few[:2], few, few)
    judgment_codes(digits, 0, few)


KEEP = 0.15
"""What keeping an item for later is worth, in calls: a use now must save more than this."""
ITEM_SAMPLE = 400
"""Candidates sampled to score attack items."""
ITEM_POOL = 200
"""Calls sampled to score attack items."""


def choose_attack_item(
    view: JSON, legal: Sequence[Action], chooser: CallChooser, rng: random.Random
) -> Action:
    """The attack item (or none) that most lowers the estimated calls still needed.

    Every option is scored as the expected estimated calls left after this turn's item and
    call(s), each call picked from one sample of calls against a sample of the candidates (so
    the decision stays within a few milliseconds). DOUBLE is charged what its reveal is worth
    to the opponent; any item must save more than :data:`KEEP` calls, its worth kept for later.
    """
    digits = view["rules"]["digits"]
    theirs = knowledge(view["log"], digits, 1 - view["seat"])
    cands = np.flatnonzero(theirs.mask).astype(np.int64) if theirs.count else chooser._all
    if len(cands) <= 1:
        return NoItem()
    gen = np.random.default_rng(rng.getrandbits(64))
    if len(cands) > ITEM_SAMPLE:
        cands = np.sort(gen.choice(cands, ITEM_SAMPLE, replace=False))
    own = cands if len(cands) <= ITEM_POOL // 2 else gen.choice(cands, ITEM_POOL // 2, False)
    pool = np.unique(np.concatenate([own, gen.choice(chooser.size, ITEM_POOL // 2, False)]))
    incand = np.zeros(chooser.size, dtype=np.bool_)
    incand[cands] = True
    bonus = incand[pool] * 1e-6
    total = len(cands)

    def after_call(part: IntArray) -> float:
        """Estimated calls still needed, summed over ``part``, after its best call now."""
        if len(part) <= 1:
            return 0.0
        return float((score_calls(digits, pool, part, "calls") - bonus).min())

    best: tuple[float, Action] = (after_call(cands) / total, NoItem())
    for action in legal:
        if isinstance(action, HighLow | Slash | Target):
            value = sum(after_call(p) for p in item_partition(digits, action, cands)) / total
            if value + KEEP < best[0]:
                best = (value, action)
        elif isinstance(action, Double):
            # Two calls: the first as usual, the second after its judgment.
            first = int(pool[np.argmin(score_calls(digits, pool, cands) - bonus)])
            value = sum(after_call(p) for p in _partition(digits, first, cands)) / total
            value += reveal_cost(view)
            if value + KEEP < best[0]:
                best = (value, action)
    return best[1]


def reveal_cost(view: JSON) -> float:
    """Calls the opponent saves, by the estimate, from seeing one of this seat's digits."""
    digits = view["rules"]["digits"]
    seat = view["seat"]
    mine = knowledge(view["log"], digits, seat)
    n = mine.count
    if n <= 1:
        return 0.0
    t = digit_matrix(digits)[mine.mask]
    before = estimated_calls(digits, n)
    worst = 0.0
    for p in range(digits):
        counts = np.bincount(t[:, p], minlength=10)
        after = sum(c / n * estimated_calls(digits, int(c)) for c in counts if c)
        worst = max(worst, before - after)
    return worst


def choose_defence(
    view: JSON, legal: Sequence[Action], threshold: int, rng: random.Random
) -> Action:
    """A defence item when the opponent is close to this seat's number, else decline.

    The opponent's candidates for this seat's number are rebuilt from the view with the seat
    perspective swapped. Among the legal defence moves, the bot takes the announcement that
    widens the opponent's set the most, then a new number outside the opponent's old set.
    """
    digits = view["rules"]["digits"]
    seat = view["seat"]
    mine = knowledge(view["log"], digits, seat)
    if mine.count > threshold:
        return Decline()
    old = mine.mask
    index = index_of(digits)
    options: dict[tuple[Any, ...], list[Action]] = {}
    for action in legal:
        if isinstance(action, Shuffle):
            options.setdefault(("shuffle",), []).append(action)
        elif isinstance(action, Change):
            options.setdefault(("change", action.position), []).append(action)
        elif isinstance(action, Move):
            options.setdefault(("move", action.source, action.target), []).append(action)
    best: tuple[int, list[Action]] | None = None
    for key, actions in options.items():
        widened = mine.copy()
        if key[0] == "shuffle":
            widened.shuffled()
        elif key[0] == "change":
            number = view["my_number"]
            widened.changed(key[1], int(number[key[1]]) >= 5)
        else:
            widened.moved(key[1], key[2])
        if best is None or widened.count > best[0]:
            best = (widened.count, actions)
    if best is None or best[0] <= mine.count:
        return Decline()
    actions = best[1]
    fresh = [a for a in actions if not old[index[new_number(view["my_number"], a)]]]
    pool = fresh or actions
    return pool[rng.randrange(len(pool))]
