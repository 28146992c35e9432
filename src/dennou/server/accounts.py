"""Accounts: registration (bounded per address), tokens, and who the host's operators are."""

from __future__ import annotations

import time
from collections import deque

from dennou.core.errors import StoreError
from dennou.server.connection import TokenBucket
from dennou.server.errors import Refused
from dennou.server.limits import Limits
from dennou.server.text import account_name
from dennou.store import AsyncStore

HOUR = 3600.0


class Accounts:
    """Registering and recognising accounts.

    Args:
        store: The store.
        limits: The host's limits (registrations per address, talk rates).
        operators: Account names of the host's operators (``dennou serve --operator``): they may
            seed any table.
    """

    def __init__(
        self, store: AsyncStore, limits: Limits, operators: frozenset[str] = frozenset()
    ) -> None:
        self.store = store
        self.limits = limits
        self.operators = operators
        self._tokens: dict[str, str] = {}
        self._registered: dict[str, deque[float]] = {}
        self._talk: dict[str, TokenBucket] = {}

    async def register(self, raw_name: str, address: str) -> tuple[str, str]:
        """Create an account; returns its name (normalised) and its token.

        Raises:
            Refused: A bad name (``bad_message``), a taken one in any case (``conflict``), or
                too many registrations from ``address`` this hour (``limit_reached``).
        """
        name = account_name(raw_name)
        now = time.monotonic()
        recent = self._registered.setdefault(address, deque())
        while recent and now - recent[0] > HOUR:
            recent.popleft()
        if len(recent) >= self.limits.accounts_per_address:
            raise Refused(
                "limit_reached",
                f"at most {self.limits.accounts_per_address} accounts per address per hour",
            )
        # Reserved before the first await: concurrent sign-ups see each other's places.
        recent.append(now)
        try:
            token = await self.store.call(self.store.store.create_account, name)
        except BaseException as exc:
            recent.remove(now)  # a sign-up that failed does not count
            if isinstance(exc, StoreError) and "taken" in exc.message:
                raise Refused("conflict", exc.message) from None
            raise
        return name, token

    async def authenticate(self, token: str) -> str | None:
        """The account of a token, or ``None``."""
        if token in self._tokens:
            return self._tokens[token]
        name = await self.store.call(self.store.store.account_for_token, token)
        if name is not None:
            if len(self._tokens) > 100_000:  # a bounded cache: forget, then relearn
                self._tokens.clear()
            self._tokens[token] = name
        return name

    def is_operator(self, account: str | None) -> bool:
        """Whether ``account`` is one of the host's operators."""
        return account is not None and account in self.operators

    def talk_allowed(self, account: str) -> bool:
        """Whether ``account`` may say one more line now (all its tables together)."""
        bucket = self._talk.get(account)
        if bucket is None:
            if len(self._talk) > 100_000:
                self._talk.clear()
            bucket = self._talk[account] = TokenBucket(
                self.limits.talk_rate_account, self.limits.talk_burst_account
            )
        return bucket.take()


__all__ = ["Accounts"]
