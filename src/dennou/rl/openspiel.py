"""Every dennou game as an OpenSpiel (``pyspiel``) Python game.

``import dennou.rl.openspiel`` registers ``python_dennou_<name>`` for every game; load one with
its seat count and rules (a JSON object)::

    import pyspiel
    import dennou.rl.openspiel  # registers the games
    game = pyspiel.load_game("python_dennou_smuggling",
                             {"players": 2, "rules": '{"small_games": 1, "unit": 50000000}'})

or ``dennou.rl.openspiel.load("smuggling", players=2, small_games=1, unit=50_000_000)``. The game
string (``str(game)``) carries the rules percent-encoded (:func:`rules_parameter`), so
``pyspiel.load_game(str(game))``, ``serialize`` and ``pickle`` round-trip. Information states
are strings only (no tensor: a perfect-recall state has no fixed size).

Players' actions are the encoding's numbers (``docs/rl.md``). Sealed simultaneous steps are
played seat after seat (the game is ``SEQUENTIAL`` with imperfect information: a seat never sees
the others' sealed choices). Chance is explicit: where the game lists its chance outcomes and
there are at most ``EXACT_CHANCE`` of them (a coin flip, who is infected, a reveal, a tie-break)
each is one outcome, equally likely (every dennou chance step draws uniformly among the outcomes
it lists); otherwise (a shuffled deck, a target among 3.3 billion numbers) a chance node has
``chance_outcomes`` equally likely outcomes, outcome ``i`` being the game's own draw with a
random stream seeded by ``i`` and the node's depth: a sample of the true distribution.

States implement ``resample_from_infostate`` with the game's ``determinize``, so OpenSpiel's
information-set MCTS runs on every game.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

import numpy as np
import pyspiel

from dennou.core.encoding import Encoding
from dennou.core.game import CHANCE, Game
from dennou.core.rng import make_rng
from dennou.games import get
from dennou.rl.table import WAIT, Reward, encoding_for, games

EXACT_CHANCE = 1024
"""Chance steps with at most this many listed outcomes are modelled exactly."""

CHANCE_OUTCOMES = 32
"""Default number of sampled outcomes of a chance step with more outcomes than that."""

MAX_GAME_LENGTH = 100_000
"""The game length OpenSpiel is told (an upper bound; dennou games end on their own)."""


_ESCAPES = {"%": "%25", ",": "%2C", "(": "%28", ")": "%29", "=": "%3D"}
"""Characters OpenSpiel's game strings use as syntax, written percent-encoded in ``rules``."""


def rules_parameter(options: dict[str, Any]) -> str:
    """The ``rules`` parameter for these options: JSON that a game string can carry.

    OpenSpiel's game string ``name(key=value,...)`` has no quoting, so the commas, parentheses
    and equals signs of the JSON (and ``%`` itself) are percent-encoded; :func:`parse_rules`
    reads both this form and plain JSON.
    """
    text = json.dumps(options, sort_keys=True, separators=(",", ":"))
    return "".join(_ESCAPES.get(c, c) for c in text)


def parse_rules(text: str) -> dict[str, Any]:
    """The rules options of a ``rules`` parameter (JSON, percent-encoded or not).

    Raises:
        ValueError: Not a JSON object.
    """
    try:
        options = json.loads(unquote(text))
    except json.JSONDecodeError as exc:
        raise ValueError(f"rules must be a JSON object, got {text!r}: {exc}") from None
    if not isinstance(options, dict):
        raise ValueError(f"rules must be a JSON object, got {text!r}")
    return options


def short_name(name: str) -> str:
    """The OpenSpiel name of dennou game ``name`` (``python_dennou_daifugo``)."""
    return f"python_dennou_{name}"


def _game_type(name: str) -> Any:
    game = get(name)
    rules = game.make_rules({})
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"dennou {game.spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.spec.max_players,
        min_num_players=game.spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": game.default_players(rules),
            "rules": "{}",
            "chance_outcomes": CHANCE_OUTCOMES,
            "reward": "score",
        },
    )


class Context:
    """What every state of one loaded game shares (never copied when OpenSpiel clones a state)."""

    def __init__(
        self, name: str, players: int, options: dict[str, Any], sampled: int, reward: Reward
    ) -> None:
        self.args = (name, players, options, sampled, reward)
        self.dennou: Game[Any, Any] = get(name)
        self.rules = self.dennou.make_rules(options)
        self.dennou.check_players([f"seat_{i}" for i in range(players)])
        self.encoding: Encoding[Any, Any] = encoding_for(name, self.rules, players)
        self.players = players
        self.sampled = sampled
        self.reward: Reward = reward
        self.passive = bool(getattr(self.encoding, "passive", False))

    def __deepcopy__(self, memo: dict[int, Any]) -> Context:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # A pickled state carries how to rebuild its context, not the encoding's tables.
        return (Context, self.args)


class Shared:
    """A value OpenSpiel's clone (a deep copy) shares: dennou states are immutable."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


class DennouGame(pyspiel.Game):  # type: ignore[misc]
    """A dennou game for OpenSpiel (one rules config and seat count)."""

    name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = _game_type(self.name)
        defaults = spec.parameter_specification
        players = int(params.get("players", defaults["players"]))
        options = parse_rules(str(params.get("rules", "{}")))
        sampled = int(params.get("chance_outcomes", CHANCE_OUTCOMES))
        reward: Reward = params.get("reward", "score")
        self.ctx = Context(self.name, players, options, sampled, reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.ctx.encoding.num_actions,
            max_chance_outcomes=max(EXACT_CHANCE, sampled),
            num_players=players,
            min_utility=-1e9,
            max_utility=1e9,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        full = {
            "players": players,
            "rules": rules_parameter(options),
            "chance_outcomes": sampled,
            "reward": reward,
        }
        super().__init__(spec, info, full)

    def new_initial_state(self) -> DennouState:
        """A new game (chance moves first where the game draws first)."""
        return DennouState(self, self.ctx)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> DennouObserver:
        """Observations (the encoding's vector) and information states (view + own actions)."""
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return DennouObserver(self.ctx.encoding, perfect_recall=recall)


class DennouState(pyspiel.State):  # type: ignore[misc]
    """A dennou state for OpenSpiel."""

    def __init__(self, game: DennouGame, ctx: Context) -> None:
        super().__init__(game)
        self.g = ctx
        self._state = Shared(None)
        self.state = ctx.dennou.new(ctx.rules, [f"seat_{i}" for i in range(ctx.players)])
        self.waiting: list[int] = []
        self.mine: list[list[int]] = [[] for _ in range(ctx.players)]
        self.depth = 0
        self._chance: list[Any] | None = None
        self._sync()

    @property
    def state(self) -> Any:
        """The dennou state."""
        return self._state.value

    @state.setter
    def state(self, value: Any) -> None:
        self._state = Shared(value)

    # --- the dennou side ---------------------------------------------------------------
    def _sync(self) -> None:
        """Set up the waits of a game whose seats only watch (before each draw)."""
        self._chance = None
        g = self.g
        if g.passive and not self.waiting and CHANCE in g.dennou.to_act(self.state):
            self.waiting = list(range(g.players))

    def _acting(self) -> list[int]:
        if self.waiting:
            return list(self.waiting)
        return sorted(s for s in self.g.dennou.to_act(self.state) if s != CHANCE)

    def _chance_actions(self) -> list[Any]:
        """The chance node's outcomes as dennou actions, in outcome order."""
        if self._chance is None:
            g = self.g.dennou
            listed = g.legal_actions(self.state, CHANCE)
            if 0 < len(listed) <= EXACT_CHANCE:
                self._chance = [listed[i] for i in range(len(listed))]
            else:
                self._chance = [
                    g.sample_chance(self.state, make_rng(i, "openspiel", self.depth))
                    for i in range(self.g.sampled)
                ]
        return self._chance

    # --- OpenSpiel API -----------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        acting = self._acting()
        if acting:
            return acting[0]
        return int(pyspiel.PlayerId.CHANCE)

    def _legal_actions(self, player: int) -> list[int]:
        if self.waiting:
            return [WAIT] if player in self.waiting else []
        return self.g.encoding.legal_indices(self.state, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Equally likely outcomes (listed exactly, or sampled: see the module doc)."""
        actions = self._chance_actions()
        p = 1.0 / len(actions)
        return [(i, p) for i in range(len(actions))]

    def _apply_action(self, action: int) -> None:
        g = self.g
        if self.is_chance_node():
            self.state, _ = g.dennou.apply(self.state, CHANCE, self._chance_actions()[action])
        elif self.waiting:
            seat = self.waiting.pop(0)
            self.mine[seat].append(int(action))
            self.depth += 1
            return
        else:
            seat = self.current_player()
            self.mine[seat].append(int(action))
            self.state, _ = g.dennou.apply(
                self.state, seat, g.encoding.action(self.state, seat, int(action))
            )
        self.depth += 1
        self._sync()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(self._chance_actions()[action])
        if self.waiting:
            return "wait"
        return str(self.g.encoding.action(self.state, player, action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return not self.waiting and not self.g.dennou.to_act(self.state)

    def returns(self) -> list[float]:
        """The final rewards (0 before the end)."""
        if not self.is_terminal():
            return [0.0] * self.g.players
        outcome = self.g.dennou.outcome(self.state)
        return final_rewards(self.g, outcome)

    def resample_from_infostate(self, player: int, sampler: Any) -> DennouState:
        """A state the player cannot tell from this one (the game's ``determinize``)."""
        g = self.g
        rng = make_rng(int(sampler() * 2**31), "resample")
        view = g.dennou.view(self.state, player)
        other = DennouState(self.get_game(), g)
        other.state = g.dennou.determinize(view, player, rng)
        other.waiting = list(self.waiting)
        other.mine = [list(m) for m in self.mine]
        other.depth = self.depth
        other._chance = None
        return other

    def __str__(self) -> str:
        """The spectator's view and every seat's own actions (for debugging)."""
        view = self.g.dennou.view(self.state, None)
        return json.dumps({"view": view, "actions": self.mine}, sort_keys=True, default=str)


def final_rewards(game: Context, outcome: Any) -> list[float]:
    """The rewards of a finished game under the game's ``reward`` parameter."""
    n, enc = game.players, game.encoding
    if game.reward == "rank":
        return [(n - r) / (n - 1) for r in outcome.ranks]
    if game.reward == "team":
        teams, team_of = outcome.teams or {}, outcome.detail.get("team_of", [])
        return [float(teams.get(team_of[i], 0.0)) for i in range(n)]
    return [float(s) * enc.reward_scale for s in outcome.scores]


class DennouObserver:
    """OpenSpiel's observer interface: the encoding's vector, and the view as text."""

    def __init__(self, encoding: Encoding[Any, Any], *, perfect_recall: bool) -> None:
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DennouState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s observation of ``state``.

        Raises:
            NotImplementedError: This observer is for information states, which these games
                give as strings only (the game type says so: no information state tensor).
        """
        if self.perfect_recall:
            raise NotImplementedError(
                "dennou games provide no information state tensor (a perfect-recall state has "
                "no fixed size): use information_state_string or observation_tensor"
            )
        self.tensor[:] = self.encoding.observe(state.state, player)

    def string_from(self, state: DennouState, player: int) -> str:
        """The player's view (and, for information states, its own past actions) as JSON."""
        view = state.g.dennou.view(state.state, player)
        out: dict[str, Any] = {"view": view}
        if self.perfect_recall:
            out["mine"] = state.mine[player]
        return json.dumps(out, sort_keys=True, default=str)


def _register(name: str) -> None:
    # A module attribute, so that pickle finds the class by its qualified name.
    title = f"Dennou{name.title()}Game"
    cls = type(title, (DennouGame,), {"name": name, "__module__": __name__, "__qualname__": title})
    globals()[title] = cls
    pyspiel.register_game(_game_type(name), cls)


def load(
    name: str,
    *,
    players: int | None = None,
    chance_outcomes: int = CHANCE_OUTCOMES,
    reward: Reward = "score",
    **rules: Any,
) -> Any:
    """``pyspiel.load_game`` for dennou game ``name`` with these seats and rules options."""
    params: dict[str, Any] = {
        "rules": rules_parameter(rules),
        "chance_outcomes": chance_outcomes,
        "reward": reward,
    }
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(short_name(name), params)


for _name in games():
    if short_name(_name) not in pyspiel.registered_names():
        _register(_name)
