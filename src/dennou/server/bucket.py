"""A token bucket: the rate limit of talk, accounts' talk and file replays."""

from __future__ import annotations

import time

__all__ = ["TokenBucket"]


class TokenBucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up.

    Args:
        rate: Tokens added per second.
        burst: The most tokens kept (and the first burst allowed).
    """

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._tokens, self._last = burst, time.monotonic()

    def take(self) -> bool:
        """Take one token if there is one."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True
