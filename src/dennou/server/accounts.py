"""Accounts: registration, passwords, API tokens, browser sessions, the host's operators.

An account has API tokens for its programs (named, listed, revoked; each shown once) and, once
one is set, a password for people: signing in with it opens a browser session, a separate
secret that signing out deletes. Sign-in attempts are bounded per address and per account.
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from typing import Any

from dennou.core.errors import StoreError
from dennou.server.bucket import TokenBucket
from dennou.server.errors import Refused
from dennou.server.limits import Limits
from dennou.server.passwords import MAX_PASSWORD, Passwords, check_password
from dennou.server.text import account_name, clean_talk, name_key
from dennou.store import AsyncStore, hash_token

HOUR = 3600.0
MINUTE = 60.0

MAX_TOKEN_NAME = 64
"""Longest API token name, in characters."""

TOKEN_RECHECK = 60.0
"""Seconds a token stays known without asking the store (its ``last used`` is this coarse)."""


def _recent(log: dict[str, deque[float]], key: str, window: float, now: float) -> deque[float]:
    """The times in ``log[key]`` within ``window`` seconds of ``now`` (older ones dropped)."""
    times = log.get(key)
    if times is None:
        if len(log) > 100_000:  # a bounded map: forget everyone's, then relearn
            log.clear()
        times = log[key] = deque()
    while times and now - times[0] > window:
        times.popleft()
    return times


def token_label(raw: str) -> str:
    """An API token's name as stored: one clean line of 1-64 characters.

    Raises:
        Refused: ``bad_message``: empty once cleaned, or longer.
    """
    label = clean_talk(raw)
    if len(label) > MAX_TOKEN_NAME:
        raise Refused("bad_message", f"a token's name has at most {MAX_TOKEN_NAME} characters")
    return label


class Accounts:
    """Registering and recognising accounts.

    Args:
        store: The store.
        limits: The host's limits (registrations and sign-ins per address, talk rates...).
        operators: Account names of the host's operators (``dennou serve --operator``): they may
            seed any table.
    """

    def __init__(
        self, store: AsyncStore, limits: Limits, operators: frozenset[str] = frozenset()
    ) -> None:
        self.store = store
        self.limits = limits
        self.operators = operators
        self.passwords = Passwords(limits.password_hashes)
        self._tokens: dict[str, tuple[str, float]] = {}
        self._registered: dict[str, deque[float]] = {}
        self._attempts: dict[str, deque[float]] = {}
        self._failures: dict[str, deque[float]] = {}
        self._talk: dict[str, TokenBucket] = {}
        self.shared: Any = None
        """A cluster's limits (:class:`dennou.server.cluster.shared.SharedLimits`): sign-ups
        and sign-in attempts per address are also counted across its processes."""

    async def register(
        self, raw_name: str, address: str, password: str | None = None, *, token: bool = True
    ) -> tuple[str, str | None]:
        """Create an account; returns its name (normalised) and its first API token.

        Args:
            raw_name: The name asked for.
            address: The client's address (registrations are bounded per address).
            password: A password for signing in again (``None``: none yet; set one later).
            token: Make a first API token (``False``: ``None`` is returned; a person signing
                up in the browser makes tokens on the account page).

        Raises:
            Refused: A bad name or password (``bad_message``), a taken name in any case or
                one that looks like it (``conflict``), or too many registrations from
                ``address`` this hour (``limit_reached``).
        """
        name = account_name(raw_name)
        checked = None if password is None else check_password(password, name)
        now = time.monotonic()
        recent = _recent(self._registered, address, HOUR, now)
        why = f"at most {self.limits.accounts_per_address} accounts per address per hour"
        if len(recent) >= self.limits.accounts_per_address:
            raise Refused("limit_reached", why)
        if self.shared is not None:
            await self.shared.recent("signup", address, HOUR, self.limits.accounts_per_address, why)
        recent.append(now)  # counted before the slow hash: a burst cannot run past the limit
        hashed = None if checked is None else await self.passwords.hash(checked)
        try:
            first = await self.store.call(
                self.store.store.create_account,
                name,
                hashed,
                token_name="first token" if token else None,
            )
        except StoreError as exc:
            recent.pop()
            if "taken" in exc.message:
                raise Refused("conflict", exc.message) from None
            raise
        return name, first

    async def sign_in(self, raw_name: str, password: str, address: str) -> tuple[str, str]:
        """Check a name and password; returns the account's name and a new session's secret.

        Raises:
            Refused: ``limit_reached`` (too many attempts from ``address`` this minute, or too
                many failures for this account this hour), ``unauthorized`` (no such name, no
                password set, or the wrong one: the answer does not say which).
        """
        now = time.monotonic()
        attempts = _recent(self._attempts, address, MINUTE, now)
        why = f"at most {self.limits.sign_in_per_address} sign-in attempts per minute"
        if len(attempts) >= self.limits.sign_in_per_address:
            raise Refused("limit_reached", why)
        if self.shared is not None:
            await self.shared.recent(
                "sign_in", address, MINUTE, self.limits.sign_in_per_address, why
            )
        attempts.append(now)
        key = name_key(unicodedata.normalize("NFKC", raw_name))
        failures = _recent(self._failures, key, HOUR, now)
        if len(failures) >= self.limits.sign_in_failures_per_account:
            raise Refused(
                "limit_reached", "too many failed sign-ins to this account: try again later"
            )
        found = None
        if len(key) <= 64:
            found = await self.store.call(self.store.store.account_by_key, key)
        stored = None if found is None else found[1]
        if not await self.passwords.verify(stored, password) or found is None:
            failures.append(now)
            raise Refused("unauthorized", "wrong name or password")
        return found[0], await self.open_session(found[0])

    async def open_session(self, account: str) -> str:
        """A new browser session of ``account``; its secret (for the cookie only)."""
        return await self.store.call(
            self.store.store.create_session,
            account,
            self.limits.session_ttl,
            self.limits.sessions_per_account,
        )

    async def session_account(self, secret: str) -> str | None:
        """The account of a live browser session, or ``None``."""
        if len(secret) > 256:
            return None
        return await self.store.call(self.store.store.account_for_session, secret)

    async def end_session(self, secret: str) -> None:
        """Sign a session out: its secret stops working at once."""
        if len(secret) <= 256:
            await self.store.call(self.store.store.end_session, secret)

    async def set_password(
        self, account: str, new: str, current: str | None, keep_session: str | None = None
    ) -> None:
        """Set ``account``'s password; the current one is needed when it has one.

        Every other browser session of the account ends (``keep_session``, the caller's own,
        stays).

        Raises:
            Refused: ``bad_message`` (a bad new password), ``unauthorized`` (the current
                password is missing or wrong).
        """
        checked = check_password(new, account)
        found = await self.store.call(self.store.store.account_by_key, name_key(account))
        if found is None:
            raise Refused("not_found", f"no account {account!r}")
        if found[1] is not None and (
            current is None or not await self.passwords.verify(found[1], current)
        ):
            raise Refused("unauthorized", "send the current password to change it")
        await self.store.call(
            self.store.store.set_password, account, await self.passwords.hash(checked)
        )
        await self.store.call(self.store.store.end_sessions, account, keep_session)

    async def has_password(self, account: str) -> bool:
        """Whether ``account`` has a password."""
        found = await self.store.call(self.store.store.account_by_key, name_key(account))
        return found is not None and found[1] is not None

    async def create_token(self, account: str, raw_label: str) -> dict[str, Any]:
        """A new API token of ``account``: ``id, name, token, created_at`` (shown this once).

        Raises:
            Refused: ``bad_message`` (a bad name), ``limit_reached`` (``tokens_per_account``).
        """
        label = token_label(raw_label)
        try:
            token_id, token, created = await self.store.call(
                self.store.store.create_api_token, account, label, self.limits.tokens_per_account
            )
        except StoreError as exc:
            if "at most" in exc.message:
                raise Refused("limit_reached", exc.message) from None
            raise
        return {"id": token_id, "name": label, "token": token, "created_at": created}

    async def tokens(self, account: str) -> list[dict[str, Any]]:
        """``account``'s API tokens (never the secrets): ``id, name, created_at, last_used_at``."""
        return await self.store.call(self.store.store.api_tokens, account)

    async def revoke_token(self, account: str, token_id: int) -> None:
        """Revoke one of ``account``'s own tokens; it stops working at once.

        Raises:
            Refused: ``not_found``: ``account`` has no token ``token_id``.
        """
        digest = await self.store.call(self.store.store.revoke_api_token, account, token_id)
        if digest is None:
            raise Refused("not_found", f"you have no token {token_id}")
        self._tokens.pop(digest, None)

    async def authenticate(self, token: str) -> str | None:
        """The account of an API token, or ``None``."""
        if len(token) > 256:
            return None
        digest = hash_token(token)
        known = self._tokens.get(digest)
        now = time.monotonic()
        if known is not None and now - known[1] < TOKEN_RECHECK:
            return known[0]
        name = await self.store.call(self.store.store.account_for_token, token)
        if name is None:
            self._tokens.pop(digest, None)
        else:
            if len(self._tokens) > 100_000:  # a bounded cache: forget, then relearn
                self._tokens.clear()
            self._tokens[digest] = (name, now)
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


__all__ = ["MAX_PASSWORD", "MAX_TOKEN_NAME", "Accounts", "token_label"]
