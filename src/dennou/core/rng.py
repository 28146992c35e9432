"""Seeded random streams: one seed gives independent, reproducible streams by label."""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int | str, *labels: object) -> int:
    """A 64-bit seed derived from ``seed`` and ``labels`` (stable across runs and platforms)."""
    text = "/".join([str(seed), *(str(x) for x in labels)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def make_rng(seed: int | str, *labels: object) -> random.Random:
    """A :class:`random.Random` for the stream ``labels`` of ``seed``."""
    return random.Random(derive_seed(seed, *labels))
