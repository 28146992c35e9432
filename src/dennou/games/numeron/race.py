"""Numeron bots that play the optimal calling strategy and race the opponent: ``optimal``, ``race``.

Rules: ``docs/games/numeron.md``. Both bots act on the view alone. Each decision rebuilds
the two candidate sets with :func:`~dennou.games.numeron.knowledge.knowledge`: ``S``, the numbers
the opponent may hold (what this seat has learnt), and ``S'``, the numbers the opponent may think
this seat holds (what the opponent has learnt: the same public log read from the other side).

**Calls.** ``optimal`` minimises the expected number of calls: while ``S`` is a node of the
shipped optimal strategy (:func:`dennou.games.numeron.plain.tree`, 3 and 4 digits; calls are
relabelled by a digit permutation drawn each game so the bot is not predictable: renaming digits
changes no judgment, so each game follows an optimal strategy, and as a uniform permutation sends
any secret to a uniform one, the expected calls are the optimum for every secret), it makes the
tree's call; otherwise (after items, or 5 digits) the exact search for small sets and the
``solver``'s call chooser for large ones. Only those searches (and the race's scoring, and the
items' model) run compiled code: following the tree needs NumPy alone
(:mod:`dennou.games.numeron.plain`), so a new process's first decisions never wait for Numba.

``race`` maximises the chance to hit before the opponent does. With ``Q(j)``, the chance that the
opponent needs at least ``j`` more calls (from the distribution of calls left for ``S'``), and
``f_P(j)``, the chance that this seat needs ``j`` more calls after a call leaves part ``P``, the
chance to win with call ``g`` now is::

    P(win | g) = ([g in S] Q(1) + sum over parts P of |P| sum_j f_P(j) Q(1 + j)) / |S|

(this seat calls now; the opponent's ``j``-th call comes before this seat's ``j + 1``-th). The
candidates are the tree's call, the calls with the best estimated totals and the members of
``S``; parts' distributions come from the tree, an exact solve of the part, or the average
distribution of tree nodes of that size. When the opponent is far from its number ``Q`` is flat
and the race call is the optimal call; when the opponent is close it goes for a hit.

**Items** (4 and 5 digits; :mod:`dennou.games.numeron.items`): each option is valued by the same
race model, in win probability, and used when it beats keeping the item by more than a margin
tuned by measured win rate (``bench/numeron_race.py``).
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, Literal

import numpy as np
import numpy.typing as npt
from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON, Seat
from dennou.core.native import Native
from dennou.games.numeron.actions import Call, Decline, NoItem, Reveal, SetNumber
from dennou.games.numeron.calls import MAX_CALLS, book, size_model, survival
from dennou.games.numeron.items import choose_attack, choose_defence
from dennou.games.numeron.knowledge import Candidates, knowledge
from dennou.games.numeron.plain import best_reveal, codes, hit_code, play_on, relabel_rank
from dennou.games.numeron.state import all_numbers

if TYPE_CHECKING:
    from dennou.games.numeron.optimum import Search
    from dennou.games.numeron.solver import CallChooser

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

MEMO_LIMIT = 2_000_000
"""Exact solutions kept across games before the shared memo starts afresh."""


@cache
def _searches(digits: int) -> Search:
    from dennou.games.numeron.optimum import Search

    return Search(digits)


def shared_search(digits: int) -> Search:
    """One exact search per length, shared by every game of the process.

    Its memo holds the exact solutions of sets, which do not depend on the game.
    """
    from dennou.games.numeron.optimum import memo_clear, memo_size

    search = _searches(digits)
    if memo_size(search.memo) + memo_size(search.lower) > MEMO_LIMIT:
        memo_clear(search.memo)
        memo_clear(search.lower)
    return search


@cache
def native(digits: int) -> Native:
    """The ``race`` and ``optimal`` bots' compiled code and book for ``digits`` (:func:`warm`)."""
    return Native(f"numeron race ({digits} digits)", lambda: warm(digits))


def warm(digits: int) -> None:
    """Compile (or load) the search kernels and build the book's model of sets off the tree."""
    from dennou.games.numeron.optimum import Race
    from dennou.games.numeron.solver import warm_up

    warm_up(digits)
    found = book(digits)
    if found is not None:
        found.by_size  # noqa: B018 - builds the cached model
    if digits <= 4:
        search = shared_search(digits)
        search.solve(np.arange(3, dtype=np.int64))
        search.call_for(np.arange(3, dtype=np.int64))  # compiles the memo look-up
        Race(digits, np.linspace(1.0, 0.0, MAX_CALLS + 2)).best(np.arange(5, dtype=np.int64))


# --- the planner: calls -------------------------------------------------------------------
class Planner:
    """Chooses calls for one game: the tree, exact search, then the heuristic chooser.

    Only the tree needs no compiled code (:meth:`needs_search` says when a call does): the
    search and the chooser are made when first used.

    Args:
        digits: Length of the numbers.
        rng: Draws the digit relabelling of the game.
        relabel: Whether to relabel at all.
        exact_max: Off the tree, sets up to this size are solved exactly.
        race_max: The race objective looks at sets up to this size (larger: optimal call).
        race_calls: Calls (besides the tree's and the candidates') the race scores.
    """

    def __init__(
        self,
        digits: int,
        rng: random.Random,
        *,
        relabel: bool = True,
        exact_max: int = 40,
        race_max: int = 60,
        race_calls: int = 12,
        race_exact: int = 60,
        race_dp: int = 0,
        race_budget: int = 20000,
    ) -> None:
        self.digits = digits
        self.size = len(all_numbers(digits))
        self.book = book(digits)
        self.perm: IntArray = (
            relabel_rank(digits, rng) if relabel else np.arange(self.size, dtype=np.int64)
        )
        self.inverse = np.empty_like(self.perm)
        self.inverse[self.perm] = np.arange(self.size)
        self._chooser: CallChooser | None = None
        self.exact_max = exact_max
        self.race_max = race_max
        self.race_calls = race_calls
        self.race_exact = race_exact
        self.race_dp = race_dp
        self.race_budget = race_budget
        self._search: Search | None = None

    @property
    def chooser(self) -> CallChooser:
        """The heuristic chooser (compiled code; sets off the tree too large to solve)."""
        if self._chooser is None:
            from dennou.games.numeron.solver import CallChooser

            self._chooser = CallChooser(self.digits, rank=self.perm)
        return self._chooser

    @property
    def search(self) -> Search | None:
        """The exact search shared by the process (compiled code; ``None`` with 5 digits)."""
        if self._search is None and self.digits <= 4:
            self._search = shared_search(self.digits)
        return self._search

    def needs_search(self, cands: IntArray, objective: str = "calls") -> bool:
        """Whether choosing a call for ``cands`` runs compiled code (off the tree, or a race)."""
        n = len(cands)
        if objective == "win" and 1 < n <= self.race_max:
            return True
        return n > 2 and self.tree_node(cands) is None

    def __deepcopy__(self, memo: dict[int, Any]) -> Planner:
        # The book and the exact search are shared, read-mostly caches: copies share them.
        other = Planner.__new__(Planner)
        for key, value in self.__dict__.items():
            shared = key in ("book", "_search")
            other.__dict__[key] = value if shared else copy.deepcopy(value, memo)
        return other

    # -- canonical form (the tree is stored unrelabelled) --
    def canonical(self, cands: IntArray) -> IntArray:
        """The set as the unrelabelled tree sees it (sorted indices)."""
        return np.sort(self.inverse[cands])

    def tree_node(self, cands: IntArray) -> int | None:
        """The tree node whose set is ``cands`` (actual indices), if any."""
        if self.book is None:
            return None
        return self.book.node_of(self.canonical(cands))

    # -- the optimal call --
    def optimal_call(self, cands: IntArray, rng: random.Random) -> int:
        """The call (actual index) minimising the expected calls."""
        n = len(cands)
        if n == 0:
            return int(self.perm[0])
        if n <= 2:
            return int(cands[np.argmin(self.inverse[cands])])
        node = self.tree_node(cands)
        if node is not None and self.book is not None:
            return int(self.perm[self.book.tree.calls[node]])
        if self.search is not None and n <= self.exact_max:
            canon = self.canonical(cands)
            self.search.solve(canon)
            return int(self.perm[self.search.call_for(canon)])
        mask = np.zeros(self.size, dtype=np.bool_)
        mask[cands] = True
        return self.chooser.choose(mask, rng)

    def distribution(self, cands: IntArray, exact: int | None = None) -> FloatArray:
        """Counts of this seat's numbers hit with the ``j``-th call from now (optimal play).

        From the tree when the set is one of its nodes, else by solving sets of up to
        ``exact`` numbers (default ``exact_max``), else the size model.
        """
        n = len(cands)
        out = np.zeros(MAX_CALLS + 1)
        if n == 0:
            return out
        if n == 1:
            out[1] = 1.0
            return out
        if n == 2:
            out[1:3] = 1.0
            return out
        node = self.tree_node(cands)
        if node is not None and self.book is not None:
            found: FloatArray = self.book.dist(node, self.canonical(cands)).astype(np.float64)
            return found
        if self.search is not None and n <= (self.exact_max if exact is None else exact):
            canon = self.canonical(cands)
            self.search.solve(canon)
            return self._walk(canon)
        return size_model(self.digits, n) * n

    def depth_of(self, cands: IntArray, x: int) -> int | None:
        """Calls an optimal strategy for ``cands`` needs to hit ``x`` (``None``: not solved)."""
        n = len(cands)
        if n > self.exact_max or self.search is None:
            return None
        canon = self.canonical(cands)
        target = np.array([self.inverse[x]], dtype=np.int64)
        hit = hit_code(self.digits)
        self.search.solve(canon)
        s, depth = canon, 1
        while depth <= MAX_CALLS:
            call = self.search.call_for(s)
            code = codes(self.digits, call, target)[0]
            if code == hit:
                return depth
            s = s[codes(self.digits, call, s) == code]
            depth += 1
        return MAX_CALLS

    def _walk(self, canon: IntArray) -> FloatArray:
        """The depth distribution of the search's (solved) strategy on ``canon``."""
        assert self.search is not None
        hit = hit_code(self.digits)
        out = np.zeros(MAX_CALLS + 1)
        stack: list[tuple[IntArray, int]] = [(canon, 1)]
        while stack:
            s, depth = stack.pop()
            if depth > MAX_CALLS:
                out[MAX_CALLS] += len(s)
                continue
            if len(s) == 1:
                out[depth] += 1
                continue
            call = self.search.call_for(s)
            got = codes(self.digits, call, s)
            for r in np.unique(got):
                part = s[got == r]
                if r == hit:
                    out[depth] += 1
                else:
                    stack.append((part, depth + 1))
        return out

    def survival_of(self, theirs: IntArray) -> FloatArray:
        """``Q[j]`` for an opponent with candidates ``theirs`` for this seat's number."""
        if len(theirs) == 0:
            theirs = np.arange(self.size, dtype=np.int64)
        if len(theirs) <= self.race_max:
            return survival(self.distribution(theirs))
        return survival(size_model(self.digits, len(theirs)))

    def choose(
        self,
        mine: IntArray,
        theirs: IntArray,
        objective: str,
        rng: random.Random,
        deadline: float,
        *,
        second_of_double: bool = False,
    ) -> int:
        """The call for candidates ``mine`` against an opponent with ``theirs`` for this seat.

        ``objective``: ``calls`` or ``win``; ``second_of_double``: this is the second call of a
        DOUBLE (it too comes before the opponent's next call).
        """
        if len(mine) == 0:
            mine = np.arange(self.size, dtype=np.int64)
        if objective == "calls" or not 1 < len(mine) <= self.race_max:
            return self.optimal_call(mine, rng)  # the race call of a large set is the optimal
        q = self.survival_of(theirs)
        if second_of_double:
            q = np.concatenate([[1.0], q[:-1]])
        return self.race_call(mine, q, rng, deadline)[0]

    # -- the race call --
    def race_call(
        self, cands: IntArray, q: FloatArray, rng: random.Random, deadline: float
    ) -> tuple[int, float]:
        """The call maximising the chance to hit first, and that chance.

        ``q[j]``: the chance that the opponent needs at least ``j`` more calls (``q[0] = 1``).
        """
        best = self.optimal_call(cands, rng)
        n = len(cands)
        if n <= 1 or n > self.race_max:
            return best, float("nan")
        if self.digits <= 4 and n <= self.race_dp:
            # Small sets: the exact race (every later call chosen for the race too).
            from dennou.games.numeron.optimum import Race

            race = Race(self.digits, q[: MAX_CALLS + 2], budget=self.race_budget)
            call, value = race.best(self.canonical(cands))
            if call >= 0:
                return int(self.perm[call]), value / n
        pool = self._race_pool(cands, best)
        incand = np.zeros(self.size, dtype=np.bool_)
        incand[cands] = True
        hit = hit_code(self.digits)
        shift = np.zeros(MAX_CALLS + 1)
        shift[: MAX_CALLS + 1] = q[1 : MAX_CALLS + 2]  # weight of "hit with the j-th call after"
        values: list[float] = []
        for g in pool:
            if time.perf_counter() > deadline and values:
                break
            got = codes(self.digits, int(g), cands)
            v = float(q[1]) if incand[g] else 0.0
            for r in np.unique(got):
                if r == hit:
                    continue
                part = cands[got == r]
                d = self.distribution(part, self.race_exact)
                # Hit with the part's j-th call = this seat's (1 + j)-th call: weight Q(1 + j).
                v += float(d[1:] @ q[2 : MAX_CALLS + 2])
            values.append(v / n)
        i = int(np.argmax(np.array(values) + 1e-12 * (pool[: len(values)] == best)))
        return int(pool[i]), values[i]

    def _race_pool(self, cands: IntArray, best: int) -> IntArray:
        """The calls the race scores: the optimal call, the best by estimate, the candidates."""
        from dennou.games.numeron.solver import score_calls

        everything = np.arange(self.size, dtype=np.int64)
        if self.digits > 4:
            others = cands[: self.race_calls * 4]
        else:
            scores = score_calls(self.digits, everything, cands, "calls")
            others = np.argsort(scores, kind="stable")[: self.race_calls]
        own = cands
        if len(own) > 64:
            scores_own = score_calls(self.digits, own, cands, "calls")
            own = own[np.argsort(scores_own, kind="stable")[:64]]
        pool = np.unique(np.concatenate([[best], others, own]).astype(np.int64))
        # The optimal call first: with equal values it is kept.
        return np.concatenate([[best], pool[pool != best]])


def opponent_survival(view: JSON, planner: Planner) -> FloatArray:
    """``Q[j]``: the chance that the opponent needs at least ``j`` more calls.

    From the opponent's candidate set for this seat's number (public log, read from its side):
    its calls left are modelled as an optimal player's, over the numbers it cannot rule out.
    """
    digits = view["rules"]["digits"]
    theirs: Candidates = knowledge(view["log"], digits, view["seat"])
    return planner.survival_of(np.flatnonzero(theirs.mask).astype(np.int64))


# --- the bots -----------------------------------------------------------------------------
class RaceBot(Bot):
    """The ``race`` bot (see the module docstring).

    Args:
        objective: ``win`` (race the opponent) or ``calls`` (fewest expected calls).
        items: Use items (with 4 and 5 digits).
        relabel: Relabel the digits each game (unpredictable, same strength).
        budget_ms: Thinking time per decision, in milliseconds (the race stops scoring calls
            past it and keeps the best so far; the host's clock is far longer).
        keep: How much win probability an attack item must add, beyond using nothing now, to
            be used (what keeping it for later is worth; tuned by ``bench/numeron_race.py``).
        guard: The same for a defence item.
    """

    name = "race"

    def __init__(
        self,
        objective: Literal["win", "calls"] = "win",
        items: bool = True,
        relabel: bool = True,
        budget_ms: Annotated[float, Meta(gt=0, le=60_000)] = 2000.0,
        keep: Annotated[float, Meta(ge=0, le=1)] = 0.01,
        guard: Annotated[float, Meta(ge=0, le=1)] = 0.01,
    ) -> None:
        self.objective = objective
        self.items = items
        self.relabel = relabel
        self.budget_ms = budget_ms
        self.keep = keep
        self.guard = guard
        self.seat: Seat | None = None
        self.planner: Planner | None = None

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """Start a game; the compiled code loads in the background while the tree decides.

        With 3 or 4 digits the first decisions (the secret, the calls on the shipped tree) need
        no compiled code, so its load (:func:`native`) starts on a background thread and the
        first decision that searches waits for it (``wait`` mode) or plays on (``play-on``).
        With 5 digits (no tree) every call searches: ``wait`` mode loads it now.
        """
        self.seat = seat
        self.planner = None
        digits = getattr(rules, "digits", None)
        if isinstance(digits, int) and 3 <= digits <= 5:
            if book(digits) is None:
                native(digits).prepare()
            else:
                native(digits).start()

    def plan(self, digits: int, rng: random.Random) -> Planner:
        """This game's planner (built at the first decision, which draws the relabelling)."""
        if self.planner is None or self.planner.digits != digits:
            self.planner = Planner(digits, rng, relabel=self.relabel)
        return self.planner

    @staticmethod
    def searchable(digits: int) -> bool:
        """Whether a decision may run the compiled code now (``wait`` mode: after its load)."""
        code = native(digits)
        if not code.ready():
            return False  # play-on: still loading
        code.build()  # wait mode: join the background load (at once when it is done)
        return True

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Decide from the view alone."""
        deadline = time.perf_counter() + self.budget_ms / 1000.0
        digits = view["rules"]["digits"]
        phase = view["phase"]
        planner = self.plan(digits, rng)
        if phase == "setup":
            pool = all_numbers(digits)
            return SetNumber(pool[rng.randrange(len(pool))])
        if phase == "call":
            return self.call(view, legal, planner, rng, deadline)
        if phase == "reveal":
            return Reveal(best_reveal(knowledge(view["log"], digits, 1 - view["seat"])))
        if phase in ("attack_item", "defence") and self.items and not self.searchable(digits):
            # The items' model (the tree's averages by size) is built with the compiled code,
            # on its thread: while it loads, no item.
            return play_on(view, legal, rng)
        if phase == "attack_item":
            if not self.items:
                return NoItem()
            action = choose_attack(view, legal, self.keep)
            return action if action in legal else NoItem()
        if phase == "defence":
            if not self.items:
                return Decline()
            action = choose_defence(view, legal, self.guard, rng)
            return action if action in legal else Decline()
        return legal[rng.randrange(len(legal))]

    def call(
        self,
        view: JSON,
        legal: Sequence[Action],
        planner: Planner,
        rng: random.Random,
        deadline: float,
    ) -> Action:
        """The call to make (by the fallback while the compiled code a search needs loads)."""
        digits = view["rules"]["digits"]
        seat = view["seat"]
        mine = np.flatnonzero(knowledge(view["log"], digits, 1 - seat).mask).astype(np.int64)
        searches = len(mine) > 0 and planner.needs_search(mine, self.objective)
        if searches and not self.searchable(digits):
            return play_on(view, legal, rng)  # compiling on a fresh install: play on
        theirs = (
            np.flatnonzero(knowledge(view["log"], digits, seat).mask).astype(np.int64)
            if self.objective == "win"
            else np.zeros(0, dtype=np.int64)  # only the race reads the opponent's side
        )
        index = planner.choose(
            mine,
            theirs,
            self.objective,
            rng,
            deadline,
            second_of_double=view["calls_left"] == 2,
        )
        return Call(all_numbers(digits)[index])


class OptimalBot(RaceBot):
    """The ``optimal`` bot: the exact expected-calls strategy (``race`` with ``objective=calls``).

    Args:
        objective: ``calls`` (default) or ``win``.
        items: Use items (with 4 and 5 digits).
        relabel: Relabel the digits each game.
        budget_ms: Thinking time per decision, in milliseconds.
        keep: See :class:`RaceBot`.
        guard: See :class:`RaceBot`.
    """

    name = "optimal"

    def __init__(
        self,
        objective: Literal["win", "calls"] = "calls",
        items: bool = True,
        relabel: bool = True,
        budget_ms: Annotated[float, Meta(gt=0, le=60_000)] = 2000.0,
        keep: Annotated[float, Meta(ge=0, le=1)] = 0.01,
        guard: Annotated[float, Meta(ge=0, le=1)] = 0.01,
    ) -> None:
        super().__init__(objective, items, relabel, budget_ms, keep, guard)
