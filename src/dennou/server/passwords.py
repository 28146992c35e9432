"""Account passwords: checked, normalised, and hashed with argon2id (``argon2-cffi``).

Hashing is deliberately slow and memory-hard (argon2-cffi's defaults, RFC 9106's low-memory
profile: 64 MiB, 3 passes), so it never runs on the event loop: :class:`Passwords` runs it on
a thread, at most ``Limits.password_hashes`` at once.
"""

from __future__ import annotations

import asyncio
import functools
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from dennou.server.errors import Refused

MIN_PASSWORD = 8
"""Shortest password, in characters."""

MAX_PASSWORD = 256
"""Longest password, in characters (at most four UTF-8 bytes each)."""

_HASHER = PasswordHasher()


@functools.cache
def _dummy() -> str:
    """Checked against when a name has no password, so that a miss costs what a hit costs."""
    return _HASHER.hash("a password nobody has")


def check_password(raw: str, name: str) -> str:
    """A new password as it is hashed: NFKC-normalised, then checked.

    Raises:
        Refused: ``bad_message``: shorter than :data:`MIN_PASSWORD` or longer than
            :data:`MAX_PASSWORD` characters, or the account's name itself.
    """
    password = unicodedata.normalize("NFKC", raw)
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Refused("bad_message", f"a password has {MIN_PASSWORD}-{MAX_PASSWORD} characters")
    if password.casefold() == name.casefold():
        raise Refused("bad_message", "a password is not the account's name")
    return password


class Passwords:
    """Hashing and verifying off the event loop, a bounded number at once.

    Args:
        at_once: Most hashes computed at the same time (each takes 64 MiB).
    """

    def __init__(self, at_once: int) -> None:
        self._slots = asyncio.Semaphore(at_once)

    async def hash(self, password: str) -> str:
        """The argon2id hash of a (checked) password."""
        async with self._slots:
            return await asyncio.to_thread(_HASHER.hash, password)

    async def verify(self, stored: str | None, raw: str) -> bool:
        """Whether ``raw`` is the password whose hash is ``stored`` (``None``: no password)."""
        if len(raw) > MAX_PASSWORD * 4:  # never hash a huge input
            return False
        password = unicodedata.normalize("NFKC", raw)

        def verify() -> bool:
            try:
                return _HASHER.verify(stored or _dummy(), password) and stored is not None
            except (VerificationError, InvalidHashError):
                return False

        async with self._slots:
            return await asyncio.to_thread(verify)


__all__ = ["MAX_PASSWORD", "MIN_PASSWORD", "Passwords", "check_password"]
