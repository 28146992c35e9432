"""A whole-game plan for the Smuggling Game: the equilibrium of an abstraction, solved backwards.

Rules: ``docs/games/smuggling.md``. The team result is decided by ``D``, the difference of
the two teams' third-country totals at the end (the leftover transfer comes after and does not
count). Each small game moves ``D`` by what the settlement moves (``settle.py``), and every
result is public, so between small games both teams know ``D`` and the number of small games
left: the game is a sequence of one-shot duels whose stakes depend on the score.

**The abstraction** (documented in ``docs/games/smuggling.md``):

* money in steps of a tenth of ``trunk_max`` (10M yen by default);
* the smuggler packs ``0, 1, ..., levels`` steps; the inspector passes or doubts ``1 .. levels``
  steps (a doubt above the largest trunk only costs more compensation, so it is left out);
* a small game moves ``D`` (for the smuggling team, in steps) by: pass ``+s``; doubt ``X`` on an
  empty trunk ``+X`` (the compensation ``X/2`` is paid by one team to the other); caught
  ``-s``; through ``s + X``;
* balances never bind (every trunk and doubt of the grid is allowed; the bots nominate the
  members with the most money, so at the default sizes they seldom do) and the payoff is the
  team result: 1 for a win, 1/2 for a draw, 0 for a loss.

``W(k, d)`` is the chance that the team which smuggles in the next small game wins, with ``k``
small games left and that team ``d`` steps ahead, when both teams play the equilibrium. Roles
alternate, so after this small game the other team smuggles next::

    W(0, d) = 1 if d > 0, 1/2 if d = 0, 0 if d < 0
    W(k, d) = value of the matrix game  M[s, X] = 1 - W(k - 1, -(d + delta(s, X)))

Each stage is a zero-sum matrix game solved exactly by linear programming (HiGHS; a saddle point
is detected first), so the strategies are a subgame-perfect equilibrium of the abstraction: the
same strategies a sequence-form LP of the whole abstract game gives, computed stage by stage.
:func:`exploitability` measures, by backward induction over the same states, how much a best
response to them gains (in win probability) over the equilibrium value.

``W`` is computed for ``|d| <= reach(k)`` (beyond it the result is settled to within 1e-9 and
the value at the edge is used) and shipped for up to :data:`SHIPPED` small games in
``plan.npz`` (``bench/smuggling_plan.py`` rebuilds it); longer games use
``W(k, d) ~ W(SHIPPED, d * sqrt(SHIPPED / k))`` (the score's spread grows like the square
root of the number of small games).
"""

from __future__ import annotations

import io
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt
from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON
from dennou.games.smuggling.actions import Doubt, Nominate, Pass, Ready, Trunk

Matrix = npt.NDArray[np.float64]
Vector = npt.NDArray[np.float64]

LEVELS = 10
"""Trunk and doubt levels in the abstraction: steps of ``trunk_max / LEVELS``."""

SHIPPED = 50
"""Small games covered by the shipped table (the default game length)."""

SPREAD = 9.0
"""Half-width, in steps per square root of a small game, beyond which ``W`` is 0 or 1."""


def delta(levels: int = LEVELS) -> npt.NDArray[np.int64]:
    """``delta[s, x]``: how far a small game moves ``D`` for the smuggling team, in steps.

    Rows: trunk ``s = 0..levels``; columns: ``x = 0`` (pass) and doubts ``1..levels``.
    """
    s = np.arange(levels + 1)[:, None]
    x = np.arange(levels + 1)[None, :]
    out = np.where(x == 0, s, np.where(s == 0, x, np.where(s <= x, -s, s + x)))
    return out.astype(np.int64)


def reach(k: int, levels: int = LEVELS) -> int:
    """How far from 0 ``W(k, .)`` is tabulated (in steps)."""
    most = (2 * levels - 1) * k  # the largest swing: through with the largest doubt below s
    return int(min(most, math.ceil(SPREAD * levels / 10 * math.sqrt(max(k, 1)) * 6)))


def matrix_value(a: Matrix) -> float:
    """The value of the zero-sum matrix game ``a`` (rows maximise)."""
    lower = float(a.min(axis=1).max())
    upper = float(a.max(axis=0).min())
    if upper - lower <= 1e-12:
        return lower
    return solve_matrix(a)[2]


def solve_matrix(a: Matrix) -> tuple[Vector, Vector, float]:
    """Both equilibrium strategies and the value of ``a`` (rows maximise), by two LPs."""
    m, n = a.shape
    # SciPy's LP solver takes a second to import: the game and its lobby listing do without it
    from scipy.optimize import linprog

    rows = linprog(
        c=np.r_[np.zeros(m), -1.0],
        A_ub=np.c_[-a.T, np.ones(n)],
        b_ub=np.zeros(n),
        A_eq=np.r_[np.ones(m), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)],
        method="highs",
    )
    cols = linprog(
        c=np.r_[np.zeros(n), 1.0],
        A_ub=np.c_[a, -np.ones(m)],
        b_ub=np.zeros(m),
        A_eq=np.r_[np.ones(n), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
        method="highs",
    )
    if rows.status != 0 or cols.status != 0:  # pragma: no cover - finite matrices always solve
        raise RuntimeError(f"linprog failed: {rows.message}; {cols.message}")
    return _clean(rows.x[:m]), _clean(cols.x[:n]), float(-rows.fun)


def restricted_response(a: Matrix, gain: Vector, weight: float) -> Vector:
    """The row strategy maximising ``weight * (x . gain) + (1 - weight) * min_j (x a)_j``.

    ``gain[i]``: what row ``i`` earns against a model of the column player. Against a column
    player who follows the model with probability ``weight`` and is otherwise an adversary:
    ``weight = 0`` is the maxmin (equilibrium) strategy, ``weight = 1`` the best response to the
    model; in between, it exploits the model while bounding its own loss.
    """
    m, n = a.shape
    from scipy.optimize import linprog  # as in solve_matrix

    res = linprog(
        c=np.r_[-weight * gain, -(1.0 - weight)],
        A_ub=np.c_[-a.T, np.ones(n)],
        b_ub=np.zeros(n),
        A_eq=np.r_[np.ones(m), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)],
        method="highs",
    )
    if res.status != 0:  # pragma: no cover
        raise RuntimeError(f"linprog failed: {res.message}")
    return _clean(res.x[:m])


def _clean(p: Vector) -> Vector:
    p = np.clip(p, 0.0, None)
    p[p < 1e-12] = 0.0
    out: Vector = p / p.sum()
    return out


@dataclass(frozen=True)
class Plan:
    """``W(k, d)`` for ``k = 0..games`` (see the module docstring).

    Attributes:
        levels: Trunk and doubt levels.
        values: ``values[k]`` holds ``W(k, d)`` for ``d = -reach(k) .. reach(k)``.
    """

    levels: int
    values: tuple[Vector, ...]

    @property
    def games(self) -> int:
        """Small games covered."""
        return len(self.values) - 1

    def w(self, k: int, d: float) -> float:
        """``W(k, d)`` with ``d`` real (linear between steps; beyond the table, its edge)."""
        return float(self.ws(k, np.array([d]))[0])

    def ws(self, k: int, d: npt.ArrayLike) -> Vector:
        """:meth:`w` for an array of ``d``."""
        d = np.asarray(d, dtype=np.float64)
        if k <= 0:
            # The end: the sign of the difference decides (off the lattice too).
            out0: Vector = np.where(d > 1e-9, 1.0, np.where(d < -1e-9, 0.0, 0.5))
            return out0
        if k > self.games:
            d = d * math.sqrt(self.games / k)
            k = self.games
        row = self.values[k]
        r = (len(row) - 1) // 2
        # Beyond the table the result is settled: 0 behind, 1 ahead.
        out: Vector = np.interp(d, np.arange(-r, r + 1, dtype=np.float64), row, 0.0, 1.0)
        return out

    def stage(self, k: int, d: float, rows: Vector, cols: Vector) -> Matrix:
        """The stage game with ``k`` small games left (this one included), ``d`` steps ahead.

        ``rows``: trunk amounts in steps; ``cols``: doubts in steps (0 = pass). Payoff: the
        smuggling team's chance to win afterwards.
        """
        s = rows[:, None]
        x = cols[None, :]
        move = np.where(x == 0, s, np.where(s == 0, x, np.where(s <= x, -s, s + x)))
        out: Matrix = 1.0 - self.ws(k - 1, -(d + move))
        return out


def build(games: int, levels: int = LEVELS, log: bool = False) -> Plan:
    """Solve the abstraction backwards for ``games`` small games (see the module docstring)."""
    move = delta(levels)
    values: list[Vector] = [np.array([0.0, 0.5, 1.0]) if games >= 0 else np.zeros(0)]
    # W(0, d): the sign of d; tabulated on -1..1 and extended flat.
    for k in range(1, games + 1):
        prev = Plan(levels, tuple(values))
        r = reach(k, levels)
        row = np.empty(2 * r + 1)
        for i, d in enumerate(range(-r, r + 1)):
            row[i] = matrix_value(1.0 - prev.ws(k - 1, -(d + move)))
        values.append(row)
        if log:
            print(f"  k = {k}: {len(row)} states", flush=True)
    return Plan(levels, tuple(values))


def exploitability(plan: Plan, games: int | None = None) -> tuple[float, float, float]:
    """How much best responses to the plan's strategies gain, by backward induction.

    Returns ``(value, smuggler_side, inspector_side)`` at the start (``d = 0``, ``games`` small
    games left): the equilibrium value ``W``, and the value a team reaches against the plan's
    strategies when it best-responds in every state where it smuggles next (resp. where the
    other team does), the plan playing on both sides otherwise. Exploitability is
    ``max(smuggler_side - value, value - inspector_side)``-like gaps, reported by the bench.
    """
    games = plan.games if games is None else games
    move = delta(plan.levels)
    # br_s[k]: value for the team that smuggles next when IT best-responds everywhere and the
    # other team plays the plan; br_i[k]: the same team's value when the OTHER team
    # best-responds everywhere. Both follow the plan's tables of states.
    br_s: list[Vector] = [plan.values[0]]
    br_i: list[Vector] = [plan.values[0]]
    for k in range(1, games + 1):
        r = (len(plan.values[k]) - 1) // 2
        row_s = np.empty(2 * r + 1)
        row_i = np.empty(2 * r + 1)
        tab_s = Plan(plan.levels, tuple(br_s))
        tab_i = Plan(plan.levels, tuple(br_i))
        for i, d in enumerate(range(-r, r + 1)):
            x, y, _ = solve_matrix(1.0 - plan.ws(k - 1, -(d + move)))
            # The best-responding team smuggles now; next small game it inspects, where its
            # value is 1 - (the other team's value when the other team is the plan... ) i.e.
            # continuation from the other side's table with the roles swapped.
            cont_s = 1.0 - tab_i.ws(k - 1, -(d + move))
            cont_i = 1.0 - tab_s.ws(k - 1, -(d + move))
            row_s[i] = float((cont_s @ y).max())  # it picks the trunk against the plan's doubt
            row_i[i] = float((x @ cont_i).min())  # the other team picks the doubt
        br_s.append(row_s)
        br_i.append(row_i)
    return (
        plan.w(games, 0.0),
        Plan(plan.levels, tuple(br_s)).w(games, 0.0),
        Plan(plan.levels, tuple(br_i)).w(games, 0.0),
    )


def save(plan: Plan) -> bytes:
    """The plan as ``.npz`` bytes."""
    buf = io.BytesIO()
    arrays: dict[str, Any] = {f"k{k}": v.astype(np.float64) for k, v in enumerate(plan.values)}
    arrays["levels"] = np.array(plan.levels)
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()


def load(data: bytes) -> Plan:
    """Inverse of :func:`save`."""
    with np.load(io.BytesIO(data)) as z:
        levels = int(z["levels"])
        k = 0
        values = []
        while f"k{k}" in z:
            values.append(np.asarray(z[f"k{k}"], dtype=np.float64))
            k += 1
    return Plan(levels, tuple(values))


@cache
def shipped() -> Plan:
    """The shipped plan (``plan.npz``), or a freshly built short one if it is missing."""
    path = resources.files("dennou.games.smuggling").joinpath("plan.npz")
    if path.is_file():
        return load(path.read_bytes())
    return build(8)  # pragma: no cover - the package ships the table


def model_values(
    k: int, smuggle_now: bool, q_doubt: Vector, q_trunk: Vector, levels: int = LEVELS
) -> list[Vector]:
    """Win chances against a team that plays fixed mixes, by backward induction (an MDP).

    ``values[m][d + r]`` (``r = (len - 1) // 2``): this team's chance to win with ``m`` small games
    left, ``d`` steps ahead, playing its best against an other team that doubts by ``q_doubt``
    and packs by ``q_trunk`` (over ``0..levels`` steps) in every small game. With ``k`` left this
    team smuggles if ``smuggle_now``; roles alternate.
    """
    move = delta(levels)
    r = min((2 * levels - 1) * max(k, 1), 60 * levels)
    grid = np.arange(-r, r + 1)
    values: list[Vector] = [np.where(grid > 0, 1.0, np.where(grid < 0, 0.0, 0.5))]
    for m in range(1, k + 1):
        smuggles = smuggle_now == ((k - m) % 2 == 0)
        prev = values[-1]
        if smuggles:
            idx = np.clip(grid[:, None, None] + move[None, :, :] + r, 0, 2 * r)
            here = (prev[idx] * q_doubt[None, None, :]).sum(axis=2).max(axis=1)
        else:
            idx = np.clip(grid[:, None, None] - move[None, :, :] + r, 0, 2 * r)
            here = (prev[idx] * q_trunk[None, :, None]).sum(axis=1).max(axis=1)
        values.append(here)
    return values


def _at(row: Vector, d: npt.ArrayLike) -> Vector:
    r = (len(row) - 1) // 2
    out: Vector = np.interp(np.asarray(d, dtype=np.float64), np.arange(-r, r + 1.0), row)
    return out


# --- the bot --------------------------------------------------------------------------------
def _team_total(view: JSON, team: str) -> int:
    return sum(view["third"][s] for s in view["teams"][team])


def _other(team: str) -> str:
    return "south" if team == "north" else "north"


class PlannerBot(Bot):
    """Plays the whole-game equilibrium of the abstraction, exploiting what it sees when it pays.

    Each decision builds the stage game for the small games left and the score ``D`` (in steps
    of ``trunk_max / 10``), with payoffs ``W`` from the shipped plan, over the grid amounts the
    balances allow (plus the exact limits), and plays:

    * with ``exploit=false``, the equilibrium mix of that stage (a subgame-perfect equilibrium
      strategy of the abstraction: it maximises the chance to win, not the expected money,
      so it takes risks when behind and avoids them when ahead);
    * with ``exploit=true`` (default), once the other team has made the same choice (to the
      nearest step) in at least ``purity`` of its last ``window`` small games in the opposite
      role (and at least ``min_seen`` of them), the *restricted response*: the mix that is best
      against an other team that follows its model (a Dirichlet over its choices, prior: the
      stage equilibrium) with probability ``trust`` and is otherwise an adversary, each option
      valued by the chance to win when the model also plays every later small game
      (:func:`model_values`, an MDP solved backwards). Against a mixed or changing team it keeps
      the equilibrium: best-responding to one makes this bot predictable, and an adaptive team
      punishes that.

    Nominations: the member with the most home money smuggles, the one with the most
    third-country money inspects (every member computes the same from public information).

    Args:
        exploit: Exploit the other team's observed play (see above).
        prior: Pseudo-observations of the stage equilibrium in the model.
        trust: The weight of the model in the restricted response.
        window: How many of the other team's latest small games in the role the model uses.
        min_seen: Choices to see before exploiting.
        purity: Share of its most frequent choice above which a team counts as predictable.
        budget_ms: Thinking budget per decision (each decision solves one small LP, a few
            milliseconds; above the budget the bot plays the last equilibrium mix it solved).
    """

    name = "planner"

    def __init__(
        self,
        exploit: bool = True,
        prior: Annotated[float, Meta(ge=0, le=1000)] = 2.0,
        trust: Annotated[float, Meta(ge=0, le=1)] = 0.9,
        window: Annotated[int, Meta(ge=1, le=200)] = 12,
        min_seen: Annotated[int, Meta(ge=1, le=200)] = 3,
        purity: Annotated[float, Meta(ge=0, le=1)] = 0.8,
        budget_ms: Annotated[float, Meta(gt=0, le=60_000)] = 1000.0,
    ) -> None:
        self.exploit = exploit
        self.prior = prior
        self.trust = trust
        self.window = window
        self.min_seen = min_seen
        self.purity = purity
        self.budget_ms = budget_ms
        self.last_mix: tuple[str, Vector, Vector] | None = None

    def reset(self, *, seat: int, rules: Any, players: Sequence[str]) -> None:
        """Load the plan before the first timed decision."""
        shipped()

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Nominate, pack or judge (see the class docstring)."""
        phase = view["phase"]
        seat = view["seat"]
        if phase == "nominate":
            return Nominate(self._nominee(view))
        if phase == "room" and seat == view["smuggler"]:
            return Ready()
        role = "smuggler" if phase == "trunk" else "inspector"
        action = self._decide(view, role, rng)
        return action if action in legal else legal[0]

    # -- the stage ---------------------------------------------------------------------------
    def stage(self, view: JSON) -> tuple[Matrix, Vector, Vector, float]:
        """(payoff matrix for the smuggling team, trunk steps, doubt steps, step in yen)."""
        rules = view["rules"]
        step = rules["trunk_max"] / LEVELS
        plan = shipped()
        trunk_hi, doubt_hi = _limits(view)
        rows = [float(i) for i in range(LEVELS + 1) if i * step <= trunk_hi]
        if trunk_hi / step not in rows:
            rows.append(trunk_hi / step)
        cols = [0.0] + [float(j) for j in range(1, LEVELS + 1) if j * step <= doubt_hi]
        if 0 < doubt_hi < LEVELS * step and doubt_hi / step not in cols:
            cols.append(doubt_hi / step)
        smuggling = view["smuggling_team"]
        d = (_team_total(view, smuggling) - _team_total(view, _other(smuggling))) / step
        k = rules["small_games"] - view["small_game"] + 1
        a = plan.stage(k, d, np.array(rows), np.array(cols))
        return a, np.array(rows), np.array(cols), step

    def _decide(self, view: JSON, role: str, rng: random.Random) -> Action:
        rules = view["rules"]
        if rules["trunk_max"] <= 0:
            return Trunk(0) if role == "smuggler" else Pass()
        started = time.perf_counter()
        a, rows, cols, step = self.stage(view)
        mine = a if role == "smuggler" else 1.0 - a.T
        gain, w = None, 0.0
        if self.exploit:
            gain, seen, purity = self._model_gain(view, role, a, rows, cols, step)
            # Only a team that keeps doing the same is exploited: against a mixed or changing
            # one, best-responding makes this bot predictable, and an adaptive team (such as
            # ``equilibrium:exploit=true``) punishes that; the equilibrium is safe.
            if gain is not None and seen >= self.min_seen and purity >= self.purity:
                w = self.trust
        over = (time.perf_counter() - started) * 1000 > self.budget_ms
        if over and self.last_mix is not None and self.last_mix[0] == role:
            x, values = self.last_mix[1], self.last_mix[2]
        else:
            x = restricted_response(mine, gain if gain is not None else mine[:, 0], w)
            values = rows if role == "smuggler" else cols
            self.last_mix = (role, x, values)
        i = rng.choices(range(len(x)), weights=x.tolist())[0]
        unit = rules["unit"]
        amount = round(float(values[i]) * step / unit) * unit
        trunk_hi, doubt_hi = _limits(view)
        if role == "smuggler":
            return Trunk(min(max(amount, 0), trunk_hi))
        amount = min(amount, doubt_hi)
        return Pass() if amount <= 0 else Doubt(amount)

    def model(
        self, view: JSON, role: str, a: Matrix, rows: Vector, cols: Vector
    ) -> tuple[Vector, Vector, int, float]:
        """The other team's mixes (doubts, trunks over ``0..LEVELS`` steps) and the evidence.

        Dirichlet: ``prior`` pseudo-observations of the stage equilibrium's mix plus the other
        team's last ``window`` small games in each role (public results, to the nearest step).
        """
        rules = view["rules"]
        step = rules["trunk_max"] / LEVELS
        mine = view["team"]
        results = view["results"]
        stage_x, y, _ = solve_matrix(a)
        # The stage equilibrium on its grid, to the nearest step (the prior for both roles).
        prior_doubt = np.zeros(LEVELS + 1)
        prior_trunk = np.zeros(LEVELS + 1)
        for j, x in enumerate(cols):
            prior_doubt[min(round(x), LEVELS)] += y[j]
        for i, s in enumerate(rows):
            prior_trunk[min(round(s), LEVELS)] += stage_x[i]
        doubts = [r["doubt"] for r in results if r["smuggling"] == mine][-self.window :]
        trunks = [r["amount"] for r in results if r["smuggling"] != mine][-self.window :]
        q_doubt = self.prior * prior_doubt
        q_trunk = self.prior * prior_trunk
        for x in doubts:
            q_doubt[min(round(x / step), LEVELS)] += 1.0
        for s in trunks:
            q_trunk[min(round(s / step), LEVELS)] += 1.0
        watched = doubts if role == "smuggler" else trunks
        buckets = [min(round(v / step), LEVELS) for v in watched]
        purity = max(buckets.count(b) for b in set(buckets)) / len(buckets) if buckets else 0.0
        return q_doubt / q_doubt.sum(), q_trunk / q_trunk.sum(), len(watched), purity

    def _model_gain(
        self, view: JSON, role: str, a: Matrix, rows: Vector, cols: Vector, step: float
    ) -> tuple[Vector | None, int, float]:
        """Per own option, its chance to win against the model, the model playing on after.

        Also returns how many of the other team's choices in the role were seen and the share
        of the most frequent one (1.0: it always did the same).
        """
        q_doubt, q_trunk, seen, purity = self.model(view, role, a, rows, cols)
        if not seen:
            return None, 0, 0.0
        k = view["rules"]["small_games"] - view["small_game"] + 1
        mine = view["team"]
        d = (_team_total(view, mine) - _team_total(view, _other(mine))) / step
        later = model_values(k - 1, role != "smuggler", q_doubt, q_trunk)[-1]
        grid = np.arange(LEVELS + 1, dtype=np.float64)
        if role == "smuggler":
            s = rows[:, None]
            x = grid[None, :]
            move = np.where(x == 0, s, np.where(s == 0, x, np.where(s <= x, -s, s + x)))
            return _at(later, d + move) @ q_doubt, seen, purity
        s = grid[:, None]
        x = cols[None, :]
        move = np.where(x == 0, s, np.where(s == 0, x, np.where(s <= x, -s, s + x)))
        return q_trunk @ _at(later, d - move), seen, purity

    def _nominee(self, view: JSON) -> int:
        team = view["team"]
        members = view["teams"][team]
        represented = view["represented"]
        if team == view["smuggling_team"]:
            trunk_max = view["rules"]["trunk_max"]
            key = {s: min(trunk_max, view["home"][s]) for s in members}
        else:
            key = {s: view["third"][s] for s in members}
        return int(min(members, key=lambda s: (-key[s], represented[s], s)))


def _limits(view: JSON) -> tuple[int, int]:
    rules = view["rules"]
    unit = rules["unit"]
    trunk_hi = min(rules["trunk_max"], view["home"][view["smuggler"]])
    doubt_hi = rules["doubt_factor"] * view["third"][view["inspector"]] // unit * unit
    return trunk_hi, doubt_hi
