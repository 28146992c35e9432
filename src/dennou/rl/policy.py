"""A trained policy as a dennou bot: ``policy:path=model.npz`` in ``dennou match`` and friends.

A policy file is a NumPy ``.npz`` with the weights of a multilayer perceptron over an encoding's
observation (``w0, b0, w1, b1, ...``: ``tanh`` between layers, the last layer's outputs are one
logit per action number) and ``meta``, a JSON text naming the game and the encoding's sizes.
``examples/rl/`` trains one with Stable-Baselines3 and writes such a file; running it needs
only NumPy, so a trained agent plays in matches, tournaments and on the server like any bot.

The bot sees only its view. It rebuilds a state consistent with it (the game's
``determinize``): the encoding's observation, mask and number-to-action map depend only on what
the seat may see (``tests/rl`` checks this), so they are the same as on the true state.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.encoding import Encoding, NotEncodable
from dennou.core.errors import ConfigError
from dennou.core.game import JSON, Seat
from dennou.games import REGISTRY
from dennou.rl.table import encoding_for

Array = npt.NDArray[np.float32]


def save_policy(
    path: str | Path, game: str, encoding: Encoding[Any, Any], layers: Sequence[tuple[Any, Any]]
) -> None:
    """Write an MLP policy file: ``layers`` are ``(weight [out, in], bias [out])`` pairs."""
    arrays: dict[str, Any] = {}
    for k, (w, b) in enumerate(layers):
        arrays[f"w{k}"] = np.asarray(w, np.float32)
        arrays[f"b{k}"] = np.asarray(b, np.float32)
    meta = {"game": game, "size": encoding.size, "num_actions": encoding.num_actions}
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)


class PolicyBot(Bot):
    """Plays the most likely legal action of a trained MLP policy (``sample=true``: draws one).

    Args:
        path: The policy file (``.npz``, see the module doc).
        sample: Draw the action from the policy's distribution instead of taking the best.
    """

    name = "policy"

    def __init__(self, path: str = "", sample: bool = False) -> None:
        if not path:
            raise ConfigError("the policy bot needs path=<file.npz>")
        try:
            data = np.load(path)
        except OSError as exc:
            raise ConfigError(f"cannot read policy file {path!r}: {exc}") from None
        self.meta: dict[str, Any] = json.loads(str(data["meta"]))
        self.layers: list[tuple[Array, Array]] = []
        k = 0
        while f"w{k}" in data:
            self.layers.append((data[f"w{k}"], data[f"b{k}"]))
            k += 1
        self.sample = sample
        self.encoding: Encoding[Any, Any] | None = None
        self.seat: Seat = 0

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """Build the encoding of this game, rules and seat count (checked against the file)."""
        game = self.meta["game"]
        if type(rules) is not REGISTRY[game].rules_type:
            raise ConfigError(f"this policy plays {game}, not {type(rules).__name__}")
        enc = encoding_for(game, rules, len(players))
        if (enc.size, enc.num_actions) != (self.meta["size"], self.meta["num_actions"]):
            raise ConfigError(
                f"this policy was trained on {game} with {self.meta['size']} observation values "
                f"and {self.meta['num_actions']} actions; these rules give {enc.size} and "
                f"{enc.num_actions}"
            )
        self.encoding = enc
        self.seat = seat

    def logits(self, obs: Array) -> Array:
        """The policy's logits for an observation."""
        x = obs
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            x = w @ x + b
            if k < last:
                x = np.tanh(x)
        return x

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """The policy's choice among the legal numbers (a legal action in every case)."""
        enc = self.encoding
        if enc is None:
            raise ConfigError("reset the policy bot before a game")
        seat = view["seat"]
        state = enc.game.determinize(view, seat, rng)
        numbers = enc.legal_indices(state, seat)
        if not numbers:
            return legal[rng.randrange(len(legal))]
        scores = self.logits(enc.observe(state, seat))[numbers]
        if self.sample:
            p = np.exp(scores - scores.max())
            p /= p.sum()
            choice = numbers[int(np.searchsorted(np.cumsum(p), rng.random() * p.sum()))]
        else:
            choice = numbers[int(np.argmax(scores))]
        try:
            action = enc.action(state, seat, choice)
        except NotEncodable:
            return legal[rng.randrange(len(legal))]
        return action if action in legal else legal[rng.randrange(len(legal))]
