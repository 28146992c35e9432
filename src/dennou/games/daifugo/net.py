"""Daifugo ``ismcts``'s small networks: a playout policy and a position's value (``net.npz``).

Both extend a linear model of :mod:`.policy` by one hidden layer of rectified units, and run in
Numba kernels (NumPy arrays in, no allocation):

- **The policy** scores a play by the linear policy's features (:data:`.policy.FEATURES`),
  ``lin . f``, plus ``v . relu(W [f, c] + b)``, where ``c`` is the position's context for the
  mover (:data:`CONTEXT`: its cards, the others' fewest and mean cards, players still in, a lead,
  the order reversed); the plays' softmax is the distribution.
- **The value** is a logistic of ``lin . x + v . relu(W x + b)`` over the value features
  (:data:`.policy.VALUE_FEATURES`).

The parameters travel as flat vectors in the same arrays the linear models use (a longer vector
is a network), so the search's kernels take either. They are fitted by ``bench/daifugo_net.py`` to
the choices and the outcomes of ``ismcts`` self-play and shipped as ``net.npz`` beside this
module with their metadata (:func:`load`: the version, the command, the data's seeds, the
held-out scores).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from dennou.games.daifugo import sim as S

CONTEXT = ("cards", "fewest_other", "mean_other", "players", "lead", "reversed")
"""The policy's context features of a position for the seat to move (:func:`context_features`)."""

NC = len(CONTEXT)

POLICY_NF = 16
"""The linear policy's feature count (:data:`.policy.NF`; this module may not import it)."""

VALUE_NF = 18
"""The value model's feature count (:data:`.policy.NV`)."""

POLICY_INPUTS = (
    "pass", "pass_on_lead", "pass_short", "strength_follow", "strength_lead", "size",
    "size_lead", "jokers", "eight_cut", "top_rank", "split", "finish", "revolution",
    "sequence", "controls_left", "short_after", *CONTEXT,
)  # fmt: skip
"""The policy network's inputs, in order (the move's features, then the context)."""

VALUE_INPUTS = (
    "bias", "cards", "ranks", "jokers", "top_rank", "eights", "weak_singles", "strength",
    "fewest_other", "mean_other", "controls_other", "most_controls_other", "players",
    "my_lead", "my_follow", "shortest", "first_out_taken", "finished",
)  # fmt: skip
"""The value network's inputs, in order (:data:`.policy.VALUE_FEATURES`)."""

MAX_HIDDEN = 64
"""The widest hidden layer the kernels' scratch space holds."""

SCRATCH = NC + MAX_HIDDEN
"""Scratch floats the policy network needs beyond the move's features."""

NET_FILE = Path(__file__).with_name("net.npz")
"""The shipped networks: ``policy`` and ``value`` (flat float64) and ``meta`` (JSON text)."""

VERSION = "1"
"""The version of the shipped networks this code reads (``meta["version"]``)."""


def hidden_of(size: int, inputs: int, linear: int) -> int:
    """The hidden width of a flat network of ``size`` floats (0: a linear model)."""
    return max(size - linear, 0) // (inputs + 2)


@S.no_alloc
def context_features(st: np.ndarray, seat: int, out: Any) -> None:
    """Fill ``out[:NC]`` with the context of position ``st`` for ``seat`` (card counts only)."""
    n = st[S.N]
    mine = S._popcount(np.uint64(st[S.HEAD + 3 * n + seat]))
    fewest: Any = 13
    total: Any = 0
    others = 0
    for x in range(n):
        if x == seat:
            continue
        c = S._popcount(np.uint64(st[S.HEAD + 3 * n + x]))
        if c == 0:
            continue
        others += 1
        total += c
        fewest = min(fewest, c)
    out[0] = mine / 13.0
    out[1] = fewest / 13.0 if others else 0.0
    out[2] = total / others / 13.0 if others else 0.0
    out[3] = (others + 1) / n
    out[4] = 1.0 if st[S.TOP] == 0 else 0.0
    out[5] = 1.0 if st[S.REVOLUTION] != st[S.BACK] else 0.0


@S.no_alloc
def prepare(st: np.ndarray, seat: int, w: np.ndarray, scratch: Any) -> None:
    """The context's share of the hidden units, once per decision, into ``scratch[NC:]``.

    ``scratch[:NC]`` takes the context itself.
    """
    hidden = (w.shape[0] - POLICY_NF) // (POLICY_NF + NC + 2)
    ni = POLICY_NF + NC
    context_features(st, seat, scratch)
    bias = POLICY_NF + hidden * ni
    for h in range(hidden):
        z = w[bias + h]
        row = POLICY_NF + h * ni + POLICY_NF
        for c in range(NC):
            z += w[row + c] * scratch[c]
        scratch[NC + h] = z


@S.no_alloc
def logit(w: np.ndarray, feats: Any, scratch: Any) -> Any:
    """A play's score from its features ``feats[:POLICY_NF]`` (after :func:`prepare`)."""
    hidden = (w.shape[0] - POLICY_NF) // (POLICY_NF + NC + 2)
    ni = POLICY_NF + NC
    z = 0.0
    for f in range(POLICY_NF):
        z += w[f] * feats[f]
    out = POLICY_NF + hidden * ni + hidden
    for h in range(hidden):
        a = scratch[NC + h]
        row = POLICY_NF + h * ni
        for f in range(POLICY_NF):
            a += w[row + f] * feats[f]
        if a > 0.0:
            z += w[out + h] * a
    return z


@S.no_alloc
def value_of(v: np.ndarray, x: Any) -> Any:
    """The value network's estimate (0-1) from the value features ``x`` (linear if short)."""
    hidden = (v.shape[0] - VALUE_NF) // (VALUE_NF + 2)
    z = 0.0
    for i in range(VALUE_NF):
        z += v[i] * x[i]
    bias = VALUE_NF + hidden * VALUE_NF
    out = bias + hidden
    for h in range(hidden):
        a = v[bias + h]
        row = VALUE_NF + h * VALUE_NF
        for i in range(VALUE_NF):
            a += v[row + i] * x[i]
        if a > 0.0:
            z += v[out + h] * a
    return 1.0 / (1.0 + math.exp(-z))


@dataclass(frozen=True)
class Nets:
    """The shipped networks: flat parameters and their metadata."""

    policy: np.ndarray
    value: np.ndarray
    meta: dict[str, Any]


def save(path: Path, policy: np.ndarray, value: np.ndarray, meta: dict[str, Any]) -> None:
    """Write the networks as ``bench/daifugo_net.py`` does (float32 on disk: small)."""
    np.savez_compressed(
        path,
        policy=np.asarray(policy, dtype=np.float32),
        value=np.asarray(value, dtype=np.float32),
        meta=np.array(json.dumps(meta, sort_keys=True)),
    )


def load(path: Path = NET_FILE) -> Nets:
    """The networks at ``path``, checked against this code's version and shapes.

    Raises:
        ValueError: The file's version or its inputs are not this code's.
    """
    with np.load(path, allow_pickle=False) as data:
        policy = np.asarray(data["policy"], dtype=np.float64)
        value = np.asarray(data["value"], dtype=np.float64)
        meta = json.loads(str(data["meta"]))
    if meta.get("version") != VERSION:
        raise ValueError(f"{path}: version {meta.get('version')!r}, this code reads {VERSION!r}")
    if list(meta.get("policy_inputs", [])) != list(POLICY_INPUTS) or list(
        meta.get("value_inputs", [])
    ) != list(VALUE_INPUTS):
        raise ValueError(f"{path}: inputs differ from this code's")
    hidden = int(meta["hidden"])
    if not 0 < hidden <= MAX_HIDDEN:
        raise ValueError(f"{path}: hidden width {hidden} not in 1..{MAX_HIDDEN}")
    if policy.shape != (POLICY_NF + hidden * (POLICY_NF + NC + 2),):
        raise ValueError(f"{path}: policy of {policy.shape} floats")
    if value.shape != (VALUE_NF + hidden * (VALUE_NF + 2),):
        raise ValueError(f"{path}: value of {value.shape} floats")
    return Nets(policy, value, meta)


@cache
def shipped() -> Nets:
    """The networks shipped with the package (read once)."""
    return load(NET_FILE)
